/**
 * The SQL of payees, awards, payment batches and the payee report. Every
 * finder takes the actor (or doer) and applies its tenant; a case's award is
 * read only through the case's own visibility (cases/repo.ts). Rows become
 * the API's shapes (core/api/payments.ts) here.
 */
import { sql, type Transaction } from 'kysely';
import type { MailingAddress, PayeeKind, PaymentMethod, AccountType } from '../../../core/payments.js';
import { maskAccount } from '../../../core/payments.js';
import type { AwardState, BatchState } from '../../../core/api/payments.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, paginate, type Page } from '../../lib/list.js';
import type { Actor, Doer } from '../acl/policy.js';
import { tenantTimeZone } from '../cases/filters.js';
import { batchActions } from './policy.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

// ---------------------------------------------------------------- payees

export interface PayeeRow {
  id: number;
  entity_id: number;
  kind: string;
  case_id: number | null;
  party_id: number | null;
  user_id: number | null;
  name: string;
  email: string | null;
  language: string;
  method: string;
  routing_number: string | null;
  account_type: string | null;
  account_last4: string | null;
  tax_id_last4: string | null;
  tax_id_digest: string | null;
  secret: string | null;
  key_id: string | null;
  address: unknown;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export const payeeView = (p: PayeeRow) => ({
  id: p.id,
  kind: p.kind as PayeeKind,
  name: p.name,
  email: p.email,
  method: p.method as PaymentMethod,
  routingNumber: p.routing_number,
  accountMasked: maskAccount(p.account_last4),
  accountType: p.account_type as AccountType | null,
  taxIdMasked: maskAccount(p.tax_id_last4),
  address: (p.address ?? null) as MailingAddress | null,
  caseId: p.case_id,
  partyId: p.party_id,
  userId: p.user_id,
  createdAt: p.created_at,
  updatedAt: p.updated_at,
});

const payees = (db: Executor, doer: Doer) => db.selectFrom('payees as p').where('p.entity_id', '=', doer.entityId).selectAll('p');

export async function listPayees(db: Db, actor: Actor, q: Page & { search?: string; kind?: PayeeKind; caseId?: number; sortBy?: 'name' | 'createdAt'; descending?: boolean }) {
  let query = payees(db, actor);
  if (q.search) query = query.where('p.name', 'ilike', containsPattern(q.search));
  if (q.kind) query = query.where('p.kind', '=', q.kind);
  if (q.caseId) query = query.where((eb) => eb.or([eb('p.case_id', '=', q.caseId as number), eb('p.id', 'in', eb.selectFrom('awards').where('entity_id', '=', actor.entityId).where('case_id', '=', q.caseId as number).where('payee_id', 'is not', null).select(sql<number>`payee_id`.as('payee_id')))]));
  const direction = q.descending ? 'desc' : 'asc';
  query = q.sortBy === 'createdAt' ? query.orderBy('p.created_at', direction) : query.orderBy('p.name', direction);
  const { rows, total } = await paginate(query.orderBy('p.id', direction), q);
  return { items: rows.map(payeeView), total };
}

/** One payee of the doer's tenant; NOT_FOUND otherwise. */
export async function findPayee(db: Executor, doer: Doer, id: number): Promise<PayeeRow> {
  const p = await payees(db, doer).where('p.id', '=', id).executeTakeFirst();
  if (!p) throw new AppError('NOT_FOUND');
  return p;
}

export async function lockPayee(trx: Trx, doer: Doer, id: number): Promise<PayeeRow> {
  const p = await payees(trx, doer).where('p.id', '=', id).forUpdate().executeTakeFirst();
  if (!p) throw new AppError('NOT_FOUND');
  return p;
}

/** The payee a case's award of that kind pays: the latest of that case and kind. */
export async function casePayee(db: Executor, doer: Doer, caseId: number, kind: PayeeKind): Promise<PayeeRow | undefined> {
  return payees(db, doer).where('p.case_id', '=', caseId).where('p.kind', '=', kind).orderBy('p.updated_at', 'desc').orderBy('p.id', 'desc').executeTakeFirst();
}

/** Payees by id, in one statement (a batch's named payees). */
export function payeesByIds(db: Executor, doer: Doer, ids: number[]): Promise<PayeeRow[]> {
  return payees(db, doer).where('p.id', 'in', [...new Set(ids)]).execute();
}

/** The payees of these cases, the latest of each case and kind first (`casePayee` for many cases at once). */
export function payeesOfCases(db: Executor, doer: Doer, caseIds: number[]): Promise<PayeeRow[]> {
  return payees(db, doer).where('p.case_id', 'in', [...new Set(caseIds)]).orderBy('p.case_id').orderBy('p.kind').orderBy('p.updated_at', 'desc').orderBy('p.id', 'desc').execute();
}

/** The cases a payee is on: its own case and those whose awards pay it. */
export async function casesOfPayee(db: Executor, doer: Doer, payeeId: number): Promise<Array<{ id: number; serial: string | null }>> {
  return db
    .selectFrom('cases as c')
    .where('c.entity_id', '=', doer.entityId)
    .where((eb) =>
      eb.or([
        eb('c.id', 'in', eb.selectFrom('payees').where('entity_id', '=', doer.entityId).where('id', '=', payeeId).where('case_id', 'is not', null).select(sql<number>`case_id`.as('case_id'))),
        eb('c.id', 'in', eb.selectFrom('awards').where('entity_id', '=', doer.entityId).where('payee_id', '=', payeeId).select('case_id')),
      ]),
    )
    .select(['c.id', 'c.serial'])
    .orderBy('c.id')
    .execute();
}

export async function payeeEvents(db: Db, actor: Actor, payeeId: number) {
  const rows = await db
    .selectFrom('payee_events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .where('e.entity_id', '=', actor.entityId)
    .where('e.payee_id', '=', payeeId)
    .select(['e.id', 'e.action', 'e.detail', 'e.created_at', 'e.user_id', 'u.name as user_name'])
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({ id: r.id, action: r.action, detail: (r.detail ?? {}) as Record<string, unknown>, at: r.created_at, user: r.user_id !== null && r.user_name !== null ? { id: r.user_id, name: r.user_name } : null }));
}

/** The (raw) protocol definition of a case of the actor's tenant, for its award caps. */
export async function protocolDefinitionOfCase(db: Db, actor: Actor, caseId: number): Promise<{ awardCaps?: unknown } | undefined> {
  const row = await db
    .selectFrom('cases as c')
    .innerJoin('protocol_versions as v', 'v.id', 'c.protocol_version_id')
    .where('c.entity_id', '=', actor.entityId)
    .where('c.id', '=', caseId)
    .select('v.definition')
    .executeTakeFirst();
  return row?.definition as { awardCaps?: unknown } | undefined;
}

// ---------------------------------------------------------------- awards

const awardSelect = (db: Executor, entityId: number) =>
  db
    .selectFrom('awards as a')
    .innerJoin('cases as c', (j) => j.onRef('c.id', '=', 'a.case_id').onRef('c.entity_id', '=', 'a.entity_id'))
    .leftJoin('payees as p', (j) => j.onRef('p.id', '=', 'a.payee_id').onRef('p.entity_id', '=', 'a.entity_id'))
    .leftJoin('users as u', 'u.id', 'a.approved_by')
    .leftJoin('payments as pm', (j) => j.onRef('pm.award_id', '=', 'a.id').onRef('pm.entity_id', '=', 'a.entity_id'))
    .where('a.entity_id', '=', entityId)
    .select([
      'a.id', 'a.case_id', 'c.serial', 'a.task_id', 'a.payee_kind', 'a.payee_id', 'p.name as payee_name', 'a.arrears_months', 'a.ahead_months', 'a.months',
      'a.monthly_rent', 'a.utilities', 'a.total', 'a.property_address', 'a.unit', 'a.state', 'a.approved_by', 'u.name as approver_name', 'a.approved_at',
      'pm.batch_id', 'a.paid_at', 'a.version',
    ]);

type AwardRow = Awaited<ReturnType<ReturnType<typeof awardSelect>['executeTakeFirstOrThrow']>>;

export const awardView = (a: AwardRow) => ({
  id: a.id,
  caseId: a.case_id,
  caseNumber: a.serial,
  taskId: a.task_id,
  payeeKind: a.payee_kind as PayeeKind,
  payeeId: a.payee_id,
  payeeName: a.payee_name,
  arrearsMonths: a.arrears_months,
  aheadMonths: a.ahead_months,
  months: a.months,
  monthlyRent: a.monthly_rent,
  utilities: a.utilities,
  total: a.total,
  propertyAddress: a.property_address,
  unit: a.unit,
  state: a.state as AwardState,
  approvedBy: a.approved_by !== null && a.approver_name !== null ? { id: a.approved_by, name: a.approver_name } : null,
  approvedAt: a.approved_at,
  batchId: a.batch_id,
  paidAt: a.paid_at,
  version: a.version,
});

/** A case's awards, the live one first, then those it replaced (newest first). */
export async function awardsOfCase(db: Executor, doer: Doer, caseId: number) {
  const rows = await awardSelect(db, doer.entityId).where('a.case_id', '=', caseId).orderBy(sql`a.state = 'cancelled'`).orderBy('a.id', 'desc').execute();
  const views = rows.map(awardView);
  const live = views.find((a) => a.state !== 'cancelled') ?? null;
  return { award: live, previous: views.filter((a) => a !== live) };
}

/** The case's live award, locked. */
export async function lockLiveAward(trx: Trx, doer: Doer, caseId: number) {
  return trx.selectFrom('awards').where('entity_id', '=', doer.entityId).where('case_id', '=', caseId).where('state', '<>', 'cancelled').selectAll().forUpdate().executeTakeFirst();
}

/**
 * Other live awards of the tenant paying any of `months` for the same
 * property key, or the same landlord for the same tenant. The indexes lead
 * with entity_id and the key; months are compared on the few rows found.
 */
export async function overlappingAwards(db: Executor, doer: Doer, q: { caseId: number; months: string[]; propertyKey: string | null; tenantKey: string | null; landlordKey: string | null }) {
  if (q.months.length === 0 || (!q.propertyKey && !(q.tenantKey && q.landlordKey))) return [];
  const rows = await db
    .selectFrom('awards as a')
    .innerJoin('cases as c', (j) => j.onRef('c.id', '=', 'a.case_id').onRef('c.entity_id', '=', 'a.entity_id'))
    .where('a.entity_id', '=', doer.entityId)
    .where('a.state', '<>', 'cancelled')
    .where('a.case_id', '<>', q.caseId)
    .where((eb) => {
      const or = [];
      if (q.propertyKey) or.push(eb('a.property_key', '=', q.propertyKey));
      if (q.tenantKey && q.landlordKey) or.push(eb.and([eb('a.tenant_key', '=', q.tenantKey), eb('a.landlord_key', '=', q.landlordKey)]));
      return eb.or(or);
    })
    .where(sql<boolean>`a.months && ${sql.val(q.months)}::text[]`)
    .select(['a.id', 'a.case_id', 'c.serial', 'a.state', 'a.total', 'a.months', 'a.property_key', 'a.tenant_key', 'a.landlord_key'])
    .orderBy('a.id')
    .limit(100)
    .execute();
  return rows.map((r) => ({
    awardId: r.id,
    caseId: r.case_id,
    caseNumber: r.serial,
    state: r.state as AwardState,
    total: r.total,
    months: r.months.filter((m) => q.months.includes(m)).sort(),
    reasons: [
      ...(q.propertyKey && r.property_key === q.propertyKey ? (['same_unit'] as const) : []),
      ...(q.tenantKey && q.landlordKey && r.tenant_key === q.tenantKey && r.landlord_key === q.landlordKey ? (['same_landlord_and_tenant'] as const) : []),
    ],
  }));
}

// ---------------------------------------------------------------- batches

const batchSelect = (db: Executor, entityId: number) =>
  db
    .selectFrom('payment_batches as b')
    .leftJoin('users as uc', 'uc.id', 'b.created_by')
    .leftJoin('users as ue', 'ue.id', 'b.exported_by')
    .leftJoin('users as up', 'up.id', 'b.paid_by')
    .where('b.entity_id', '=', entityId)
    .select((eb) => [
      'b.id', 'b.number', sql<string>`to_char(b.pay_date, 'YYYY-MM-DD')`.as('pay_date'), 'b.method', 'b.state', 'b.total', 'b.payment_count',
      'b.created_at', 'b.created_by', 'uc.name as created_name', 'b.exported_at', 'b.exported_by', 'ue.name as exported_name',
      'b.paid_at', 'b.paid_by', 'up.name as paid_name', 'b.version',
      eb.selectFrom('payments as x').whereRef('x.entity_id', '=', 'b.entity_id').whereRef('x.batch_id', '=', 'b.id').where('x.method', '=', 'ach').select(sql<number>`count(*)::int`.as('n')).as('ach_count'),
    ]);

type BatchRow = Awaited<ReturnType<ReturnType<typeof batchSelect>['executeTakeFirstOrThrow']>>;

const person = (id: number | null, name: string | null) => (id !== null && name !== null ? { id, name } : null);

export const batchView = (actor: Actor, b: BatchRow) => ({
  id: b.id,
  number: b.number,
  payDate: b.pay_date,
  method: b.method as PaymentMethod | null,
  state: b.state as BatchState,
  total: b.total,
  paymentCount: b.payment_count,
  achCount: b.ach_count ?? 0,
  checkCount: b.payment_count - (b.ach_count ?? 0),
  createdAt: b.created_at,
  createdBy: person(b.created_by, b.created_name),
  exportedAt: b.exported_at,
  exportedBy: person(b.exported_by, b.exported_name),
  paidAt: b.paid_at,
  paidBy: person(b.paid_by, b.paid_name),
  version: b.version,
  actions: batchActions(actor, b.state as BatchState),
});

export async function listBatches(db: Db, actor: Actor, q: Page & { state?: BatchState; sortBy?: 'number' | 'payDate' | 'createdAt' | 'total'; descending?: boolean; search?: string }) {
  let query = batchSelect(db, actor.entityId);
  if (q.state) query = query.where('b.state', '=', q.state);
  if (q.search && /^\d{1,9}$/.test(q.search)) query = query.where('b.number', '=', Number(q.search));
  const direction = q.descending === false ? 'asc' : 'desc';
  const column = { number: 'b.number', payDate: 'b.pay_date', createdAt: 'b.created_at', total: 'b.total' } as const;
  query = query.orderBy(column[q.sortBy ?? 'number'], direction).orderBy('b.id', direction);
  const { rows, total } = await paginate(query, q);
  return { items: rows.map((b) => batchView(actor, b)), total };
}

export async function findBatch(db: Executor, actor: Actor, id: number) {
  const b = await batchSelect(db, actor.entityId).where('b.id', '=', id).executeTakeFirst();
  if (!b) throw new AppError('NOT_FOUND');
  return batchView(actor, b);
}

/** The midnight after `upTo` in the tenant's time zone (today there by default), whatever daylight saving does: a batch takes what was approved before it. */
export async function batchCutoff(trx: Trx, actor: Actor, upTo: string | undefined): Promise<Date> {
  const zone = tenantTimeZone(actor);
  const { rows } = await sql<{ until: Date }>`
    select ((coalesce(${upTo ?? null}::date, (now() at time zone ${zone})::date) + 1)::timestamp at time zone ${zone}) as until`.execute(trx);
  return (rows[0] as { until: Date }).until;
}

/** The batch row, locked, in the doer's tenant; NOT_FOUND otherwise. */
export async function lockBatch(trx: Trx, doer: Doer, id: number) {
  const b = await trx.selectFrom('payment_batches').where('entity_id', '=', doer.entityId).where('id', '=', id).selectAll().forUpdate().executeTakeFirst();
  if (!b) throw new AppError('NOT_FOUND');
  return b;
}

/** A batch's payments, grouped by payee (payee name, then the payee, then the case). */
export async function paymentsOfBatch(db: Executor, doer: Doer, batchId: number) {
  return db
    .selectFrom('payments as pm')
    .innerJoin('payees as p', (j) => j.onRef('p.id', '=', 'pm.payee_id').onRef('p.entity_id', '=', 'pm.entity_id'))
    .innerJoin('cases as c', (j) => j.onRef('c.id', '=', 'pm.case_id').onRef('c.entity_id', '=', 'pm.entity_id'))
    .where('pm.entity_id', '=', doer.entityId)
    .where('pm.batch_id', '=', batchId)
    .select([
      'pm.id', 'pm.award_id', 'pm.case_id', 'c.serial', 'pm.payee_id', 'p.name as payee_name', 'pm.method', 'pm.amount', 'pm.trace_number', 'pm.paid_at',
      'p.account_last4', 'p.routing_number', 'p.account_type', 'p.secret', 'p.key_id', 'p.address', 'p.email', 'p.language', 'p.user_id', 'p.tax_id_digest',
    ])
    .orderBy('p.name')
    .orderBy('pm.payee_id')
    .orderBy('pm.case_id')
    .orderBy('pm.id')
    .execute();
}
export type BatchPaymentRow = Awaited<ReturnType<typeof paymentsOfBatch>>[number];

export const paymentView = (r: BatchPaymentRow) => ({
  id: r.id,
  awardId: r.award_id,
  caseId: r.case_id,
  caseNumber: r.serial,
  payeeId: r.payee_id,
  payeeName: r.payee_name,
  method: r.method as PaymentMethod,
  amount: r.amount,
  accountMasked: maskAccount(r.account_last4),
  traceNumber: r.trace_number,
  paidAt: r.paid_at,
});

/**
 * Who a payment goes to, across payee records: a landlord gives their details
 * on each tenant's case (a payee record per case), so the same tax id paid the
 * same way to the same account is one payee; without a tax id, the record.
 */
const payeeGroupKey = (r: BatchPaymentRow) =>
  r.tax_id_digest ? `tax:${r.tax_id_digest}|${r.method}|${r.routing_number ?? ''}|${r.account_last4 ?? ''}` : `payee:${r.payee_id}`;

/** The batch and its payments, grouped by payee (see `payeeGroupKey`), each group's payments by application number. */
export async function findBatchDetail(db: Executor, actor: Actor, id: number) {
  const batch = await findBatch(db, actor, id);
  const rows = await paymentsOfBatch(db, actor, id);
  const groups = new Map<string, { payeeId: number; name: string; method: PaymentMethod; total: number; payments: ReturnType<typeof paymentView>[] }>();
  for (const r of rows) {
    const key = payeeGroupKey(r);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { payeeId: r.payee_id, name: r.payee_name, method: r.method as PaymentMethod, total: 0, payments: [] }));
    g.total += r.amount;
    g.payments.push(paymentView(r));
  }
  for (const g of groups.values()) g.payments.sort((a, b) => (a.caseNumber ?? '').localeCompare(b.caseNumber ?? '') || a.id - b.id);
  return { ...batch, payees: [...groups.values()] };
}

export async function nextBatchNumber(trx: Trx, entityId: number): Promise<number> {
  // Serialised per tenant by the advisory lock the caller took; the unique (entity_id, number) is the backstop.
  const r = await trx.selectFrom('payment_batches').where('entity_id', '=', entityId).select(sql<number>`coalesce(max(number), 0)::int + 1`.as('n')).executeTakeFirstOrThrow();
  return r.n;
}

// ---------------------------------------------------------------- the payee report

/**
 * A year's paid payments per payee and tax id: payee records sharing a tax
 * id (its digest) are one row under the latest record's name; a payee
 * without a tax id is a row of its own. The year is the calendar year of
 * `paid_at` in the tenant's time zone.
 */
export async function payeeReport(db: Db, actor: Actor, year: number, threshold: number) {
  const zone = tenantTimeZone(actor);
  const from = sql<Date>`make_date(${year}::int, 1, 1)::timestamp at time zone ${zone}`;
  const to = sql<Date>`make_date(${year + 1}::int, 1, 1)::timestamp at time zone ${zone}`;
  const rows = await db
    .with('paid', (w) =>
      w
        .selectFrom('payments as pm')
        .innerJoin('payees as p', (j) => j.onRef('p.id', '=', 'pm.payee_id').onRef('p.entity_id', '=', 'pm.entity_id'))
        .where('pm.entity_id', '=', actor.entityId)
        .where('pm.paid_at', '>=', from)
        .where('pm.paid_at', '<', to)
        .select(['pm.amount', 'p.id as payee_id', 'p.name', 'p.kind', 'p.tax_id_last4', 'p.updated_at', sql<string>`coalesce(p.tax_id_digest, 'payee:' || p.id)`.as('tax_key')]),
    )
    .selectFrom('paid')
    .groupBy('tax_key')
    .select([
      sql<number>`(array_agg(payee_id order by updated_at desc, payee_id desc))[1]`.as('payee_id'),
      sql<string>`(array_agg(name order by updated_at desc, payee_id desc))[1]`.as('name'),
      sql<string>`(array_agg(kind order by updated_at desc, payee_id desc))[1]`.as('kind'),
      sql<string | null>`(array_agg(tax_id_last4 order by updated_at desc, payee_id desc))[1]`.as('tax_id_last4'),
      sql<number>`count(*)::int`.as('payments'),
      sql<string>`sum(amount)::text`.as('total'),
    ])
    .orderBy(sql`sum(amount)`, 'desc')
    .orderBy(sql`2`)
    .execute();
  return rows.map((r) => ({
    payeeId: r.payee_id,
    name: r.name,
    kind: r.kind as PayeeKind,
    taxIdMasked: maskAccount(r.tax_id_last4),
    payments: r.payments,
    total: Number(r.total),
    overThreshold: Number(r.total) >= threshold,
  }));
}

// ---------------------------------------------------------------- ACH settings

export async function achSettingsOf(db: Executor, doer: Doer) {
  return db.selectFrom('ach_settings').where('entity_id', '=', doer.entityId).selectAll().executeTakeFirst();
}

export const achSettingsView = (s: NonNullable<Awaited<ReturnType<typeof achSettingsOf>>>) => ({
  originatorName: s.originator_name,
  companyId: s.company_id,
  odfiRouting: s.odfi_routing,
  immediateDestination: s.immediate_destination,
  immediateDestinationName: s.immediate_destination_name,
  immediateOrigin: s.immediate_origin,
  immediateOriginName: s.immediate_origin_name,
  entryDescription: s.entry_description,
  updatedAt: s.updated_at,
});

