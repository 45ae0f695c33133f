/**
 * The case list's filters as SQL conditions on `c` (cases): the filter bar,
 * the search box (textSearch.ts) and the advanced search's rows. Used by the
 * finders of repo.ts only, after the tenant and the visibility.
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { decodeSearch, type SearchRow, searchRowsSchema } from '../../../core/cases/search.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern } from '../../lib/list.js';
import type { Actor } from '../acl/policy.js';
import type { FiltersOnly } from './schema.js';
import { caseTextSearch } from './textSearch.js';

type Eb = ExpressionBuilder<Database & { c: Database['cases'] }, 'c'>;

/** The advanced search's rows, checked by the request schema already (searchFiltersParam). */
function searchRows(filters: string | undefined): SearchRow[] {
  if (!filters) return [];
  const parsed = searchRowsSchema.safeParse(decodeSearch(filters));
  if (!parsed.success) throw new AppError('VALIDATION', {}, parsed.error.issues.map((i) => ({ path: `filters.${i.path.join('.')}`, message: i.message })));
  return parsed.data;
}

/**
 * The tenant's time zone, in which the filter's days are read: the actor's
 * project's, else the tenant's default project's. One subquery, planned once.
 */
export function tenantTimeZone(actor: Actor) {
  return sql<string>`coalesce(
    (select p.time_zone from projects p where p.id = ${actor.projectId ?? 0} and p.entity_id = ${actor.entityId}),
    (select p.time_zone from projects p where p.entity_id = ${actor.entityId} order by p.is_default desc, p.id limit 1),
    'UTC')`;
}

/** Every filter of the list as one condition list on `c`. */
export function caseFilterConditions(eb: Eb, actor: Actor, f: FiltersOnly) {
  const rows = searchRows(f.filters);
  const conditions: Array<Expression<SqlBool>> = [eb('c.state', '<>', 'DRAFT')];
  if (f.state) conditions.push(eb('c.state', 'in', Array.isArray(f.state) ? f.state : [f.state]));
  if (f.protocolId) conditions.push(eb('c.protocol_id', '=', f.protocolId));
  if (f.ownerId) conditions.push(eb('c.owner_id', '=', f.ownerId));
  if (f.teamId) conditions.push(eb('c.id', 'in', eb.selectFrom('tasks').where('entity_id', '=', actor.entityId).where('responsible_team_id', '=', f.teamId).select('case_id')));
  // Days of the tenant's calendar: from its midnight to the midnight after `to`, whatever daylight saving does between.
  if (f.from) conditions.push(sql<boolean>`c.doc_date >= (${f.from}::date)::timestamp at time zone ${tenantTimeZone(actor)}`);
  if (f.to) conditions.push(sql<boolean>`c.doc_date < (${f.to}::date + 1)::timestamp at time zone ${tenantTimeZone(actor)}`);
  if (f.possibleDuplicated !== undefined) conditions.push(eb('c.possible_duplicated', '=', f.possibleDuplicated));
  // The search box: every word in a name or at the start of the case or document number (textSearch.ts, indexes of 0012).
  const text = f.search ? caseTextSearch(f.search) : undefined;
  if (text) conditions.push(text);
  for (const row of rows) conditions.push(rowCondition(eb, row));
  return eb.and(conditions);
}

/** One advanced-search row as SQL. Columns are checked by the shared schema before they get here. */
function rowCondition(eb: Eb, row: SearchRow) {
  const values = Array.isArray(row.value) ? row.value : row.value === undefined ? [] : [row.value];
  if (row.column.startsWith('data.')) {
    const field = row.column.slice(5);
    const text = sql<string>`c.data->>${field}`;
    const json = sql`c.data->${field}`;
    // Equality through the GIN index: the value as text or as a number, as forms store either.
    const equals = (v: unknown) => {
      const forms = [{ [field]: v }];
      if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) forms.push({ [field]: Number(v) });
      if (v === 'true' || v === 'false') forms.push({ [field]: v === 'true' });
      return eb.or(forms.map((f) => sql<boolean>`c.data @> ${JSON.stringify(f)}::jsonb`));
    };
    const compare = (op: '>' | '<' | '>=' | '<=', v: unknown) =>
      typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)))
        ? sql<boolean>`(jsonb_typeof(${json}) = 'number' and ${json} ${sql.raw(op)} to_jsonb(${Number(v)}::numeric))`
        : sql<boolean>`${text} ${sql.raw(op)} ${String(v)}`;
    switch (row.op) {
      case 'eq':
        return equals(values[0]);
      case 'ne':
        return eb.not(equals(values[0]));
      case 'in':
        return eb.or(values.map(equals));
      case 'contains':
        return sql<boolean>`${text} ilike ${containsPattern(String(values[0]))}`;
      case 'startsWith':
        return sql<boolean>`${text} ilike ${`${String(values[0]).replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
      case 'gt':
        return compare('>', values[0]);
      case 'lt':
        return compare('<', values[0]);
      case 'between':
        return eb.and([compare('>=', values[0]), compare('<=', values[1])]);
      case 'empty':
        return sql<boolean>`coalesce(${text}, '') = ''`;
    }
  }
  const column = {
    serial: sql`c.serial`,
    state: sql`c.state`,
    docDate: sql`c.doc_date`,
    createdAt: sql`c.created_at`,
    ownerName: sql`(select o.name from users o where o.id = c.owner_id)`,
    possibleDuplicated: sql`c.possible_duplicated`,
  }[row.column as 'serial'];
  const v = values[0];
  switch (row.op) {
    case 'eq':
      return row.column === 'possibleDuplicated'
        ? sql<boolean>`${column} = ${v === true || v === 'true'}`
        : row.column === 'docDate'
          ? sql<boolean>`${column}::date = ${String(v)}::date`
          : sql<boolean>`${column} = ${String(v)}`;
    case 'ne':
      return sql<boolean>`${column} is distinct from ${String(v)}`;
    case 'in':
      return sql<boolean>`${column} in (${sql.join(values.map((x) => String(x)))})`;
    case 'contains':
      return sql<boolean>`${column} ilike ${containsPattern(String(v))}`;
    case 'startsWith':
      return sql<boolean>`${column} ilike ${`${String(v).replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
    case 'gt':
      return sql<boolean>`${column} > ${String(v)}::timestamptz`;
    case 'lt':
      return sql<boolean>`${column} < ${String(v)}::timestamptz`;
    case 'between':
      return sql<boolean>`${column} between ${String(values[0])}::timestamptz and ${String(values[1])}::timestamptz`;
    case 'empty':
      return sql<boolean>`${column} is null`;
  }
}
