/**
 * What changes masters, as named verbs, one transaction each: create,
 * change and delete a master (its parent chain checked: no cycles, four
 * levels at most); add, change and delete an item (its parent item must be
 * of the parent master); import items from CSV (per-row errors; nothing
 * written on a dry run). Each checks policy.ts on the master first; REST
 * and the seed can call the same functions.
 */
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { CsvError, csvRecords, decodeCsv, parseCsv } from '../../lib/csv.js';
import type { Actor } from '../acl/policy.js';
import { assertMasterAction } from './policy.js';
import {
  findItem,
  findMaster,
  hasChildItems,
  hasChildMasters,
  hasItemsWithParents,
  insertItem,
  insertMaster,
  itemIdByCode,
  itemIds,
  type ItemValues,
  lockMaster,
  masterTree,
  type MasterRow,
  removeItem,
  removeMaster,
  updateItem,
  updateMaster,
  upsertItems,
} from './repo.js';
import { type ItemBody, itemBody, type MasterBody } from './schema.js';

type Executor = Parameters<typeof findMaster>[0];

// ---------------------------------------------------------------- masters

/** The parent master's id; its chain of parents must not reach back to this master (no cycles) nor go deeper than 4. */
async function parentMasterId(db: Executor, actor: Actor, parentCode: string | null, selfCode: string): Promise<number | null> {
  if (!parentCode) return null;
  const refuse = () => new AppError('VALIDATION', {}, [{ path: 'parentCode', message: 'validation.chooseOption' }]);
  const all = await masterTree(db, actor);
  const byId = new Map(all.map((m) => [m.id, m]));
  const parent = all.find((m) => m.code === parentCode);
  if (!parent) throw refuse();
  let node: (typeof all)[number] | undefined = parent;
  for (let depth = 0; node; depth++) {
    if (node.code === selfCode || depth >= 4) throw refuse();
    node = node.parent_id === null ? undefined : byId.get(node.parent_id);
  }
  return parent.id;
}

/** Creates a master (menu_maestros work); returns its code. */
export function createMaster(db: Db, actor: Actor, b: MasterBody): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const parentId = await parentMasterId(trx, actor, b.parentCode, b.code);
    await insertMaster(trx, actor, { code: b.code, name: b.name, description: b.description, public: b.public, parentId });
    return b.code;
  });
}

/**
 * Changes a master: a system master keeps its code; its parent may change
 * only while no item hangs from an item of the old parent. Returns its code.
 */
export function changeMaster(db: Db, actor: Actor, code: string, b: MasterBody): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const m = await lockMaster(trx, actor, code);
    assertMasterAction(actor, m, 'edit');
    if (m.system && b.code !== m.code) throw new AppError('SYSTEM_RECORD');
    const parentId = await parentMasterId(trx, actor, b.parentCode, m.code);
    if (parentId !== m.parent_id && (await hasItemsWithParents(trx, actor, m.id))) throw new AppError('IN_USE');
    await updateMaster(trx, actor, m.id, { code: b.code, name: b.name, description: b.description, public: b.public, parentId });
    return b.code;
  });
}

/** Deletes a master that is not a system one and that no master names as its parent. */
export function deleteMaster(db: Db, actor: Actor, code: string): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const m = await lockMaster(trx, actor, code);
    assertMasterAction(actor, m, 'delete');
    if (await hasChildMasters(trx, m.id)) throw new AppError('IN_USE');
    await removeMaster(trx, actor, m.id);
  });
}

// ---------------------------------------------------------------- items

/** The parent item's id: required (an item of the parent master) when the master has a parent, refused otherwise. */
async function parentItemId(db: Executor, actor: Actor, m: MasterRow, parentCode: string | null): Promise<number | null> {
  if (m.parent_id === null) {
    if (parentCode) throw new AppError('VALIDATION', {}, [{ path: 'parentCode', message: 'masters.noParentMaster' }]);
    return null;
  }
  if (!parentCode) throw new AppError('VALIDATION', {}, [{ path: 'parentCode', message: 'validation.chooseOption' }]);
  const id = await itemIdByCode(db, actor, m.parent_id, parentCode);
  if (id === undefined) throw new AppError('VALIDATION', {}, [{ path: 'parentCode', message: 'validation.chooseOption' }]);
  return id;
}

const itemValues = async (db: Executor, actor: Actor, m: MasterRow, b: ItemBody): Promise<ItemValues> => ({
  code: b.code,
  name: b.name,
  nameEn: b.nameEn,
  parentItemId: await parentItemId(db, actor, m, b.parentCode),
  active: b.active,
  extra: b.extra,
});

/** Adds an item to a master; returns the master's id and the item's. */
export function addItem(db: Db, actor: Actor, code: string, b: ItemBody): Promise<{ masterId: number; id: number }> {
  return db.transaction().execute(async (trx) => {
    const m = await findMaster(trx, actor, code);
    assertMasterAction(actor, m, 'addItems');
    return { masterId: m.id, id: await insertItem(trx, actor, m.id, await itemValues(trx, actor, m, b)) };
  });
}

export function changeItem(db: Db, actor: Actor, code: string, id: number, b: ItemBody): Promise<{ masterId: number; id: number }> {
  return db.transaction().execute(async (trx) => {
    const m = await findMaster(trx, actor, code);
    assertMasterAction(actor, m, 'editItems');
    await updateItem(trx, actor, m.id, id, await itemValues(trx, actor, m, b));
    return { masterId: m.id, id };
  });
}

/** Deletes an item that no item of a child master hangs from. */
export function deleteItem(db: Db, actor: Actor, code: string, id: number): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const m = await findMaster(trx, actor, code);
    assertMasterAction(actor, m, 'deleteItems');
    await findItem(trx, actor, m.id, id);
    if (await hasChildItems(trx, actor, id)) throw new AppError('IN_USE');
    await removeItem(trx, actor, m.id, id);
  });
}

// ---------------------------------------------------------------- CSV import

export interface ImportResult {
  dryRun: boolean;
  created: number;
  updated: number;
  errors: Array<{ line: number; column: string | null; message: string }>;
}

/**
 * Imports items from a CSV (columns code, name, name_en, parent, active; any other
 * column is an extra attribute): each row is checked as the item dialog
 * checks it, errors are reported by line in the caller's language, and the
 * good rows are inserted or update the item of the same code. A dry run
 * writes nothing. The file is the raw body of a text/csv request.
 */
export async function importItems(db: Db, actor: Actor, code: string, file: unknown, options: { dryRun: boolean; lang: 'en' | 'es' }): Promise<ImportResult> {
  const m = await findMaster(db, actor, code);
  assertMasterAction(actor, m, 'addItems');
  if (!Buffer.isBuffer(file)) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  let records: Array<Record<string, string>>;
  let header: string[];
  try {
    ({ header, records } = csvRecords(parseCsv(decodeCsv(file), { maxRows: 50_000, maxColumns: 40 })));
  } catch (e) {
    if (e instanceof CsvError) throw new AppError('VALIDATION', {}, [{ path: 'file', message: `csv.${e.reason}` }]);
    throw e;
  }
  if (!header.includes('code') || !header.includes('name')) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'masters.csvNeedsCodeName' }]);

  const errors: ImportResult['errors'] = [];
  const parents = m.parent_id ? await itemIds(db, actor, m.parent_id) : new Map<string, number>();
  const existing = await itemIds(db, actor, m.id);
  const seen = new Set<string>();
  const rows: ItemValues[] = [];
  records.forEach((r, index) => {
    const line = index + 2; // the header is line 1
    const fail = (column: string | null, key: string) => errors.push({ line, column, message: translate(options.lang, key) });
    const parsed = itemBody.safeParse({ code: r.code, name: r.name, nameEn: r.name_en ?? '', parentCode: r.parent || null, active: r.active ? !/^(false|no|0|inactive|inactivo)$/i.test(r.active) : true });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) fail(String(issue.path[0] ?? ''), issue.message);
      return;
    }
    if (seen.has(parsed.data.code)) return fail('code', 'masters.duplicateInFile');
    seen.add(parsed.data.code);
    let parent: number | null = null;
    if (m.parent_id !== null) {
      parent = parents.get(parsed.data.parentCode ?? '') ?? null;
      if (parent === null) return fail('parent', 'validation.chooseOption');
    } else if (parsed.data.parentCode) return fail('parent', 'masters.noParentMaster');
    const extra = Object.fromEntries(header.filter((h) => !['code', 'name', 'name_en', 'parent', 'active'].includes(h) && h).map((h) => [h, r[h]]));
    rows.push({ code: parsed.data.code, name: parsed.data.name, nameEn: parsed.data.nameEn, parentItemId: parent, active: parsed.data.active, extra });
  });
  const created = rows.filter((r) => !existing.has(r.code)).length;
  const updated = rows.length - created;
  // A row of an existing code changes that item: it needs the right to change items, as the item form does.
  if (updated > 0) assertMasterAction(actor, m, 'editItems');
  if (!options.dryRun && rows.length) await db.transaction().execute((trx) => upsertItems(trx, actor, m.id, rows, !header.includes('name_en')));
  return { dryRun: options.dryRun, created, updated, errors };
}
