import type { Kysely } from 'kysely';
import { type FormDefinition, scopeFieldsDeep } from '../../../core/forms/definition.js';
import type { Database } from '../../db/types.js';
import { localNameSql } from '../../lib/localName.js';

/**
 * The allowed values of a form's master selects, read from the tenant's
 * masters, for the validator on the server. (External lists are checked
 * where they are fetched, not re-fetched on every save.)
 */
export async function masterOptionValues(db: Kysely<Database>, entityId: number, def: FormDefinition): Promise<Record<string, string[]>> {
  const fields = scopeFieldsDeep(def.fields).filter((f) => f.type === 'master_select' && f.master);
  if (fields.length === 0) return {};
  const byMaster = await activeMasterItems(db, entityId, fields.map((f) => f.master as string));
  return Object.fromEntries(fields.map((f) => [f.name, (byMaster.get(f.master as string) ?? []).map((i) => i.code)]));
}

/** The tenant's active items of the masters named by `codes`, by master, each list in name order, named in `language`. */
export async function activeMasterItems(db: Kysely<Database>, entityId: number, codes: readonly string[], language = 'es'): Promise<Map<string, Array<{ code: string; name: string }>>> {
  const byMaster = new Map<string, Array<{ code: string; name: string }>>();
  if (codes.length === 0) return byMaster;
  const rows = await db
    .selectFrom('master_items as i')
    .innerJoin('masters as m', 'm.id', 'i.master_id')
    .where('m.entity_id', '=', entityId)
    .where('i.entity_id', '=', entityId)
    .where('m.code', 'in', [...new Set(codes)])
    .where('i.active', '=', true)
    .select(['m.code as master', 'i.code', localNameSql('i', language).as('name')])
    .orderBy('name')
    .execute();
  for (const { master, code, name } of rows) {
    const list = byMaster.get(master) ?? [];
    if (list.length === 0) byMaster.set(master, list);
    list.push({ code, name });
  }
  return byMaster;
}

/**
 * The names of the master items a form's values hold, by field and code
 * (`{ departamento: { '76': 'Valle del Cauca' } }`), so read-only views show
 * names rather than codes. Only the codes present in `data` are read,
 * repeat-group rows included. Names in `language`.
 */
export async function masterLabels(db: Kysely<Database>, entityId: number, def: FormDefinition | null, data: Record<string, unknown>, language = 'es'): Promise<Record<string, Record<string, string>>> {
  if (!def) return {};
  const fields = scopeFieldsDeep(def.fields).filter((f) => f.type === 'master_select' && f.master);
  if (fields.length === 0) return {};
  const names = new Set(fields.map((f) => f.name));
  const codes = new Set<string>();
  const collect = (value: unknown, key?: string) => {
    if (Array.isArray(value)) for (const v of value) collect(v, key);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) collect(v, k);
    else if (key && names.has(key) && (typeof value === 'string' || typeof value === 'number')) codes.add(String(value));
  };
  collect(data);
  if (codes.size === 0) return {};
  const rows = await db
    .selectFrom('master_items as i')
    .innerJoin('masters as m', 'm.id', 'i.master_id')
    .where('m.entity_id', '=', entityId)
    .where('i.entity_id', '=', entityId)
    .where('m.code', 'in', [...new Set(fields.map((f) => f.master as string))])
    .where('i.code', 'in', [...codes])
    .select(['m.code as master', 'i.code', localNameSql('i', language).as('name')])
    .execute();
  const labels: Record<string, Record<string, string>> = {};
  for (const f of fields) {
    const own = rows.filter((r) => r.master === f.master);
    if (own.length) labels[f.name] = Object.fromEntries(own.map((r) => [r.code, r.name]));
  }
  return labels;
}
