import { sql } from 'kysely';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';

/**
 * Failed sign-ins are counted per account (by lower-cased email or document)
 * and per client address (`request.ip`: the socket's, or X-Forwarded-For's
 * client only behind a proxy listed in TRUST_PROXY) in a 15-minute window;
 * past the limit, sign-in attempts are refused with 429 until the window
 * ends. Locking the account itself is separate (users.failed_logins).
 */
export const THROTTLE_WINDOW_SECONDS = 15 * 60;
export const ACCOUNT_LIMIT = 10;
export const ADDRESS_LIMIT = 30;

export const accountKey = (login: string) => `account:${login.trim().toLowerCase()}`;
export const addressKey = (ip: string) => `address:${ip}`;

export async function assertNotThrottled(db: Db, keys: Array<[string, number]>): Promise<void> {
  const rows = await db
    .selectFrom('auth_throttle')
    .where('key', 'in', keys.map(([k]) => k))
    .where('window_start', '>', sql<Date>`now() - make_interval(secs => ${THROTTLE_WINDOW_SECONDS})`)
    .select(['key', 'failures', 'window_start'])
    .execute();
  for (const row of rows) {
    const limit = keys.find(([k]) => k === row.key)?.[1] ?? Number.POSITIVE_INFINITY;
    if (row.failures >= limit) {
      const retryAfter = Math.max(1, Math.ceil((row.window_start.getTime() + THROTTLE_WINDOW_SECONDS * 1000 - Date.now()) / 1000));
      throw new AppError('RATE_LIMITED', { retryAfter });
    }
  }
}

export async function recordFailure(db: Db, keys: string[]): Promise<void> {
  for (const key of keys) {
    await sql`
      insert into auth_throttle (key, failures, window_start) values (${key}, 1, now())
      on conflict (key) do update set
        failures = case when auth_throttle.window_start <= now() - make_interval(secs => ${THROTTLE_WINDOW_SECONDS}) then 1 else auth_throttle.failures + 1 end,
        window_start = case when auth_throttle.window_start <= now() - make_interval(secs => ${THROTTLE_WINDOW_SECONDS}) then now() else auth_throttle.window_start end
    `.execute(db);
  }
}

/** Counts one event under `key` in the current window and returns how many there were in it. */
export async function countEvent(db: Db, key: string): Promise<number> {
  await recordFailure(db, [key]);
  const row = await db.selectFrom('auth_throttle').where('key', '=', key).select('failures').executeTakeFirstOrThrow();
  return row.failures;
}

export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db.deleteFrom('auth_throttle').where('key', '=', key).execute();
}
