import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action, Target } from '../../../core/targets.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeAclAction, makeEntity, makeRole, makeUser } from '../../../tests/support/factories.js';

/**
 * Who may do what to a row of the access-control catalogues and to a role's
 * rules: each catalogue is guarded by its own target (acl_roles,
 * acl_acciones, acl_objetos; acl_reglas for rules); a system row keeps its
 * code and stays; a role that users hold stays; another tenant's rows do
 * not exist.
 */
let t: TestApp;
type Who = 'acl admin' | 'roles admin' | 'viewer' | 'none' | 'admin of another tenant';
type Row = 'custom role' | 'role in use' | 'system role' | 'custom action' | 'system module';
type Act = 'read' | 'rename' | 'change the code' | 'delete' | 'read its rules' | 'replace its rules';
type Outcome = 'allowed' | 'forbidden' | 'not found' | 'system record' | 'in use';

const ALL: Action[] = ['show', 'create', 'update', 'delete'];
const ACL_TARGETS: Target[] = ['acl_roles', 'acl_acciones', 'acl_objetos', 'acl_reglas'];
const sessions = {} as Record<Who, { sid: string }>;
let entityId: number;

beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  const other = await makeEntity(t.db);
  entityId = entity.id;
  const every = (actions: Action[]) => Object.fromEntries(ACL_TARGETS.map((target) => [target, actions]));
  const users: Array<[Who, number, Parameters<typeof makeUser>[2]]> = [
    // It holds what the table's rules rows grant (a role's rules grant only what the granter holds).
    ['acl admin', entity.id, { role: 'acl-admin', rules: { ...every(ALL), wf_casos: ['show', 'update'], wf_tareas: ['show'] } }],
    ['roles admin', entity.id, { role: 'roles-admin', rules: { acl_roles: ALL } }],
    ['viewer', entity.id, { role: 'acl-viewer', rules: every(['show']) }],
    ['none', entity.id, { role: 'clerk', rules: { wf_casos: ['show'] } }],
    ['admin of another tenant', other.id, { role: 'acl-admin', rules: every(ALL) }],
  ];
  for (const [who, tenant, options] of users) sessions[who] = await login(t, (await makeUser(t.db, tenant, options)).email, 'Passw0rd1');
});
afterAll(() => t.close());

const PATHS = { role: '/api/acl/roles', action: '/api/acl/actions', module: '/api/acl/modules' } as const;
const TABLES = { role: 'acl_roles', action: 'acl_actions', module: 'acl_modules' } as const;

/** The row a test row acts on: a new custom role or action each time, or the tenant's seeded ones. */
async function rowOf(row: Row): Promise<{ kind: keyof typeof PATHS; id: number; code: string; name: string }> {
  const seeded = (table: 'acl_roles' | 'acl_modules', code: string) => t.db.selectFrom(table).where('entity_id', '=', entityId).where('code', '=', code).select(['id', 'code', 'name']).executeTakeFirstOrThrow();
  switch (row) {
    case 'custom role':
      return { kind: 'role', ...(await makeRole(t.db, entityId, { rules: { wf_casos: ['show'] } })) };
    case 'role in use': {
      const role = await makeRole(t.db, entityId, { rules: { wf_casos: ['show'] } });
      await makeUser(t.db, entityId, { role: role.code });
      return { kind: 'role', ...role };
    }
    case 'system role':
      return { kind: 'role', ...(await seeded('acl_roles', 'invitado')) };
    case 'custom action':
      return { kind: 'action', ...(await makeAclAction(t.db, entityId)) };
    case 'system module':
      return { kind: 'module', ...(await seeded('acl_modules', 'wf_casos')) };
  }
}

const stored = async (r: { kind: keyof typeof TABLES; id: number }) => ({
  row: await t.db.selectFrom(TABLES[r.kind]).where('id', '=', r.id).select(['code', 'name']).executeTakeFirst(),
  rules: r.kind === 'role' ? (await t.db.selectFrom('acl_rules').where('role_id', '=', r.id).select(['module_id', 'action_id']).orderBy('module_id').orderBy('action_id').execute()) : [],
});

async function attempt(who: Who, act: Act, r: Awaited<ReturnType<typeof rowOf>>) {
  const as = (method: string, url: string, payload?: object) => t.request({ method: method as 'GET', url, cookies: sessions[who], payload });
  const path = `${PATHS[r.kind]}/${r.id}`;
  switch (act) {
    case 'read':
      return as('GET', path);
    case 'rename':
      return as('PUT', path, { code: r.code, name: `${r.name} renamed` });
    case 'change the code':
      return as('PUT', path, { code: `${r.code}-x`, name: r.name });
    case 'delete':
      return as('DELETE', path);
    case 'read its rules':
      return as('GET', `${path}/rules`);
    case 'replace its rules':
      return as('PUT', `${path}/rules`, { granted: { wf_casos: ['show', 'update'], wf_tareas: ['show'] } });
  }
}

const acts: Act[] = ['read', 'rename', 'change the code', 'delete'];
const row = (who: Who, r: Row, outcomes: Outcome[]) => outcomes.map((o, i) => [who, r, acts[i], o] as [Who, Row, Act, Outcome]);
const rules = (who: Who, read: Outcome, replace: Outcome): Array<[Who, Row, Act, Outcome]> => [
  [who, 'custom role', 'read its rules', read],
  [who, 'custom role', 'replace its rules', replace],
];
const [Y, F, N, S, U] = ['allowed', 'forbidden', 'not found', 'system record', 'in use'] as const;

// Columns: read, rename, change the code, delete; then a custom role's rules: read, replace.
const table: Array<[Who, Row, Act, Outcome]> = [
  ...row('acl admin', 'custom role', [Y, Y, Y, Y]),
  ...row('acl admin', 'role in use', [Y, Y, Y, U]),
  ...row('acl admin', 'system role', [Y, Y, S, S]),
  ...row('acl admin', 'custom action', [Y, Y, Y, Y]),
  ...row('acl admin', 'system module', [Y, Y, S, S]),
  ...rules('acl admin', Y, Y),
  ...row('roles admin', 'custom role', [Y, Y, Y, Y]),
  ...row('roles admin', 'role in use', [Y, Y, Y, U]),
  ...row('roles admin', 'system role', [Y, Y, S, S]),
  ...row('roles admin', 'custom action', [F, F, F, F]),
  ...row('roles admin', 'system module', [F, F, F, F]),
  ...rules('roles admin', F, F),
  ...row('viewer', 'custom role', [Y, F, F, F]),
  ...row('viewer', 'role in use', [Y, F, F, F]),
  ...row('viewer', 'system role', [Y, F, F, F]),
  ...row('viewer', 'custom action', [Y, F, F, F]),
  ...row('viewer', 'system module', [Y, F, F, F]),
  ...rules('viewer', Y, F),
  ...row('none', 'custom role', [F, F, F, F]),
  ...row('none', 'role in use', [F, F, F, F]),
  ...row('none', 'system role', [F, F, F, F]),
  ...row('none', 'custom action', [F, F, F, F]),
  ...row('none', 'system module', [F, F, F, F]),
  ...rules('none', F, F),
  ...row('admin of another tenant', 'custom role', [N, N, N, N]),
  ...row('admin of another tenant', 'role in use', [N, N, N, N]),
  ...row('admin of another tenant', 'system role', [N, N, N, N]),
  ...row('admin of another tenant', 'custom action', [N, N, N, N]),
  ...row('admin of another tenant', 'system module', [N, N, N, N]),
  ...rules('admin of another tenant', N, N),
];

describe('access-control policy', () => {
  it.each(table)('%s, %s: %s -> %s', async (who, r, act, outcome) => {
    const target = await rowOf(r);
    const before = await stored(target);
    const res = await attempt(who, act, target);
    const after = await stored(target);
    if (outcome !== 'allowed') {
      const expected = { forbidden: [403, 'FORBIDDEN'], 'not found': [404, 'NOT_FOUND'], 'system record': [409, 'SYSTEM_RECORD'], 'in use': [409, 'IN_USE'] }[outcome];
      expect(res.statusCode, res.body).toBe(expected[0]);
      expect(res.json<{ error: { code: string } }>().error.code).toBe(expected[1]);
      return expect(after).toEqual(before);
    }
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
    expect(res.statusCode, res.body).toBeLessThan(300);
    if (act === 'rename') expect(after.row?.name).toBe(`${target.name} renamed`);
    if (act === 'change the code') expect(after.row?.code).toBe(`${target.code}-x`);
    if (act === 'delete') expect(after.row).toBeUndefined();
    if (act === 'read its rules') expect(res.json<{ granted: Record<string, string[]> }>().granted).toEqual({ wf_casos: ['show'] });
    if (act === 'replace its rules') expect(res.json<{ granted: Record<string, string[]> }>().granted).toEqual({ wf_casos: ['show', 'update'], wf_tareas: ['show'] });
  });

  // The actions sent with each row, from which the web shows its buttons.
  const sent: Array<[Who, Row, string[]]> = [
    ['acl admin', 'custom role', ['edit', 'changeCode', 'delete']],
    ['acl admin', 'role in use', ['edit', 'changeCode']],
    ['acl admin', 'system role', ['edit']],
    ['acl admin', 'system module', ['edit']],
    ['viewer', 'custom action', []],
  ];
  it.each(sent)('%s, %s: sent the actions %j', async (who, r, expected) => {
    const target = await rowOf(r);
    const res = await t.request({ method: 'GET', url: `${PATHS[target.kind]}/${target.id}`, cookies: sessions[who] });
    expect(res.json<{ actions: string[] }>().actions).toEqual(expected);
  });
});

describe('catalogues', () => {
  it('refuses a second action or module of the same code as a duplicate', async () => {
    for (const path of [PATHS.action, PATHS.module, PATHS.role]) {
      const req = (payload: object) => t.request({ method: 'POST', url: path, cookies: sessions['acl admin'], payload });
      expect((await req({ code: 'dup-code', name: 'First' })).statusCode, path).toBe(201);
      const again = await req({ code: 'dup-code', name: 'Second' });
      expect(again.statusCode, path).toBe(409);
      expect(again.json<{ error: { code: string } }>().error.code).toBe('DUPLICATE');
    }
  });
});

describe('the super-admin role', () => {
  it('is renamed or deleted only by a super-admin: an ACL administrator gets no actions on it and 403, and it stays as it was', async () => {
    const role = await t.db.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', 'super-admin').select(['id', 'code', 'name']).executeTakeFirstOrThrow();
    const as = (method: 'GET' | 'PUT' | 'DELETE', payload?: object) => t.request({ method, url: `${PATHS.role}/${role.id}`, cookies: sessions['acl admin'], payload });
    expect((await as('GET')).json<{ actions: string[] }>().actions).toEqual([]);
    const rename = await as('PUT', { code: role.code, name: 'Mine now', description: '' });
    expect(rename.statusCode).toBe(403);
    expect((await as('DELETE')).statusCode).toBe(403);
    expect(await t.db.selectFrom('acl_roles').where('id', '=', role.id).select(['code', 'name']).executeTakeFirstOrThrow()).toEqual({ code: role.code, name: role.name });
    const superAdmin = await makeUser(t.db, entityId, { role: 'super-admin' });
    const sid = await login(t, superAdmin.email, 'Passw0rd1');
    const renamed = await t.request({ method: 'PUT', url: `${PATHS.role}/${role.id}`, cookies: sid, payload: { code: role.code, name: 'Support', description: '' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});

describe('the rules of a role', () => {
  const put = (sid: { sid: string }, roleId: number, granted: Record<string, string[]>) =>
    t.request({ method: 'PUT', url: `/api/acl/roles/${roleId}/rules`, cookies: sid, payload: { granted } });
  const rulesOf = async (roleId: number) =>
    (await t.db.selectFrom('acl_rules as x').innerJoin('acl_modules as m', 'm.id', 'x.module_id').innerJoin('acl_actions as a', 'a.id', 'x.action_id')
      .where('x.role_id', '=', roleId).select(['m.code as module', 'a.code as action']).orderBy('m.code').orderBy('a.code').execute()).map((r) => `${r.module}:${r.action}`);

  it('grant only what the granter holds, keep what the role had, and take away anything', async () => {
    const granter = await makeUser(t.db, entityId, { role: 'rules-keeper', rules: { acl_reglas: ['show', 'update'], wf_casos: ['show'] } });
    const sid = await login(t, granter.email, 'Passw0rd1');
    const role = await makeRole(t.db, entityId, { rules: { wf_tareas: ['show'] } });
    // wf_tareas:show is the role's already (kept); wf_casos:show is the granter's (allowed).
    expect((await put(sid, role.id, { wf_tareas: ['show'], wf_casos: ['show'] })).statusCode).toBe(200);
    expect(await rulesOf(role.id)).toEqual(['wf_casos:show', 'wf_tareas:show']);
    // admin_cases is not the granter's: refused, nothing changed.
    const refused = await put(sid, role.id, { wf_casos: ['show'], admin_cases: ['show', 'update'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { details: Array<{ path: string }> } }>().error.details.map((d) => d.path)).toEqual(['granted.admin_cases']);
    expect(await rulesOf(role.id)).toEqual(['wf_casos:show', 'wf_tareas:show']);
    // Taking away is always allowed.
    expect((await put(sid, role.id, {})).statusCode).toBe(200);
    expect(await rulesOf(role.id)).toEqual([]);
  });

  it('refuses anyone but a super-admin a change to their own role or to a super-admin role', async () => {
    const granter = await makeUser(t.db, entityId, { role: 'rules-keeper-2', rules: { acl_reglas: ['show', 'update'], wf_casos: ['show'] } });
    const sid = await login(t, granter.email, 'Passw0rd1');
    const own = granter.role_id;
    const before = await rulesOf(own);
    expect((await put(sid, own, { acl_reglas: ['show', 'update'], wf_casos: ['show'] })).statusCode).toBe(403);
    expect(await rulesOf(own)).toEqual(before);
    const superRole = (await t.db.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', 'super-admin').select('id').executeTakeFirstOrThrow()).id;
    expect((await put(sid, superRole, {})).statusCode).toBe(403);
    const superAdmin = await makeUser(t.db, entityId, { role: 'super-admin' });
    const superSid = await login(t, superAdmin.email, 'Passw0rd1');
    expect((await put(superSid, own, { acl_reglas: ['show', 'update'], wf_casos: ['show'], admin_cases: ['show'] })).statusCode).toBe(200);
  });
});
