import type { Action } from '../../../core/targets.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeUser } from '../../../tests/support/factories.js';

/**
 * Who may do what to a user of the tenant: the route's target first
 * (acl_usuarios), then the record: nobody deletes, deactivates or changes
 * the role of their own account; a super-admin role is given only by a
 * super-admin; a user who holds one is changed, deleted or sent a reset link
 * or unlocked only by a super-admin; another tenant's users do not exist.
 */
let t: TestApp;
type Who = 'super-admin' | 'users admin' | 'users viewer' | 'none' | 'admin of another tenant';
type Target = 'a user' | 'a super-admin' | 'themself';
type Act = 'read' | 'edit' | 'give a super-admin role' | 'give another role' | 'deactivate' | 'delete' | 'send a reset link' | 'unlock';
type Outcome = 'allowed' | 'forbidden' | 'not found';

const CRUD: Action[] = ['show', 'create', 'update', 'delete'];
const sessions = {} as Record<Who, { sid: string }>;
const ids = {} as Record<Who, number>;
let entityId: number;
const roles = {} as Record<'superAdmin' | 'clerk', number>;

beforeAll(async () => {
  t = await createTestApp();
  // Each row makes a user: room for them all.
  const entity = await makeEntity(t.db, { account_limit: 1000 });
  const other = await makeEntity(t.db);
  entityId = entity.id;
  const users: Array<[Who, Parameters<typeof makeUser>[1], Parameters<typeof makeUser>[2]]> = [
    ['super-admin', entity.id, { role: 'super-admin' }],
    ['users admin', entity.id, { role: 'users-admin', rules: { acl_usuarios: CRUD, dashboard_blocked_users: ['show', 'update'] } }],
    ['users viewer', entity.id, { role: 'users-viewer', rules: { acl_usuarios: ['show'] } }],
    ['none', entity.id, { role: 'clerk', rules: { wf_casos: ['show'] } }],
    ['admin of another tenant', other.id, { role: 'users-admin', rules: { acl_usuarios: CRUD, dashboard_blocked_users: ['show', 'update'] } }],
  ];
  for (const [who, tenant, options] of users) {
    const u = await makeUser(t.db, tenant, options);
    ids[who] = u.id;
    sessions[who] = await login(t, u.email, 'Passw0rd1');
  }
  const role = (code: string) => t.db.selectFrom('acl_roles').where('entity_id', '=', entity.id).where('code', '=', code).select('id').executeTakeFirstOrThrow();
  roles.superAdmin = (await role('super-admin')).id;
  roles.clerk = (await role('clerk')).id;
});
afterAll(() => t.close());

/** The user a row acts on: a new one for each row, or the actor. */
async function targetOf(who: Who, target: Target): Promise<number> {
  if (target === 'themself') return ids[who];
  return (await makeUser(t.db, entityId, { role: target === 'a super-admin' ? 'super-admin' : 'invitado' })).id;
}

const stored = async (id: number) => ({
  user: await t.db.selectFrom('users').where('id', '=', id).select(['name', 'email', 'role_id', 'active', 'locked']).executeTakeFirst(),
  resetLinks: Number((await t.db.selectFrom('password_resets').where('user_id', '=', id).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
});

async function attempt(who: Who, act: Act, id: number) {
  const as = (method: string, url: string, payload?: object) => t.request({ method: method as 'GET', url, cookies: sessions[who], payload });
  const u = await t.db.selectFrom('users').where('id', '=', id).selectAll().executeTakeFirstOrThrow();
  const body = { email: u.email, name: u.name, docnumber: u.docnumber, roleId: u.role_id, active: u.active, language: u.language, timeZone: u.time_zone };
  switch (act) {
    case 'read':
      return as('GET', `/api/users/${id}`);
    case 'edit':
      return as('PUT', `/api/users/${id}`, { ...body, name: `${u.name} changed` });
    case 'give a super-admin role':
      return as('PUT', `/api/users/${id}`, { ...body, roleId: roles.superAdmin });
    case 'give another role':
      return as('PUT', `/api/users/${id}`, { ...body, roleId: roles.clerk });
    case 'deactivate':
      return as('PUT', `/api/users/${id}`, { ...body, active: false });
    case 'delete':
      return as('DELETE', `/api/users/${id}`);
    case 'send a reset link':
      return as('POST', `/api/users/${id}/reset-link`);
    case 'unlock':
      return as('POST', `/api/users/${id}/unlock`);
  }
}

const acts: Act[] = ['read', 'edit', 'give a super-admin role', 'give another role', 'deactivate', 'delete', 'send a reset link', 'unlock'];
const row = (who: Who, target: Target, outcomes: Outcome[]) => outcomes.map((o, i) => [who, target, acts[i], o] as [Who, Target, Act, Outcome]);
const Y = 'allowed';
const F = 'forbidden';
const N = 'not found';

// Columns: read, edit, give a super-admin role, give another role, deactivate, delete, send a reset link, unlock.
const table: Array<[Who, Target, Act, Outcome]> = [
  ...row('super-admin', 'a user', [Y, Y, Y, Y, Y, Y, Y, Y]),
  ...row('super-admin', 'a super-admin', [Y, Y, Y, Y, Y, Y, Y, Y]),
  // Already a super-admin: "giving" that role changes nothing, which is allowed.
  ...row('super-admin', 'themself', [Y, Y, Y, F, F, F, Y, Y]),
  ...row('users admin', 'a user', [Y, Y, F, Y, Y, Y, Y, Y]),
  ...row('users admin', 'a super-admin', [Y, F, F, F, F, F, F, F]),
  ...row('users admin', 'themself', [Y, Y, F, F, F, F, Y, Y]),
  ...row('users viewer', 'a user', [Y, F, F, F, F, F, F, F]),
  ...row('users viewer', 'a super-admin', [Y, F, F, F, F, F, F, F]),
  ...row('users viewer', 'themself', [Y, F, F, F, F, F, F, F]),
  ...row('none', 'a user', [F, F, F, F, F, F, F, F]),
  ...row('none', 'a super-admin', [F, F, F, F, F, F, F, F]),
  ...row('none', 'themself', [F, F, F, F, F, F, F, F]),
  ...row('admin of another tenant', 'a user', [N, N, N, N, N, N, N, N]),
  ...row('admin of another tenant', 'a super-admin', [N, N, N, N, N, N, N, N]),
];

describe('user policy', () => {
  it.each(table)('%s, %s: %s -> %s', async (who, target, act, outcome) => {
    const id = await targetOf(who, target);
    // Something to unlock (a signed-in actor unlocking themself: locked while the session still stands).
    if (act === 'unlock') await t.db.updateTable('users').set({ locked: true }).where('id', '=', id).where('id', '!=', ids[who]).execute();
    const before = await stored(id);
    const res = await attempt(who, act, id);
    const after = await stored(id);
    if (outcome !== 'allowed') {
      expect(res.statusCode, res.body).toBe(outcome === 'forbidden' ? 403 : 404);
      return expect(after).toEqual(before);
    }
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
    expect(res.statusCode, res.body).toBeLessThan(300);
    if (act === 'edit') expect(after.user?.name).toBe(`${before.user?.name} changed`);
    if (act === 'give a super-admin role') expect(after.user?.role_id).toBe(roles.superAdmin);
    if (act === 'give another role') expect(after.user?.role_id).toBe(roles.clerk);
    if (act === 'deactivate') expect(after.user?.active).toBe(false);
    if (act === 'delete') expect(after.user).toBeUndefined();
    if (act === 'send a reset link') expect(after.resetLinks).toBe(before.resetLinks + 1);
    if (act === 'unlock') expect(after.user?.locked).toBe(false);
  });

  // The actions sent with each user, from which the web shows its buttons.
  const actions: Array<[Who, Target, string[]]> = [
    ['super-admin', 'a user', ['edit', 'changeRole', 'deactivate', 'delete', 'resetLink', 'unlock']],
    ['super-admin', 'a super-admin', ['edit', 'changeRole', 'deactivate', 'delete', 'resetLink', 'unlock']],
    ['super-admin', 'themself', ['edit', 'resetLink', 'unlock']],
    ['users admin', 'a user', ['edit', 'changeRole', 'deactivate', 'delete', 'resetLink', 'unlock']],
    ['users admin', 'a super-admin', []],
    ['users admin', 'themself', ['edit', 'resetLink', 'unlock']],
    ['users viewer', 'a user', []],
  ];
  it.each(actions)('%s, %s: sent the actions %j', async (who, target, expected) => {
    const id = await targetOf(who, target);
    const res = await t.request({ method: 'GET', url: `/api/users/${id}`, cookies: sessions[who] });
    expect(res.json<{ actions: string[] }>().actions).toEqual(expected);
  });

  it('offers a super-admin role only to a super-admin', async () => {
    const offered = async (who: Who) => (await t.request({ method: 'GET', url: '/api/users/role-options', cookies: sessions[who] })).json<Array<{ id: number }>>().map((r) => r.id);
    expect(await offered('super-admin')).toContain(roles.superAdmin);
    expect(await offered('users admin')).not.toContain(roles.superAdmin);
    expect(await offered('users admin')).toContain(roles.clerk);
  });
});

describe('users', () => {
  const req = (method: string, url: string, payload?: object) => t.request({ method: method as 'GET', url, cookies: sessions['users admin'], payload });
  type Err = { error: { code: string; details?: Array<{ path: string }> } };
  const fields = { name: 'Nora New', roleId: 0, language: 'en', timeZone: 'America/Bogota', password: 'Passw0rd1' };

  it('creates a user; an email or document number already taken is refused, as is a role of another tenant', async () => {
    const created = await req('POST', '/api/users', { ...fields, roleId: roles.clerk, email: 'nora@example.test', docnumber: '8801' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ email: 'nora@example.test', name: 'Nora New', roleId: roles.clerk, active: true, locked: false });
    const sameEmail = await req('POST', '/api/users', { ...fields, roleId: roles.clerk, email: 'NORA@example.test' });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json<Err>().error.code).toBe('EMAIL_TAKEN');
    const sameDocument = await req('POST', '/api/users', { ...fields, roleId: roles.clerk, email: 'other@example.test', docnumber: '8801' });
    expect(sameDocument.statusCode).toBe(409);
    expect(sameDocument.json<Err>().error.code).toBe('DOCUMENT_TAKEN');
    const foreignRole = (await t.db.selectFrom('acl_roles').where('entity_id', '!=', entityId).select('id').executeTakeFirstOrThrow()).id;
    const foreign = await req('POST', '/api/users', { ...fields, roleId: foreignRole, email: 'third@example.test' });
    expect(foreign.json<Err>().error.details?.[0].path).toBe('roleId');
    const listed = await req('GET', '/api/users?search=nora');
    expect(listed.json<{ items: Array<{ email: string }> }>().items.map((u) => u.email)).toEqual(['nora@example.test']);
  });

  it('signs out a user as soon as they are deactivated', async () => {
    const user = await makeUser(t.db, entityId, { role: 'clerk' });
    const session = await login(t, user.email, 'Passw0rd1');
    const u = await t.db.selectFrom('users').where('id', '=', user.id).selectAll().executeTakeFirstOrThrow();
    const res = await req('PUT', `/api/users/${user.id}`, { email: u.email, name: u.name, roleId: u.role_id, active: false });
    expect(res.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/auth/session', cookies: session })).statusCode).toBe(401);
  });
});
