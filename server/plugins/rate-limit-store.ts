/**
 * The request limits' counters in PostgreSQL, shared by every instance on
 * the database: @fastify/rate-limit's `store` (the per-address limits,
 * `config.rateLimit`) and, through `app.createRateLimit`, the per-account
 * ones (`plugins/account-limit.ts`). Modelled on the sign-in throttle
 * (`modules/auth/throttle.ts`, table `auth_throttle`): one row per key in
 * the unlogged table `rate_limits` (migration 0032), counted by one upsert
 * that increments atomically and starts a new window once the old one has
 * ended, on the database's clock (instances whose clocks differ agree).
 *
 * Keys: a route's limit prefixes the client's key with the route
 * (`POST/api/auth/login-203.0.113.7`), as @fastify/rate-limit's Redis store
 * does; a limit made with `createRateLimit` has no route and uses the key
 * its caller built (`account:<user>:<method>:<url>`).
 *
 * A database that cannot be reached fails the limit's hook like any other
 * query: `plugins/errors.ts` answers 503 DB_UNAVAILABLE (docs/decisions.md,
 * "Request limits count in PostgreSQL").
 *
 * Ended windows are deleted once a minute by a pg-boss job (`rate-limit-sweep`,
 * one run whatever the number of instances), a batch at a time, skipping rows
 * another statement holds. A window that ended is never read as live (the
 * upsert starts a new one), so a late sweep costs only space.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { CompiledQuery } from 'kysely';
import { type Db, executeNamed } from '../db/pool.js';

/** How many rows at most one statement of the sweep deletes. */
export const SWEEP_BATCH = 5_000;

const INCR = `
  insert into rate_limits as r (key, count, expires_at)
  values ($1, 1, now() + $2::float8 * interval '1 millisecond')
  on conflict (key) do update set
    count = case when r.expires_at <= now() then 1 else r.count + 1 end,
    expires_at = case when r.expires_at <= now() then excluded.expires_at else r.expires_at end
  returning count, greatest(1, ceil(extract(epoch from (expires_at - now())) * 1000))::float8 as ttl`;

const READ = `
  select count, greatest(1, ceil(extract(epoch from (expires_at - now())) * 1000))::float8 as ttl
  from rate_limits where key = $1 and expires_at > now()`;

const SWEEP = `
  delete from rate_limits where key in (
    select key from rate_limits where expires_at < now() limit $1 for update skip locked
  )`;

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface Row {
  count: number;
  ttl: number;
}

/** What @fastify/rate-limit passes to `child`: the merged limit options, with the route for a route's own limit. */
interface ChildOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string | string[]; url?: string };
}

function refuseUnsupported(options: ChildOptions): void {
  // Neither is used by any route; both would need the window's length changed per request.
  if (options.continueExceeding || options.exponentialBackoff) {
    throw new Error('rate limits in PostgreSQL: continueExceeding and exponentialBackoff are not supported');
  }
}

/** Sweep bookkeeping shared by a store and its children (one per app). */
interface Shared {
  db: Db;
}

class PgRateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: Shared,
    private readonly prefix: string,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number): void {
    executeNamed(this.shared.db, 'rate-limit-incr', { compile: () => CompiledQuery.raw(INCR, [this.prefix + key, timeWindow]) as CompiledQuery<Row> }).then(
      ([row]) => {
        callback(null, { current: row.count, ttl: row.ttl });
      },
      (error: Error) => callback(error),
    );
  }

  /** The current count and time left without counting (`{ increment: false }`). */
  read(key: string, callback: Callback): void {
    executeNamed(this.shared.db, 'rate-limit-read', { compile: () => CompiledQuery.raw(READ, [this.prefix + key]) as CompiledQuery<Row> }).then(
      ([row]) => callback(null, row ? { current: row.count, ttl: row.ttl } : { current: 0, ttl: 0 }),
      (error: Error) => callback(error),
    );
  }

  child(options: unknown): FastifyRateLimitStore {
    const o = options as ChildOptions;
    refuseUnsupported(o);
    const route = o.routeInfo?.url ? `${String(o.routeInfo.method)}${o.routeInfo.url}-` : '';
    return new PgRateLimitStore(this.shared, this.prefix + route);
  }
}

/** @fastify/rate-limit's `store` option: counters in `rate_limits` of `db`. */
export function pgRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  const shared: Shared = { db };
  return class extends PgRateLimitStore {
    constructor(options: unknown) {
      super(shared, '');
      refuseUnsupported(options as ChildOptions);
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

/** Deletes the windows that have ended (all of them, in batches): for tests and operators. */
export async function sweepRateLimits(db: Db): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.executeQuery(CompiledQuery.raw(SWEEP, [SWEEP_BATCH]));
    const n = Number(result.numAffectedRows ?? 0);
    total += n;
    if (n < SWEEP_BATCH) return total;
  }
}
