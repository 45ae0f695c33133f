import { type Kysely, sql } from 'kysely';

/**
 * Both languages in the data (issue 18): the names an applicant or a reviewer
 * reads have a Spanish and an English form, as form fields have `label`
 * (Spanish) and `label_en`. `name` stays what it was (the Spanish name, and
 * the one shown when the English one is empty); `name_en` is the English one
 * ('' when there is none, as the public texts of 0022).
 *
 * - `tasks.name_en`: copied from the task template's `name_en` when a task is
 *   created, so lists read it without the protocol version; existing tasks
 *   get it from their protocol version's template of the same code.
 * - `protocols.name_en`: a protocol's English name (its public page has its
 *   own titles, 0022).
 * - `master_items.name_en`: an item's English name. Quick comments kept
 *   their Spanish text in `extra.es` and the English one in `name` (0013):
 *   they move to the same pattern (`name` Spanish, `name_en` English).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const capped = (column: string, max: number) => sql.raw(`check (char_length(${column}) <= ${max})`);
  await sql`alter table tasks add column name_en text not null default '' ${capped('name_en', 200)}`.execute(db);
  await sql`alter table protocols add column name_en text not null default '' ${capped('name_en', 200)}`.execute(db);
  await sql`alter table master_items add column name_en text not null default '' ${capped('name_en', 500)}`.execute(db);

  await sql`
    update tasks t set name_en = left(tpl->>'name_en', 200)
    from cases c, protocol_versions v, jsonb_array_elements(v.definition->'tasks') tpl
    where c.id = t.case_id and v.id = c.protocol_version_id
      and tpl->>'code' = t.code and coalesce(tpl->>'name_en', '') <> ''`.execute(db);

  await sql`
    update master_items i set name_en = left(i.name, 500), name = i.extra->>'es', extra = i.extra - 'es'
    from masters m
    where m.id = i.master_id and m.code = 'comentarios_rapidos'
      and jsonb_typeof(i.extra->'es') = 'string' and btrim(i.extra->>'es') <> ''`.execute(db);
}
