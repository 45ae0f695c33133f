import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Action, TARGETS, type Target } from '../../../core/targets.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeRole, makeUser } from '../../../tests/support/factories.js';
import { DEMO_ROLES } from '../../db/seed/acl.js';
import { can } from './policy.js';
import { actorForToken } from '../auth/sessions.js';

/**
 * The tenants, roles and people are made here with the factories; the demo
 * seed plays no part (one test reads the seed's role list: it checks that
 * list itself). The rules are the programme's three roles, written out.
 */
const CRUD: Action[] = ['show', 'create', 'update', 'delete'];
const ROLES: Record<'coordinator' | 'reviewer' | 'applicant', { name: string; rules: Partial<Record<Target, Action[]>> }> = {
  coordinator: {
    name: 'Coordinator',
    rules: {
      wf_casos: ['show', 'create', 'update', 'export', 'print'], borradores: ['show', 'create', 'create_drafts'],
      admin_cases: ['show', 'update'], change_owner_case: ['update'], wf_casos_participantes: ['show', 'update'],
      wf_abrir_caso: ['confirm'], wf_completar_caso: ['confirm'], wf_cerrar_caso: ['confirm'], wf_activar_caso: ['confirm'],
      wf_tareas: ['show', 'create', 'update', 'accept', 'reject', 'restart_task'], menutareas: ['show'],
      admintasks: ['show', 'update', 'restart_task'], menuReportes: ['show'], excel_reports: ['show', 'export'],
      tareas_reports: ['show', 'export'], application_comments_reports: ['show'], user_comments_reports: ['show'],
      reporte_data_tape: ['show', 'export'], formularios: CRUD, menu_maestros: CRUD, definiciones: CRUD,
      departamentos: CRUD, municipios: CRUD, wf_protocolos: [...CRUD, 'export'], wf_equipos: CRUD,
      wf_equipos_integrantes: CRUD, menu_dashboards: ['show'], dashboard_comments: ['show', 'update', 'delete'],
      menu_configuracion: CRUD, plantillas_correo: CRUD, reenviarcorreos: ['show', 'update'],
      aplicacionessimilares: ['show'], historialaplicacion: ['show'],
    },
  },
  reviewer: {
    name: 'Reviewer',
    rules: {
      wf_casos: ['show'], menutareas: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'],
      historialaplicacion: ['show'], aplicacionessimilares: ['show'], menu_dashboards: ['show'],
      dashboard_comments: ['show'], menuReportes: ['show'], tareas_reports: ['show'],
    },
  },
  applicant: { name: 'Applicant', rules: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] } },
};
type Role = keyof typeof ROLES;

let t: TestApp;
let entityId: number;
let admin: { sid: string };
let coordinator: { sid: string };
let reviewer: { sid: string };
let applicant: { sid: string };
let other: { sid: string };
let reviewerEmail: string;
let otherAdminEmail: string;
beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  const otherEntity = await makeEntity(t.db);
  entityId = entity.id;
  for (const role of Object.keys(ROLES) as Role[]) await makeRole(t.db, entity.id, { code: role, ...ROLES[role] });
  // The other tenant has a reviewer role of its own, and one user: its administrator.
  await makeRole(t.db, otherEntity.id, { code: 'reviewer', ...ROLES.reviewer });
  const person = (id: number, role: string, email: string, name: string) => makeUser(t.db, id, { role, email, name, password: 'Demo12345' });
  const people = await Promise.all([
    person(entity.id, 'super-admin', `admin-${entity.id}@example.test`, 'Diana Admin'),
    person(entity.id, 'coordinator', `coordinator-${entity.id}@example.test`, 'Carla Coordinator'),
    person(entity.id, 'reviewer', `reviewer-${entity.id}@example.test`, 'Rafael Reviewer'),
    person(entity.id, 'applicant', `applicant-${entity.id}@example.test`, 'Ana Applicant'),
    person(otherEntity.id, 'super-admin', `admin-${otherEntity.id}@example.test`, 'Otto Admin'),
  ]);
  reviewerEmail = people[2].email;
  otherAdminEmail = people[4].email;
  [admin, coordinator, reviewer, applicant, other] = await Promise.all(people.map((u) => login(t, u.email, 'Demo12345')));
});
afterAll(() => t.close());

type Err = { error: { code: string; message: string } };
type List<T> = { items: T[]; total: number };
const get = (url: string, who?: { sid: string }) => t.request({ method: 'GET', url, cookies: who });

describe('every route declares its access, and the server enforces it', () => {
  it('answers 401 on every non-public route without a session, before looking at the input', async () => {
    const guarded = t.app.routeAccess.filter((r) => r.access !== 'public');
    expect(guarded.length).toBeGreaterThan(20);
    for (const route of guarded) {
      const url = route.url.replace(/:(\w+)/g, '1');
      const res = await t.request({ method: route.method as 'GET', url, payload: route.method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('answers 403 to the reviewer on every ACL route, reads and writes alike', async () => {
    const acl = t.app.routeAccess.filter((r) => r.method !== 'HEAD' && typeof r.access === 'object' && /^acl_|dashboard_blocked_users/.test(r.access.target));
    expect(acl.length).toBeGreaterThan(15);
    for (const route of acl) {
      const url = route.url.replace(/:(\w+)/g, '1');
      const res = await t.request({ method: route.method as 'GET', url, cookies: reviewer, payload: route.method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json<Err>().error.message).toBe('The user does not have permission to the page');
    }
  });
});

describe('policy table: role x target x action', () => {
  it('grants exactly its rules to each role, and everything to the super-admin', async () => {
    const actors = {
      admin: await actorForToken(t.db, admin.sid),
      coordinator: await actorForToken(t.db, coordinator.sid),
      reviewer: await actorForToken(t.db, reviewer.sid),
      applicant: await actorForToken(t.db, applicant.sid),
    };
    const actions = ['show', 'create', 'update', 'delete', 'accept', 'reject', 'export', 'confirm', 'restart_task', 'create_drafts', 'print', 'cancel'] as const;
    for (const target of TARGETS) {
      for (const action of actions) {
        expect(can(actors.admin, target, action), `admin ${target} ${action}`).toBe(true);
        for (const role of ['coordinator', 'reviewer', 'applicant'] as const) {
          const granted = ROLES[role].rules[target]?.includes(action) ?? false;
          expect(can(actors[role], target, action), `${role} ${target} ${action}`).toBe(granted);
        }
      }
    }
    expect(can(null, 'wf_casos', 'show')).toBe(false);
  });

  // This one checks the demo seed's own role list (what a new demo tenant's roles may do), so it reads that list; it needs no database.
  it('keeps ACL screens from every demo role but the super-admin', () => {
    for (const role of DEMO_ROLES) {
      for (const target of ['acl_acciones', 'acl_objetos', 'acl_roles', 'acl_reglas', 'acl_usuarios', 'menu_permisos'] as const) {
        expect(role.rules[target], `${role.code} ${target}`).toBeUndefined();
      }
    }
  });
});

describe('catalogue administration', () => {
  it('lists the seeded actions and modules with search and paging', async () => {
    const actions = (await get('/api/acl/actions?limit=50', admin)).json<List<{ code: string; system: boolean }>>();
    expect(actions.total).toBe(12);
    expect(actions.items.every((a) => a.system)).toBe(true);
    const modules = (await get('/api/acl/modules?search=acl_&limit=2&sortBy=code', admin)).json<List<{ code: string }>>();
    expect(modules.total).toBe(5);
    expect(modules.items.map((m) => m.code)).toEqual(['acl_acciones', 'acl_objetos']);
    const page3 = (await get('/api/acl/modules?search=acl_&limit=2&page=3&sortBy=code', admin)).json<List<{ code: string }>>();
    expect(page3.items.map((m) => m.code)).toEqual(['acl_usuarios']);
  });

  it('refuses an unknown sort column, a huge limit and unknown query fields with 400', async () => {
    for (const q of ['sortBy=password_hash', 'limit=100000', 'sortBy=code;drop table users', 'evil=1']) {
      const res = await get(`/api/acl/modules?${q}`, admin);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('creates, updates and deletes a role; a system one keeps its code and stays', async () => {
    const created = await t.request({ method: 'POST', url: '/api/acl/roles', cookies: admin, payload: { code: 'auditor', name: 'Auditor', super_admin: true, entity_id: 2 } });
    expect(created.statusCode).toBe(201);
    const role = created.json<{ id: number; superAdmin: boolean }>();
    expect(role.superAdmin).toBe(false); // not assignable through the API
    const dup = await t.request({ method: 'POST', url: '/api/acl/roles', cookies: admin, payload: { code: 'auditor', name: 'Again' } });
    expect(dup.statusCode).toBe(409);
    const renamed = await t.request({ method: 'PUT', url: `/api/acl/roles/${role.id}`, cookies: admin, payload: { code: 'auditor', name: 'Auditors' } });
    expect(renamed.json<{ name: string }>().name).toBe('Auditors');
    expect((await t.request({ method: 'DELETE', url: `/api/acl/roles/${role.id}`, cookies: admin })).statusCode).toBe(204);
    expect((await get(`/api/acl/roles/${role.id}`, admin)).statusCode).toBe(404);

    const system = (await get('/api/acl/roles?search=super-admin', admin)).json<List<{ id: number }>>().items[0];
    const del = await t.request({ method: 'DELETE', url: `/api/acl/roles/${system.id}`, cookies: admin });
    expect(del.statusCode).toBe(409);
    expect(del.json<Err>().error.code).toBe('SYSTEM_RECORD');
    const recode = await t.request({ method: 'PUT', url: `/api/acl/roles/${system.id}`, cookies: admin, payload: { code: 'boss', name: 'Soporte' } });
    expect(recode.json<Err>().error.code).toBe('SYSTEM_RECORD');
  });

  it('refuses to delete a role that users hold', async () => {
    const reviewerRole = (await get('/api/acl/roles?search=reviewer', admin)).json<List<{ id: number; users: number }>>().items[0];
    expect(reviewerRole.users).toBe(1);
    const res = await t.request({ method: 'DELETE', url: `/api/acl/roles/${reviewerRole.id}`, cookies: admin });
    expect(res.json<Err>().error.code).toBe('IN_USE');
  });

  it('applies a changed rule on the very next request', async () => {
    const roles = (await get('/api/acl/roles?search=reviewer', admin)).json<List<{ id: number }>>();
    const id = roles.items[0].id;
    const before = (await get(`/api/acl/roles/${id}/rules`, admin)).json<{ granted: Record<string, string[]> }>();
    expect((await get('/api/acl/modules', reviewer)).statusCode).toBe(403);
    const grant = await t.request({ method: 'PUT', url: `/api/acl/roles/${id}/rules`, cookies: admin, payload: { granted: { ...before.granted, acl_objetos: ['show'] } } });
    expect(grant.statusCode).toBe(200);
    expect((await get('/api/acl/modules', reviewer)).statusCode).toBe(200);
    const session = (await get('/api/auth/session', reviewer)).json<{ targets: string[] }>();
    expect(session.targets).toContain('acl_objetos');
    await t.request({ method: 'PUT', url: `/api/acl/roles/${id}/rules`, cookies: admin, payload: { granted: before.granted } });
    expect((await get('/api/acl/modules', reviewer)).statusCode).toBe(403);
  });

  it('sees a rule changed behind its back (another instance, plain SQL) on the next request, and a role made super-admin', async () => {
    const role = await t.db.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', 'reviewer').select(['id', 'entity_id']).executeTakeFirstOrThrow();
    const module = await t.db.selectFrom('acl_modules').where('code', '=', 'acl_acciones').where('entity_id', '=', role.entity_id).select('id').executeTakeFirstOrThrow();
    const action = await t.db.selectFrom('acl_actions').where('code', '=', 'show').where('entity_id', '=', role.entity_id).select('id').executeTakeFirstOrThrow();
    expect((await get('/api/acl/actions', reviewer)).statusCode).toBe(403);
    await t.db.insertInto('acl_rules').values({ entity_id: role.entity_id, role_id: role.id, module_id: module.id, action_id: action.id }).execute();
    expect((await get('/api/acl/actions', reviewer)).statusCode).toBe(200);
    await t.db.deleteFrom('acl_rules').where('role_id', '=', role.id).where('module_id', '=', module.id).execute();
    expect((await get('/api/acl/actions', reviewer)).statusCode).toBe(403);
    await t.db.updateTable('acl_roles').set({ super_admin: true }).where('id', '=', role.id).execute();
    expect((await get('/api/acl/actions', reviewer)).statusCode).toBe(200);
    await t.db.updateTable('acl_roles').set({ super_admin: false }).where('id', '=', role.id).execute();
    expect((await get('/api/acl/actions', reviewer)).statusCode).toBe(403);
  });

  it('lets someone who only holds acl_reglas list the roles to edit', async () => {
    const entity = await makeEntity(t.db);
    await makeUser(t.db, entity.id, { role: 'rules-only', rules: { acl_reglas: ['show', 'update'] }, email: `ro-${entity.id}@example.test` });
    const who = await login(t, `ro-${entity.id}@example.test`, 'Passw0rd1');
    expect((await get('/api/acl/roles', who)).statusCode).toBe(403);
    const roles = (await get('/api/acl/rules/roles', who)).json<Array<{ code: string }>>();
    expect(roles.map((r) => r.code)).toEqual(expect.arrayContaining(['super-admin', 'invitado', 'rules-only']));
  });

  it('refuses rules naming unknown modules or actions, changing nothing', async () => {
    const id = (await get('/api/acl/roles?search=reviewer', admin)).json<List<{ id: number }>>().items[0].id;
    const before = (await get(`/api/acl/roles/${id}/rules`, admin)).json();
    for (const granted of [{ nope: ['show'] }, { wf_casos: ['fly'] }, { wf_casos: 'show' }]) {
      const res = await t.request({ method: 'PUT', url: `/api/acl/roles/${id}/rules`, cookies: admin, payload: { granted } });
      expect(res.statusCode).toBe(400);
    }
    expect((await get(`/api/acl/roles/${id}/rules`, admin)).json()).toEqual(before);
  });
});

describe('tenant isolation', () => {
  it("shows the other tenant's administrator only its own tenant", async () => {
    const mine = (await get('/api/users', other)).json<List<{ email: string }>>();
    expect(mine.items.map((u) => u.email)).toEqual([otherAdminEmail]);
    const ourRoles = (await get('/api/acl/roles?limit=100', admin)).json<List<{ id: number }>>();
    const theirs = (await get('/api/acl/roles?limit=100', other)).json<List<{ id: number }>>();
    expect(theirs.items.map((r) => r.id)).not.toEqual(expect.arrayContaining([ourRoles.items[0].id]));
  });

  it("answers 404 when the other tenant's administrator reads, changes or deletes anything of the first tenant", async () => {
    const ourUser = (await get('/api/users?search=reviewer', admin)).json<List<{ id: number; roleId: number }>>().items[0];
    const ourRole = (await get('/api/acl/roles?search=coordinator', admin)).json<List<{ id: number }>>().items[0];
    const ourAction = (await get('/api/acl/actions?search=accept', admin)).json<List<{ id: number }>>().items[0];
    const attempts = [
      t.request({ method: 'GET', url: `/api/users/${ourUser.id}`, cookies: other }),
      t.request({ method: 'PUT', url: `/api/users/${ourUser.id}`, cookies: other, payload: { email: 'x@y.test', name: 'x', roleId: ourUser.roleId } }),
      t.request({ method: 'DELETE', url: `/api/users/${ourUser.id}`, cookies: other }),
      t.request({ method: 'POST', url: `/api/users/${ourUser.id}/unlock`, cookies: other }),
      t.request({ method: 'GET', url: `/api/acl/roles/${ourRole.id}`, cookies: other }),
      t.request({ method: 'PUT', url: `/api/acl/roles/${ourRole.id}`, cookies: other, payload: { code: 'coordinator', name: 'Hacked' } }),
      t.request({ method: 'DELETE', url: `/api/acl/roles/${ourRole.id}`, cookies: other }),
      t.request({ method: 'GET', url: `/api/acl/roles/${ourRole.id}/rules`, cookies: other }),
      t.request({ method: 'PUT', url: `/api/acl/roles/${ourRole.id}/rules`, cookies: other, payload: { granted: {} } }),
      t.request({ method: 'DELETE', url: `/api/acl/actions/${ourAction.id}`, cookies: other }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.statusCode, res.body).toBe(404);
    // Nothing changed.
    expect((await get(`/api/users/${ourUser.id}`, admin)).json<{ email: string }>().email).toBe(reviewerEmail);
    expect((await get(`/api/acl/roles/${ourRole.id}`, admin)).json<{ name: string }>().name).toBe('Coordinator');
    expect(Object.keys((await get(`/api/acl/roles/${ourRole.id}/rules`, admin)).json<{ granted: object }>().granted).length).toBeGreaterThan(10);
  });

  it("refuses to give a user another tenant's role", async () => {
    const theirRole = (await get('/api/acl/roles?search=reviewer', other)).json<List<{ id: number }>>().items[0];
    const res = await t.request({ method: 'POST', url: '/api/users', cookies: admin, payload: { email: 'cross@example.test', name: 'Cross', roleId: theirRole.id, password: 'Passw0rd1' } });
    expect(res.statusCode).toBe(400);
  });

  it('says when a user has no valid email to send a reset link to', async () => {
    const entity = await makeEntity(t.db);
    await makeUser(t.db, entity.id, { role: 'super-admin', email: `ne-${entity.id}@example.test` });
    const legacy = await makeUser(t.db, entity.id, { email: `legacy-account-${entity.id}` });
    const boss = await login(t, `ne-${entity.id}@example.test`, 'Passw0rd1');
    const res = await t.request({ method: 'POST', url: `/api/users/${legacy.id}/reset-link`, cookies: { ...boss, lang: 'es' } });
    expect(res.statusCode).toBe(422);
    expect(res.json<Err>().error.message).toBe('El usuario no tiene un correo válido asociado, contacte a soporte para recuperar la contraseña');
  });

  it('answers the reset-link action with User not found for a foreign user', async () => {
    const ourUser = (await get('/api/users?search=reviewer', admin)).json<List<{ id: number }>>().items[0];
    const res = await t.request({ method: 'POST', url: `/api/users/${ourUser.id}/reset-link`, cookies: other });
    expect(res.statusCode).toBe(404);
    expect(res.json<Err>().error.message).toBe('User not found');
  });
});

describe('user administration', () => {
  it('creates a user, refusing a super-admin role from an admin who is not one', async () => {
    const entity = await makeEntity(t.db);
    await makeUser(t.db, entity.id, { role: 'useradmin', rules: { acl_usuarios: ['show', 'create', 'update'] }, email: `ua-${entity.id}@example.test` });
    const ua = await login(t, `ua-${entity.id}@example.test`, 'Passw0rd1');
    const options = (await get('/api/users/role-options', ua)).json<Array<{ code: string; id: number }>>();
    expect(options.map((o) => o.code)).not.toContain('super-admin');
    const superRole = await t.db.selectFrom('acl_roles').where('entity_id', '=', entity.id).where('code', '=', 'super-admin').select('id').executeTakeFirstOrThrow();
    const escalate = await t.request({ method: 'POST', url: '/api/users', cookies: ua, payload: { email: `esc-${entity.id}@example.test`, name: 'Esc', roleId: superRole.id, password: 'Passw0rd1' } });
    expect(escalate.statusCode).toBe(403);
    const guest = options.find((o) => o.code === 'invitado') as { id: number };
    const ok = await t.request({ method: 'POST', url: '/api/users', cookies: ua, payload: { email: `new-${entity.id}@example.test`, name: 'New', roleId: guest.id, password: 'Passw0rd1' } });
    expect(ok.statusCode).toBe(201);
  });

  it('refuses a new user past the plan limit and reports the plan state', async () => {
    const entity = await makeEntity(t.db, { account_limit: 2 });
    await makeUser(t.db, entity.id, { role: 'super-admin', email: `pl-${entity.id}@example.test` });
    const boss = await login(t, `pl-${entity.id}@example.test`, 'Passw0rd1');
    const guest = await t.db.selectFrom('acl_roles').where('entity_id', '=', entity.id).where('code', '=', 'invitado').select('id').executeTakeFirstOrThrow();
    const add = (n: number) => t.request({ method: 'POST', url: '/api/users', cookies: boss, payload: { email: `pl${n}-${entity.id}@example.test`, name: 'P', roleId: guest.id, password: 'Passw0rd1' } });
    expect((await add(1)).statusCode).toBe(201);
    const over = await add(2);
    expect(over.statusCode).toBe(409);
    expect(over.json<Err>().error.code).toBe('ACCOUNT_LIMIT');
    expect((await get('/api/entity/plan', boss)).json()).toEqual({ plan: 1, accountLimit: 2, accountsUsed: 2, diskQuotaMb: 1024, diskUsedMb: 0 });
  });

  it('signs a deactivated user out at once', async () => {
    const entity = await makeEntity(t.db);
    await makeUser(t.db, entity.id, { role: 'super-admin', email: `da-${entity.id}@example.test` });
    const user = await makeUser(t.db, entity.id);
    const boss = await login(t, `da-${entity.id}@example.test`, 'Passw0rd1');
    const victim = await login(t, user.email, 'Passw0rd1');
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      cookies: boss,
      payload: { email: user.email, name: user.name, roleId: user.role_id, active: false },
    });
    expect(res.statusCode).toBe(200);
    expect((await get('/api/auth/session', victim)).statusCode).toBe(401);
  });

  it('refuses over-long strings and wrong types with 400 and changes nothing', async () => {
    const before = (await get('/api/users?limit=100', admin)).json<List<unknown>>().total;
    for (const payload of [
      { email: 'long@example.test', name: 'x'.repeat(121), roleId: 1 },
      { email: 'not-an-email', name: 'x', roleId: 1 },
      { email: 'a@b.test', name: 'x', roleId: '1; drop' },
      { email: 'a@b.test', name: { $ne: 1 }, roleId: 1 },
    ]) {
      const res = await t.request({ method: 'POST', url: '/api/users', cookies: admin, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await get('/api/users?limit=100', admin)).json<List<unknown>>().total).toBe(before);
  });
});
