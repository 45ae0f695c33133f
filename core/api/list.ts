import { z } from 'zod';

/**
 * The list convention of every resource: `?page=&limit=&sortBy=&descending=&search=`
 * -> `{ items, total }`. `limit` is capped; a sort column outside the resource's
 * list is refused (400) instead of reaching SQL.
 */
export const MAX_LIMIT = 100;

export function listQuery<const S extends readonly [string, ...string[]]>(sortable: S) {
  return z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(20),
    sortBy: z.enum(sortable).optional(),
    descending: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
    search: z.string().trim().max(200).optional(),
  });
}

export const listResponse = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int() });

/** A record id in a path: a positive integer. */
export const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
