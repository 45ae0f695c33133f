/**
 * The cases' SQL. Every finder takes the actor and applies the tenant and
 * the record visibility itself (policy.ts `visibleCases`): a handler cannot
 * reach a case its caller may not see, whatever its route declares. Rows
 * are mapped to the API's shapes here, at the boundary.
 */
import { sql, type Transaction } from 'kysely';
import type { CaseFilters } from '../../../core/api/cases.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import { scopeFields } from '../../../core/forms/validator.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { CaseState } from '../../../core/workflow/states.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { countCapped, paginate, paginateCapped, type Page } from '../../lib/list.js';
import type { Actor, Doer } from '../acl/policy.js';
import { caseFilterConditions } from './filters.js';
import { can } from '../acl/policy.js';
import { masterLabels } from '../forms/options.js';
import { caseActions, isStaff, visibleCases } from './policy.js';
import type { FiltersOnly } from './schema.js';
import { gatherThenSort } from './textSearch.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

/** A case as the commands and the engine act on it. */
export interface CaseRow {
  id: number;
  entity_id: number;
  project_id: number;
  protocol_id: number;
  protocol_version_id: number | null;
  owner_id: number;
  serial: string | null;
  state: string;
  data: Record<string, unknown>;
  version: number;
}

const CASE_ROW = ['c.id', 'c.entity_id', 'c.project_id', 'c.protocol_id', 'c.protocol_version_id', 'c.owner_id', 'c.serial', 'c.state', 'c.data', 'c.version'] as const;

/**
 * The case, locked for update, when the doer may see it; NOT_FOUND otherwise
 * (as reading it would answer). The system (jobs, imports, the seed) acts in
 * its tenant.
 */
export async function lockCase(trx: Trx, doer: Doer, caseId: number): Promise<CaseRow> {
  let q = trx.selectFrom('cases as c').where('c.id', '=', caseId).where('c.entity_id', '=', doer.entityId);
  if (!('system' in doer)) q = q.where(visibleCases(doer) as never);
  const c = await q.select(CASE_ROW).forUpdate().executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  return c;
}

/** The actor's own draft, locked; NOT_FOUND for anything else. */
export async function lockOwnDraft(trx: Trx, doer: Doer, caseId: number, ownerId: number): Promise<CaseRow> {
  const c = await trx
    .selectFrom('cases as c')
    .where('c.id', '=', caseId)
    .where('c.entity_id', '=', doer.entityId)
    .where('c.owner_id', '=', ownerId)
    .where('c.state', '=', 'DRAFT')
    .select(CASE_ROW)
    .forUpdate()
    .executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  return c;
}

// ---------------------------------------------------------------- the list

/** The cases the actor may see, with the list's columns. */
function visible(db: Executor, actor: Actor) {
  return (
    db
      .selectFrom('cases as c')
      .where('c.entity_id', '=', actor.entityId)
      .where(visibleCases(actor) as never)
      // Names by subquery rather than join: evaluated for the page's rows only, and the planner has one
      // table to place instead of three (planning was a third of the list query's time; bench/case-list.ts).
      .select([
        'c.id', 'c.serial', 'c.state', 'c.protocol_id', 'c.case_type', 'c.owner_id', 'c.doc_date',
        sql<string>`(select p.name from protocols p where p.id = c.protocol_id)`.as('protocol_name'),
        sql<string>`(select o.name from users o where o.id = c.owner_id)`.as('owner_name'),
        'c.possible_duplicated', 'c.created_at', 'c.updated_at',
        sql<string>`trim(coalesce(c.data->>'firstName', '') || ' ' || coalesce(c.data->>'lastName', ''))`.as('applicant'),
        sql<number>`(select count(*) from tasks t where t.case_id = c.id and t.state in ('UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY'))::int`.as('open_tasks'),
      ])
  );
}
type ListRow = Awaited<ReturnType<ReturnType<typeof visible>['executeTakeFirstOrThrow']>>;

export const caseItem = (r: ListRow) => ({
  id: r.id,
  number: r.serial,
  state: r.state as CaseState,
  protocolId: r.protocol_id,
  protocolName: r.protocol_name,
  caseType: r.case_type,
  ownerId: r.owner_id,
  ownerName: r.owner_name,
  applicant: r.applicant,
  docDate: r.doc_date,
  possibleDuplicated: r.possible_duplicated,
  openTasks: r.open_tasks,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The list's filters and advanced search as one query, shared by the list, its count, the export and bulk actions. */
function filtered(db: Db, actor: Actor, f: FiltersOnly) {
  return visible(db, actor).where((eb) => caseFilterConditions(eb as never, actor, f));
}

/** The list counts its matches up to here and says "more than" beyond (docs/decisions.md). */
export const LIST_COUNT_CAP = 1_000;

export async function listCases(db: Db, actor: Actor, f: CaseFilters & { count: boolean }) {
  const sortBy = f.sortBy ?? 'doc_date';
  const column = sql.ref(`c.${sortBy}`);
  // A full name or the start of a case number finds few cases, or cases of one period (textSearch.ts): sorted by
  // an expression no index gives, they are gathered through the search's indexes and sorted, instead of found
  // by walking the newest cases first.
  const key = f.search && gatherThenSort(f.search) ? sql`coalesce(${column}, ${column})` : column;
  const q = filtered(db, actor, f)
    .orderBy(sql`${key} ${sql.raw(f.descending === false ? 'asc' : 'desc')} nulls last`)
    .orderBy('c.id', 'desc');
  const page = await paginateCapped(db, q, { page: f.page, limit: f.limit }, LIST_COUNT_CAP, { count: f.count });
  return { items: page.rows.map(caseItem), total: page.total, capped: page.capped };
}

export function countCases(db: Db, actor: Actor, f: FiltersOnly) {
  return countCapped(db, filtered(db, actor, f), LIST_COUNT_CAP);
}

/** Refuses filters the database would refuse, before any work starts on them. */
export async function checkFilters(db: Db, actor: Actor, f: FiltersOnly): Promise<void> {
  await filtered(db, actor, f).clearSelect().select(sql`1`.as('x')).limit(0).execute();
}

/** Matching cases for an export: how many (up to `limit`), then batches newest first with their data. */
export async function countForExport(db: Db, actor: Actor, f: FiltersOnly, limit: number): Promise<number> {
  const counted = await filtered(db, actor, f).clearSelect().select(sql<string>`count(*)`.as('n')).executeTakeFirst();
  return Math.min(Number(counted?.n ?? 0), limit);
}

export async function exportBatch(db: Db, actor: Actor, f: FiltersOnly, beforeId: number | null, limit: number) {
  let q = filtered(db, actor, f).select('c.data').orderBy('c.id', 'desc').limit(limit);
  if (beforeId !== null) q = q.where('c.id', '<', beforeId);
  return q.execute();
}

/** The value fields of a protocol's published main form, for an export's columns. */
export async function mainFormFields(db: Db, actor: Actor, protocolId: number): Promise<string[] | undefined> {
  const def = await db
    .selectFrom('protocols as p')
    .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .innerJoin('form_versions as fv', (j) => j.on('fv.id', '=', sql<number>`(v.definition->>'mainFormVersionId')::bigint`))
    .where('p.id', '=', protocolId)
    .where('p.entity_id', '=', actor.entityId)
    .select('fv.definition')
    .executeTakeFirst();
  if (!def) return undefined;
  return scopeFields((def.definition as FormDefinition).fields)
    .filter((x) => !['static', 'repeat', 'file'].includes(x.type))
    .map((x) => x.name);
}

// ---------------------------------------------------------------- one case

/** One case with its data and form, when the actor may see it. */
export async function findCase(db: Db, actor: Actor, id: number) {
  const c = await visible(db, actor)
    .innerJoin('form_versions as f', 'f.id', 'c.form_version_id')
    .select(['c.data', 'f.definition', 'f.form_id', 'c.version'])
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  return { ...caseItem(c), data: c.data as Record<string, unknown>, form: c.definition as FormDefinition, formId: c.form_id, version: c.version };
}

/** Whether the actor may read the case (GET /api/cases/:id would answer 200): the realtime room check. */
export async function mayReadCase(db: Db, actor: Actor, id: number): Promise<boolean> {
  if (!can(actor, 'wf_casos', 'show')) return false;
  return (await db.selectFrom('cases as c').where('c.entity_id', '=', actor.entityId).where(visibleCases(actor) as never).where('c.id', '=', id).select('c.id').executeTakeFirst()) !== undefined;
}

/** GET /api/cases/:id: the case, its participants, the names of the master items it holds, and what the actor may do on it. */
export async function findCaseDetail(db: Db, actor: Actor, id: number) {
  const c = await findCase(db, actor, id);
  const [participants, optionLabels] = await Promise.all([participantsOf(db, c.id), masterLabels(db, actor.entityId, c.form, c.data)]);
  return {
    ...c,
    optionLabels,
    participants,
    actions: caseActions(actor, c),
    canSeeHistory: can(actor, 'historialaplicacion', 'show'),
    canSeeSimilar: can(actor, 'aplicacionessimilares', 'show'),
  };
}

export function participantsOf(db: Db, caseId: number) {
  return db.selectFrom('case_participants as cp').innerJoin('users as u', 'u.id', 'cp.user_id').where('cp.case_id', '=', caseId).select(['u.id', 'u.name']).execute();
}

/** The history of a case the actor may see, oldest first. */
export async function caseHistory(db: Db, actor: Actor, id: number) {
  const c = await visible(db, actor).where('c.id', '=', id).executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  const events = await db
    .selectFrom('case_events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('tasks as t', 't.id', 'e.task_id')
    .where('e.case_id', '=', c.id)
    .where('e.entity_id', '=', actor.entityId)
    // Comment events carry the comment's text, internal ones too: staff only (the applicant's side reads its thread).
    .$if(!isStaff(actor), (q) => q.where('e.type', '!=', 'comment'))
    .select(['e.id', 'e.action', 'e.type', 'u.name as user_name', 't.name as task_name', 'e.detail', 'e.created_at'])
    .orderBy('e.id')
    .execute();
  return events.map((e) => ({ id: e.id, action: e.action, type: e.type, userName: e.user_name, taskName: e.task_name, detail: e.detail as Record<string, unknown>, at: e.created_at }));
}

/** Applications of the same protocol that share the identifying fields or the name, among those the actor may see. */
export async function findSimilar(db: Db, actor: Actor, id: number) {
  const c = await db
    .selectFrom('cases as c')
    .innerJoin('protocol_versions as v', 'v.id', 'c.protocol_version_id')
    .where('c.id', '=', id)
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .select(['c.id', 'c.protocol_id', 'c.data', 'v.definition'])
    .executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  const data = c.data as Record<string, unknown>;
  const fields = (c.definition as ProtocolDefinition).duplicateFields.filter((f) => data[f] !== undefined && data[f] !== '');
  const probes: Array<Record<string, unknown>> = [];
  if (fields.length) probes.push({ [fields[fields.length - 1]]: data[fields[fields.length - 1]] });
  if (data.firstName && data.lastName) probes.push({ firstName: data.firstName, lastName: data.lastName });
  if (probes.length === 0) return [];
  const rows = await visible(db, actor)
    .where('c.protocol_id', '=', c.protocol_id)
    .where('c.id', '<>', c.id)
    .where('c.state', '<>', 'DRAFT')
    .where((eb) => eb.or(probes.map((p) => sql<boolean>`c.data @> ${JSON.stringify(p)}::jsonb`)))
    .orderBy('c.id', 'desc')
    .limit(50)
    .execute();
  return rows.map(caseItem);
}

export async function caseFormVersion(trx: Trx, caseId: number): Promise<number> {
  const row = await trx.selectFrom('cases').where('id', '=', caseId).select('form_version_id').executeTakeFirstOrThrow();
  return row.form_version_id;
}

/** Writes corrected data; returns the new version. */
export async function updateCaseData(trx: Trx, caseId: number, data: Record<string, unknown>): Promise<number> {
  const row = await trx.updateTable('cases').set({ data: JSON.stringify(data), version: sql`version + 1`, updated_at: new Date() }).where('id', '=', caseId).returning('version').executeTakeFirstOrThrow();
  return row.version;
}

export async function setOwner(trx: Trx, caseId: number, ownerId: number): Promise<void> {
  await trx.updateTable('cases').set({ owner_id: ownerId, version: sql`version + 1`, updated_at: new Date() }).where('id', '=', caseId).execute();
}

export async function replaceParticipants(trx: Trx, c: CaseRow, userIds: number[]): Promise<void> {
  await trx.deleteFrom('case_participants').where('case_id', '=', c.id).execute();
  if (userIds.length) await trx.insertInto('case_participants').values(userIds.map((id) => ({ case_id: c.id, user_id: id, entity_id: c.entity_id }))).execute();
}

/** An active user of the actor's tenant, or undefined. */
export function activeUserOfTenant(db: Executor, actor: Actor, userId: number) {
  return db.selectFrom('users').where('id', '=', userId).where('entity_id', '=', actor.entityId).where('active', '=', true).select(['id', 'name']).executeTakeFirst();
}

/** How many of these users belong to the actor's tenant. */
export async function countUsersOfTenant(trx: Trx, actor: Actor, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await trx.selectFrom('users').where('id', 'in', ids).where('entity_id', '=', actor.entityId).select('id').execute();
  return rows.length;
}

export async function userName(trx: Trx, id: number): Promise<string | null> {
  const row = await trx.selectFrom('users').where('id', '=', id).select('name').executeTakeFirst();
  return row?.name ?? null;
}

// ---------------------------------------------------------------- new cases and drafts

/** The project new applications of this actor belong to: theirs, else the tenant's default. */
export async function projectOf(db: Executor, actor: Doer & { projectId?: number | null }) {
  const project = actor.projectId
    ? await db.selectFrom('projects').where('id', '=', actor.projectId).where('entity_id', '=', actor.entityId).selectAll().executeTakeFirst()
    : undefined;
  return project ?? (await db.selectFrom('projects').where('entity_id', '=', actor.entityId).orderBy('is_default', 'desc').orderBy('id').selectAll().executeTakeFirstOrThrow());
}

/** Published protocols a new application can start from, with their main forms; people who are not staff start only public ones. */
export async function startableProtocols(db: Db, actor: Actor) {
  let q = db
    .selectFrom('protocols as p')
    .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .where('p.entity_id', '=', actor.entityId)
    .select(['p.id', 'p.name', 'p.case_type', 'p.main_form_id', 'v.definition']);
  if (!isStaff(actor)) q = q.where('p.public', '=', true);
  const protocols = await q.orderBy('p.name').execute();
  const formOf = (p: (typeof protocols)[number]) => (p.definition as ProtocolDefinition).mainFormVersionId as number;
  const forms = protocols.length ? await db.selectFrom('form_versions').where('id', 'in', protocols.map(formOf)).select(['id', 'definition']).execute() : [];
  return protocols.map((p) => ({ id: p.id, name: p.name, caseType: p.case_type, formId: p.main_form_id, form: forms.find((f) => f.id === formOf(p))?.definition }));
}

/** A protocol this actor may start a case of (staff: any; others: public ones). */
export async function isStartable(db: Db, actor: Actor, protocolId: number): Promise<boolean> {
  const p = await db.selectFrom('protocols').where('id', '=', protocolId).where('entity_id', '=', actor.entityId).select(['public']).executeTakeFirst();
  return !!p && (p.public || isStaff(actor));
}

export async function listDrafts(db: Db, actor: Actor, page: Page) {
  const q = visible(db, actor).where('c.state', '=', 'DRAFT').where('c.owner_id', '=', actor.userId).orderBy('c.updated_at', 'desc').orderBy('c.id', 'desc');
  const { rows, total } = await paginate(q, page);
  return { items: rows.map(caseItem), total };
}

/** The actor's own draft with its form. */
export async function findDraft(db: Db, actor: Actor, id: number) {
  const d = await db
    .selectFrom('cases as c')
    .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
    .innerJoin('form_versions as f', 'f.id', 'c.form_version_id')
    .where('c.id', '=', id)
    .where('c.entity_id', '=', actor.entityId)
    .where('c.owner_id', '=', actor.userId)
    .where('c.state', '=', 'DRAFT')
    .select(['c.id', 'c.protocol_id', 'p.name', 'f.form_id', 'c.data', 'f.definition', 'c.version', 'c.updated_at'])
    .executeTakeFirst();
  if (!d) throw new AppError('NOT_FOUND');
  return { id: d.id, protocolId: d.protocol_id, protocolName: d.name, formId: d.form_id, data: d.data as Record<string, unknown>, form: d.definition, version: d.version, updatedAt: d.updated_at };
}

export async function deleteDraft(db: Db, actor: Actor, id: number): Promise<void> {
  const done = await db.deleteFrom('cases').where('id', '=', id).where('entity_id', '=', actor.entityId).where('owner_id', '=', actor.userId).where('state', '=', 'DRAFT').executeTakeFirst();
  if (Number(done.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
}

// ---------------------------------------------------------------- saved searches (the actor's own)

export async function listSavedSearches(db: Db, actor: Actor) {
  const rows = await db.selectFrom('saved_searches').where('user_id', '=', actor.userId).where('entity_id', '=', actor.entityId).select(['id', 'name', 'query']).orderBy('name').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, query: r.query as Record<string, unknown> }));
}

/** Saves a search under its name, replacing one of the same name. */
export async function saveSearch(db: Db, actor: Actor, name: string, query: Record<string, unknown>) {
  const row = await db
    .insertInto('saved_searches')
    .values({ entity_id: actor.entityId, user_id: actor.userId, name, query: JSON.stringify(query) })
    .onConflict((oc) => oc.columns(['user_id', 'name']).doUpdateSet({ query: JSON.stringify(query) }))
    .returning(['id', 'name', 'query'])
    .executeTakeFirstOrThrow();
  return { id: row.id, name: row.name, query: row.query as Record<string, unknown> };
}

export async function deleteSavedSearch(db: Db, actor: Actor, id: number): Promise<void> {
  const done = await db.deleteFrom('saved_searches').where('id', '=', id).where('user_id', '=', actor.userId).executeTakeFirst();
  if (Number(done.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
}

// ---------------------------------------------------------------- exports (the actor's own)

export async function insertExport(db: Db, actor: Actor, id: string, format: 'csv' | 'xlsx'): Promise<void> {
  await db.deleteFrom('case_exports').where('created_at', '<', sql<Date>`now() - interval '1 day'`).execute();
  await db.insertInto('case_exports').values({ id, entity_id: actor.entityId, user_id: actor.userId, format, filename: null, content: null, error: null }).execute();
}

export async function findExport(db: Db, actor: Actor, id: string) {
  const job = await db
    .selectFrom('case_exports')
    .where('id', '=', id)
    .where('entity_id', '=', actor.entityId)
    .where('user_id', '=', actor.userId)
    .select(['id', 'state', 'format', 'done', 'total', 'filename', 'error'])
    .executeTakeFirst();
  if (!job) throw new AppError('NOT_FOUND');
  return job as typeof job & { state: 'running' | 'done' | 'failed'; format: 'csv' | 'xlsx' };
}

export async function exportContent(db: Db, actor: Actor, id: string): Promise<Buffer> {
  const row = await db.selectFrom('case_exports').where('id', '=', id).where('entity_id', '=', actor.entityId).where('user_id', '=', actor.userId).select('content').executeTakeFirstOrThrow();
  return row.content as Buffer;
}

export async function updateExport(db: Db, id: string, values: { done?: number; total?: number; state?: 'done' | 'failed'; content?: Buffer; filename?: string; error?: string }): Promise<void> {
  await db.updateTable('case_exports').set({ ...values, updated_at: new Date() }).where('id', '=', id).execute();
}

