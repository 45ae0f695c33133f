import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeUser } from '../../../tests/support/factories.js';

/**
 * API tokens (issue 22): a person's own tokens and service accounts'. A token
 * works on every /api route with exactly its user's rights, is shown once and
 * kept hashed, may be read-only, and stops at once when revoked, expired or
 * its user blocked, with the same 401 for each. Never on the session-only
 * routes.
 */
let t: TestApp;
let entityId: number;
const CRUD = ['show', 'create', 'update', 'delete'] as const;
let admin: { sid: string };
let clerk: { sid: string };
let clerkId: number;
let other: { sid: string };

beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db, { account_limit: 100 });
  entityId = entity.id;
  const a = await makeUser(t.db, entity.id, { role: 'users-admin', rules: { acl_usuarios: [...CRUD], wf_casos: ['show'] } });
  const c = await makeUser(t.db, entity.id, { role: 'clerk', rules: { wf_casos: ['show'], wf_equipos: ['show', 'create'] } });
  const o = await makeUser(t.db, (await makeEntity(t.db)).id, { role: 'users-admin', rules: { acl_usuarios: [...CRUD] } });
  clerkId = c.id;
  admin = await login(t, a.email, 'Passw0rd1');
  clerk = await login(t, c.email, 'Passw0rd1');
  other = await login(t, o.email, 'Passw0rd1');
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const make = async (who: { sid: string }, body: object = { name: 'script' }) => {
  const res = await t.request({ method: 'POST', url: '/api/profile/tokens', cookies: who, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: number; token: string; prefix: string; expiresAt: string | null; readOnly: boolean }>();
};

describe('personal access tokens', () => {
  it('is shown once, kept as a hash, listed without its value, and works as its user with a Bearer header', async () => {
    const made = await make(clerk, { name: 'nightly export' });
    expect(made.token).toMatch(/^cbk_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(made.token.slice(0, 10));
    // 90 days unless said otherwise.
    expect(Math.round((new Date(made.expiresAt as string).getTime() - Date.now()) / 86_400_000)).toBe(90);
    const row = await t.db.selectFrom('api_tokens').where('id', '=', made.id).selectAll().executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(made.token);
    expect(JSON.stringify(row)).not.toContain(made.token.slice(4));
    const list = await t.request({ method: 'GET', url: '/api/profile/tokens', cookies: clerk });
    expect(list.json<{ items: Array<{ id: number; name: string }> }>().items.find((i) => i.id === made.id)).toMatchObject({ name: 'nightly export', readOnly: false, lastUsedAt: null });
    expect(list.body).not.toContain(made.token);

    const me = await t.request({ method: 'GET', url: '/api/auth/session', headers: bearer(made.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ user: { uid: string } }>().user.uid).toBe(String(clerkId));
    // Exactly the user's rights: the clerk lists cases, and may not list users.
    expect((await t.request({ method: 'GET', url: '/api/cases?limit=1', headers: bearer(made.token) })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/users', headers: bearer(made.token) })).statusCode).toBe(403);
    // A write works too, and needs no Origin check (no cookie goes with it).
    const team = await t.request({ method: 'POST', url: '/api/teams', headers: { ...bearer(made.token), origin: 'https://elsewhere.example' }, payload: { name: `Team ${made.id}`, description: '' } });
    expect([201, 200]).toContain(team.statusCode);
    const used = await t.db.selectFrom('api_tokens').where('id', '=', made.id).select('last_used_at').executeTakeFirstOrThrow();
    expect(used.last_used_at).not.toBeNull();
  });

  it('answers the same 401 for a malformed, unknown, expired, revoked token, or one whose user is blocked; a cookie beside it does not help', async () => {
    const expired = await make(clerk);
    await t.db.updateTable('api_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', expired.id).execute();
    const revoked = await make(clerk);
    expect((await t.request({ method: 'DELETE', url: `/api/profile/tokens/${revoked.id}`, cookies: clerk })).statusCode).toBe(204);
    const blockedUser = await makeUser(t.db, entityId, { role: 'clerk' });
    const blocked = await make(await login(t, blockedUser.email, 'Passw0rd1'));
    await t.db.updateTable('users').set({ active: false }).where('id', '=', blockedUser.id).execute();
    const answers = [];
    for (const token of ['nonsense', '', `cbk_${'A'.repeat(43)}`, expired.token, revoked.token, blocked.token]) {
      const res = await t.request({ method: 'GET', url: '/api/cases?limit=1', headers: bearer(token), cookies: clerk });
      answers.push([res.statusCode, res.json()]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([401, { error: { code: 'UNAUTHORIZED', message: expect.any(String) } }]);
  });

  it('read-only: reads, and every write is 403 TOKEN_READ_ONLY with nothing changed', async () => {
    const ro = await make(clerk, { name: 'dashboard', readOnly: true });
    expect((await t.request({ method: 'GET', url: '/api/cases?limit=1', headers: bearer(ro.token) })).statusCode).toBe(200);
    const before = await t.db.selectFrom('teams').where('entity_id', '=', entityId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await t.request({ method: 'POST', url: '/api/teams', headers: { ...bearer(ro.token), 'accept-language': 'es' }, cookies: { lang: 'es' }, payload: { name: 'Nope', description: '' } });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ error: { code: string; message: string } }>().error).toEqual({ code: 'TOKEN_READ_ONLY', message: 'Este token de API solo puede leer: no puede cambiar nada.' });
    const after = await t.db.selectFrom('teams').where('entity_id', '=', entityId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toEqual(before.n);
  });

  it('never works on the session-only routes: making a token, changing the password or the profile (403 SESSION_ONLY)', async () => {
    const token = (await make(clerk)).token;
    const tries = [
      { method: 'POST', url: '/api/profile/tokens', payload: { name: 'another' } },
      { method: 'POST', url: '/api/auth/password', payload: { currentPassword: 'Passw0rd1', password: 'Другой-pass-123' } },
      { method: 'PUT', url: '/api/profile', payload: { name: 'Renamed', language: 'en', timeZone: 'America/Bogota' } },
    ] as const;
    for (const r of tries) {
      const res = await t.request({ ...r, headers: bearer(token) });
      expect(res.statusCode, r.url).toBe(403);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('SESSION_ONLY');
    }
    const tokens = await t.db.selectFrom('api_tokens').where('user_id', '=', clerkId).where('name', '=', 'another').select('id').execute();
    expect(tokens).toEqual([]);
  });

  it('refuses "never" and odd lifetimes for a person, and revoking another person\'s token is 404', async () => {
    for (const expiresInDays of [null, 0, 3, 10_000, '90']) {
      const res = await t.request({ method: 'POST', url: '/api/profile/tokens', cookies: clerk, payload: { name: 'x', expiresInDays } });
      expect(res.statusCode, String(expiresInDays)).toBe(400);
    }
    const mine = await make(clerk);
    expect((await t.request({ method: 'DELETE', url: `/api/profile/tokens/${mine.id}`, cookies: admin })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/auth/session', headers: bearer(mine.token) })).statusCode).toBe(200);
  });
});

describe('service accounts', () => {
  it('an administrator makes one with a role and a token that never expires; it lists cases with curl-like calls and cannot sign in', async () => {
    const roles = await t.request({ method: 'GET', url: '/api/users/role-options', cookies: admin });
    const clerkRole = roles.json<Array<{ id: number; code: string }>>().find((r) => r.code === 'clerk') as { id: number };
    const created = await t.request({ method: 'POST', url: '/api/service-accounts', cookies: admin, payload: { name: 'Finance sync', roleId: clerkRole.id } });
    expect(created.statusCode, created.body).toBe(201);
    const account = created.json<{ id: number; name: string; tokens: number }>();
    expect(account).toMatchObject({ name: 'Finance sync', tokens: 0, active: true });
    const tok = await t.request({ method: 'POST', url: `/api/service-accounts/${account.id}/tokens`, cookies: admin, payload: { name: 'prod', expiresInDays: null } });
    expect(tok.statusCode, tok.body).toBe(201);
    const { token, expiresAt } = tok.json<{ token: string; expiresAt: string | null }>();
    expect(expiresAt).toBeNull();
    const cases = await t.request({ method: 'GET', url: '/api/cases?limit=5&search=zz', headers: bearer(token) });
    expect(cases.statusCode).toBe(200);
    expect(cases.json()).toHaveProperty('items');
    // Never a password sign-in, nor a reset link.
    const row = await t.db.selectFrom('users').where('id', '=', account.id).select(['email', 'service_account', 'email_events']).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ service_account: true, email_events: [] });
    expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: row.email, password: 'anything-at-all' } })).statusCode).toBe(401);
    // Listed with its token.
    const list = await t.request({ method: 'GET', url: '/api/service-accounts', cookies: admin });
    expect(list.json<{ items: Array<{ id: number; tokens: number; lastUsedAt: string | null }> }>().items.find((a) => a.id === account.id)).toMatchObject({ tokens: 1, lastUsedAt: expect.any(String) });

    // Blocked: its tokens stop at once; unblocked: they work again.
    const body = { name: 'Finance sync', roleId: clerkRole.id };
    expect((await t.request({ method: 'PUT', url: `/api/service-accounts/${account.id}`, cookies: admin, payload: { ...body, active: false } })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/cases?limit=1', headers: bearer(token) })).statusCode).toBe(401);
    expect((await t.request({ method: 'PUT', url: `/api/service-accounts/${account.id}`, cookies: admin, payload: { ...body, active: true } })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/cases?limit=1', headers: bearer(token) })).statusCode).toBe(200);

    // Revoked: stops at once.
    const tokens = await t.request({ method: 'GET', url: `/api/service-accounts/${account.id}/tokens`, cookies: admin });
    const [first] = tokens.json<{ items: Array<{ id: number }> }>().items;
    expect((await t.request({ method: 'DELETE', url: `/api/service-accounts/${account.id}/tokens/${first?.id}`, cookies: admin })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/cases?limit=1', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('is another tenant\'s 404, a person is not a service account, and a clerk without acl_usuarios may not make one', async () => {
    const roles = await t.request({ method: 'GET', url: '/api/users/role-options', cookies: admin });
    const roleId = roles.json<Array<{ id: number }>>()[0]?.id as number;
    const made = (await t.request({ method: 'POST', url: '/api/service-accounts', cookies: admin, payload: { name: 'Mine', roleId } })).json<{ id: number }>();
    expect((await t.request({ method: 'GET', url: `/api/service-accounts/${made.id}/tokens`, cookies: other })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `/api/service-accounts/${made.id}/tokens`, cookies: other, payload: { name: 'steal' } })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `/api/service-accounts/${clerkId}/tokens`, cookies: admin, payload: { name: 'not a service account' } })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: '/api/service-accounts', cookies: clerk, payload: { name: 'Nope', roleId } })).statusCode).toBe(403);
    const list = await t.request({ method: 'GET', url: '/api/service-accounts', cookies: other });
    expect(list.json<{ items: Array<{ id: number }> }>().items.map((i) => i.id)).not.toContain(made.id);
  });
});

describe('the API document', () => {
  it('describes the bearer scheme, and every route accepts it or the session', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{ components: { securitySchemes: Record<string, { type: string; scheme?: string }> }; security: unknown[] }>();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    const docs = await t.request({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(docs.statusCode).toBe(200);
  });
});
