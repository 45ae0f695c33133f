/**
 * The masters' SQL. Every finder takes the actor and reads its tenant only;
 * the list shows the masters the actor may see (policy.ts `visibleMasters`)
 * and reading a master or its items checks the master's target, so a
 * handler cannot reach another tenant's master nor one it may not read.
 * Rows are mapped to the API's shapes here.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, type Page, paginate } from '../../lib/list.js';
import { localNameSql } from '../../lib/localName.js';
import type { Actor, Doer } from '../acl/policy.js';
import { assertMasterRead, masterActions, visibleMasters } from './policy.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

/** A master as the commands act on it. */
export interface MasterRow {
  id: number;
  code: string;
  name: string;
  description: string;
  public: boolean;
  parent_id: number | null;
  parent_code: string | null;
  system: boolean;
}

function masters(db: Executor, doer: Doer) {
  return db
    .selectFrom('masters as m')
    .leftJoin('masters as p', 'p.id', 'm.parent_id')
    .where('m.entity_id', '=', doer.entityId)
    .select(['m.id', 'm.code', 'm.name', 'm.description', 'm.public', 'm.parent_id', 'm.system', 'p.code as parent_code']);
}

/** The master's URL for public forms, when it is public. */
function publicUrl(baseUrl: string, actor: Actor, m: { code: string; public: boolean }): string | null {
  return m.public ? `${baseUrl}/api/public/masters/${encodeURIComponent(actor.entity.docnumber)}/${m.code}` : null;
}

const masterView = (baseUrl: string, actor: Actor, m: MasterRow & { items: number }) => ({
  id: m.id,
  code: m.code,
  name: m.name,
  description: m.description,
  public: m.public,
  parentCode: m.parent_code,
  system: m.system,
  items: m.items,
  publicUrl: publicUrl(baseUrl, actor, m),
  actions: masterActions(actor, m),
});

const itemCount = sql<number>`(select count(*) from master_items i where i.entity_id = m.entity_id and i.master_id = m.id)::int`.as('items');

// ---------------------------------------------------------------- masters

export async function listMasters(db: Db, baseUrl: string, actor: Actor, f: Page & { search?: string; sortBy?: 'code' | 'name'; descending?: boolean }) {
  let q = masters(db, actor)
    .where(visibleMasters(actor) as never)
    .select(itemCount);
  if (f.search) {
    const p = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('m.code', 'ilike', p), eb('m.name', 'ilike', p)]));
  }
  q = q.orderBy(`m.${f.sortBy ?? 'name'}`, f.descending ? 'desc' : 'asc').orderBy('m.id');
  const { rows, total } = await paginate(q, f);
  return { items: rows.map((m) => masterView(baseUrl, actor, m)), total };
}

/** The tenant's master by code, NOT_FOUND otherwise; the caller checks what the actor may do on it. */
export async function findMaster(db: Executor, doer: Doer, code: string): Promise<MasterRow> {
  const m = await masters(db, doer).where('m.code', '=', code).executeTakeFirst();
  if (!m) throw new AppError('NOT_FOUND');
  return m;
}

/** The master, locked for update, of the doer's tenant. */
export async function lockMaster(trx: Trx, doer: Doer, code: string): Promise<MasterRow> {
  const locked = await trx.selectFrom('masters').where('entity_id', '=', doer.entityId).where('code', '=', code).select('id').forUpdate().executeTakeFirst();
  if (!locked) throw new AppError('NOT_FOUND');
  return findMaster(trx, doer, code);
}

/** A master the actor may read: NOT_FOUND when the tenant has none of that code, FORBIDDEN without its target. */
export async function readMaster(db: Db, actor: Actor, code: string): Promise<MasterRow> {
  const m = await findMaster(db, actor, code);
  assertMasterRead(actor, m);
  return m;
}

/** GET /api/masters/:code, and what the writes answer. */
export async function masterDetail(db: Executor, baseUrl: string, actor: Actor, code: string) {
  const m = await masters(db, actor).where('m.code', '=', code).select(itemCount).executeTakeFirst();
  if (!m) throw new AppError('NOT_FOUND');
  return masterView(baseUrl, actor, m);
}

/** The tenant's masters as the parent chain needs them. */
export function masterTree(db: Executor, doer: Doer) {
  return db.selectFrom('masters').where('entity_id', '=', doer.entityId).select(['id', 'code', 'parent_id']).execute();
}

export async function insertMaster(db: Executor, doer: Doer, m: { code: string; name: string; description: string; public: boolean; parentId: number | null }): Promise<void> {
  await db.insertInto('masters').values({ entity_id: doer.entityId, code: m.code, name: m.name, description: m.description, public: m.public, parent_id: m.parentId }).execute();
}

export async function updateMaster(db: Executor, doer: Doer, id: number, m: { code: string; name: string; description: string; public: boolean; parentId: number | null }): Promise<void> {
  await db
    .updateTable('masters')
    .set({ code: m.code, name: m.name, description: m.description, public: m.public, parent_id: m.parentId })
    .where('id', '=', id)
    .where('entity_id', '=', doer.entityId)
    .execute();
}

/** Whether any item of the master hangs from an item of its parent master. */
export async function hasItemsWithParents(db: Executor, doer: Doer, masterId: number): Promise<boolean> {
  return (await db.selectFrom('master_items').where('entity_id', '=', doer.entityId).where('master_id', '=', masterId).where('parent_item_id', 'is not', null).select('id').executeTakeFirst()) !== undefined;
}

export async function hasChildMasters(db: Executor, masterId: number): Promise<boolean> {
  return (await db.selectFrom('masters').where('parent_id', '=', masterId).select('id').executeTakeFirst()) !== undefined;
}

export async function removeMaster(db: Executor, doer: Doer, id: number): Promise<void> {
  await db.deleteFrom('masters').where('id', '=', id).where('entity_id', '=', doer.entityId).execute();
}

// ---------------------------------------------------------------- items

function items(db: Executor, doer: Doer, masterId: number) {
  return db
    .selectFrom('master_items as i')
    .leftJoin('master_items as p', 'p.id', 'i.parent_item_id')
    .where('i.entity_id', '=', doer.entityId)
    .where('i.master_id', '=', masterId)
    .select(['i.id', 'i.code', 'i.name', 'i.name_en', 'i.active', 'i.extra', 'p.code as parent_code', 'p.name as parent_name']);
}
type ItemRow = { id: number; code: string; name: string; name_en: string; active: boolean; extra: unknown; parent_code: string | null; parent_name: string | null };
const itemView = (i: ItemRow) => ({ id: i.id, code: i.code, name: i.name, nameEn: i.name_en, active: i.active, extra: i.extra as Record<string, unknown>, parentCode: i.parent_code, parentName: i.parent_name });

export async function listItems(
  db: Db,
  actor: Actor,
  code: string,
  f: Page & { search?: string; sortBy?: 'code' | 'name'; descending?: boolean; parent?: string; active?: boolean },
) {
  const m = await readMaster(db, actor, code);
  let q = items(db, actor, m.id);
  if (f.search) {
    const p = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('i.code', 'ilike', p), eb('i.name', 'ilike', p), eb('i.name_en', 'ilike', p)]));
  }
  if (f.parent !== undefined) q = q.where('p.code', '=', f.parent);
  if (f.active !== undefined) q = q.where('i.active', '=', f.active);
  q = q.orderBy(`i.${f.sortBy ?? 'name'}`, f.descending ? 'desc' : 'asc').orderBy('i.id');
  const { rows, total } = await paginate(q, f);
  return { items: rows.map(itemView), total };
}

/** Every item of a master the actor may read, by code, for the CSV export. */
export async function allItems(db: Db, actor: Actor, code: string) {
  const m = await readMaster(db, actor, code);
  return { master: m, items: (await items(db, actor, m.id).orderBy('i.code').execute()).map(itemView) };
}

/** One item of a master (already found for the doer). */
export async function findItem(db: Executor, doer: Doer, masterId: number, id: number) {
  const i = await items(db, doer, masterId).where('i.id', '=', id).executeTakeFirst();
  if (!i) throw new AppError('NOT_FOUND');
  return itemView(i);
}

/** The id of the item of `masterId` with this code, if any. */
export async function itemIdByCode(db: Executor, doer: Doer, masterId: number, code: string): Promise<number | undefined> {
  return (await db.selectFrom('master_items').where('entity_id', '=', doer.entityId).where('master_id', '=', masterId).where('code', '=', code).select('id').executeTakeFirst())?.id;
}

/** A master's items as code -> id. */
export async function itemIds(db: Executor, doer: Doer, masterId: number): Promise<Map<string, number>> {
  const rows = await db.selectFrom('master_items').where('entity_id', '=', doer.entityId).where('master_id', '=', masterId).select(['id', 'code']).execute();
  return new Map(rows.map((r) => [r.code, r.id]));
}

export interface ItemValues {
  code: string;
  name: string;
  /** The English name; '' for none. */
  nameEn: string;
  parentItemId: number | null;
  active: boolean;
  extra: Record<string, unknown>;
}

export async function insertItem(db: Executor, doer: Doer, masterId: number, v: ItemValues): Promise<number> {
  const row = await db
    .insertInto('master_items')
    .values({ entity_id: doer.entityId, master_id: masterId, code: v.code, name: v.name, name_en: v.nameEn, parent_item_id: v.parentItemId, active: v.active, extra: JSON.stringify(v.extra) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateItem(db: Executor, doer: Doer, masterId: number, id: number, v: ItemValues): Promise<void> {
  const updated = await db
    .updateTable('master_items')
    .set({ code: v.code, name: v.name, name_en: v.nameEn, parent_item_id: v.parentItemId, active: v.active, extra: JSON.stringify(v.extra) })
    .where('id', '=', id)
    .where('master_id', '=', masterId)
    .where('entity_id', '=', doer.entityId)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw new AppError('NOT_FOUND');
}

export async function hasChildItems(db: Executor, doer: Doer, itemId: number): Promise<boolean> {
  return (await db.selectFrom('master_items').where('entity_id', '=', doer.entityId).where('parent_item_id', '=', itemId).select('id').executeTakeFirst()) !== undefined;
}

export async function removeItem(db: Executor, doer: Doer, masterId: number, id: number): Promise<void> {
  const deleted = await db.deleteFrom('master_items').where('id', '=', id).where('master_id', '=', masterId).where('entity_id', '=', doer.entityId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
}

/**
 * Inserts the items, or updates those whose code the master has (the CSV import), 500 rows a statement;
 * `keepNameEn` (a file without the English column) leaves the English names of updated items as they are.
 */
export async function upsertItems(trx: Trx, doer: Doer, masterId: number, rows: ItemValues[], keepNameEn = false): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await trx
      .insertInto('master_items')
      .values(rows.slice(i, i + 500).map((r) => ({ entity_id: doer.entityId, master_id: masterId, code: r.code, name: r.name, name_en: r.nameEn, parent_item_id: r.parentItemId, active: r.active, extra: JSON.stringify(r.extra) })))
      .onConflict((oc) =>
        oc.columns(['entity_id', 'master_id', 'code']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          name_en: keepNameEn ? eb.ref('master_items.name_en') : eb.ref('excluded.name_en'),
          parent_item_id: eb.ref('excluded.parent_item_id'),
          active: eb.ref('excluded.active'),
          extra: eb.ref('excluded.extra'),
        })),
      )
      .execute();
  }
}

// ---------------------------------------------------------------- public

/** Active items of a public master of an active tenant, or undefined when there is no such public master. */
/** A public master's active items, each named in `language` (the other name when it has none). */
export async function publicItems(db: Db, entityDocnumber: string, code: string, language: string, parent?: string) {
  const m = await db
    .selectFrom('masters as m')
    .innerJoin('entities as e', 'e.id', 'm.entity_id')
    .where('e.docnumber', '=', entityDocnumber)
    .where('e.active', '=', true)
    .where('m.code', '=', code)
    .where('m.public', '=', true)
    .select(['m.id', 'm.entity_id'])
    .executeTakeFirst();
  if (!m) return undefined;
  let q = db
    .selectFrom('master_items as i')
    .leftJoin('master_items as p', 'p.id', 'i.parent_item_id')
    .where('i.entity_id', '=', m.entity_id)
    .where('i.master_id', '=', m.id)
    .where('i.active', '=', true)
    .select(['i.code', localNameSql('i', language).as('name'), 'p.code as parent'])
    .orderBy('name')
    .limit(5000);
  if (parent) q = q.where('p.code', '=', parent);
  return q.execute();
}
