import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../../jobs/boss.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeForm, makeMasterItem, makeProject, makePublishedProtocol, makeTeam, makeTeamMember, makeUser } from '../../../tests/support/factories.js';

/** The tenants, the application form and protocol, and the people are made here with the factories; the demo seed plays no part. */
const ROLES = {
  // Case administration (importing is part of it), on top of working cases.
  coordinator: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'], admin_cases: ['show', 'update'], wf_tareas: ['show'] },
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
} as const;

const field = (name: string, type: string, label: string, label_en: string, extra: Record<string, unknown> = {}) => ({ name, type, label, label_en, ...extra });
/** The application's fields the file maps to, with a repeat group of household members. */
const FORM = {
  name: 'Rental assistance application',
  fields: [
    field('firstName', 'text', 'Nombres', 'First name', { required: true, maxLength: 60 }),
    field('lastName', 'text', 'Apellidos', 'Last name', { required: true, maxLength: 60 }),
    field('documentType', 'select', 'Tipo de documento', 'Document type', { required: true, options: [{ value: 'CC', label: 'Cédula de ciudadanía' }, { value: 'CE', label: 'Cédula de extranjería' }] }),
    field('documentNumber', 'text', 'Número de documento', 'Document number', { required: true, maxLength: 20, pattern: '^[A-Za-z0-9-]+$' }),
    field('email', 'email', 'Correo electrónico', 'Email', { required: true }),
    field('phone', 'phone', 'Celular', 'Cellphone', { required: true }),
    field('departamento', 'master_select', 'Departamento', 'State', { required: true, master: 'departamentos' }),
    field('municipio', 'master_select', 'Municipio', 'City', { required: true, master: 'municipios', type_aux: 'departamento' }),
    field('zipCode', 'zip', 'Código postal', 'Zip code', { required: true }),
    field('householdInformation', 'repeat', 'Integrantes del hogar', 'Household members', {
      minRows: 1,
      children: [
        field('memberName', 'text', 'Nombre', 'Name', { required: true, maxLength: 100 }),
        field('relationship', 'select', 'Parentesco', 'Relationship', { required: true, options: [{ value: 'self', label: 'Solicitante' }, { value: 'child', label: 'Hijo(a)' }] }),
        field('age', 'number', 'Edad', 'Age', { required: true, min: 0, max: 120 }),
      ],
    }),
    field('payRent', 'currency', 'Renta mensual', 'Monthly rent', { required: true, min: 1, max: 10000 }),
    field('housing_assistance', 'switch', 'Recibe asistencia de vivienda (Sección 8)', 'Receives housing assistance (Section 8)'),
    field('income_required_housing_assistance', 'currency', 'Valor de la asistencia', 'Assistance amount', { required: true, min: 0, visibleWhen: 'housing_assistance == true' }),
  ],
};

let t: TestApp;
let coordinator: { sid: string };
let other: { sid: string };
let coordinatorId: number;
let protocolId: number;
let entityId: number;
beforeAll(async () => {
  // An import runs as a pg-boss job (queue case-import), as in production.
  t = await createTestApp({ jobs: { mail: false, schedules: false, cases: true } });
  entityId = (await makeEntity(t.db)).id;
  await makeProject(t.db, { entity_id: entityId });
  const masters = await t.db.selectFrom('masters').where('entity_id', '=', entityId).where('code', 'in', ['departamentos', 'municipios']).select(['id', 'entity_id', 'code']).execute();
  const master = (code: string) => masters.find((m) => m.code === code) as (typeof masters)[number];
  const bogota = await makeMasterItem(t.db, master('departamentos'), { code: '11', name: 'Bogotá, D.C.' });
  await makeMasterItem(t.db, master('municipios'), { code: '11001', name: 'Bogotá, D.C.', parent_item_id: bogota.id });
  protocolId = (await makePublishedProtocol(t.db, entityId, { mainForm: await makeForm(t.db, entityId, { definition: FORM }) })).id;
  const otherEntity = (await makeEntity(t.db)).id;
  const carla = await makeUser(t.db, entityId, { role: 'coordinator', rules: ROLES.coordinator as never, password: 'Demo12345' });
  const otto = await makeUser(t.db, otherEntity, { role: 'super-admin', password: 'Demo12345' });
  coordinatorId = (await carla).id;
  [coordinator, other] = await Promise.all([carla, otto].map((u) => login(t, u.email, 'Demo12345')));
});
afterAll(() => t.close());

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
type Job = { id: number; status: string; total: number; processed: number; created: number; skipped: number; failed: number; errors: Array<{ line: number; field: string | null; message: string }>; fields: Array<{ name: string }> };
const upload = (who: { sid: string }, body: string | Buffer, lang = 'en') =>
  t.request({ method: 'POST', url: `/api/cases/imports?protocolId=${protocolId}&fileName=applicants.csv`, cookies: { ...who, lang }, payload: body, headers: { 'content-type': 'text/csv' } });
const post = (url: string, payload: unknown, lang = 'en') => t.request({ method: 'POST', url, cookies: { ...coordinator, lang }, payload: payload as object });

const HEADER = 'ref,nombre,apellido,tipo,documento,correo,celular,depto,municipio,postal,renta,seccion8,valor8,miembro,parentesco,edad';
function csv(rows: number, bad: number[]): string {
  const lines = [HEADER];
  for (let i = 1; i <= rows; i++) {
    const ok = !bad.includes(i);
    lines.push([`EXT-${i}`, ok ? `Nombre${i}` : '', `Apellido ${i}`, 'CC', `8${String(i).padStart(8, '0')}`, ok ? `p${i}@example.org` : 'bad-email', '3001234567', '11', '11001', '11001', String(500 + (i % 900)), i % 2 ? 'sí' : 'no', i % 2 ? '250' : '', `Nombre${i} Apellido ${i}`, 'self', String(20 + (i % 60))].join(','));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
const mapping = {
  mapping: { nombre: 'firstName', apellido: 'lastName', tipo: 'documentType', documento: 'documentNumber', correo: 'email', celular: 'phone', depto: 'departamento', municipio: 'municipio', postal: 'zipCode', renta: 'payRent', seccion8: 'housing_assistance', valor8: 'income_required_housing_assistance', miembro: 'householdInformation.memberName', edad: 'householdInformation.age', parentesco: 'householdInformation.relationship' },
  refColumn: 'ref',
};
async function finished(id: number): Promise<Job> {
  for (let i = 0; i < 600; i++) {
    const job = (await t.request({ method: 'GET', url: `/api/cases/imports/${id}`, cookies: coordinator })).json<Job>();
    if (job.status !== 'running') return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('import did not finish');
}

/** Sends a job as startImport does and waits until pg-boss has settled it. */
async function sendJob(data: { id: number; userId: number; lang: string }): Promise<string> {
  const jobs = t.app.jobs;
  if (!jobs) throw new Error('no jobs');
  const jobId = await jobs.send(QUEUES.caseImport, data, { singletonKey: `import-${data.id}` });
  if (!jobId) throw new Error('job not sent');
  for (let i = 0; i < 300; i++) {
    const job = await jobs.boss.getJobById(QUEUES.caseImport, jobId);
    if (job && ['completed', 'failed'].includes(job.state)) return job.state;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('job did not settle');
}
const countCases = async () => Number((await t.db.selectFrom('cases').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
/** An uploaded file claimed as startImport claims it, with no job yet: the tests send the job themselves. */
async function claimed(file: string, extra: { processed?: number; created?: number } = {}): Promise<number> {
  const job = (await upload(coordinator, file)).json<Job>();
  await t.db.updateTable('case_imports').set({ status: 'running', mapping: JSON.stringify(mapping.mapping), ref_column: mapping.refColumn, ...extra }).where('id', '=', job.id).execute();
  return job.id;
}

describe('CSV import of cases', () => {
  it('the dry run refuses what the import would refuse: an applicant already in the protocol, or twice in the file; the import then creates exactly the rows the dry run called valid', async () => {
    // The same form, in a protocol that identifies an applicant by the document number.
    const dup = await makePublishedProtocol(t.db, entityId, { mainForm: await makeForm(t.db, entityId, { definition: FORM }) });
    await t.db.updateTable('protocol_versions').set({ definition: sql`definition || '{"duplicateFields":["documentNumber"]}'::jsonb` }).where('id', '=', dup.versionId).execute();
    const rows = (list: Array<[ref: string, doc: string]>) =>
      [HEADER, ...list.map(([ref, doc], i) => [ref, `Nombre${i}`, `Apellido ${i}`, 'CC', doc, `${ref.toLowerCase()}@example.org`, '3001234567', '11', '11001', '11001', '700', 'no', '', `Nombre${i}`, 'self', '30'].join(','))].join('\r\n');
    const importFile = async (body: string) => {
      const job = (await t.request({ method: 'POST', url: `/api/cases/imports?protocolId=${dup.id}&fileName=dups.csv`, cookies: coordinator, payload: body, headers: { 'content-type': 'text/csv' } })).json<Job>();
      const dry = (await post(`/api/cases/imports/${job.id}/dry-run`, mapping)).json<{ valid: number; errors: Job['errors'] }>();
      expect((await post(`/api/cases/imports/${job.id}/run`, mapping)).statusCode).toBe(202);
      return { dry, done: await finished(job.id) };
    };
    const first = await importFile(rows([['DUP-1', '7000001'], ['DUP-2', '7000002']]));
    expect(first.done).toMatchObject({ status: 'done', created: 2, failed: 0 });

    const second = await importFile(rows([['DUPB-1', '7000002'], ['DUPB-2', '7000010'], ['DUPB-3', '7000010'], ['DUPB-4', '7000011']]));
    expect(second.dry.valid).toBe(2);
    expect(second.dry.errors).toEqual([
      { line: 2, field: null, message: 'An application for this applicant already exists' },
      { line: 4, field: null, message: 'An application for this applicant already exists' },
    ]);
    expect(second.done).toMatchObject({ status: 'done', created: second.dry.valid, failed: 2 });
    expect(second.done.errors.map((e) => e.line)).toEqual([2, 4]);
  });

  it('a 2,500-row file with three bad rows and a reference repeated two batches later imports the rest and reports the four; again, it adds nothing', async () => {
    // Three batches of 1,000: each written while the next is read and checked. Line 2,401 repeats the reference of
    // line 6, first seen two batches earlier: refused, and line 6 imported.
    const file = () => {
      const lines = csv(2500, [10, 1500, 2499]).split('\r\n');
      const cells = (lines[2400] as string).split(',');
      cells[0] = 'EXT-5';
      lines[2400] = cells.join(',');
      return lines.join('\r\n');
    };
    const up = await upload(coordinator, file());
    expect(up.statusCode).toBe(201);
    const job = up.json<Job>();
    expect(job.total).toBe(2500);
    expect(job.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['firstName', 'payRent']));
    expect(job.fields.map((f) => f.name)).not.toContain('householdInformation');

    const dry = (await post(`/api/cases/imports/${job.id}/dry-run`, mapping)).json<{ valid: number; errors: Job['errors'] }>();
    expect(dry.valid).toBe(2496);
    expect([...new Set(dry.errors.map((e) => e.line))]).toEqual([11, 1501, 2401, 2500]);
    expect(dry.errors[0]).toEqual({ line: 11, field: 'firstName', message: 'This field is required' });
    expect(dry.errors.find((e) => e.line === 2401)).toEqual({ line: 2401, field: 'ref', message: expect.stringMatching(/more than once|repeated|twice/i) });
    const before = await countCases();

    expect((await post(`/api/cases/imports/${job.id}/run`, mapping)).statusCode).toBe(202);
    const done = await finished(job.id);
    expect(done).toMatchObject({ status: 'done', processed: 2500, created: 2496, skipped: 0, failed: 4 });
    expect([...new Set(done.errors.map((e) => e.line))]).toEqual([11, 1501, 2401, 2500]);
    const after = await countCases();
    expect(after - before).toBe(2496);
    // Every row has its outcome, each created row its own case, numbered without a gap.
    const rows = await t.db.selectFrom('case_import_rows').where('import_id', '=', job.id).select(['outcome', 'case_id']).execute();
    expect(rows.filter((r) => r.outcome === 'created').length).toBe(2496);
    expect(rows.filter((r) => r.outcome === null)).toEqual([]);
    const made = await t.db.selectFrom('cases').where('id', 'in', rows.flatMap((r) => (r.case_id ? [r.case_id] : []))).select(['serial_seq']).execute();
    const seqs = made.map((c) => Number(c.serial_seq)).sort((a, b) => a - b);
    expect(seqs.length).toBe(2496);
    expect((seqs.at(-1) as number) - (seqs[0] as number)).toBe(2495);
    // The importer owns the cases: no "we received your application" to them, one per row.
    const announced = await t.db.selectFrom('notifications').where('kind', '=', 'application_submitted').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(announced.n)).toBe(0);

    // The same file again: nothing twice.
    const again = (await upload(coordinator, file())).json<Job>();
    await post(`/api/cases/imports/${again.id}/run`, mapping);
    const second = await finished(again.id);
    expect(second).toMatchObject({ created: 0, skipped: 2496, failed: 4 });
    expect(await countCases()).toBe(after);
  }, 120_000);

  it('runs through its job once: a second job for a finished import creates nothing and changes nothing', async () => {
    const job = (await upload(coordinator, csv(3, []).replaceAll('EXT-', 'PTR-'))).json<Job>();
    expect((await post(`/api/cases/imports/${job.id}/run`, mapping)).statusCode).toBe(202);
    const done = await finished(job.id);
    expect(done).toMatchObject({ status: 'done', processed: 3, created: 3, skipped: 0, failed: 0 });
    const before = await countCases();
    expect(await sendJob({ id: job.id, userId: coordinatorId, lang: 'en' })).toBe('completed');
    expect(await countCases()).toBe(before);
    expect(await finished(job.id)).toEqual(done);
  });

  it('a retry resumes where the last try saved its progress', async () => {
    // An earlier try saved 2 rows done (as if it imported them) and stopped: the retry does rows 3 and 4 only.
    const id = await claimed(csv(4, []).replaceAll('EXT-', 'RES-'), { processed: 2, created: 2 });
    await t.db.updateTable('case_import_rows').set({ outcome: 'created' }).where('import_id', '=', id).where('line', '<=', 3).execute();
    expect(await sendJob({ id, userId: coordinatorId, lang: 'en' })).toBe('completed');
    expect(await finished(id)).toMatchObject({ status: 'done', processed: 4, created: 4, skipped: 0, failed: 0 });
    const refs = await t.db.selectFrom('cases').where('external_ref', 'like', 'RES-%').select('external_ref').orderBy('external_ref').execute();
    expect(refs.map((r) => r.external_ref)).toEqual(['RES-3', 'RES-4']);
  });

  it('gives up, without retrying, when its user was locked meanwhile: interrupted, nothing imported', async () => {
    const id = await claimed(csv(2, []).replaceAll('EXT-', 'LCK-'));
    await t.db.updateTable('users').set({ locked: true }).where('id', '=', coordinatorId).execute();
    try {
      expect(await sendJob({ id, userId: coordinatorId, lang: 'en' })).toBe('completed');
    } finally {
      await t.db.updateTable('users').set({ locked: false }).where('id', '=', coordinatorId).execute();
    }
    expect(await finished(id)).toMatchObject({ status: 'interrupted', created: 0 });
    expect(await t.db.selectFrom('cases').where('external_ref', 'like', 'LCK-%').select('id').execute()).toEqual([]);
  });

  it('answers 503 on an app that runs no import jobs, leaving the import as it was', async () => {
    const bare = await createTestApp();
    try {
      const entity = (await makeEntity(bare.db)).id;
      await makeProject(bare.db, { entity_id: entity });
      const protocol = (await makePublishedProtocol(bare.db, entity)).id;
      const user = await makeUser(bare.db, entity, { role: 'coordinator', rules: ROLES.coordinator as never, password: 'Demo12345' });
      const who = await login(bare, user.email, 'Demo12345');
      const up = await bare.request({ method: 'POST', url: `/api/cases/imports?protocolId=${protocol}`, cookies: who, payload: 'ref,x\nA,1\n', headers: { 'content-type': 'text/csv' } });
      const id = up.json<Job>().id;
      const res = await bare.request({ method: 'POST', url: `/api/cases/imports/${id}/run`, cookies: who, payload: { mapping: {}, refColumn: 'ref' } });
      expect(res.statusCode).toBe(503);
      expect(res.json<Err>().error.code).toBe('JOBS_UNAVAILABLE');
      expect((await bare.db.selectFrom('case_imports').where('id', '=', id).select('status').executeTakeFirstOrThrow()).status).toBe('uploaded');
    } finally {
      await bare.close();
    }
  });

  it('refuses columns mapped to protected fields and unknown columns', async () => {
    const job = (await upload(coordinator, csv(2, []))).json<Job>();
    for (const target of ['owner_id', 'entity_id', 'state', 'statusApplication', 'householdInformation']) {
      const res = await post(`/api/cases/imports/${job.id}/dry-run`, { mapping: { nombre: target }, refColumn: 'ref' });
      expect(res.statusCode, target).toBe(400);
    }
    const unknown = await post(`/api/cases/imports/${job.id}/dry-run`, { mapping: { nope: 'firstName' }, refColumn: 'ref' }, 'es');
    expect(unknown.json<Err>().error.details?.[0].message).toBe('El archivo no tiene la columna nope');
  });

  it('answers a bad file clearly: Latin-1 read as Latin-1, UTF-16, open quote with its line, repeated header, not a spreadsheet', async () => {
    const latin1 = Buffer.concat([Buffer.from(`${HEADER}\n1,Jos`), Buffer.from([0xe9]), Buffer.from(',x\n')]);
    const read = await upload(coordinator, latin1);
    expect(read.statusCode).toBe(201);
    expect(read.json<{ sample: Array<Record<string, string>> }>().sample[0]?.nombre).toBe('José');
    const utf16 = Buffer.from(`${HEADER}\n1,x\n`, 'utf16le');
    expect((await upload(coordinator, utf16)).json<Err>().error.details?.[0].message).toMatch(/^Line 1 is not text in UTF-8 or Latin-1/);
    expect((await upload(coordinator, `${HEADER}\n1,x\n2,"open\n`)).json<Err>().error.details?.[0].message).toBe('The quoted value that starts at line 3 is not closed');
    expect((await upload(coordinator, 'ref,ref\n1,2\n')).json<Err>().error.details?.[0].message).toBe('The first row must name every column once');
    const pdf = await upload(coordinator, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 0)]));
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json<Err>().error.details?.[0].message).toBe('This is not a CSV or Excel (.xlsx) file');
    const es = await upload(coordinator, 'ref,ref\n1,2\n', 'es');
    expect(es.json<Err>().error.details?.[0].message).toBe('La primera fila debe nombrar cada columna una sola vez');
  });

  it('refuses a file past 200 MB as it arrives, naming the limit, storing nothing', async () => {
    const LIMIT = 200 * 1024 * 1024;
    const piece = Buffer.alloc(1024 * 1024, 0x78);
    piece.write('ref,nombre\r\n1,');
    async function* pieces() {
      // Chunked, with no Content-Length: only the bytes that arrive say how large the file is.
      for (let sent = 0; sent <= LIMIT; sent += piece.length) {
        yield sent === 0 ? piece : Buffer.alloc(piece.length, 0x78);
        await new Promise((r) => setImmediate(r));
      }
    }
    const imports = async () => Number((await t.db.selectFrom('case_imports').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await imports();
    const res = await t.request({
      method: 'POST',
      url: `/api/cases/imports?protocolId=${protocolId}&fileName=big.csv`,
      cookies: coordinator,
      headers: { 'content-type': 'text/csv', 'transfer-encoding': 'chunked' },
      payload: Readable.from(pieces()),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json<Err>().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.json<Err>().error.details?.[0].message).toBe('The file is larger than 200 MB, the most an import takes. Split it into smaller files.');
    expect(await imports()).toBe(before);
  }, 60_000);

  it("keeps each user's imports to themselves and each tenant's apart", async () => {
    const job = (await upload(coordinator, csv(1, []))).json<Job>();
    expect((await t.request({ method: 'GET', url: `/api/cases/imports/${job.id}`, cookies: other })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `/api/cases/imports?protocolId=${protocolId}`, cookies: other, payload: csv(1, []), headers: { 'content-type': 'text/csv' } })).statusCode).toBe(404);
    // Importing is case administration: an applicant, who may create applications, may not.
    const applicant = await login(t, (await makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345' })).email, 'Demo12345');
    expect((await upload(applicant, csv(1, []))).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/cases/imports/${job.id}`, cookies: applicant })).statusCode).toBe(403);
  });
});

describe('bulk import at programme scale', () => {
  it('opens cases as the engine would one by one: numbered, history, start tasks round robin and least loaded in file order; one summary notification per assignee', async () => {
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await makeUser(t.db, entityId, { role: 'reviewer' }));
    const ids = people.map((p) => p.id).sort((a, b) => a - b);
    const rr = await makeTeam(t.db, entityId, { assignment: 'round_robin' });
    const ll = await makeTeam(t.db, entityId, { assignment: 'least_loaded' });
    for (const id of ids) {
      await makeTeamMember(t.db, rr, id);
      await makeTeamMember(t.db, ll, id);
    }
    // The round robin's cursor after the first member: the next cases go to the second, third, first, ...
    await t.db.updateTable('teams').set({ last_assigned_user_id: ids[0] }).where('id', '=', rr.id).execute();
    const protocol = await makePublishedProtocol(t.db, entityId, {
      mainForm: await makeForm(t.db, entityId, { definition: FORM }),
      start: ['check', 'visit'],
      tasks: [
        { code: 'check', name: 'Check', responsible: { kind: 'team', teamId: rr.id }, expirationDays: 3 },
        { code: 'visit', name: 'Visit', responsible: { kind: 'team', teamId: ll.id } },
      ],
    });
    const file = csv(7, []).replaceAll('EXT-', 'BULK-');
    const job = (await t.request({ method: 'POST', url: `/api/cases/imports?protocolId=${protocol.id}&fileName=bulk.csv`, cookies: coordinator, payload: file, headers: { 'content-type': 'text/csv' } })).json<Job>();
    expect((await post(`/api/cases/imports/${job.id}/run`, mapping)).statusCode).toBe(202);
    expect(await finished(job.id)).toMatchObject({ status: 'done', created: 7, failed: 0 });

    const cases = await t.db.selectFrom('cases').where('protocol_id', '=', protocol.id).orderBy('serial_seq').select(['id', 'external_ref', 'state', 'serial', 'serial_seq', 'version']).execute();
    expect(cases.map((c) => c.external_ref)).toEqual(['BULK-1', 'BULK-2', 'BULK-3', 'BULK-4', 'BULK-5', 'BULK-6', 'BULK-7']);
    expect(cases.every((c) => c.state === 'PENDING' && c.version === 2 && /^\d{4}-\d{2}-\d{6}$/.test(c.serial as string))).toBe(true);
    const seqs = cases.map((c) => c.serial_seq as number);
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i));
    const tasks = await t.db.selectFrom('tasks').where('case_id', 'in', cases.map((c) => c.id)).orderBy('case_id').orderBy('id').select(['case_id', 'code', 'state', 'responsible_user_id', 'due_at']).execute();
    const of = (code: string) => tasks.filter((k) => k.code === code).map((k) => k.responsible_user_id);
    expect(of('check')).toEqual([ids[1], ids[2], ids[0], ids[1], ids[2], ids[0], ids[1]]);
    // Least loaded, each task counted as it is given, the same case's 'check' included (as the engine, which
    // creates 'check' before it picks for 'visit'); ties go to the lowest id. Loads (a, b, c) before each
    // 'visit': 0 1 0 -> a, 1 1 1 -> a, 3 1 1 -> b, 3 3 1 -> c, 3 3 3 -> a, 5 3 3 -> b, 5 5 3 -> c.
    expect(of('visit')).toEqual([ids[0], ids[0], ids[1], ids[2], ids[0], ids[1], ids[2]]);
    expect(tasks.filter((k) => k.code === 'check').every((k) => k.state === 'PENDING' && k.due_at !== null)).toBe(true);
    expect((await t.db.selectFrom('teams').where('id', '=', rr.id).select('last_assigned_user_id').executeTakeFirstOrThrow()).last_assigned_user_id).toBe(ids[1]);
    const history = await t.db.selectFrom('case_events').where('case_id', '=', cases[0]?.id as number).orderBy('id').select(['action', 'application_number']).execute();
    expect(history.map((h) => h.action)).toEqual(['case_created', 'case_submit', 'task_created', 'task_created']);

    // One notice per assignee with their count, none per task; the importer hears that it finished.
    const notes = await t.db.selectFrom('notifications').where('import_id', '=', job.id).select(['user_id', 'kind', 'count', 'detail']).orderBy('user_id').orderBy('kind').execute();
    expect(notes.filter((n) => n.kind === 'tasks_imported').map((n) => [n.user_id, n.count])).toEqual([[ids[0], 5], [ids[1], 5], [ids[2], 4]]);
    expect(notes.filter((n) => n.kind === 'import_done')).toEqual([{ user_id: coordinatorId, kind: 'import_done', count: 7, detail: 'bulk.csv' }]);
    expect(await t.db.selectFrom('notifications').where('kind', '=', 'task_assigned').where('case_id', 'in', cases.map((c) => c.id)).select('id').execute()).toEqual([]);
  });

  it('all or nothing: one bad row and nothing is imported, the bad rows listed and downloadable; fixed, every row is imported', async () => {
    const before = await countCases();
    const job = (await upload(coordinator, csv(20, [7]).replaceAll('EXT-', 'AON-'))).json<Job>();
    const all = { ...mapping, mode: 'all_or_nothing' };
    expect((await post(`/api/cases/imports/${job.id}/run`, all)).statusCode).toBe(202);
    const rejected = await finished(job.id);
    expect(rejected).toMatchObject({ status: 'rejected', created: 0, failed: 1 });
    expect([...new Set(rejected.errors.map((e) => e.line))]).toEqual([8]);
    expect(await countCases()).toBe(before);

    const file = await t.request({ method: 'GET', url: `/api/cases/imports/${job.id}/rejected`, cookies: { ...coordinator, lang: 'es' } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toContain('applicants-rechazadas.csv');
    const lines = file.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe(`${HEADER},Línea,Motivos`);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^AON-7,,Apellido 7,.*,8,"?firstName: /);

    const list = (await t.request({ method: 'GET', url: '/api/cases/imports?page=1&pageSize=5', cookies: coordinator })).json<{ items: Array<{ id: number; status: string; mine: boolean; mode: string }>; total: number }>();
    expect(list.items[0]).toMatchObject({ id: job.id, status: 'rejected', mine: true, mode: 'all_or_nothing' });
    expect(list.total).toBeGreaterThanOrEqual(1);

    const fixed = (await upload(coordinator, csv(20, []).replaceAll('EXT-', 'AON-'))).json<Job>();
    expect((await post(`/api/cases/imports/${fixed.id}/run`, all)).statusCode).toBe(202);
    expect(await finished(fixed.id)).toMatchObject({ status: 'done', created: 20, failed: 0 });
    expect(await countCases()).toBe(before + 20);
  });

  it('reads an Excel file like its CSV', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Applicants');
    for (const line of csv(3, []).replace(/^\uFEFF/, '').trim().split('\r\n')) sheet.addRow(line.split(','));
    const body = Buffer.from(await book.xlsx.writeBuffer());
    const res = await t.request({ method: 'POST', url: `/api/cases/imports?protocolId=${protocolId}&fileName=applicants.xlsx`, cookies: coordinator, payload: body, headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } });
    expect(res.statusCode).toBe(201);
    const job = res.json<Job & { kind: string; sample: Array<Record<string, string>> }>();
    expect(job).toMatchObject({ kind: 'xlsx', total: 3 });
    expect(job.sample[0]?.nombre).toBe('Nombre1');
    const dry = (await post(`/api/cases/imports/${job.id}/dry-run`, mapping)).json<{ valid: number; alreadyImported: number }>();
    expect(dry.valid + dry.alreadyImported).toBe(3);
  });
});
