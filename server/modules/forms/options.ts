import type { Kysely } from 'kysely';
import { type FormDefinition, scopeFieldsDeep } from '../../../core/forms/definition.js';
import type { Database } from '../../db/types.js';

/**
 * The allowed values of a form's master selects, read from the tenant's
 * masters, for the validator on the server. (External lists are checked
 * where they are fetched, not re-fetched on every save.)
 */
export async function masterOptionValues(db: Kysely<Database>, entityId: number, def: FormDefinition): Promise<Record<string, string[]>> {
  const fields = scopeFieldsDeep(def.fields).filter((f) => f.type === 'master_select' && f.master);
  if (fields.length === 0) return {};
  const codes = [...new Set(fields.map((f) => f.master as string))];
  const rows = await db
    .selectFrom('master_items as i')
    .innerJoin('masters as m', 'm.id', 'i.master_id')
    .where('m.entity_id', '=', entityId)
    .where('m.code', 'in', codes)
    .where('i.active', '=', true)
    .select(['m.code as master', 'i.code'])
    .execute();
  const byMaster = new Map<string, string[]>();
  for (const r of rows) byMaster.set(r.master, [...(byMaster.get(r.master) ?? []), r.code]);
  return Object.fromEntries(fields.map((f) => [f.name, byMaster.get(f.master as string) ?? []]));
}
