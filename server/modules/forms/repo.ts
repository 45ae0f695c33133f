/**
 * The forms' SQL. Every finder takes the actor (or a system doer) and
 * applies the tenant itself: a handler cannot reach another tenant's form or
 * allowed host. Forms have no record rules beyond the tenant; the route's
 * target (formularios) decides the rest. Rows are mapped to the API's shapes
 * here.
 */
import { sql, type Transaction } from 'kysely';
import { type FormDefinition, scopeFieldsDeep } from '../../../core/forms/definition.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, paginate, type Page } from '../../lib/list.js';
import type { Actor, Doer } from '../acl/policy.js';
import { localNameSql } from '../../lib/localName.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

/** How many fields of a definition hold a value or show text (repeat groups' included). */
const fieldCount = (def: FormDefinition) => scopeFieldsDeep(def.fields).length;

// ---------------------------------------------------------------- reading

export async function listForms(db: Db, actor: Actor, query: Page & { search?: string; sortBy?: 'name' | 'code' | 'updated_at'; descending?: boolean }) {
  const { search, sortBy = 'name', descending } = query;
  let q = db
    .selectFrom('forms as f')
    .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
    .where('f.entity_id', '=', actor.entityId)
    .select(['f.id', 'f.code', 'f.name', 'f.description', 'f.updated_at', 'v.version', 'v.definition']);
  if (search) q = q.where((eb) => eb.or([eb('f.name', 'ilike', containsPattern(search)), eb('f.code', 'ilike', containsPattern(search))]));
  q = q.orderBy(`f.${sortBy}`, descending ? 'desc' : 'asc').orderBy('f.id');
  const { rows, total } = await paginate(q, query);
  return {
    items: rows.map((f) => ({ id: f.id, code: f.code, name: f.name, description: f.description, version: f.version, fields: fieldCount(f.definition as FormDefinition), updatedAt: f.updated_at })),
    total,
  };
}

/** A version of a form of the doer's tenant (the current one unless told); NOT_FOUND otherwise. */
export async function findFormVersion(db: Executor, doer: Doer, formId: number, version?: number) {
  const row = await db
    .selectFrom('forms as f')
    .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').on('v.version', '=', version ?? sql<number>`f.current_version`))
    .where('f.id', '=', formId)
    .where('f.entity_id', '=', doer.entityId)
    .select(['f.id', 'f.code', 'f.name', 'f.description', 'f.updated_at', 'v.version', 'v.definition', 'v.in_use'])
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return { ...row, definition: row.definition as FormDefinition };
}

/** A form as GET /api/forms/:id shows it. */
export async function formView(db: Db, actor: Actor, formId: number, version?: number) {
  const f = await findFormVersion(db, actor, formId, version);
  return { id: f.id, code: f.code, name: f.name, description: f.description, version: f.version, fields: fieldCount(f.definition), updatedAt: f.updated_at, definition: f.definition, inUse: f.in_use };
}

/** A master's active items as options, in name order (those under `parent` when given). */
export async function masterItemOptions(db: Db, doer: Doer, master: string, parent?: string) {
  const language = 'language' in doer ? doer.language : 'es';
  let q = db
    .selectFrom('master_items as i')
    .innerJoin('masters as m', 'm.id', 'i.master_id')
    .leftJoin('master_items as p', 'p.id', 'i.parent_item_id')
    .where('m.entity_id', '=', doer.entityId)
    .where('i.entity_id', '=', doer.entityId)
    .where('m.code', '=', master)
    .where('i.active', '=', true)
    .select(['i.code', localNameSql('i', language).as('name')])
    .orderBy('name')
    .limit(5000);
  if (parent) q = q.where('p.code', '=', parent);
  return (await q.execute()).map((i) => ({ value: i.code, label: i.name }));
}

// ---------------------------------------------------------------- writing

/** A new form with its first version. */
export async function insertForm(trx: Trx, actor: Actor, code: string, def: FormDefinition): Promise<number> {
  const form = await trx.insertInto('forms').values({ entity_id: actor.entityId, code, name: def.name, description: def.description }).returning('id').executeTakeFirstOrThrow();
  await trx.insertInto('form_versions').values({ entity_id: actor.entityId, form_id: form.id, version: 1, definition: JSON.stringify(def), created_by: actor.userId }).execute();
  return form.id;
}

/** A form of the doer's tenant with its current version, locked for saving; NOT_FOUND otherwise. */
export async function lockForm(trx: Trx, doer: Doer, formId: number) {
  const form = await trx
    .selectFrom('forms as f')
    .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
    .where('f.id', '=', formId)
    .where('f.entity_id', '=', doer.entityId)
    .select(['f.id', 'f.current_version', 'v.in_use'])
    .forUpdate('f')
    .executeTakeFirst();
  if (!form) throw new AppError('NOT_FOUND');
  return form;
}

export async function insertFormVersion(trx: Trx, actor: Actor, formId: number, version: number, def: FormDefinition): Promise<void> {
  await trx.insertInto('form_versions').values({ entity_id: actor.entityId, form_id: formId, version, definition: JSON.stringify(def), created_by: actor.userId }).execute();
}

export async function replaceFormVersion(trx: Trx, doer: Doer, formId: number, version: number, def: FormDefinition): Promise<void> {
  await trx.updateTable('form_versions').set({ definition: JSON.stringify(def) }).where('entity_id', '=', doer.entityId).where('form_id', '=', formId).where('version', '=', version).execute();
}

/** The form's name, description and code from its definition, and which version is current. */
export async function updateForm(trx: Trx, doer: Doer, formId: number, def: FormDefinition, version: number, code?: string): Promise<void> {
  await trx
    .updateTable('forms')
    .set({ name: def.name, description: def.description, current_version: version, updated_at: new Date(), ...(code ? { code } : {}) })
    .where('id', '=', formId)
    .where('entity_id', '=', doer.entityId)
    .execute();
}

/** Deletes a form of the actor's tenant that nothing uses (IN_USE otherwise, NOT_FOUND when there is none). */
export async function deleteForm(db: Db, actor: Actor, formId: number): Promise<void> {
  const used = await db.selectFrom('form_versions').where('form_id', '=', formId).where('entity_id', '=', actor.entityId).where('in_use', '=', true).select('id').executeTakeFirst();
  if (used) throw new AppError('IN_USE');
  const deleted = await db.deleteFrom('forms').where('id', '=', formId).where('entity_id', '=', actor.entityId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
}

// ---------------------------------------------------------------- hosts of external lists

const hostView = (r: { id: number; host: string; created_at: Date }) => ({ id: r.id, host: r.host, createdAt: r.created_at });

export async function listExternalHosts(db: Db, actor: Actor) {
  const rows = await db.selectFrom('external_hosts').where('entity_id', '=', actor.entityId).select(['id', 'host', 'created_at']).orderBy('host').execute();
  return rows.map(hostView);
}

/** The hosts the doer's tenant allows, as a set for the guarded fetch. */
export async function allowedHosts(db: Db, doer: Doer): Promise<Set<string>> {
  const rows = await db.selectFrom('external_hosts').where('entity_id', '=', doer.entityId).select('host').execute();
  return new Set(rows.map((h) => h.host));
}

/** Allows a host (DUPLICATE when it is allowed already, through server/db/constraints.ts). */
export async function addExternalHost(db: Db, actor: Actor, host: string) {
  return hostView(await db.insertInto('external_hosts').values({ entity_id: actor.entityId, host }).returning(['id', 'host', 'created_at']).executeTakeFirstOrThrow());
}

export async function deleteExternalHost(db: Db, actor: Actor, id: number): Promise<void> {
  const deleted = await db.deleteFrom('external_hosts').where('id', '=', id).where('entity_id', '=', actor.entityId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
}
