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

/** A day as YYYY-MM-DD that exists on the calendar (2031-02-30 is refused here, not by the database). */
export const dayText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.invalidDate')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'validation.invalidDate');
