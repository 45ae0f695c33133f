import { type QueryExecutorProvider, type SelectQueryBuilder, sql } from 'kysely';

export { listQuery, listResponse, MAX_LIMIT } from '../../core/api/list.js';

export interface Page {
  page: number;
  limit: number;
}

/** Runs a query for one page and the total in one round trip. */
export async function paginate<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  { page, limit }: Page,
): Promise<{ rows: O[]; total: number }> {
  const rows = (await query
    .select(sql<number>`count(*) over ()`.as('__total'))
    .limit(limit)
    .offset((page - 1) * limit)
    .execute()) as Array<O & { __total: number }>;
  if (rows.length === 0 && page > 1) {
    // Past the last page: still report the total.
    const counted = (await query.clearSelect().select(sql<number>`count(*)`.as('n')).clearOrderBy().executeTakeFirst()) as { n: number | string } | undefined;
    return { rows: [], total: Number(counted?.n ?? 0) };
  }
  return { rows: rows.map(({ __total, ...row }) => row as O), total: Number(rows[0]?.__total ?? 0) };
}

/** `%text%` for ILIKE with the user's wildcards taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * How many rows `query` matches, counted only up to `cap`: on a very large
 * table the exact count of a broad filter costs more than a page, and a list
 * only needs to say "more than 1,000". `capped` says the total is a floor.
 */
export async function countCapped<DB, TB extends keyof DB, O>(
  db: QueryExecutorProvider,
  query: SelectQueryBuilder<DB, TB, O>,
  cap: number,
): Promise<{ total: number; capped: boolean }> {
  const limited = query.clearSelect().clearOrderBy().select(sql<number>`1`.as('one')).limit(cap + 1);
  const counted = await sql<{ n: string }>`select count(*) as n from (${limited}) as counted`.execute(db);
  const n = Number(counted.rows[0]?.n ?? 0);
  return { total: Math.min(n, cap), capped: n > cap };
}

/**
 * One page and a total counted only up to `cap` (at least to the end of the
 * page). A first page that is not full is the whole result, uncounted. With
 * `count: false` nothing is counted: the page is read one row long, and the
 * total is the rows up to this page's end, `capped` when more follow (the
 * client asks for the count on its own, once per filter).
 */
export async function paginateCapped<DB, TB extends keyof DB, O>(
  db: QueryExecutorProvider,
  query: SelectQueryBuilder<DB, TB, O>,
  { page, limit }: Page,
  cap = 10_000,
  { count = true } = {},
): Promise<{ rows: O[]; total: number; capped: boolean }> {
  const offset = (page - 1) * limit;
  if (!count) {
    const rows = await query.limit(limit + 1).offset(offset).execute();
    const more = rows.length > limit;
    if (more) rows.pop();
    return { rows, total: offset + rows.length, capped: more };
  }
  const rows = await query.limit(limit).offset(offset).execute();
  if (page === 1 && rows.length < limit) return { rows, total: rows.length, capped: false };
  return { rows, ...(await countCapped(db, query, Math.max(cap, offset + limit))) };
}
