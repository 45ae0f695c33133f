import { randomBytes } from 'node:crypto';
import type { Db } from './pool.js';

const cache = new WeakMap<Db, Map<string, Promise<string>>>();

/** A random secret made once per database and shared by every instance using it. */
export function appSecret(db: Db, name: string): Promise<string> {
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let secret = byName.get(name);
  if (!secret) {
    secret = (async () => {
      await db
        .insertInto('app_secrets')
        .values({ name, value: randomBytes(32).toString('base64url') })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db.selectFrom('app_secrets').where('name', '=', name).select('value').executeTakeFirstOrThrow();
      return row.value;
    })();
    secret.catch(() => byName?.delete(name));
    byName.set(name, secret);
  }
  return secret;
}
