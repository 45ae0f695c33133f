/**
 * The cases' SQL. Every finder takes the actor and applies the tenant and
 * the record visibility itself (policy.ts `visibleCases`): a handler cannot
 * reach a case its caller may not see, whatever its route declares. Rows
 * are mapped to the API's shapes here, at the boundary.
 */
import { sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { CaseFilters, correctionSchema } from '../../../core/api/cases.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import { scopeFields } from '../../../core/forms/validator.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { CaseState } from '../../../core/workflow/states.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { countCapped, paginate, paginateCapped, type Page } from '../../lib/list.js';
import type { Actor, Doer } from '../acl/policy.js';
import { CHECKLIST_MASTER } from '../comments/repo.js';
import { caseFilterConditions } from './filters.js';
import { can } from '../acl/policy.js';
import { masterLabels } from '../forms/options.js';
import { caseActions, isStaff, visibleCases } from './policy.js';
import type { FiltersOnly } from './schema.js';
import { gatherThenSort } from './textSearch.js';
import { localNameSql } from '../../lib/localName.js';

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
        sql<string>`(select ${localNameSql('p', actor.language)} from protocols p where p.id = c.protocol_id)`.as('protocol_name'),
        sql<string>`(select o.name from users o where o.id = c.owner_id)`.as('owner_name'),
        'c.possible_duplicated', 'c.created_at', 'c.updated_at',
        sql<string>`trim(coalesce(c.data->>'firstName', '') || ' ' || coalesce(c.data->>'lastName', ''))`.as('applicant'),
        sql<number>`(select count(*) from tasks t where t.entity_id = c.entity_id and t.case_id = c.id and t.state in ('UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY'))::int`.as('open_tasks'),
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

/** GET /api/cases/:id: the case, its participants, the names of the master items it holds, its open correction, and what the actor may do on it. */
export async function findCaseDetail(db: Db, actor: Actor, id: number) {
  const c = await findCase(db, actor, id);
  const [participants, optionLabels, correction] = await Promise.all([
    participantsOf(db, actor.entityId, c.id),
    masterLabels(db, actor.entityId, c.form, c.data, actor.language),
    openCorrectionOf(db, { id: c.id, entityId: actor.entityId }),
  ]);
  return {
    ...c,
    optionLabels,
    participants,
    correction,
    actions: caseActions(actor, { state: c.state, ownerId: c.ownerId, correctionOpen: correction !== null }),
    canSeeHistory: can(actor, 'historialaplicacion', 'show'),
    canSeeSimilar: can(actor, 'aplicacionessimilares', 'show'),
  };
}

export function participantsOf(db: Db, entityId: number, caseId: number) {
  return db
    .selectFrom('case_participants as cp')
    .innerJoin('users as u', 'u.id', 'cp.user_id')
    .where('cp.entity_id', '=', entityId)
    .where('cp.case_id', '=', caseId)
    .select(['u.id', 'u.name'])
    .execute();
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
    .select(['e.id', 'e.action', 'e.type', 'u.name as user_name', localNameSql<string | null>('t', actor.language).as('task_name'), 'e.detail', 'e.created_at'])
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

/** The case's form: its version's id and definition. */
export async function caseFormOf(trx: Trx, caseId: number): Promise<{ versionId: number; def: FormDefinition }> {
  const row = await trx
    .selectFrom('cases as c')
    .innerJoin('form_versions as f', 'f.id', 'c.form_version_id')
    .where('c.id', '=', caseId)
    .select(['f.id', 'f.definition'])
    .executeTakeFirstOrThrow();
  return { versionId: row.id, def: row.definition as FormDefinition };
}

/** The definition of the protocol version the case runs on (none for a case without one). */
export async function caseProtocolDefinition(trx: Trx, c: Pick<CaseRow, 'protocol_version_id'>): Promise<ProtocolDefinition | undefined> {
  if (!c.protocol_version_id) return undefined;
  const row = await trx.selectFrom('protocol_versions').where('id', '=', c.protocol_version_id).select('definition').executeTakeFirst();
  return row?.definition as ProtocolDefinition | undefined;
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
  await trx.deleteFrom('case_participants').where('entity_id', '=', c.entity_id).where('case_id', '=', c.id).execute();
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

// ---------------------------------------------------------------- corrections (returned to the applicant, issue 18)

type Correction = z.infer<typeof correctionSchema>;

export interface CorrectionRow {
  id: number;
  case_id: number;
  requested_by: number | null;
  reason: string;
  fields: string[];
  documents: string[];
  state: 'open' | 'resubmitted' | 'cancelled';
  created_at: Date;
  resubmitted_at: Date | null;
}

const CORRECTION_ROW = ['k.id', 'k.case_id', 'k.requested_by', 'k.reason', 'k.fields', 'k.documents', 'k.state', 'k.created_at', 'k.resubmitted_at'] as const;

/** The open correction of a case, locked; the caller holds the case's lock (lockCase), which decided who may see it. */
export function lockOpenCorrection(trx: Trx, c: Pick<CaseRow, 'id' | 'entity_id'>): Promise<CorrectionRow | undefined> {
  return trx.selectFrom('case_corrections as k').where('k.entity_id', '=', c.entity_id).where('k.case_id', '=', c.id).where('k.state', '=', 'open').select(CORRECTION_ROW).forUpdate().executeTakeFirst();
}

/** Names of the tenant's checklist documents (the `definiciones` master) by code, inactive ones too. */
export async function checklistNames(db: Executor, entityId: number, codes: readonly string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom('master_items as i')
    .innerJoin('masters as ms', 'ms.id', 'i.master_id')
    .where('ms.entity_id', '=', entityId)
    .where('i.entity_id', '=', entityId)
    .where('ms.code', '=', CHECKLIST_MASTER)
    .where('i.code', 'in', [...codes])
    .select(['i.code', 'i.name'])
    .execute();
  return new Map(rows.map((r) => [r.code, r.name]));
}

/** The open correction of a case the caller found through a finder (so the actor may see it), as the API shows it; null when none is open. */
export async function openCorrectionOf(db: Executor, c: { id: number; entityId: number }): Promise<Correction | null> {
  const row = await db
    .selectFrom('case_corrections as k')
    .leftJoin('users as u', 'u.id', 'k.requested_by')
    .where('k.case_id', '=', c.id)
    .where('k.entity_id', '=', c.entityId)
    .where('k.state', '=', 'open')
    .select([...CORRECTION_ROW, 'u.name as requested_by_name'])
    .executeTakeFirst();
  if (!row) return null;
  const names = await checklistNames(db, c.entityId, row.documents);
  return {
    id: row.id,
    state: row.state,
    reason: row.reason,
    fields: row.fields,
    documents: row.documents.map((code) => ({ code, name: names.get(code) ?? code })),
    requestedBy: row.requested_by_name,
    requestedAt: row.created_at,
    resubmittedAt: row.resubmitted_at,
  };
}

export async function insertCorrection(trx: Trx, v: { entityId: number; caseId: number; requestedBy: number; reason: string; fields: string[]; documents: string[] }): Promise<number> {
  const row = await trx
    .insertInto('case_corrections')
    .values({ entity_id: v.entityId, case_id: v.caseId, requested_by: v.requestedBy, reason: v.reason, fields: v.fields, documents: v.documents })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Ends a correction: resubmitted with the files given per document, or cancelled by someone (or by the case's end). */
export async function endCorrection(
  trx: Trx,
  id: number,
  end: { state: 'resubmitted'; uploads: Record<string, Array<{ id: string; name: string; size?: number }>> } | { state: 'cancelled'; by: number | null },
): Promise<void> {
  const now = new Date();
  await trx
    .updateTable('case_corrections')
    .set(end.state === 'resubmitted' ? { state: 'resubmitted', resubmitted_at: now, uploads: JSON.stringify(end.uploads) } : { state: 'cancelled', cancelled_at: now, cancelled_by: end.by })
    .where('id', '=', id)
    .where('state', '=', 'open')
    .execute();
}

/** Cancels the open correction of a case, if any (the case ended); returns its id. */
export async function cancelOpenCorrection(trx: Trx, c: Pick<CaseRow, 'id' | 'entity_id'>): Promise<number | undefined> {
  const row = await trx
    .updateTable('case_corrections')
    .set({ state: 'cancelled', cancelled_at: new Date() })
    .where('entity_id', '=', c.entity_id)
    .where('case_id', '=', c.id)
    .where('state', '=', 'open')
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** A new version of the case, without other change: what it shows changed (a correction asked for or ended), so open pages refetch and stale saves are refused. */
export async function touchCase(trx: Trx, caseId: number): Promise<number> {
  const row = await trx.updateTable('cases').set({ version: sql`version + 1`, updated_at: new Date() }).where('id', '=', caseId).returning('version').executeTakeFirstOrThrow();
  return row.version;
}

/** The files of the tenant uploaded by the actor among these ids, with their stored names and sizes. */
export function ownUploads(trx: Trx, actor: Actor, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return trx.selectFrom('files').where('id', 'in', ids).where('entity_id', '=', actor.entityId).where('created_by', '=', actor.userId).select(['id', 'name', 'size']).execute();
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

