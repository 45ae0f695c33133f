import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { AwardInput } from '../../../core/api/payments.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import { createDraft, submitCase } from '../../modules/cases/commands.js';
import { lockCase } from '../../modules/cases/repo.js';
import { setCaseState } from '../../modules/cases/transitions.js';
import { acceptInvitation } from '../../modules/parties/commands.js';
import { hashToken } from '../../modules/parties/repo.js';
import { publishProtocol } from '../../modules/protocols/commands.js';
import { acceptTask, assignTask, closeOpenTasks, type EngineEnv, rejectTask } from '../../modules/workflow/engine.js';
import { actorForUser } from '../../modules/auth/sessions.js';
import { sql } from 'kysely';
import type { Db } from '../pool.js';

/**
 * The demo's workflow: three teams, the rental-assistance protocol, and cases
 * in every state, made through the engine as people would (not by writing
 * rows), so what the screens show is what the product does. Idempotent: it
 * runs only while the demo tenant has no protocol.
 */
export const DEMO_STAFF = [
  { email: 'intake@demo.test', name: 'Ivan Intake', role: 'reviewer', docnumber: '1004' },
  { email: 'payments@demo.test', name: 'Paula Payments', role: 'reviewer', docnumber: '1005' },
  // Issue 23: the landlord two of Ana Applicant's applications name; she accepted both invitations, and her side waits.
  { email: 'landlord@demo.test', name: 'Lina Landlord', role: 'applicant', docnumber: '1006' },
] as const;

export const RENTAL_PROTOCOL_CODE = 'rental-assistance';

/** The rental-assistance programme's public page (`/publico/900100200/rental-assistance`), in both languages. */
export const RENTAL_PUBLIC_PAGE = {
  public_title_en: 'Emergency Rental Assistance',
  public_title_es: 'Asistencia de emergencia para el alquiler',
  public_description_en:
    'Help with past-due rent and the coming months for renting households of the area that lost income or risk losing their home.\n\nApproved payments go straight to the landlord, and you can follow your application online.',
  public_description_es:
    'Ayuda con el alquiler atrasado y los próximos meses para hogares arrendatarios de la zona que perdieron ingresos o están en riesgo de perder su vivienda.\n\nLos pagos aprobados se hacen directamente al arrendador y puede seguir su solicitud en línea.',
  eligibility_en:
    'You may apply if:\n- you rent your home in the programme area;\n- your household income is at or below 80% of the area median income;\n- someone in the household lost income, had large costs or risks losing their home.\n\nHave at hand an ID, your lease and proof of income.',
  eligibility_es:
    'Puede solicitarla si:\n- alquila su vivienda en el área del programa;\n- los ingresos de su hogar son iguales o inferiores al 80 % del ingreso medio del área;\n- alguien del hogar perdió ingresos, tuvo gastos importantes o está en riesgo de perder su vivienda.\n\nTenga a mano un documento de identidad, su contrato de arrendamiento y comprobantes de ingresos.',
};

const APPLICANTS: Array<[string, string, string, number, number]> = [
  ['María', 'Gómez', '05001', 3, 850], ['José', 'Rodríguez', '11001', 2, 1200], ['Luisa', 'Martínez', '76001', 4, 700],
  ['Carlos', 'López', '08001', 1, 650], ['Ana', 'Hernández', '11001', 5, 1500], ['Jorge', 'Díaz', '05266', 2, 900],
  ['Camila', 'Torres', '76520', 3, 980], ['Andrés', 'Ramírez', '25754', 2, 760], ['Valentina', 'Moreno', '08758', 6, 1350],
  ['Felipe', 'Vargas', '05360', 1, 540], ['Daniela', 'Castro', '25899', 3, 1100], ['Santiago', 'Rojas', '11001', 4, 1720],
];

/** What the demo's landlords sign (the programme's attestation, in both languages). */
export const DEMO_ATTESTATION = {
  en: 'I certify that I own or manage this property, that the tenant named in the application rents it from me, and that the rent owed and the documents I give are true and complete. I will apply any payment to this tenant’s rent and will not accept the same months’ rent from another source.',
  es: 'Certifico que soy propietario o administrador de este inmueble, que el arrendatario nombrado en la solicitud me lo arrienda, y que la renta adeudada y los documentos que entrego son verdaderos y completos. Aplicaré cualquier pago a la renta de este arrendatario y no aceptaré la renta de los mismos meses de otra fuente.',
};

/** The months before `at` (YYYY-MM), oldest first. */
const monthsBefore = (at: Date, n: number) =>
  Array.from({ length: n }, (_, k) => {
    const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - (n - k), 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  });

/**
 * The award the payment approval sets for a payment of `amount` (whole
 * dollars, as the task's form has it), at a third of it a month: the two
 * months before the decision and one ahead; or, for a decision of the past
 * (the history: months ahead count from the real day), the three months
 * before it.
 */
export function demoAward(amount: number, i: number, at?: Date): AwardInput {
  return {
    arrearsMonths: monthsBefore(at ?? new Date(), at ? 3 : 2),
    aheadMonths: at ? 0 : 1,
    monthlyRent: Math.round((amount * 100) / 3),
    utilities: 0,
    payeeKind: 'landlord',
    payeeId: null,
    propertyAddress: `${100 + ((i * 37) % 900)} Calle ${1 + (i % 80)}`,
    unit: i % 3 === 0 ? null : `${1 + (i % 12)}0${1 + (i % 4)}`,
  };
}

/** What the demo's people fill in the task forms of the rental protocol when they accept (the history, history.ts, too). */
export const DEMO_DECISIONS = {
  intakeOk: { complete: 'yes' },
  docsOk: { verified: ['lease', 'check_stubs'], allDocumentsOk: true },
  eligible: { eligible: 'yes', amiPercent: 45 },
  landlordOk: { landlordName: 'Inmobiliaria Central', landlordEmail: 'arriendos@example.org', leaseConfirmed: true },
  pay: (amount: number) => ({ amount, paymentMethod: 'ach', approved: true }),
};

export async function seedDemoWorkflow(db: Db, env: EngineEnv, log: (msg: string) => void = () => {}): Promise<boolean> {
  // Several instances starting at once on one database: one seeds (in many transactions, through the engine) while the
  // others wait on this session lock, then find the protocol and do nothing.
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(7100002)`.execute(conn);
    try {
      return await seedOnce(db, env, log);
    } finally {
      await sql`select pg_advisory_unlock(7100002)`.execute(conn);
    }
  });
}

async function seedOnce(db: Db, env: EngineEnv, log: (msg: string) => void): Promise<boolean> {
  const entity = await db.selectFrom('entities').where('docnumber', '=', '900100200').select('id').executeTakeFirst();
  if (!entity) return false;
  const already = await db.selectFrom('protocols').where('entity_id', '=', entity.id).select('id').executeTakeFirst();
  if (already) return false;
  const entityId = entity.id;
  const user = async (email: string) => (await db.selectFrom('users').where('email', '=', email).select('id').executeTakeFirstOrThrow()).id;
  const form = async (code: string) => (await db.selectFrom('forms').where('entity_id', '=', entityId).where('code', '=', code).select('id').executeTakeFirstOrThrow()).id;

  const roleId = async (code: string) => (await db.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', code).select('id').executeTakeFirstOrThrow()).id;
  const passwordHash = await hash('Demo12345');
  for (const s of DEMO_STAFF) {
    const exists = await db.selectFrom('users').where('email', '=', s.email).select('id').executeTakeFirst();
    if (!exists) await db.insertInto('users').values({ entity_id: entityId, email: s.email, name: s.name, docnumber: s.docnumber, role_id: await roleId(s.role), password_hash: passwordHash }).execute();
  }
  const [coordinator, reviewer, intake, payments, applicant] = await Promise.all(
    ['coordinator@demo.test', 'reviewer@demo.test', 'intake@demo.test', 'payments@demo.test', 'applicant@demo.test'].map(user),
  );

  const team = async (name: string, assignment: 'round_robin' | 'least_loaded', members: Array<[number, 'leader' | 'member']>) => {
    const row = await db.insertInto('teams').values({ entity_id: entityId, name, assignment, description: '' }).returning('id').executeTakeFirstOrThrow();
    if (members.length) await db.insertInto('team_members').values(members.map(([userId, role]) => ({ entity_id: entityId, team_id: row.id, user_id: userId, role }))).execute();
    return row.id;
  };
  const intakeTeam = await team('Intake', 'round_robin', [[intake, 'member'], [reviewer, 'member'], [coordinator, 'leader']]);
  const reviewTeam = await team('Document review', 'least_loaded', [[reviewer, 'member'], [coordinator, 'leader']]);
  const paymentsTeam = await team('Payments', 'least_loaded', [[payments, 'member'], [coordinator, 'leader']]);
  // Nobody yet: its tasks wait unassigned until a coordinator assigns them.
  const supervisors = await team('Supervisors', 'least_loaded', []);

  const definition: ProtocolDefinition = {
    start: ['intake'],
    // Issue 23: the landlord named in the application completes their side by link; after 14 days without it the
    // programme may pay the tenant. The payment approval sets the award, within these caps.
    parties: [
      {
        role: 'landlord',
        formId: await form('landlord-side'),
        attestation: DEMO_ATTESTATION,
        deadlineDays: 14,
        remindEveryDays: 3,
        payTenantAfterDeadline: true,
      },
    ],
    awardCaps: { maxArrearsMonths: 12, maxAheadMonths: 3, maxMonthlyRent: 3_000_00, maxUtilities: 1_000_00, maxTotal: 25_000_00 },
    duplicateFields: ['documentType', 'documentNumber'],
    requiredDocumentsField: null,
    pendingColumns: { requireIncome: ['noincome_require_zipcode'], section8: 'housing_assistance', thirdParty: 'working_third_party' },
    tasks: [
      { code: 'intake', name: 'Revisión de ingreso', name_en: 'Intake review', formId: await form('intake-review'), responsible: { kind: 'team', teamId: intakeTeam }, expirationDays: 2, join: 'any', onAccept: [{ to: 'documents' }], onReject: { notEligible: true } },
      { code: 'documents', name: 'Verificación de documentos', name_en: 'Document verification', formId: await form('document-verification'), responsible: { kind: 'team', teamId: reviewTeam }, expirationDays: 3, join: 'any', onAccept: [{ to: 'eligibility' }, { to: 'landlord' }], onReject: { to: 'intake' } },
      { code: 'eligibility', name: 'Elegibilidad', name_en: 'Eligibility', formId: await form('eligibility'), responsible: { kind: 'team', teamId: reviewTeam }, expirationDays: 3, join: 'any', onAccept: [{ to: 'payment', when: "eligible == 'yes'" }], onReject: { notEligible: true } },
      { code: 'landlord', name: 'Verificación del arrendador', name_en: 'Landlord verification', formId: await form('landlord-verification'), responsible: { kind: 'task', task: 'intake' }, expirationDays: 5, join: 'any', waitsForParty: 'landlord', onAccept: [{ to: 'payment' }], onReject: { to: 'intake' } },
      { code: 'payment', name: 'Aprobación del pago', name_en: 'Payment approval', formId: await form('payment-approval'), responsible: { kind: 'team', teamId: paymentsTeam }, expirationDays: 2, join: 'all', award: true, onAccept: [{ to: 'supervisor', when: 'amount > 5000' }, { to: 'notify', when: 'amount <= 5000' }], onReject: { to: 'eligibility' } },
      { code: 'supervisor', name: 'Aprobación del supervisor', name_en: 'Supervisor approval', formId: null, responsible: { kind: 'team', teamId: supervisors }, expirationDays: 1, join: 'any', onAccept: [{ to: 'notify' }], onReject: { to: 'payment' } },
      { code: 'notify', name: 'Notificar al solicitante y al arrendador', name_en: 'Notify applicant and landlord', formId: null, responsible: { kind: 'team', teamId: paymentsTeam }, expirationDays: 1, join: 'any', onAccept: [], onReject: null },
    ],
  };
  const project = await db.selectFrom('projects').where('entity_id', '=', entityId).where('uid', '=', 'applications').select('id').executeTakeFirstOrThrow();
  const protocolId = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('protocols')
      .values({
        entity_id: entityId,
        code: RENTAL_PROTOCOL_CODE,
        name: 'Rental assistance',
        description: 'Emergency rental assistance: intake, documents, eligibility and landlord in parallel, payment, notification.',
        case_type: 'RADICACION_PUBLICA',
        public: true,
        ...RENTAL_PUBLIC_PAGE,
        main_form_id: await form('rental-application'),
        draft: JSON.stringify(definition),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await publishProtocol(trx, await actorForUser(trx, coordinator), row.id, 'en');
    return row.id;
  });

  // People act through the engine with their own permissions.
  const as = async (email: string) => actorForUser(db, await user(email));
  const coord = await as('coordinator@demo.test');
  const app = await as('applicant@demo.test');
  const taskOf = async (caseId: number, code: string) =>
    (await db.selectFrom('tasks').where('case_id', '=', caseId).where('code', '=', code).orderBy('id', 'desc').select('id').executeTakeFirstOrThrow()).id;
  const data = ([first, last, city, members, rent]: (typeof APPLICANTS)[number], i: number) => ({
    firstName: first, lastName: last, documentType: 'CC', documentNumber: String(1_000_000_000 + i * 7919), email: `${first.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '')}.${i}@example.org`,
    phone: `300${String(1_000_000 + i * 1234).slice(0, 7)}`, departamento: city.slice(0, 2), municipio: city, zipCode: `${city}`, payRent: rent,
    householdInformation: Array.from({ length: members }, (_, m) => ({ memberName: m === 0 ? `${first} ${last}` : `Member ${m + 1}`, relationship: m === 0 ? 'self' : 'child', age: m === 0 ? 35 : 8 + m })),
    housing_assistance: i % 3 === 0, income_required_housing_assistance: i % 3 === 0 ? 300 : undefined, working_third_party: i % 4 === 0, third_party_email: i % 4 === 0 ? 'helper@example.org' : undefined,
    sourceSNAP: i % 2 === 0, sourceUnemployment: i % 5 === 0,
  });
  // The first two applications name the demo landlord (issue 23): submitting them invites her.
  const LANDLORD = { role: 'landlord', name: 'Lina Landlord', email: 'landlord@demo.test', phone: '3005550106' };
  const open = async (i: number) => {
    const values = { ...data(APPLICANTS[i], i), ...(i < 2 ? { landlord: LANDLORD } : {}) };
    const id = await db.transaction().execute((trx) => createDraft(trx, app, { protocolId, projectId: project.id, ownerId: applicant, data: values }));
    await submitCase(db, env, app, id);
    return id;
  };
  const accept = async (caseId: number, code: string, values: Record<string, unknown> = {}) =>
    acceptTask(db, env, coord, await taskOf(caseId, code), { data: values, ...(code === 'payment' ? { award: demoAward(Number(values.amount), caseId) } : {}) });
  const { intakeOk, docsOk, eligible, landlordOk, pay } = DEMO_DECISIONS;

  // Drafts: saved but not submitted.
  for (const i of [10, 11]) await db.transaction().execute((trx) => createDraft(trx, app, { protocolId, projectId: project.id, ownerId: applicant, data: { firstName: APPLICANTS[i][0] } }));
  const c = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => open(i)));
  // c0: waiting at intake. c1: at document verification.
  await accept(c[1], 'intake', intakeOk);
  // c2: eligibility and landlord in parallel; landlord done, so payment waits BLOCKED for eligibility.
  await accept(c[2], 'intake', intakeOk);
  await accept(c[2], 'documents', docsOk);
  await accept(c[2], 'landlord', landlordOk);
  // c3: documents sent back to intake with a reason.
  await accept(c[3], 'intake', intakeOk);
  await rejectTask(db, env, coord, await taskOf(c[3], 'documents'), { reason: 'The lease is missing its signature page.' });
  // c4: not eligible at intake.
  await rejectTask(db, env, coord, await taskOf(c[4], 'intake'), { reason: 'The household lives outside the programme area.', data: { complete: 'no', missingInfo: 'Outside area' } });
  // c5: at payment approval, overdue.
  for (const [code, v] of [['intake', intakeOk], ['documents', docsOk], ['eligibility', eligible], ['landlord', landlordOk]] as const) await accept(c[5], code, v);
  await db.updateTable('tasks').set({ due_at: new Date(Date.now() - 2 * 86_400_000) }).where('id', '=', await taskOf(c[5], 'payment')).execute();
  // c6: a large payment waits for a supervisor nobody has been assigned to yet.
  for (const [code, v] of [['intake', intakeOk], ['documents', docsOk], ['eligibility', eligible], ['landlord', landlordOk], ['payment', pay(8000)]] as const) await accept(c[6], code, v);
  // c7: every task done; c8: done and completed; c9: inconsistent (accepted as not eligible: no way on).
  for (const id of [c[7], c[8]]) {
    for (const [code, v] of [['intake', intakeOk], ['documents', docsOk], ['eligibility', eligible], ['landlord', landlordOk], ['payment', pay(900)], ['notify', {}]] as const) await accept(id, code, v);
  }
  await db.transaction().execute(async (trx) => setCaseState(trx, env, await lockCase(trx, coord, c[8]), 'complete', coord));
  for (const [code, v] of [['intake', intakeOk], ['documents', docsOk]] as const) await accept(c[9], code, v);
  await accept(c[9], 'eligibility', { eligible: 'no', amiPercent: 120, reason: 'Income above the limit' });
  // c10: withdrawn by the applicant and closed by the coordinator.
  const withdrawn = await open(10);
  await db.transaction().execute(async (trx) => {
    const row = await lockCase(trx, coord, withdrawn);
    await closeOpenTasks(trx, row, coord);
    await setCaseState(trx, env, row, 'close', coord, { reason: 'Withdrawn by the applicant' });
  });
  // The landlord followed both links (each a single-use token of its own, as the emailed ones are) and accepted them.
  const landlordActor = await as('landlord@demo.test');
  for (const party of await db.selectFrom('case_parties').where('entity_id', '=', entityId).where('email', '=', LANDLORD.email).select('id').execute()) {
    const token = randomBytes(32).toString('base64url');
    await db.updateTable('case_parties').set({ token_hash: hashToken(token) }).where('id', '=', party.id).execute();
    await acceptInvitation(db, landlordActor, token);
  }
  // The reviewer takes one intake task over from the round-robin choice.
  await assignTask(db, env, coord, await taskOf(c[0], 'intake'), { userId: reviewer });
  log(`seeded the demo workflow: 4 teams, protocol '${RENTAL_PROTOCOL_CODE}', ${c.length + 1} cases and 2 drafts`);
  return true;
}
