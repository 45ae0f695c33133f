import { sql } from 'kysely';
import { type Db, executeNamed } from '../../db/pool.js';
import type { Actor } from '../acl/policy.js';
import { hashToken, newToken } from './tokens.js';

/** A session lives at most this long, however active. */
export const SESSION_ABSOLUTE_HOURS = 12;
export const SESSION_COOKIE = 'sid';
/** last_seen_at is written at most this often per session. */
const TOUCH_EVERY_MS = 30_000;

export async function createSession(db: Db, userId: number, projectId: number | null, idleSeconds: number): Promise<string> {
  const { token, hash } = newToken();
  await db
    .insertInto('sessions')
    .values({
      token_hash: hash,
      user_id: userId,
      project_id: projectId,
      idle_seconds: idleSeconds,
      expires_at: new Date(Date.now() + SESSION_ABSOLUTE_HOURS * 3600_000),
    })
    .execute();
  return token;
}

/**
 * The actor behind a session token, read afresh on every request so that a
 * changed rule, a deactivated or locked user, or an ended session takes
 * effect at once. Undefined when the token is unknown, expired or idle.
 * `touch: false` reads without counting as activity.
 */
export async function actorForToken(db: Db, token: string, options: { touch?: boolean } = {}): Promise<Actor | undefined> {
  if (token.length < 20 || token.length > 100) return undefined;
  // The same statement on every request: named, so each connection plans it once (a unique-key lookup).
  const [row] = await executeNamed(db, 'actor-for-token', db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('entities as e', 'e.id', 'u.entity_id')
    .innerJoin('acl_roles as r', 'r.id', 'u.role_id')
    .where('s.token_hash', '=', hashToken(token))
    .select([
      's.id as session_id', 's.project_id', 's.last_seen_at', 's.expires_at', 's.idle_seconds',
      'u.id as user_id', 'u.entity_id', 'u.name', 'u.email', 'u.language', 'u.time_zone', 'u.active', 'u.locked', 'u.platform_operator',
      'e.docnumber', 'e.name as entity_name', 'e.active as entity_active', 'e.acl_version',
      'r.id as role_id', 'r.code as role_code', 'r.name as role_name', 'r.super_admin',
    ]));
  if (!row) return undefined;
  const now = Date.now();
  const idle = now - row.last_seen_at.getTime() > row.idle_seconds * 1000;
  if (idle || now >= row.expires_at.getTime() || !row.active || row.locked || !row.entity_active) {
    await db.deleteFrom('sessions').where('id', '=', row.session_id).execute();
    return undefined;
  }
  // A realtime socket checks its session without keeping it alive (only the person's requests do).
  if (options.touch !== false && now - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
    await db.updateTable('sessions').set({ last_seen_at: new Date(now) }).where('id', '=', row.session_id).execute();
  }
  return {
    userId: row.user_id,
    entityId: row.entity_id,
    entity: { docnumber: row.docnumber, name: row.entity_name },
    name: row.name,
    email: row.email,
    role: { id: row.role_id, code: row.role_code, name: row.role_name, superAdmin: row.super_admin },
    rules: await cachedRules(db, row.entity_id, row.role_id, row.super_admin, row.acl_version),
    language: row.language,
    timeZone: row.time_zone,
    sessionId: row.session_id,
    projectId: row.project_id,
    idleSeconds: row.idle_seconds,
    platformOperator: row.platform_operator,
  };
}

/**
 * Deletes the sessions that have ended without a word: past their 12 hours,
 * idle longer than their timeout, or whose user is blocked or locked or whose
 * tenant is closed. The `session-sweep` job, once a minute on one instance;
 * each delete tells every instance to close that session's sockets
 * (`sessions_rt`, migration 0014). Returns how many ended.
 */
export async function sweepEndedSessions(db: Db): Promise<number> {
  const r = await db
    .deleteFrom('sessions as s')
    .where((eb) =>
      eb.or([
        eb('s.expires_at', '<=', sql<Date>`now()`),
        eb(sql<Date>`s.last_seen_at + make_interval(secs => s.idle_seconds)`, '<=', sql<Date>`now()`),
        eb.exists(
          eb
            .selectFrom('users as u')
            .innerJoin('entities as e', 'e.id', 'u.entity_id')
            .whereRef('u.id', '=', 's.user_id')
            .where((w) => w.or([w('u.active', '=', false), w('u.locked', '=', true), w('e.active', '=', false)]))
            .select(sql`1`.as('one')),
        ),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** What an API token looks like: `cbk_` and 43 base64url characters (32 random bytes). */
export const API_TOKEN_PATTERN = /^cbk_[A-Za-z0-9_-]{43}$/;
/** last_used_at of a token is written at most this often. */
const TOKEN_TOUCH_EVERY_MS = 60_000;

/**
 * The actor behind an API token (migration 0035), read afresh on every
 * request like a session's: unknown, expired, a blocked or locked user or a
 * closed tenant all give undefined (the caller answers 401, the same for
 * each). The token's user acts with exactly their role's rules.
 */
export async function actorForApiToken(db: Db, token: string): Promise<Actor | undefined> {
  if (!API_TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await executeNamed(db, 'actor-for-api-token', db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', (j) => j.onRef('u.id', '=', 't.user_id').onRef('u.entity_id', '=', 't.entity_id'))
    .innerJoin('entities as e', 'e.id', 'u.entity_id')
    .innerJoin('acl_roles as r', 'r.id', 'u.role_id')
    .where('t.token_hash', '=', hashToken(token))
    .select([
      't.id as token_id', 't.read_only', 't.expires_at', 't.last_used_at',
      'u.id as user_id', 'u.entity_id', 'u.name', 'u.email', 'u.language', 'u.time_zone', 'u.active', 'u.locked',
      'e.docnumber', 'e.name as entity_name', 'e.active as entity_active', 'e.acl_version',
      'r.id as role_id', 'r.code as role_code', 'r.name as role_name', 'r.super_admin',
    ]));
  if (!row) return undefined;
  const now = Date.now();
  if ((row.expires_at && now >= row.expires_at.getTime()) || !row.active || row.locked || !row.entity_active) return undefined;
  if (!row.last_used_at || now - row.last_used_at.getTime() > TOKEN_TOUCH_EVERY_MS) {
    await db.updateTable('api_tokens').set({ last_used_at: new Date(now) }).where('id', '=', row.token_id).execute();
  }
  return {
    userId: row.user_id,
    entityId: row.entity_id,
    entity: { docnumber: row.docnumber, name: row.entity_name },
    name: row.name,
    email: row.email,
    role: { id: row.role_id, code: row.role_code, name: row.role_name, superAdmin: row.super_admin },
    rules: await cachedRules(db, row.entity_id, row.role_id, row.super_admin, row.acl_version),
    language: row.language,
    timeZone: row.time_zone,
    sessionId: 0,
    projectId: null,
    idleSeconds: 0,
    apiToken: { id: row.token_id, readOnly: row.read_only },
  };
}

/** The actor for a user without a session (the demo seed, jobs acting for someone). */
export async function actorForUser(db: Db, userId: number): Promise<Actor> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.entity_id')
    .innerJoin('acl_roles as r', 'r.id', 'u.role_id')
    .where('u.id', '=', userId)
    .select(['u.id as user_id', 'u.entity_id', 'u.name', 'u.email', 'u.language', 'u.time_zone', 'e.docnumber', 'e.name as entity_name', 'r.id as role_id', 'r.code as role_code', 'r.name as role_name', 'r.super_admin'])
    .executeTakeFirstOrThrow();
  return {
    userId: row.user_id,
    entityId: row.entity_id,
    entity: { docnumber: row.docnumber, name: row.entity_name },
    name: row.name,
    email: row.email,
    role: { id: row.role_id, code: row.role_code, name: row.role_name, superAdmin: row.super_admin },
    rules: await rulesOfRole(db, row.entity_id, row.role_id, row.super_admin),
    language: row.language,
    timeZone: row.time_zone,
    sessionId: 0,
    projectId: null,
    idleSeconds: 0,
  };
}

/**
 * Rules by tenant, role and the tenant's ACL version: any change to roles,
 * modules, actions or rules moves the version (database triggers), so an
 * entry is never used after a change, on this instance or another. Entries
 * are immutable; the map is emptied when it grows past its bound.
 */
const rulesCaches = new WeakMap<Db, Map<string, Promise<Map<string, Set<string>>>>>();
const RULES_CACHE_MAX = 1000;

function cachedRules(db: Db, entityId: number, roleId: number, superAdmin: boolean, aclVersion: number): Promise<Map<string, Set<string>>> {
  // One cache per database handle: two apps in one process (tests) never share entries.
  let rulesCache = rulesCaches.get(db);
  if (!rulesCache) rulesCaches.set(db, (rulesCache = new Map()));
  const cache = rulesCache;
  const key = `${entityId}:${roleId}:${superAdmin}:${aclVersion}`;
  let rules = cache.get(key);
  if (!rules) {
    if (cache.size >= RULES_CACHE_MAX) cache.clear();
    rules = rulesOfRole(db, entityId, roleId, superAdmin);
    cache.set(key, rules);
    // A failed read is not kept.
    rules.catch(() => cache.delete(key));
  }
  return rules;
}

export async function rulesOfRole(db: Db, entityId: number, roleId: number, superAdmin: boolean): Promise<Map<string, Set<string>>> {
  const rows = superAdmin
    ? await db
        .selectFrom('acl_modules as m')
        .innerJoin('acl_actions as a', 'a.entity_id', 'm.entity_id')
        .where('m.entity_id', '=', entityId)
        .select(['m.code as target', 'a.code as action'])
        .execute()
    : await db
        .selectFrom('acl_rules as x')
        .innerJoin('acl_modules as m', 'm.id', 'x.module_id')
        .innerJoin('acl_actions as a', 'a.id', 'x.action_id')
        .where('x.role_id', '=', roleId)
        .where('x.entity_id', '=', entityId)
        .select(['m.code as target', 'a.code as action'])
        .execute();
  const rules = new Map<string, Set<string>>();
  for (const { target, action } of rows) {
    let set = rules.get(target);
    if (!set) rules.set(target, (set = new Set()));
    set.add(action);
  }
  return rules;
}

export async function endSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** Ends every session of a user but the one given (after a password change). */
export async function endOtherSessions(db: Db, userId: number, keepSessionId: number | null): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId !== null) q = q.where('id', '!=', keepSessionId);
  await q.execute();
}
