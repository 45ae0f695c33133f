import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENCY_PLANS } from '../../../core/agencies.js';
import { TARGETS } from '../../../core/targets.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { DEMO_ROLES } from '../../db/seed/acl.js';
import { SYSTEM_MASTERS } from '../../db/seed/masters.js';

/**
 * Agencies registering themselves (captcha, emailed link, one transaction
 * that makes the tenant and signs its administrator in) and the platform
 * operator's list and editor. Tenants are made here with the factories: an
 * existing agency with its super-admin, and an operator who is a guest of it.
 */
let t: TestApp;
let existing: { id: number; docnumber: string; name: string; slug: string };
let tenantAdmin: { sid: string };
let operator: { sid: string };
beforeAll(async () => {
  t = await createTestApp();
  existing = await makeEntity(t.db, { name: 'Harbor Housing Trust' });
  await makeProject(t.db, { entity_id: existing.id, is_default: true });
  const admin = await makeUser(t.db, existing.id, { role: 'super-admin', password: 'Demo12345' });
  const op = await makeUser(t.db, existing.id, { role: 'invitado', password: 'Demo12345', platform_operator: true });
  tenantAdmin = await login(t, admin.email);
  operator = await login(t, op.email);
});
afterAll(() => t.close());

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
let client = 0;
const post = (url: string, payload: unknown, options: { cookies?: Record<string, string> } = {}) =>
  t.request({ method: 'POST', url, payload: payload as object, remoteAddress: `198.51.100.${++client % 250}`, ...options });

async function solvedCaptcha(): Promise<string> {
  const challenge = (await t.request({ method: 'GET', url: '/api/auth/captcha', remoteAddress: `203.0.113.${++client % 250}` })).json();
  const solution = await solveChallenge({ challenge, deriveKey } as never);
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

let serial = 0;
function form(overrides: Record<string, unknown> = {}) {
  serial++;
  return {
    docnumber: `800-${Date.now() % 100000}-${serial}`,
    name: `Lakeside Relief ${serial} ${Math.random().toString(36).slice(2, 6)}`,
    adminName: 'Rita Registrant',
    email: `rita${serial}-${Math.random().toString(36).slice(2, 6)}@example.test`,
    password: 'Secret123',
    passwordConfirm: 'Secret123',
    language: 'en',
    plan: 'standard',
    ...overrides,
  };
}

/** Registers and answers the link's token, read from the message in the outbox. */
async function register(overrides: Record<string, unknown> = {}, cookies?: Record<string, string>) {
  const body = form(overrides);
  const res = await post('/api/agencies/registrations', { ...body, captcha: await solvedCaptcha() }, { cookies });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await t.db.selectFrom('mail_outbox').where('to_address', '=', body.email).selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  const token = /\/registro-entidad\/confirmar\/([A-Za-z0-9_-]+)/.exec(mail.body_text)?.[1];
  return { body, res, mail, token: token as string };
}

const counts = async () => {
  const row = await sql<{ entities: string; users: string; projects: string; roles: string; masters: string; templates: string }>`
    select (select count(*) from entities) as entities, (select count(*) from users) as users, (select count(*) from projects) as projects,
           (select count(*) from acl_roles) as roles, (select count(*) from masters) as masters, (select count(*) from mail_templates) as templates`.execute(t.db);
  return row.rows[0];
};

describe('an agency registers itself', () => {
  it('keeps a pending registration (password and token hashed) and emails the link in the registrant language; nothing of the tenant yet', async () => {
    const before = await counts();
    const { body, res, mail, token } = await register({ language: 'es', plan: 'premium' });
    expect(res.json<{ message: string }>().message).toContain(body.email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(mail.entity_id).toBeNull();
    expect(mail.subject).toBe(`Confirme el registro de ${body.name}`);
    expect(mail.body_text).toContain('plan Premium');
    expect(mail.body_text).toContain(`http://localhost:3000/registro-entidad/confirmar/${token}`);
    const reg = await t.db.selectFrom('agency_registrations').where('docnumber', '=', body.docnumber).selectAll().executeTakeFirstOrThrow();
    expect(reg.password_hash).toMatch(/^\$argon2id\$/);
    expect(reg.token_hash).not.toContain(token);
    expect(reg.token_hash).toHaveLength(64);
    expect(reg.expires_at.getTime() - Date.now()).toBeGreaterThan(47 * 3600_000);
    expect(reg.used_at).toBeNull();
    expect(await counts()).toEqual(before);
  });

  it('refuses a docnumber or a name (public address) an entity holds with 409, in the caller language, keeping nothing', async () => {
    const before = await t.db.selectFrom('agency_registrations').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const taken = await post('/api/agencies/registrations', { ...form({ docnumber: existing.docnumber }), captcha: await solvedCaptcha() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<Err>().error).toEqual({ code: 'AGENCY_DOCNUMBER_TAKEN', message: `An agency with the document number ${existing.docnumber} already exists.` });
    const es = await post('/api/agencies/registrations', { ...form({ name: 'HARBOR housing trust!' }), captcha: await solvedCaptcha() }, { cookies: { lang: 'es' } });
    expect(es.statusCode).toBe(409);
    expect(es.json<Err>().error).toEqual({ code: 'AGENCY_NAME_TAKEN', message: 'Ya existe una entidad con este nombre: elija otro nombre.' });
    const after = await t.db.selectFrom('agency_registrations').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('requires a solved captcha, once; the sign-up password rules; matching passwords', async () => {
    const missing = await post('/api/agencies/registrations', form());
    expect(missing.statusCode).toBe(400);
    expect(missing.json<Err>().error.details?.find((d) => d.path === 'captcha')?.message).toBe('Please complete captcha');
    const forged = await post('/api/agencies/registrations', { ...form(), captcha: Buffer.from('{"challenge":{}}').toString('base64') });
    expect(forged.json<Err>().error.code).toBe('CAPTCHA_REQUIRED');
    const captcha = await solvedCaptcha();
    expect((await post('/api/agencies/registrations', { ...form(), captcha })).statusCode).toBe(201);
    const replay = await post('/api/agencies/registrations', { ...form(), captcha });
    expect(replay.statusCode).toBe(400);
    expect(replay.json<Err>().error.code).toBe('CAPTCHA_REQUIRED');
    const weak = await post('/api/agencies/registrations', { ...form({ password: 'short', passwordConfirm: 'short' }), captcha: 'x' });
    expect(weak.json<Err>().error.details?.find((d) => d.path === 'password')?.message).toMatch(/8 to 16 letters and numbers|letters and numbers/);
    const differ = await post('/api/agencies/registrations', { ...form({ passwordConfirm: 'Other1234' }), captcha: 'x' });
    expect(differ.json<Err>().error.details?.find((d) => d.path === 'passwordConfirm')?.message).toBe('Passwords do not match');
  });

  it('an address that has an account gets a warning by email, the same answer, and no usable link', async () => {
    const owner = await makeUser(t.db, existing.id, { language: 'es' });
    const body = form({ email: owner.email.toUpperCase() });
    const res = await post('/api/agencies/registrations', { ...body, captcha: await solvedCaptcha() });
    expect(res.statusCode).toBe(201);
    const mail = await t.db.selectFrom('mail_outbox').where('to_address', '=', owner.email).selectAll().executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Alguien intentó registrar una entidad con su dirección');
    expect(mail.body_text).not.toContain('/registro-entidad/confirmar/');
  });
});

describe('the emailed link', () => {
  it('makes a usable tenant in one go: plan limits, project, ACL catalogue, roles, masters, templates; signs its administrator in, who sees only their tenant', async () => {
    const { body, token } = await register({ plan: 'premium', language: 'es' });
    const res = await post('/api/agencies/registrations/confirm', { token });
    expect(res.statusCode, res.body).toBe(200);
    const sid = res.cookies.find((c) => c.name === 'sid');
    expect(sid?.httpOnly).toBe(true);
    const answer = res.json<{ entity: { docnumber: string; name: string }; project: string }>();
    expect(answer.entity).toEqual({ docnumber: body.docnumber, name: body.name });

    const entity = await t.db.selectFrom('entities').where('docnumber', '=', body.docnumber).selectAll().executeTakeFirstOrThrow();
    expect(entity).toMatchObject({ active: true, plan: AGENCY_PLANS.premium.plan, account_limit: AGENCY_PLANS.premium.accountLimit, disk_quota_mb: AGENCY_PLANS.premium.diskQuotaMb });
    const project = await t.db.selectFrom('projects').where('entity_id', '=', entity.id).selectAll().execute();
    expect(project).toHaveLength(1);
    expect(project[0]).toMatchObject({ uid: answer.project, title: body.name, color_primary: '#0288D1', color_secondary: '#757575', language: 'es', is_default: false });
    const modules = await t.db.selectFrom('acl_modules').where('entity_id', '=', entity.id).select('code').execute();
    expect(modules.map((m) => m.code).sort()).toEqual([...TARGETS].sort());
    const roles = await t.db.selectFrom('acl_roles').where('entity_id', '=', entity.id).select('code').execute();
    expect(roles.map((r) => r.code).sort()).toEqual(['invitado', 'super-admin', ...DEMO_ROLES.map((r) => r.code)].sort());
    const masters = await t.db.selectFrom('masters').where('entity_id', '=', entity.id).select('code').execute();
    expect(masters.map((m) => m.code).sort()).toEqual(SYSTEM_MASTERS.map((m) => m.code).sort());
    // The built-in lists a programme needs from day one: the document checklist, quick comments, the holidays.
    const filled = await t.db
      .selectFrom('master_items as i')
      .innerJoin('masters as m', 'm.id', 'i.master_id')
      .where('i.entity_id', '=', entity.id)
      .groupBy('m.code')
      .select(['m.code', (eb) => eb.fn.countAll<string>().as('n')])
      .execute();
    expect(Object.fromEntries(filled.map((r) => [r.code, Number(r.n) > 0]))).toEqual({ definiciones: true, funciones: true, festivos: true, comentarios_rapidos: true });
    expect(await t.db.selectFrom('print_templates').where('entity_id', '=', entity.id).select('builtin').execute()).toHaveLength(2);
    expect(Number((await t.db.selectFrom('mail_templates').where('entity_id', '=', entity.id).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThan(0);
    const reg = await t.db.selectFrom('agency_registrations').where('docnumber', '=', body.docnumber).selectAll().executeTakeFirstOrThrow();
    expect(reg.used_at).not.toBeNull();
    expect(reg.entity_id).toBe(entity.id);

    // Signed in by the cookie: the new tenant's super-admin, not an operator.
    const session = await t.request({ method: 'GET', url: '/api/auth/session', cookies: { sid: sid?.value as string } });
    expect(session.statusCode).toBe(200);
    const s = session.json<{ user: { email: string; role: string; entity: { docnumber: string }; operator: boolean; language: string }; project: string; targets: string[] }>();
    expect(s.user).toMatchObject({ email: body.email, role: 'super-admin', entity: { docnumber: body.docnumber }, operator: false, language: 'es' });
    expect(s.project).toBe(answer.project);
    expect(s.targets).toContain('acl_roles');
    // Only their tenant: its users and roles, not the existing agency's; no operator route.
    const users = await t.request({ method: 'GET', url: '/api/users', cookies: { sid: sid?.value as string } });
    expect(users.json<{ items: Array<{ email: string }> }>().items.map((u) => u.email)).toEqual([body.email]);
    const aclRoles = await t.request({ method: 'GET', url: '/api/acl/roles?limit=100', cookies: { sid: sid?.value as string } });
    expect(aclRoles.json<{ total: number }>().total).toBe(roles.length);
    expect((await t.request({ method: 'GET', url: '/api/agencies', cookies: { sid: sid?.value as string } })).statusCode).toBe(403);
    // And the password chosen at registration signs in.
    expect((await login(t, body.email, 'Secret123')).sid).toBeTruthy();
  });

  it('used twice: 410 with a clear message, nothing more made', async () => {
    const { token } = await register();
    expect((await post('/api/agencies/registrations/confirm', { token })).statusCode).toBe(200);
    const before = await counts();
    const again = await post('/api/agencies/registrations/confirm', { token });
    expect(again.statusCode).toBe(410);
    expect(again.json<Err>().error).toEqual({ code: 'REGISTRATION_USED', message: 'This link was already used: the agency exists. Sign in to enter it.' });
    expect(again.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    expect(await counts()).toEqual(before);
  });

  it('expired: 410 offering to register again; an unknown link: 404', async () => {
    const { body, token } = await register();
    await t.db.updateTable('agency_registrations').set({ expires_at: new Date(Date.now() - 1000) }).where('docnumber', '=', body.docnumber).execute();
    const before = await counts();
    const res = await post('/api/agencies/registrations/confirm', { token }, { cookies: { lang: 'es' } });
    expect(res.statusCode).toBe(410);
    expect(res.json<Err>().error).toEqual({ code: 'REGISTRATION_EXPIRED', message: 'Este enlace venció. Registre la entidad de nuevo para recibir otro.' });
    expect(await counts()).toEqual(before);
    const unknown = await post('/api/agencies/registrations/confirm', { token: 'A'.repeat(43) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<Err>().error.code).toBe('REGISTRATION_NOT_FOUND');
  });

  it('a docnumber taken meanwhile: 409, nothing made, the link still unused', async () => {
    const { body, token } = await register();
    await makeEntity(t.db, { docnumber: body.docnumber });
    const before = await counts();
    const res = await post('/api/agencies/registrations/confirm', { token });
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().error.code).toBe('AGENCY_DOCNUMBER_TAKEN');
    expect(await counts()).toEqual(before);
    expect((await t.db.selectFrom('agency_registrations').where('docnumber', '=', body.docnumber).select('used_at').executeTakeFirstOrThrow()).used_at).toBeNull();
  });

  it('a failure part-way (the administrator account, made last) leaves nothing: no entity, project, roles, masters or templates', async () => {
    const { body, token } = await register();
    // The address gets an account after the registration: the tenant is made, then the account insert fails.
    await makeUser(t.db, existing.id, { email: body.email });
    const before = await counts();
    const res = await post('/api/agencies/registrations/confirm', { token });
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().error.code).toBe('EMAIL_TAKEN');
    expect(await counts()).toEqual(before);
    expect(await t.db.selectFrom('entities').where('docnumber', '=', body.docnumber).select('id').executeTakeFirst()).toBeUndefined();

    // And a failure the code does not foresee, deep in the seeding: the same.
    const second = await register();
    await sql`create function agency_test_fail() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$`.execute(t.db);
    await sql`create trigger agency_test_fail before insert on masters for each row execute function agency_test_fail()`.execute(t.db);
    try {
      const boom = await post('/api/agencies/registrations/confirm', { token: second.token });
      expect(boom.statusCode).toBe(500);
    } finally {
      await sql`drop trigger agency_test_fail on masters`.execute(t.db);
      await sql`drop function agency_test_fail()`.execute(t.db);
    }
    expect(await counts()).toEqual(before);
    // The link still works once the fault is gone.
    expect((await post('/api/agencies/registrations/confirm', { token: second.token })).statusCode).toBe(200);
  });
});

describe('the platform operator', () => {
  const get = (url: string, who: { sid: string }) => t.request({ method: 'GET', url, cookies: who });

  it('is not a tenant right: a tenant super-admin gets 403 on every operator route, reads and writes; no session is 401', async () => {
    const routes = t.app.routeAccess.filter((r) => r.access === 'operator' && r.method !== 'HEAD');
    expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual(['GET /api/agencies', 'GET /api/agencies/:id', 'POST /api/agencies', 'PUT /api/agencies/:id']);
    for (const route of routes) {
      const url = route.url.replace(':id', String(existing.id));
      const payload = route.method === 'GET' ? undefined : { name: 'Hijack', docnumber: '123', active: false, plan: 'premium', accountLimit: 9, diskQuotaMb: 9 };
      const res = await t.request({ method: route.method as 'GET', url, cookies: tenantAdmin, payload });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect((await t.request({ method: route.method as 'GET', url, payload })).statusCode).toBe(401);
    }
    expect((await t.db.selectFrom('entities').where('id', '=', existing.id).select(['name', 'active']).executeTakeFirstOrThrow())).toEqual({ name: existing.name, active: true });
    const s = (await get('/api/auth/session', tenantAdmin)).json<{ user: { operator: boolean } }>();
    expect(s.user.operator).toBe(false);
  });

  it('has no tenant right of their own role: the guest sees no tenant data', async () => {
    const s = (await get('/api/auth/session', operator)).json<{ user: { operator: boolean }; targets: string[] }>();
    expect(s.user.operator).toBe(true);
    expect(s.targets).toEqual([]);
    expect((await get('/api/users', operator)).statusCode).toBe(403);
    expect((await get('/api/cases', operator)).statusCode).toBe(403);
  });

  it('lists agencies with search, state, plan and paging, and accounts used of their limit', async () => {
    const list = await get('/api/agencies?search=harbor', operator);
    expect(list.statusCode).toBe(200);
    const page = list.json<{ items: Array<Record<string, unknown>>; total: number }>();
    expect(page.total).toBe(1);
    const used = await t.db.selectFrom('users').where('entity_id', '=', existing.id).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(used.n)).toBeGreaterThanOrEqual(2);
    expect(page.items[0]).toMatchObject({ id: existing.id, name: 'Harbor Housing Trust', active: true, plan: 'standard', accountsUsed: Number(used.n), accountLimit: 50 });
    const all = (await get('/api/agencies?limit=2&sortBy=created_at&descending=true', operator)).json<{ items: unknown[]; total: number }>();
    expect(all.items).toHaveLength(2);
    expect(all.total).toBeGreaterThan(2);
    const premium = (await get('/api/agencies?plan=premium&limit=100', operator)).json<{ items: Array<{ plan: string }> }>();
    expect(premium.items.length).toBeGreaterThan(0);
    expect(premium.items.every((a) => a.plan === 'premium')).toBe(true);
    const inactive = (await get('/api/agencies?state=inactive', operator)).json<{ items: Array<{ active: boolean }> }>();
    expect(inactive.items.every((a) => !a.active)).toBe(true);
    expect((await get('/api/agencies?sortBy=password_hash', operator)).statusCode).toBe(400);
    expect((await get('/api/agencies/999999', operator)).statusCode).toBe(404);
  });

  it('creates an agency with the tenant catalogue and its first administrator, who is emailed a link to choose a password; a taken docnumber or email is 409', async () => {
    const body = { name: 'Valley Title Office', docnumber: 'VT-2042', active: true, plan: 'premium', accountLimit: 75, diskQuotaMb: 4096, adminName: 'Vera Valley', adminEmail: 'vera@valley.example.org' };
    const res = await post('/api/agencies', body, { cookies: operator });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<{ id: number; slug: string; accountsUsed: number }>();
    expect(created).toMatchObject({ name: 'Valley Title Office', docnumber: 'VT-2042', plan: 'premium', accountLimit: 75, diskQuotaMb: 4096, accountsUsed: 1, slug: 'valley-title-office' });
    const vera = await t.db.selectFrom('users as u').innerJoin('acl_roles as r', 'r.id', 'u.role_id').where('u.email', '=', 'vera@valley.example.org').select(['u.entity_id', 'r.code']).executeTakeFirstOrThrow();
    expect(vera).toEqual({ entity_id: created.id, code: 'super-admin' });
    const link = await t.db.selectFrom('mail_outbox').where('to_address', '=', 'vera@valley.example.org').select('body_text').executeTakeFirstOrThrow();
    expect(link.body_text).toMatch(/\/change-password\/[A-Za-z0-9_-]+/);
    const takenEmail = await post('/api/agencies', { ...body, name: 'Hill Office', docnumber: 'HO-1', adminEmail: 'VERA@valley.example.org' }, { cookies: operator });
    expect(takenEmail.statusCode).toBe(409);
    expect(await t.db.selectFrom('entities').where('docnumber', '=', 'HO-1').select('id').executeTakeFirst()).toBeUndefined();
    expect(await t.db.selectFrom('acl_roles').where('entity_id', '=', created.id).select('code').execute()).toHaveLength(2 + DEMO_ROLES.length);
    expect(await t.db.selectFrom('projects').where('entity_id', '=', created.id).select('title').execute()).toEqual([{ title: 'Valley Title Office' }]);
    const again = await post('/api/agencies', { ...body, name: 'Another Name' }, { cookies: operator });
    expect(again.statusCode).toBe(409);
    expect(again.json<Err>().error.code).toBe('AGENCY_DOCNUMBER_TAKEN');
    const bad = await post('/api/agencies', { ...body, docnumber: 'X 1', accountLimit: 0 }, { cookies: operator });
    expect(bad.statusCode).toBe(400);
  });

  it('edits name, plan and limits; deactivating signs the tenant out, refuses its sign-in and hides its public pages; activating restores them', async () => {
    const entity = await makeEntity(t.db, { name: 'Pine County Housing' });
    await makeProject(t.db, { entity_id: entity.id });
    const user = await makeUser(t.db, entity.id, { role: 'super-admin', password: 'Demo12345' });
    const theirs = await login(t, user.email);
    const protocol = await makePublishedProtocol(t.db, entity.id);
    await t.db.updateTable('protocols').set({ public: true }).where('id', '=', protocol.id).execute();
    expect((await t.request({ method: 'GET', url: `/api/public/entities/${entity.docnumber}` })).statusCode).toBe(200);

    const put = (body: Record<string, unknown>) => t.request({ method: 'PUT', url: `/api/agencies/${entity.id}`, cookies: operator, payload: body });
    const edited = await put({ name: 'Pine County Housing Authority', active: true, plan: 'premium', accountLimit: 120, diskQuotaMb: 2048 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Pine County Housing Authority', plan: 'premium', accountLimit: 120, diskQuotaMb: 2048, docnumber: entity.docnumber, accountsUsed: 1 });

    const off = await put({ name: 'Pine County Housing Authority', active: false, plan: 'premium', accountLimit: 120, diskQuotaMb: 2048 });
    expect(off.json<{ active: boolean }>().active).toBe(false);
    expect((await get('/api/auth/session', theirs)).statusCode).toBe(401);
    const signIn = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'Demo12345' } });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json<Err>().error.code).toBe('ACCOUNT_INACTIVE');
    expect((await t.request({ method: 'GET', url: `/api/public/entities/${entity.docnumber}` })).statusCode).toBe(404);

    await put({ name: 'Pine County Housing Authority', active: true, plan: 'standard', accountLimit: 50, diskQuotaMb: 1024 });
    expect((await login(t, user.email)).sid).toBeTruthy();
    expect((await t.request({ method: 'GET', url: `/api/public/entities/${entity.docnumber}` })).statusCode).toBe(200);
  });

  it('may not deactivate the agency of their own account', async () => {
    const res = await t.request({ method: 'PUT', url: `/api/agencies/${existing.id}`, cookies: operator, payload: { name: existing.name, active: false, plan: 'standard', accountLimit: 50, diskQuotaMb: 1024 } });
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().error.code).toBe('AGENCY_OWN');
    expect((await t.db.selectFrom('entities').where('id', '=', existing.id).select('active').executeTakeFirstOrThrow()).active).toBe(true);
  });
});
