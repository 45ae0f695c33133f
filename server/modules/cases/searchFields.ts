/**
 * What the case list's advanced search can filter on, for anyone who may
 * list cases: the tenant's published protocols and the value fields of each
 * one's main form (labels in both languages, choices where the form lists
 * them, and the items of the masters behind master selects). Protocol and
 * form screens need their own targets; a reviewer who only lists cases
 * still needs these names.
 */
import { sql } from 'kysely';
import { z } from 'zod';
import type { FieldDef, FormDefinition } from '../../../core/forms/definition.js';
import { scopeFields } from '../../../core/forms/validator.js';
import type { Db } from '../../db/pool.js';
import type { Actor } from '../acl/policy.js';
import { activeMasterItems } from '../forms/options.js';

/** Fields that hold one value a row of the search can compare (not files, groups or static text). */
const SEARCHABLE = (f: FieldDef) => !['file', 'repeat', 'static', 'stepper', 'step'].includes(f.type);

const option = z.object({ value: z.union([z.string(), z.number()]), label: z.string(), label_en: z.string().optional() });
const searchField = z.object({ name: z.string(), type: z.string(), label: z.string(), label_en: z.string().optional(), options: z.array(option).optional() });
export const searchFieldsView = z.object({ protocols: z.array(z.object({ id: z.number(), name: z.string(), fields: z.array(searchField) })) });

/** A master longer than this stays a text box in the search: a list that long is no help to pick from. */
export const MASTER_OPTIONS_LIMIT = 300;

/** The tenant's published protocols with their main form's searchable fields (not scoped further: these are names, not records). */
export async function searchFields(db: Db, actor: Actor): Promise<z.infer<typeof searchFieldsView>> {
  const rows = await db
    .selectFrom('protocols as p')
    .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .innerJoin('form_versions as fv', (j) => j.on('fv.id', '=', sql<number>`(v.definition->>'mainFormVersionId')::bigint`))
    .where('p.entity_id', '=', actor.entityId)
    .select(['p.id', 'p.name', 'fv.definition'])
    .orderBy('p.name')
    .execute();
  const forms = rows.map((r) => ({ id: r.id, name: r.name, fields: scopeFields((r.definition as FormDefinition).fields).filter(SEARCHABLE) }));
  // Master selects offer the tenant's items (code and name), as the form does, when the list is short enough.
  const masters = forms.flatMap((p) => p.fields.filter((f) => f.type === 'master_select' && f.master).map((f) => f.master as string));
  const byMaster = await activeMasterItems(db, actor.entityId, masters, actor.language);
  const optionsOf = (f: FieldDef) => {
    if (f.type !== 'master_select') return f.options?.map((o) => ({ value: o.value, label: o.label, label_en: o.label_en }));
    const items = byMaster.get(f.master ?? '');
    return items && items.length <= MASTER_OPTIONS_LIMIT ? items.map((i) => ({ value: i.code, label: i.name })) : undefined;
  };
  return {
    protocols: forms.map((p) => ({ ...p, fields: p.fields.map((f) => ({ name: f.name, type: f.type, label: f.label, label_en: f.label_en, options: optionsOf(f) })) })),
  };
}
