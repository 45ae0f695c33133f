/**
 * The verbs of awards and payments, one transaction each (or, for
 * `savePayeeDetails` and `setAward`, a step of the caller's transaction: the
 * parties' submission and the engine's accept). Amounts are cents.
 */
import { sql, type Transaction } from 'kysely';
import type { AchSettingsBody, AwardInput } from '../../../core/api/payments.js';
import { maskAccount, type PayeeDetails, type PayeeKind, payeeDetailsSchema, PAYEE_REPORT_THRESHOLD_CENTS } from '../../../core/payments.js';
import { type ProtocolDefinition, protocolDefinitionSchema } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { tableBytes } from '../../lib/tableFile.js';
import type { Actor, Doer } from '../acl/policy.js';
import { recordEvent, recordEvents } from '../cases/history.js';
import { type CaseRow, caseProtocolDefinition, lockCase } from '../cases/repo.js';
import { queueMail } from '../mail/outbox.js';
import { partyDeadlinePassed } from '../parties/waiting.js';
import { seal, taxIdDigest, unseal } from './crypto.js';
import { coveredMonths, landlordKey, propertyKey, tenantKey } from './keys.js';
import { type AchCredit, buildNacha, readNacha, traceNumberOf } from './nacha.js';
import {
  achSettingsOf, batchCutoff, casePayee, casesOfPayee, payeesByIds, payeesOfCases, findBatchDetail, findPayee, lockBatch, lockLiveAward, lockPayee, nextBatchNumber, overlappingAwards,
  type PayeeRow, paymentsOfBatch, payeeReport,
} from './repo.js';

type Trx = Transaction<Database>;

export interface PaymentsEnv {
  smtpConfigured: boolean;
  afterMail?: () => void;
}

const userIdOf = (d: Doer) => ('system' in d ? null : d.userId);

/** What is sealed: the account number and the tax id. */
interface Sealed {
  accountNumber: string | null;
  taxId: string | null;
}

// ---------------------------------------------------------------- payees

/**
 * Creates or updates a payee (the landlord submitting their side, or staff),
 * sealing the account number and tax id, and records it in the case history
 * when `caseId` is given (the payee's own history otherwise). Returns the
 * payee's id. Without a payments key nothing is written (503
 * PAYMENTS_KEY_MISSING) when there is anything to seal.
 */
export async function savePayeeDetails(
  trx: Transaction<Database>,
  doer: Doer,
  input: PayeeDetails & { entityId: number; kind: PayeeKind; caseId: number | null; partyId: number | null; userId: number | null; payeeId?: number | null },
): Promise<number> {
  if (input.entityId !== doer.entityId) throw new AppError('NOT_FOUND');
  const parsed = payeeDetailsSchema.safeParse({
    name: input.name, email: input.email, taxId: input.taxId, method: input.method, routingNumber: input.routingNumber,
    accountNumber: input.accountNumber, accountType: input.accountType, address: input.address,
  });
  if (!parsed.success) throw new AppError('VALIDATION', {}, parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  const d = parsed.data;
  const ach = d.method === 'ach';
  const secretValue: Sealed = { accountNumber: ach ? d.accountNumber : null, taxId: d.taxId };
  // Sealed before anything is written: without a key this throws and the transaction writes nothing.
  const sealed = secretValue.accountNumber || secretValue.taxId ? seal(secretValue) : null;
  const digest = d.taxId ? taxIdDigest(d.taxId) : null;
  const language = await payeeLanguage(trx, doer.entityId, input.userId, input.caseId);
  const values = {
    kind: input.kind,
    case_id: input.caseId,
    party_id: input.partyId,
    user_id: input.userId,
    name: d.name,
    email: d.email,
    language,
    method: d.method,
    routing_number: ach ? d.routingNumber : null,
    account_type: ach ? d.accountType : null,
    account_last4: ach && d.accountNumber ? d.accountNumber.slice(-4) : null,
    tax_id_last4: d.taxId ? d.taxId.slice(-4) : null,
    tax_id_digest: digest,
    secret: sealed?.secret ?? null,
    key_id: sealed?.keyId ?? null,
    address: d.address ? JSON.stringify(d.address) : null,
  };
  let existing: PayeeRow | undefined;
  if (input.payeeId) existing = await lockPayee(trx, doer, input.payeeId);
  else if (input.partyId !== null) {
    existing = await trx.selectFrom('payees').where('entity_id', '=', doer.entityId).where('party_id', '=', input.partyId).where('kind', '=', input.kind).selectAll().orderBy('id', 'desc').forUpdate().executeTakeFirst();
  } else if (input.caseId !== null) {
    existing = await trx.selectFrom('payees').where('entity_id', '=', doer.entityId).where('case_id', '=', input.caseId).where('kind', '=', input.kind).where('party_id', 'is', null).selectAll().orderBy('id', 'desc').forUpdate().executeTakeFirst();
  }
  let id: number;
  if (existing) {
    id = existing.id;
    await trx.updateTable('payees').set({ ...values, version: sql`version + 1`, updated_at: new Date() }).where('entity_id', '=', doer.entityId).where('id', '=', id).execute();
  } else {
    id = (await trx.insertInto('payees').values({ entity_id: doer.entityId, ...values }).returning('id').executeTakeFirstOrThrow()).id;
  }
  const detail = { payeeId: id, kind: input.kind, name: d.name, method: d.method, account: maskAccount(values.account_last4), taxId: maskAccount(values.tax_id_last4), changed: Boolean(existing) };
  if (input.caseId !== null) {
    const c = await trx.selectFrom('cases').where('entity_id', '=', doer.entityId).where('id', '=', input.caseId).select(['id', 'serial']).executeTakeFirst();
    if (!c) throw new AppError('NOT_FOUND');
    await recordEvent(trx, { entityId: doer.entityId, caseId: c.id, doer, number: c.serial, action: 'payee_saved', type: 'case', detail });
  } else {
    await trx.insertInto('payee_events').values({ entity_id: doer.entityId, payee_id: id, user_id: userIdOf(doer), action: 'payee_saved', detail: JSON.stringify(detail) }).execute();
  }
  return id;
}

/** The payee's language for mail: their account's, else the case applicant's, else English. */
async function payeeLanguage(trx: Trx, entityId: number, userId: number | null, caseId: number | null): Promise<'en' | 'es'> {
  const fromUser = (id: number) => trx.selectFrom('users').where('entity_id', '=', entityId).where('id', '=', id).select('language').executeTakeFirst();
  if (userId !== null) {
    const u = await fromUser(userId);
    if (u) return u.language === 'es' ? 'es' : 'en';
  }
  if (caseId !== null) {
    const c = await trx.selectFrom('cases as c').innerJoin('users as u', 'u.id', 'c.owner_id').where('c.entity_id', '=', entityId).where('c.id', '=', caseId).select('u.language').executeTakeFirst();
    if (c) return c.language === 'es' ? 'es' : 'en';
  }
  return 'en';
}

/** Staff enter (or correct) a case's payee of a kind: `PUT /api/cases/:id/payee`. */
export async function saveCasePayee(db: Db, actor: Actor, caseId: number, body: { kind: PayeeKind; details: PayeeDetails }): Promise<PayeeRow> {
  return db.transaction().execute(async (trx) => {
    const c = await lockCase(trx, actor, caseId);
    const id = await savePayeeDetails(trx, actor, { ...body.details, entityId: actor.entityId, kind: body.kind, caseId: c.id, partyId: null, userId: null });
    return findPayee(trx, actor, id);
  });
}

/**
 * A payee's full bank details (target `pagos_cuentas`): every read is written
 * in the history of each case the payee is on, or in the payee's own history
 * when it is on none, with who and when.
 */
export async function readBankDetails(db: Db, actor: Actor, payeeId: number) {
  return db.transaction().execute(async (trx) => {
    const p = await findPayee(trx, actor, payeeId);
    const open = p.secret ? unseal<Sealed>(p.secret, p.key_id) : { accountNumber: null, taxId: null };
    const cases = await casesOfPayee(trx, actor, p.id);
    const detail = { payeeId: p.id, name: p.name };
    for (const c of cases) await recordEvent(trx, { entityId: actor.entityId, caseId: c.id, doer: actor, number: c.serial, action: 'bank_details_read', type: 'case', detail });
    if (cases.length === 0) await trx.insertInto('payee_events').values({ entity_id: actor.entityId, payee_id: p.id, user_id: actor.userId, action: 'bank_details_read', detail: JSON.stringify(detail) }).execute();
    return {
      payeeId: p.id,
      name: p.name,
      method: p.method as 'ach' | 'check',
      routingNumber: p.routing_number,
      accountNumber: open.accountNumber,
      accountType: p.account_type as 'checking' | 'savings' | null,
      taxId: open.taxId,
      address: (p.address ?? null) as PayeeDetails['address'],
    };
  });
}

// ---------------------------------------------------------------- awards

/**
 * Sets a case's award, in the engine's accept of the task whose template has
 * `award: true`: the total computed here, checked against the protocol's
 * caps (over one: AWARD_OVER_CAP naming it, and the caller's transaction
 * writes nothing). An earlier award not yet in a batch is cancelled and kept.
 */
export async function setAward(trx: Trx, doer: Doer, args: { c: CaseRow; taskId: number | null; def: ProtocolDefinition; award: AwardInput | undefined; now?: Date }): Promise<number> {
  const { c, def, award } = args;
  const caps = awardCapsOf(def);
  if (!caps) throw new AppError('AWARD_NOT_OFFERED');
  if (!award) throw new AppError('AWARD_REQUIRED', {}, [{ path: 'award', message: 'payments.errors.awardRequired' }]);
  const months = award.arrearsMonths.length + award.aheadMonths;
  const total = award.monthlyRent * months + award.utilities;
  const over = (cap: string, max: number, value: number) => {
    const money = cap !== 'maxArrearsMonths' && cap !== 'maxAheadMonths';
    const params = { cap, capName: { key: `payments.caps.${cap}` }, max, value, limit: money ? formatMoney(max, 'en') : String(max) };
    throw new AppError('AWARD_OVER_CAP', params, [{ path: `award.${cap}`, message: 'payments.errors.overCap', params }]);
  };
  if (award.arrearsMonths.length > caps.maxArrearsMonths) over('maxArrearsMonths', caps.maxArrearsMonths, award.arrearsMonths.length);
  if (award.aheadMonths > caps.maxAheadMonths) over('maxAheadMonths', caps.maxAheadMonths, award.aheadMonths);
  if (caps.maxMonthlyRent !== null && award.monthlyRent > caps.maxMonthlyRent) over('maxMonthlyRent', caps.maxMonthlyRent, award.monthlyRent);
  if (award.utilities > caps.maxUtilities) over('maxUtilities', caps.maxUtilities, award.utilities);
  if (total > caps.maxTotal) over('maxTotal', caps.maxTotal, total);

  const payeeKind = award.payeeKind ?? (await defaultPayeeKind(trx, c.id, def));
  const payee = award.payeeId ? await findPayee(trx, doer, award.payeeId) : await casePayee(trx, doer, c.id, payeeKind);
  const previous = await lockLiveAward(trx, doer, c.id);
  if (previous && previous.state !== 'approved') throw new AppError('AWARD_LOCKED');
  if (previous) {
    await trx.updateTable('awards').set({ state: 'cancelled', version: sql`version + 1`, updated_at: new Date() }).where('entity_id', '=', doer.entityId).where('id', '=', previous.id).execute();
  }
  const covered = coveredMonths(award.arrearsMonths, award.aheadMonths, args.now ?? new Date());
  const row = await trx
    .insertInto('awards')
    .values({
      entity_id: doer.entityId, case_id: c.id, task_id: args.taskId, payee_id: payee?.id ?? null, payee_kind: payeeKind,
      arrears_months: award.arrearsMonths, ahead_months: award.aheadMonths, months: covered, monthly_rent: award.monthlyRent, utilities: award.utilities, total,
      property_address: award.propertyAddress, unit: award.unit, property_key: propertyKey(award.propertyAddress, award.unit),
      tenant_key: tenantKey(def, c), landlord_key: payeeKind === 'tenant' ? null : landlordKey(payee), approved_by: userIdOf(doer),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordEvent(trx, {
    entityId: doer.entityId, caseId: c.id, taskId: args.taskId, doer, number: c.serial, action: 'award_set', type: 'case',
    detail: { awardId: row.id, total, months: covered, arrearsMonths: award.arrearsMonths, aheadMonths: award.aheadMonths, monthlyRent: award.monthlyRent, utilities: award.utilities, payeeKind, replaces: previous?.id ?? null },
  });
  return row.id;
}

/**
 * Whom an award pays unless told: the tenant once the landlord's deadline
 * passed without their side on a protocol that pays the tenant then
 * (`payTenantAfterDeadline`), else the landlord.
 */
export async function defaultPayeeKind(db: Db | Trx, caseId: number, def: { parties?: Array<{ role: string; payTenantAfterDeadline?: boolean }> } | undefined): Promise<PayeeKind> {
  const landlordRoles = (def?.parties ?? []).filter((p) => (p.role === 'landlord' || p.role === 'property_manager') && p.payTenantAfterDeadline);
  for (const r of landlordRoles) if (await partyDeadlinePassed(db, caseId, r.role as 'landlord' | 'property_manager')) return 'tenant';
  return 'landlord';
}

/** A protocol's award caps with their defaults (a stored definition may leave them out); null: the protocol gives no award. */
export function awardCapsOf(def: { awardCaps?: unknown } | undefined) {
  const parsed = protocolDefinitionSchema.shape.awardCaps.safeParse(def?.awardCaps ?? null);
  return parsed.success ? parsed.data : null;
}

/**
 * Other awards of the tenant for overlapping months at the same address and
 * unit, or to the same landlord for the same tenant. Without months, address
 * and unit, those of the case's live award are checked.
 */
export async function awardOverlaps(db: Db, actor: Actor, caseId: number, q: { months?: string[]; address?: string; unit?: string; payeeId?: number }) {
  return db.transaction().execute(async (trx) => {
    const c = await trx.selectFrom('cases').where('entity_id', '=', actor.entityId).where('id', '=', caseId).select(['id', 'owner_id', 'data', 'protocol_version_id']).executeTakeFirstOrThrow();
    const live = await trx.selectFrom('awards').where('entity_id', '=', actor.entityId).where('case_id', '=', caseId).where('state', '<>', 'cancelled').selectAll().executeTakeFirst();
    const months = q.months ?? live?.months ?? [];
    const address = q.address ?? live?.property_address;
    const unit = q.unit ?? (q.address !== undefined ? null : live?.unit);
    const def = await caseProtocolDefinition(trx, c);
    let landlord = live?.landlord_key ?? null;
    if (q.payeeId) landlord = landlordKey(await findPayee(trx, actor, q.payeeId));
    else if (!live) landlord = landlordKey(await casePayee(trx, actor, caseId, 'landlord'));
    const items = await overlappingAwards(trx, actor, {
      caseId,
      months,
      propertyKey: address ? propertyKey(address, unit) : null,
      tenantKey: tenantKey(def, { id: c.id, owner_id: c.owner_id, data: c.data as Record<string, unknown> }),
      landlordKey: landlord,
    });
    return { months: [...months].sort(), items };
  });
}

// ---------------------------------------------------------------- batches

/** Builds a batch of the approved awards not in one yet, approved up to the end of `upTo` (a day of the tenant's calendar, today by default), of one method or both: one payment per award. */
export async function createBatch(db: Db, actor: Actor, body: { payDate: string; upTo?: string; method?: 'ach' | 'check' }) {
  return db.transaction().execute(async (trx) => {
    // One batch built at a time per tenant: two at once would race for the same awards (the unique award key would refuse the second).
    await sql`select pg_advisory_xact_lock(hashtext('payment_batches'), ${actor.entityId}::int)`.execute(trx);
    const until = await batchCutoff(trx, actor, body.upTo);
    const awards = await trx
      .selectFrom('awards')
      .where('entity_id', '=', actor.entityId)
      .where('state', '=', 'approved')
      .where('approved_at', '<', until)
      .where('total', '>', 0)
      .select(['id', 'case_id', 'payee_id', 'payee_kind', 'total'])
      .orderBy('approved_at')
      .orderBy('id')
      .forUpdate()
      .execute();
    // Every payee the awards pay, in two statements however many awards: those named, and the latest of each case and
    // kind for an award made before its payee gave their details (paid to the case's payee of its kind once there is one).
    const named = awards.flatMap((a) => (a.payee_id !== null ? [a.payee_id] : []));
    const unnamed = awards.flatMap((a) => (a.payee_id === null ? [a.case_id] : []));
    const byId = new Map((named.length ? await payeesByIds(trx, actor, named) : []).map((p) => [p.id, p]));
    const byCase = new Map<string, PayeeRow>();
    for (const p of unnamed.length ? await payeesOfCases(trx, actor, unnamed) : []) {
      const key = `${p.case_id}:${p.kind}`;
      if (!byCase.has(key)) byCase.set(key, p);
    }
    const chosen: Array<{ id: number; case_id: number; payee: PayeeRow; total: number }> = [];
    for (const a of awards) {
      const payee = a.payee_id !== null ? byId.get(a.payee_id) : byCase.get(`${a.case_id}:${a.payee_kind}`);
      if (!payee || (body.method && payee.method !== body.method)) continue;
      chosen.push({ id: a.id, case_id: a.case_id, payee, total: a.total });
    }
    if (chosen.length === 0) throw new AppError('BATCH_EMPTY');
    const number = await nextBatchNumber(trx, actor.entityId);
    const batch = await trx
      .insertInto('payment_batches')
      .values({
        entity_id: actor.entityId, number, pay_date: body.payDate, method: body.method ?? null, state: 'open',
        total: chosen.reduce((s, a) => s + a.total, 0), payment_count: chosen.length, created_by: actor.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('payments')
      .values(chosen.map((a) => ({ entity_id: actor.entityId, batch_id: batch.id, award_id: a.id, payee_id: a.payee.id, case_id: a.case_id, amount: a.total, method: a.payee.method })))
      .execute();
    for (const a of chosen) {
      await trx.updateTable('awards').set({ state: 'batched', payee_id: a.payee.id, version: sql`version + 1`, updated_at: new Date() }).where('entity_id', '=', actor.entityId).where('id', '=', a.id).execute();
    }
    const serials = new Map((await trx.selectFrom('cases').where('entity_id', '=', actor.entityId).where('id', 'in', chosen.map((a) => a.case_id)).select(['id', 'serial']).execute()).map((c) => [c.id, c.serial]));
    await recordEvents(
      trx,
      chosen.map((a) => ({ entityId: actor.entityId, caseId: a.case_id, doer: actor, number: serials.get(a.case_id) ?? null, action: 'payment_batched', type: 'case' as const, detail: { batchId: batch.id, batch: number, amount: a.total, payee: a.payee.name, method: a.payee.method } })),
    );
    return findBatchDetail(trx, actor, batch.id);
  });
}

export type BatchFile = 'nacha' | 'checks';

/**
 * A batch's file. The first export of either file makes both (the NACHA
 * file of its direct deposits, read back and checked, and the check
 * register) and keeps them, so a second export returns the same bytes.
 * Direct deposits without the tenant's ACH settings: ACH_SETTINGS_MISSING,
 * nothing written.
 */
export async function exportBatch(db: Db, actor: Actor, id: number, which: BatchFile): Promise<{ filename: string; content: Buffer; contentType: string }> {
  return db.transaction().execute(async (trx) => {
    const b = await lockBatch(trx, actor, id);
    let nacha = b.nacha_file;
    let register = b.check_register;
    if (b.state === 'open') {
      const rows = await paymentsOfBatch(trx, actor, id);
      const ach = rows.filter((r) => r.method === 'ach');
      const checks = rows.filter((r) => r.method === 'check');
      const now = new Date();
      if (ach.length) {
        const s = await achSettingsOf(trx, actor);
        if (!s) throw new AppError('ACH_SETTINGS_MISSING');
        const credits: AchCredit[] = ach.map((r, i) => {
          const open = r.secret ? unseal<Sealed>(r.secret, r.key_id) : null;
          return {
            name: r.payee_name, routingNumber: r.routing_number ?? '', accountNumber: open?.accountNumber ?? '', accountType: r.account_type === 'savings' ? 'savings' : 'checking',
            amount: r.amount, idNumber: r.serial ?? `CASE${r.case_id}`, traceNumber: traceNumberOf(s.odfi_routing, i + 1),
          };
        });
        const text = await buildNacha(
          { originatorName: s.originator_name, companyId: s.company_id, odfiRouting: s.odfi_routing, immediateDestination: s.immediate_destination, immediateDestinationName: s.immediate_destination_name, immediateOrigin: s.immediate_origin, immediateOriginName: s.immediate_origin_name, entryDescription: s.entry_description },
          b.pay_date instanceof Date ? b.pay_date.toISOString().slice(0, 10) : String(b.pay_date),
          b.number,
          credits,
          now,
        );
        const back = readNacha(text);
        const meant = credits.reduce((sum, c) => sum + c.amount, 0);
        if (back.entries.length !== credits.length || back.totalCredit !== meant || back.totalDebit !== 0) throw new Error(`NACHA file check failed: ${back.entries.length} entries, ${back.totalCredit} credited, ${meant} meant`);
        nacha = Buffer.from(text, 'ascii');
        for (const [i, r] of ach.entries()) await trx.updateTable('payments').set({ trace_number: credits[i].traceNumber }).where('entity_id', '=', actor.entityId).where('id', '=', r.id).execute();
      }
      if (checks.length) register = await checkRegister(actor.language, b.number, b.pay_date, checks);
      await trx
        .updateTable('payment_batches')
        .set({ state: 'exported', nacha_file: nacha, check_register: register, exported_at: now, exported_by: actor.userId, version: sql`version + 1` })
        .where('entity_id', '=', actor.entityId)
        .where('id', '=', id)
        .execute();
    }
    const content = which === 'nacha' ? nacha : register;
    if (!content) throw new AppError('BATCH_NO_FILE', { method: translate(actor.language, `payments.method.${which === 'nacha' ? 'ach' : 'check'}`) });
    return which === 'nacha'
      ? { filename: `batch-${b.number}-nacha.txt`, content, contentType: 'text/plain; charset=us-ascii' }
      : { filename: `batch-${b.number}-checks.csv`, content, contentType: 'text/csv; charset=utf-8' };
  });
}

/** The check register (CSV through lib/tableFile.ts: every cell guarded against formulas), headers in the exporter's language. */
async function checkRegister(lang: 'en' | 'es', number: number, payDate: unknown, rows: Awaited<ReturnType<typeof paymentsOfBatch>>): Promise<Buffer> {
  const t = (k: string) => translate(lang, `payments.files.${k}`);
  const day = payDate instanceof Date ? payDate.toISOString().slice(0, 10) : String(payDate);
  const header = [t('batch'), t('payDate'), t('payee'), t('line1'), t('line2'), t('city'), t('state'), t('zip'), t('case'), t('amount')];
  const cells = rows.map((r) => {
    const a = (r.address ?? {}) as { line1?: string; line2?: string | null; city?: string; state?: string; zip?: string };
    return [number, day, r.payee_name, a.line1 ?? '', a.line2 ?? '', a.city ?? '', a.state ?? '', a.zip ?? '', r.serial ?? `#${r.case_id}`, (r.amount / 100).toFixed(2)];
  });
  return tableBytes('csv', header, cells);
}

/**
 * Marks an exported batch paid: every payment and award paid, a
 * `payment_made` event in each case's history, each payee with an email told
 * in their language. A batch paid already: BATCH_ALREADY_PAID, nothing
 * changed.
 */
export async function markBatchPaid(db: Db, env: PaymentsEnv, actor: Actor, id: number, version: number) {
  const result = await db.transaction().execute(async (trx) => {
    const b = await lockBatch(trx, actor, id);
    if (b.state === 'paid') throw new AppError('BATCH_ALREADY_PAID');
    if (b.state !== 'exported') throw new AppError('BATCH_NOT_EXPORTED');
    if (b.version !== version) throw new AppError('STALE_BATCH');
    const now = new Date();
    await trx.updateTable('payment_batches').set({ state: 'paid', paid_at: now, paid_by: actor.userId, version: sql`version + 1` }).where('entity_id', '=', actor.entityId).where('id', '=', id).execute();
    await trx.updateTable('payments').set({ paid_at: now }).where('entity_id', '=', actor.entityId).where('batch_id', '=', id).execute();
    const rows = await paymentsOfBatch(trx, actor, id);
    const awardIds = rows.map((r) => r.award_id);
    if (awardIds.length) await trx.updateTable('awards').set({ state: 'paid', paid_at: now, version: sql`version + 1`, updated_at: now }).where('entity_id', '=', actor.entityId).where('id', 'in', awardIds).execute();
    const day = b.pay_date instanceof Date ? b.pay_date.toISOString().slice(0, 10) : String(b.pay_date);
    await recordEvents(
      trx,
      rows.map((r) => ({ entityId: actor.entityId, caseId: r.case_id, doer: actor, number: r.serial, action: 'payment_made', type: 'case' as const, detail: { batchId: id, batch: b.number, amount: r.amount, payee: r.payee_name, method: r.method, payDate: day } })),
    );
    // One message per payee with an email, in their language, listing what the batch paid them.
    const byPayee = new Map<number, typeof rows>();
    for (const r of rows) byPayee.set(r.payee_id, [...(byPayee.get(r.payee_id) ?? []), r]);
    for (const list of byPayee.values()) {
      const p = list[0];
      if (!p.email) continue;
      const lang = p.language === 'es' ? 'es' : 'en';
      const total = list.reduce((s, r) => s + r.amount, 0);
      const params = {
        name: p.payee_name, amount: formatMoney(total, lang), count: list.length, payDate: day,
        method: translate(lang, `payments.method.${p.method}`), cases: list.map((r) => r.serial ?? `#${r.case_id}`).join(', '),
      };
      await queueMail(trx, {
        entityId: actor.entityId, to: p.email, subject: translate(lang, 'payments.mail.paidSubject', params), text: translate(lang, 'payments.mail.paidBody', params),
        caseId: list.length === 1 ? p.case_id : null, userId: p.user_id, event: 'payment_made',
      }, env.smtpConfigured);
    }
    return findBatchDetail(trx, actor, id);
  });
  env.afterMail?.();
  return result;
}

export const formatMoney = (cents: number, lang: 'en' | 'es') => new Intl.NumberFormat(lang === 'es' ? 'es-US' : 'en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

// ---------------------------------------------------------------- ACH settings and the report

export async function saveAchSettings(db: Db, actor: Actor, body: AchSettingsBody): Promise<void> {
  const values = {
    originator_name: body.originatorName, company_id: body.companyId, odfi_routing: body.odfiRouting, immediate_destination: body.immediateDestination,
    immediate_destination_name: body.immediateDestinationName, immediate_origin: body.immediateOrigin, immediate_origin_name: body.immediateOriginName,
    entry_description: body.entryDescription, updated_by: actor.userId, updated_at: new Date(),
  };
  await db.insertInto('ach_settings').values({ entity_id: actor.entityId, ...values }).onConflict((oc) => oc.column('entity_id').doUpdateSet(values)).execute();
}

/** The payee report as an Excel (or CSV) file, headers in the reader's language. */
export async function payeeReportFile(db: Db, actor: Actor, year: number, format: 'xlsx' | 'csv'): Promise<Buffer> {
  const rows = await payeeReport(db, actor, year, PAYEE_REPORT_THRESHOLD_CENTS);
  const t = (k: string) => translate(actor.language, `payments.files.${k}`);
  const header = [t('payee'), t('kind'), t('taxId'), t('payments'), t('total'), t('overThreshold')];
  const cells = rows.map((r) => [r.name, translate(actor.language, `payments.kind.${r.kind}`), r.taxIdMasked ?? '', r.payments, r.total / 100, r.overThreshold ? t('yes') : t('no')]);
  return tableBytes(format, header, cells, t('reportSheet'));
}
