/**
 * The data tape's SQL. Every finder takes the actor and applies the tenant
 * and the record rules of policy.ts itself: the applications a tape holds
 * are those the actor may see, an export is its starter's alone, and a
 * protocol of another tenant is not found.
 */
import { sql } from 'kysely';
import type { TapeColumn } from '../../../core/api/datatape.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { localNameSql } from '../../lib/localName.js';
import type { Actor } from '../acl/policy.js';
import { type ApplicationRow, availableColumns, defaultColumns } from './columns.js';
import { ownExports, visibleApplications } from './policy.js';

// ---------------------------------------------------------------- protocols and their columns

/** The tenant's published protocols, each saying whether its tape has saved columns. */
export async function tapeProtocols(db: Db, actor: Actor) {
  const rows = await db
    .selectFrom('protocols as p')
    .where('p.entity_id', '=', actor.entityId)
    .where('p.published_version', 'is not', null)
    .select([
      'p.id',
      'p.code',
      localNameSql('p', actor.language).as('name'),
      sql<boolean>`exists (select 1 from data_tape_configs t where t.entity_id = p.entity_id and t.protocol_id = p.id)`.as('saved'),
    ])
    .orderBy('name')
    .orderBy('p.id')
    .execute();
  return { items: rows };
}

export interface TapeProtocol {
  id: number;
  code: string;
  name: string;
  form: FormDefinition;
}

/** A protocol of the actor's tenant with its published main form; NOT_FOUND elsewhere, PROTOCOL_NOT_PUBLISHED before its first publication. */
export async function findTapeProtocol(db: Db, actor: Actor, protocolId: number): Promise<TapeProtocol> {
  const row = await db
    .selectFrom('protocols as p')
    .leftJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .leftJoin('form_versions as fv', (j) => j.on('fv.id', '=', sql<number>`(v.definition->>'mainFormVersionId')::bigint`).onRef('fv.entity_id', '=', 'p.entity_id'))
    .where('p.id', '=', protocolId)
    .where('p.entity_id', '=', actor.entityId)
    .select(['p.id', 'p.code', localNameSql('p', actor.language).as('name'), 'fv.definition'])
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  if (!row.definition) throw new AppError('PROTOCOL_NOT_PUBLISHED');
  return { id: row.id, code: row.code, name: row.name, form: row.definition as FormDefinition };
}

/** The columns saved for the protocol in the actor's tenant, with who saved them last. */
export async function savedConfig(db: Db, actor: Actor, protocolId: number) {
  return db
    .selectFrom('data_tape_configs as t')
    .leftJoin('users as u', 'u.id', 't.updated_by')
    .where('t.entity_id', '=', actor.entityId)
    .where('t.protocol_id', '=', protocolId)
    .select(['t.columns', 't.updated_at', 'u.name as updated_by'])
    .executeTakeFirst();
}

export async function upsertConfig(db: Db, actor: Actor, protocolId: number, columns: TapeColumn[]): Promise<void> {
  const values = { entity_id: actor.entityId, protocol_id: protocolId, columns: JSON.stringify(columns), updated_by: actor.userId, updated_at: new Date() };
  await db
    .insertInto('data_tape_configs')
    .values(values)
    .onConflict((oc) => oc.columns(['entity_id', 'protocol_id']).doUpdateSet({ columns: values.columns, updated_by: values.updated_by, updated_at: values.updated_at }))
    .execute();
}

export async function deleteConfig(db: Db, actor: Actor, protocolId: number): Promise<void> {
  await db.deleteFrom('data_tape_configs').where('entity_id', '=', actor.entityId).where('protocol_id', '=', protocolId).execute();
}

// ---------------------------------------------------------------- the applications

function applications(db: Db, actor: Actor, protocolId: number) {
  return db.selectFrom('cases as c').where('c.entity_id', '=', actor.entityId).where('c.protocol_id', '=', protocolId).where(visibleApplications(actor) as never);
}

export async function countApplications(db: Db, actor: Actor, protocolId: number): Promise<number> {
  const row = await applications(db, actor, protocolId).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Field names as a JSON path (names are checked by the form: letters, digits and _). */
const jsonPath = (group: string) => `$${group.split('.').map((name, i, all) => `."${name}"${i < all.length - 1 ? '[*]' : ''}`).join('')}`;

/** The most rows any visible application holds in each repeat group (by path; groups inside groups counted per row). */
export async function repeatCounts(db: Db, actor: Actor, protocolId: number, groups: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (groups.length === 0) return counts;
  const row = await applications(db, actor, protocolId)
    .select(
      groups.map((group, i) =>
        sql<number | null>`max((select max(jsonb_array_length(x)) from jsonb_path_query(c.data, ${jsonPath(group)}::jsonpath) x where jsonb_typeof(x) = 'array'))`.as(`g${i}`),
      ),
    )
    .executeTakeFirstOrThrow();
  groups.forEach((group, i) => counts.set(group, Number((row as Record<string, unknown>)[`g${i}`] ?? 0)));
  return counts;
}

/** The next applications after `afterId`, in id order, with what the tape's case columns show. */
export async function applicationBatch(db: Db, actor: Actor, protocolId: number, afterId: number, limit: number): Promise<ApplicationRow[]> {
  return applications(db, actor, protocolId)
    .leftJoin('users as o', 'o.id', 'c.owner_id')
    .where('c.id', '>', afterId)
    .select([
      'c.id', 'c.serial', 'c.state', 'c.created_at', 'c.doc_date', 'c.updated_at', 'c.closed_at', 'c.data', 'o.name as owner_name', 'o.email as owner_email',
      sql<string>`trim(coalesce(c.data->>'firstName', '') || ' ' || coalesce(c.data->>'lastName', ''))`.as('applicant'),
    ])
    .orderBy('c.id')
    .limit(limit)
    .execute();
}

// ---------------------------------------------------------------- exports (the actor's own)

const EXPORT_VIEW = [
  'x.id', 'x.protocol_id', 'x.format', 'x.headers', 'x.state', 'x.done', 'x.total', 'x.column_count', 'x.filename', 'x.bytes', 'x.error', 'x.created_at', 'x.updated_at',
] as const;

function ownExportsQuery(db: Db, actor: Actor) {
  return db
    .selectFrom('data_tape_exports as x')
    .innerJoin('protocols as p', 'p.id', 'x.protocol_id')
    .where(ownExports(actor) as never)
    .select([...EXPORT_VIEW, localNameSql('p', actor.language).as('protocol_name')]);
}
type ExportRow = Awaited<ReturnType<ReturnType<typeof ownExportsQuery>['executeTakeFirstOrThrow']>>;

/** An export as the API shows it; the error stays a translation key here (the route translates it). */
const exportItem = (r: ExportRow) => ({
  id: r.id,
  protocolId: r.protocol_id,
  protocolName: r.protocol_name,
  format: r.format,
  headers: r.headers,
  state: r.state,
  done: r.done,
  total: r.total,
  columns: r.column_count,
  filename: r.filename,
  bytes: r.bytes,
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
export type TapeExportItem = ReturnType<typeof exportItem>;

export async function findTapeExport(db: Db, actor: Actor, id: string): Promise<TapeExportItem> {
  const row = await ownExportsQuery(db, actor).where('x.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return exportItem(row);
}

/** The actor's exports of the last day, newest first. */
export async function listTapeExports(db: Db, actor: Actor) {
  const rows = await ownExportsQuery(db, actor).orderBy('x.created_at', 'desc').orderBy('x.id').limit(50).execute();
  return { items: rows.map(exportItem) };
}

/** A new running export of the actor; exports older than a day (theirs and everyone's) go first, their files with them. */
export async function insertTapeExport(
  db: Db,
  actor: Actor,
  values: { id: string; protocolId: number; format: 'csv' | 'xlsx'; headers: 'es' | 'en' | 'keys'; columns: TapeColumn[] },
): Promise<void> {
  await db.deleteFrom('data_tape_exports').where('created_at', '<', sql<Date>`now() - interval '1 day'`).execute();
  await db
    .insertInto('data_tape_exports')
    .values({ id: values.id, entity_id: actor.entityId, user_id: actor.userId, protocol_id: values.protocolId, format: values.format, headers: values.headers, columns: JSON.stringify(values.columns) })
    .execute();
}

/** The job's claim: the running export `id` of `userId`, touched; undefined when it is not (done, failed, gone, another's). */
export async function claimTapeExport(db: Db, id: string, userId: number) {
  return db
    .updateTable('data_tape_exports')
    .set({ updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('state', '=', 'running')
    .returning(['id', 'entity_id', 'user_id', 'protocol_id', 'format', 'headers', 'columns', 'created_at'])
    .executeTakeFirst();
}

/** Progress or the outcome of a running export (a finished one is never changed again). */
export async function updateTapeExport(
  db: Db,
  id: string,
  values: { done?: number; total?: number; column_count?: number; state?: 'done' | 'failed'; filename?: string; bytes?: number; error?: string },
): Promise<void> {
  await db.updateTable('data_tape_exports').set({ ...values, updated_at: new Date() }).where('id', '=', id).where('state', '=', 'running').execute();
}

/** Running exports left untouched for `minutes` (their process gone): the ids. */
export async function staleTapeExports(db: Db, minutes: number): Promise<string[]> {
  const rows = await db
    .selectFrom('data_tape_exports')
    .where('state', '=', 'running')
    .where('updated_at', '<', sql<Date>`now() - make_interval(mins => ${minutes})`)
    .select('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function failTapeExport(db: Db, id: string, error: string, staleMinutes?: number): Promise<void> {
  let q = db.updateTable('data_tape_exports').set({ state: 'failed', error, updated_at: new Date() }).where('id', '=', id).where('state', '=', 'running');
  if (staleMinutes !== undefined) q = q.where('updated_at', '<', sql<Date>`now() - make_interval(mins => ${staleMinutes})`);
  await q.execute();
}

// ---------------------------------------------------------------- the file, in chunks

/** A try starts its file afresh: whatever an earlier try of the export wrote goes. */
export async function deleteChunks(db: Db, exportId: string): Promise<void> {
  await db.deleteFrom('data_tape_chunks').where('export_id', '=', exportId).execute();
}

export async function insertChunk(db: Db, exportId: string, seq: number, content: Buffer): Promise<void> {
  await db.insertInto('data_tape_chunks').values({ export_id: exportId, seq, content }).execute();
}

/** The file of the actor's finished export, chunk by chunk (one chunk in memory at a time). */
export async function* tapeChunks(db: Db, actor: Actor, exportId: string): AsyncGenerator<Buffer> {
  await findTapeExport(db, actor, exportId);
  for (let seq = 0; ; seq++) {
    const chunk = await db.selectFrom('data_tape_chunks').where('export_id', '=', exportId).where('seq', '=', seq).select('content').executeTakeFirst();
    if (!chunk) return;
    yield chunk.content;
  }
}

// ---------------------------------------------------------------- the configuration as the API shows it

/** The protocol's tape: its saved columns (or the default: every available column), and what its form offers. */
export async function tapeConfig(db: Db, actor: Actor, protocolId: number) {
  const protocol = await findTapeProtocol(db, actor, protocolId);
  const available = availableColumns(protocol.form);
  const saved = await savedConfig(db, actor, protocolId);
  return {
    protocolId: protocol.id,
    protocolName: protocol.name,
    columns: saved?.columns ?? defaultColumns(available),
    available,
    saved: saved !== undefined,
    updatedAt: saved?.updated_at ?? null,
    updatedBy: saved?.updated_by ?? null,
  };
}
