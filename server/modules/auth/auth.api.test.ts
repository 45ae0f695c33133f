import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeProject, makeRole, makeUser } from '../../../tests/support/factories.js';
import { startSmtp } from '../../../tests/support/smtp.js';

/**
 * Signing in, sessions, sign-up and recovery, on tenants made here with the
 * factories (the demo seed plays no part): a tenant whose project
 * 'applications' takes sign-ups (it has an applicant role), with a reviewer
 * and a coordinator, their rules written out; most tests make a tenant and
 * user of their own.
 */
const ROLES = {
  reviewer: {
    wf_casos: ['show'], menutareas: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'],
    historialaplicacion: ['show'], aplicacionessimilares: ['show'], menu_dashboards: ['show'],
    dashboard_comments: ['show'], menuReportes: ['show'], tareas_reports: ['show'],
  },
  coordinator: { wf_casos: ['show', 'create', 'update'], wf_tareas: ['show'], menutareas: ['show'] },
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
} as const;

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let agency: { id: number; name: string };
let reviewerEmail: string;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://cases.example.org' } });
  agency = await makeEntity(t.db);
  await makeProject(t.db, { entity_id: agency.id, uid: 'applications', allow_new_applications: true, is_default: true });
  await makeRole(t.db, agency.id, { code: 'applicant', name: 'Applicant', rules: ROLES.applicant as never });
  reviewerEmail = (await makeUser(t.db, agency.id, { role: 'reviewer', rules: ROLES.reviewer as never, password: 'Demo12345', email: 'reviewer@agency.test' })).email;
  await makeUser(t.db, agency.id, { role: 'coordinator', rules: ROLES.coordinator as never, password: 'Demo12345', email: 'coordinator@agency.test' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
const post = (url: string, payload: unknown, extra: Record<string, unknown> = {}) => t.request({ method: 'POST', url, payload: payload as object, ...extra });
const session = (sid: string) => t.request({ method: 'GET', url: '/api/auth/session', cookies: { sid } });

/** A user of a tenant of its own, so throttling and locking in one test do not touch another. */
async function freshUser(options: Parameters<typeof makeUser>[2] = {}) {
  const entity = await makeEntity(t.db);
  return makeUser(t.db, entity.id, { role: 'clerk', rules: { wf_casos: ['show'] }, ...options });
}

describe('sign-in', () => {
  it('opens a session in an HttpOnly SameSite cookie and tells the rules and targets', async () => {
    const res = await post('/api/auth/login', { email: reviewerEmail, password: 'Demo12345' });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'sid');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.secure).toBe(true); // PUBLIC_URL is https
    expect(cookie?.value.length).toBeGreaterThanOrEqual(43); // 256 random bits
    const body = res.json<{ user: { role: string; entity: { name: string } }; rules: Record<string, string[]>; targets: string[] }>();
    expect(body.user.role).toBe('reviewer');
    expect(body.user.entity.name).toBe(agency.name);
    expect(body.rules.wf_tareas).toEqual(['accept', 'reject', 'show', 'update']);
    expect(body.targets).toContain('menutareas');
    expect(body.targets).not.toContain('acl_roles');
    // Only the hash of the token is stored.
    const stored = await t.db.selectFrom('sessions').select('token_hash').execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(cookie?.value);
  });

  it('finds the account whatever the case of the email', async () => {
    const res = await post('/api/auth/login', { email: '  Coordinator@AGENCY.test ', password: 'Demo12345' });
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown account alike', async () => {
    const user = await freshUser();
    const wrong = await post('/api/auth/login', { email: user.email, password: 'Wrong1234' });
    const unknown = await post('/api/auth/login', { email: 'nobody@nowhere.test', password: 'Wrong1234' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json<Err>().error.message).toBe('Incorrect user or password');
  });

  it('signs in by document number within the project of the page', async () => {
    const entity = await makeEntity(t.db);
    const project = await makeProject(t.db, { entity_id: entity.id });
    await makeUser(t.db, entity.id, { docnumber: '555-1' });
    const ok = await post('/api/auth/login-document', { docnumber: '555-1', password: 'Passw0rd1', project: project.uid });
    expect(ok.statusCode).toBe(200);
    // The same document number in another project's tenant is not this user.
    const other = await post('/api/auth/login-document', { docnumber: '555-1', password: 'Passw0rd1', project: 'applications' });
    expect(other.statusCode).toBe(401);
  });

  it('refuses a deactivated account with the spec message, in Spanish too', async () => {
    const user = await freshUser({ active: false });
    const res = await post('/api/auth/login', { email: user.email, password: 'Passw0rd1' }, { cookies: { lang: 'es' } });
    expect(res.statusCode).toBe(403);
    expect(res.json<Err>().error.message).toBe('Su cuenta está desactivada, contacte a soporte para solucionar este problema');
  });

  it('locks the account after 5 wrong passwords; it shows on the blocked list and an admin unlocks it', async () => {
    const entity = await makeEntity(t.db);
    const user = await makeUser(t.db, entity.id, { role: 'clerk', rules: {} });
    await makeUser(t.db, entity.id, { role: 'super-admin', email: `admin-${entity.id}@example.test` });
    for (let i = 0; i < 5; i++) expect((await post('/api/auth/login', { email: user.email, password: `Wrong${i}xyz` })).statusCode).toBe(401);
    const locked = await post('/api/auth/login', { email: user.email, password: 'Passw0rd1' });
    expect(locked.statusCode).toBe(403);
    expect(locked.json<Err>().error.code).toBe('ACCOUNT_LOCKED');
    // Someone without the password learns nothing new.
    expect((await post('/api/auth/login', { email: user.email, password: 'Wrong9xyz' })).json<Err>().error.code).toBe('INVALID_CREDENTIALS');

    const admin = await login(t, `admin-${entity.id}@example.test`, 'Passw0rd1');
    const blocked = await t.request({ method: 'GET', url: '/api/users/blocked', cookies: admin });
    expect(blocked.json<{ items: Array<{ email: string }> }>().items.map((u) => u.email)).toEqual([user.email]);
    const unlock = await t.request({ method: 'POST', url: `/api/users/${user.id}/unlock`, cookies: admin });
    expect(unlock.statusCode).toBe(200);
    expect((await post('/api/auth/login', { email: user.email, password: 'Passw0rd1' })).statusCode).toBe(200);
  });

  it('throttles an account however the email is cased', async () => {
    const user = await freshUser();
    await t.db.updateTable('users').set({ locked: false }).where('id', '=', user.id).execute();
    const variants = [user.email, user.email.toUpperCase(), ` ${user.email}`, user.email.replace(/^u/, 'U')];
    let last = 0;
    for (let i = 0; i < 11; i++) {
      // Keep the account itself unlocked so only the throttle answers.
      await t.db.updateTable('users').set({ failed_logins: 0, locked: false }).where('id', '=', user.id).execute();
      last = (await post('/api/auth/login', { email: variants[i % variants.length], password: 'Wrong1234' })).statusCode;
    }
    expect(last).toBe(429);
    const correct = await post('/api/auth/login', { email: user.email.toUpperCase(), password: 'Passw0rd1' });
    expect(correct.statusCode).toBe(429);
    expect(correct.headers['retry-after']).toBeDefined();
  });

  it('throttles a client address, and X-Forwarded-For does not escape it', async () => {
    await sql`delete from auth_throttle`.execute(t.db);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await post(
        '/api/auth/login',
        { email: `stranger${i}@nowhere.test`, password: 'Wrong1234' },
        { headers: { 'x-forwarded-for': `203.0.113.${i}` }, remoteAddress: '198.51.100.7' },
      );
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another address is not affected.
    const other = await post('/api/auth/login', { email: reviewerEmail, password: 'Demo12345' }, { remoteAddress: '198.51.100.8' });
    expect(other.statusCode).toBe(200);
    await sql`delete from auth_throttle`.execute(t.db);
  });
});

describe('the session', () => {
  it('is 401 without a cookie, and with junk tokens', async () => {
    expect((await t.request({ method: 'GET', url: '/api/auth/session' })).statusCode).toBe(401);
    for (const junk of ['{}', '[]', 'null', '', 'x'.repeat(5000), '%00', 'undefined']) {
      const res = await t.request({ method: 'GET', url: '/api/auth/session', cookies: { sid: junk } });
      expect(res.statusCode, junk).toBe(401);
      expect(res.json<Err>().error.code).toBe('UNAUTHORIZED');
    }
  });

  it('ends on the server at logout: the old cookie no longer works', async () => {
    const { sid } = await login(t, reviewerEmail, 'Demo12345');
    expect((await session(sid)).statusCode).toBe(200);
    const out = await t.request({ method: 'POST', url: '/api/auth/logout', cookies: { sid } });
    expect(out.statusCode).toBe(204);
    expect((await session(sid)).statusCode).toBe(401);
  });

  it('ends after the idle time and after the absolute lifetime', async () => {
    const idle = await login(t, reviewerEmail, 'Demo12345');
    await t.db.updateTable('sessions').set({ last_seen_at: sql`now() - interval '51 minutes'` as never }).where('token_hash', '=', sql`encode(sha256(${idle.sid}::bytea), 'hex')` as never).execute();
    expect((await session(idle.sid)).statusCode).toBe(401);

    const old = await login(t, reviewerEmail, 'Demo12345');
    await t.db.updateTable('sessions').set({ expires_at: sql`now() - interval '1 second'` as never }).where('token_hash', '=', sql`encode(sha256(${old.sid}::bytea), 'hex')` as never).execute();
    expect((await session(old.sid)).statusCode).toBe(401);
  });

  it('stops working on the next request once the user is deactivated or locked', async () => {
    const user = await freshUser();
    const a = await login(t, user.email, 'Passw0rd1');
    await t.db.updateTable('users').set({ locked: true }).where('id', '=', user.id).execute();
    expect((await session(a.sid)).statusCode).toBe(401);
    await t.db.updateTable('users').set({ locked: false }).where('id', '=', user.id).execute();
    const b = await login(t, user.email, 'Passw0rd1');
    await t.db.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
    expect((await session(b.sid)).statusCode).toBe(401);
  });

  it('refuses writes from another site', async () => {
    const { sid } = await login(t, reviewerEmail, 'Demo12345');
    const res = await t.request({ method: 'POST', url: '/api/auth/logout', cookies: { sid }, headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(403);
    expect((await session(sid)).statusCode).toBe(200);
  });
});

async function solvedCaptcha(): Promise<string> {
  const challenge = (await t.request({ method: 'GET', url: '/api/auth/captcha' })).json();
  const solution = await solveChallenge({ challenge, deriveKey } as never);
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

describe('sign-up', () => {
  const base = { name: 'New Applicant', password: 'Secret123', passwordConfirm: 'Secret123', project: 'applications' };

  it('creates an applicant of the project tenant; role, tenant and state in the body are ignored', async () => {
    const res = await post('/api/auth/signup', {
      ...base,
      email: 'new.applicant@example.test',
      captcha: await solvedCaptcha(),
      role: 'super-admin',
      roleId: 1,
      role_id: 1,
      entity_id: 2,
      entityId: 2,
      active: false,
      locked: false,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Check your email to continue: we have sent a message to this address.' });
    const user = await t.db
      .selectFrom('users as u')
      .innerJoin('acl_roles as r', 'r.id', 'u.role_id')
      .innerJoin('entities as e', 'e.id', 'u.entity_id')
      .where('u.email', '=', 'new.applicant@example.test')
      .select(['r.code', 'e.name', 'u.active'])
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ code: 'applicant', name: agency.name, active: true });
    expect((await post('/api/auth/login', { email: 'new.applicant@example.test', password: 'Secret123' })).statusCode).toBe(200);
  });

  it('requires a solved captcha, once', async () => {
    const missing = await post('/api/auth/signup', { ...base, email: 'a1@example.test' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<Err>().error.details?.find((d) => d.path === 'captcha')?.message).toBe('Please complete captcha');
    const forged = await post('/api/auth/signup', { ...base, email: 'a2@example.test', captcha: Buffer.from('{"challenge":{}}').toString('base64') });
    expect(forged.json<Err>().error.message).toBe('Please complete captcha');
    const captcha = await solvedCaptcha();
    expect((await post('/api/auth/signup', { ...base, email: 'a3@example.test', captcha })).statusCode).toBe(201);
    const replay = await post('/api/auth/signup', { ...base, email: 'a4@example.test', captcha });
    expect(replay.statusCode).toBe(400);
    expect(replay.json<Err>().error.code).toBe('CAPTCHA_REQUIRED');
  });

  it.each([
    ['short7c', 'en', 'The password must have 8 to 16 characters, letters and numbers only (no special characters)'],
    ['much2longpassword', 'en', 'The password must have 8 to 16 characters, letters and numbers only (no special characters)'],
    ['with-special!', 'es', 'La contraseña debe tener al menos 8 caracteres (máximo 16), solo letras y números, sin caracteres especiales'],
  ])('refuses the password %s with the rule (%s)', async (password, lang, message) => {
    const res = await post('/api/auth/signup', { ...base, email: 'pw@example.test', password, passwordConfirm: password, captcha: 'x' }, { cookies: { lang } });
    expect(res.statusCode).toBe(400);
    expect(res.json<Err>().error.details?.find((d) => d.path === 'password')?.message).toBe(message);
  });

  it('says when the passwords do not match', async () => {
    const res = await post('/api/auth/signup', { ...base, email: 'pw@example.test', passwordConfirm: 'Other1234', captcha: 'x' });
    expect(res.json<Err>().error.details).toContainEqual({ path: 'passwordConfirm', message: 'Passwords do not match' });
  });

  it('refuses an account past the plan limit', async () => {
    const entity = await makeEntity(t.db, { account_limit: 1 });
    const project = await makeProject(t.db, { entity_id: entity.id });
    await makeUser(t.db, entity.id);
    await t.db.insertInto('acl_roles').values({ entity_id: entity.id, code: 'applicant', name: 'Applicant' }).execute();
    const res = await post('/api/auth/signup', { ...base, email: 'limit@example.test', project: project.uid, captcha: await solvedCaptcha() });
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().error.message).toBe('The plan allows 1 accounts and all of them are in use.');
  });
});

describe('sign-up with an address that has an account', () => {
  const form = { name: 'Someone Else', password: 'Secret123', passwordConfirm: 'Secret123', project: 'applications' };
  // Each sign-up from an address of its own: the route allows 10 a minute per address.
  let client = 0;
  const signUp = async (body: Record<string, unknown>, lang = 'en') =>
    post('/api/auth/signup', { ...form, captcha: await solvedCaptcha(), ...body }, { cookies: { lang }, remoteAddress: `192.0.2.${++client}`, headers: { host: 'evil.example' } });
  const users = async () => Number((await t.db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));
  /** What a caller sees of an answer; only the request id and the date may differ. */
  const seen = (res: Awaited<ReturnType<typeof post>>) => {
    const { date, 'x-request-id': _id, ...headers } = res.headers;
    return { status: res.statusCode, body: res.body, headers };
  };

  it('answers exactly as for a new address, changes nothing, and tells the owner by email in their language', async () => {
    const owner = await freshUser({ language: 'es', name: 'Olga Owner' });
    const before = await users();
    const known = await signUp({ email: owner.email.toUpperCase() });
    const fresh = `fresh-${Date.now()}@example.test`;
    const unknown = await signUp({ email: fresh });
    expect(seen(known)).toEqual(seen(unknown));
    expect(known.statusCode).toBe(201);
    expect(await users()).toBe(before + 1);

    // The owner's account is as it was: their password, their name.
    const stored = await t.db.selectFrom('users').where('id', '=', owner.id).select(['name', 'password_hash', 'entity_id', 'role_id']).executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Olga Owner', password_hash: owner.password_hash, entity_id: owner.entity_id, role_id: owner.role_id });
    expect((await post('/api/auth/login', { email: owner.email, password: 'Secret123' })).statusCode).toBe(401);

    const warning = await smtp.waitFor(owner.email);
    expect(warning.subject).toBe('Alguien intentó crear una cuenta con su correo');
    expect(warning.text).toContain('Hola Olga Owner:');
    expect(warning.to).toBe(owner.email);
    expect(warning.text).toContain(`con su correo, ${owner.email}.`);
    // The way back in, from PUBLIC_URL only.
    expect(warning.text).toContain('https://cases.example.org/user/recovery-password');
    expect(warning.text).not.toContain('evil');
    // The new address gets its welcome, in the language of the page it signed up on.
    const welcome = await smtp.waitFor(fresh);
    expect(welcome.subject).toBe('Your account is ready');
    expect(welcome.text).toContain('https://cases.example.org/login/applications');
    expect(mailsTo(owner.email)).toHaveLength(1);
  });

  it('answers alike in Spanish too, and a document number another account holds is told only to the address that asked', async () => {
    const entity = await t.db.selectFrom('projects').where('uid', '=', 'applications').select('entity_id').executeTakeFirstOrThrow();
    const holder = await makeUser(t.db, entity.entity_id, { docnumber: `77${Date.now()}` });
    const before = await users();
    const asker = `asker-${Date.now()}@example.test`;
    const taken = await signUp({ email: asker, name: 'Ana Asker', docnumber: holder.docnumber }, 'es');
    const known = await signUp({ email: holder.email }, 'es');
    const unknown = await signUp({ email: `nuevo-${Date.now()}@example.test` }, 'es');
    expect(seen(taken)).toEqual(seen(unknown));
    expect(seen(known)).toEqual(seen(unknown));
    expect(unknown.json()).toEqual({ message: 'Revise su correo para continuar: enviamos un mensaje a esta dirección.' });
    expect(await users()).toBe(before + 1);
    const mail = await smtp.waitFor(asker);
    expect(mail.subject).toBe('Su cuenta no fue creada');
    expect(mail.text).toContain(`el número de documento ${holder.docnumber} ya pertenece a otra cuenta`);
    await smtp.waitFor(holder.email);
    expect(mailsTo(holder.email).map((m) => m.subject)).toEqual(['Someone tried to create an account with your address']);
  });

  it("does not fill the owner's mailbox: three warnings in a window, whatever the number of tries", async () => {
    const owner = await freshUser();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(seen(await signUp({ email: owner.email })));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    await smtp.waitFor(owner.email);
    const queued = await t.db.selectFrom('mail_outbox').where('to_address', '=', owner.email).select('subject').execute();
    expect(queued).toHaveLength(3);
  });
});

describe('password recovery', () => {
  it('emails a single-use link built from PUBLIC_URL, not from the request', async () => {
    const user = await freshUser();
    const other = await login(t, user.email, 'Passw0rd1');
    const res = await post('/api/auth/recovery', { email: user.email.toUpperCase() }, { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
    expect(res.statusCode).toBe(200);
    const mail = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('Change your password');
    const link = /https:\/\/cases\.example\.org\/change-password\/([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(link).not.toBeNull();
    expect(mail.text).not.toContain('evil');
    const token = link?.[1] as string;
    expect(await t.db.selectFrom('password_resets').where('token_hash', '=', token).select('id').executeTakeFirst()).toBeUndefined();

    const reset = await post('/api/auth/password-reset', { token, password: 'Brandnew99', passwordConfirm: 'Brandnew99' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: 'Your password has been changed successfully' });
    // Every session of that user ended; the new password works; the link does not work twice.
    expect((await session(other.sid)).statusCode).toBe(401);
    expect((await post('/api/auth/login', { email: user.email, password: 'Brandnew99' })).statusCode).toBe(200);
    const again = await post('/api/auth/password-reset', { token, password: 'Another99', passwordConfirm: 'Another99' });
    expect(again.statusCode).toBe(400);
    expect(again.json<Err>().error.code).toBe('INVALID_RESET_LINK');
  });

  it('unlocks an account locked by wrong passwords: the owner asks for the link, chooses a password and signs in', async () => {
    const entity = await makeEntity(t.db);
    const user = await makeUser(t.db, entity.id, { role: 'clerk', rules: {} });
    await makeUser(t.db, entity.id, { role: 'super-admin', email: `admin-${entity.id}@example.test` });
    for (let i = 0; i < 5; i++) await post('/api/auth/login', { email: user.email, password: `Wrong${i}xyz` });
    const locked = await post('/api/auth/login', { email: user.email, password: 'Passw0rd1' });
    expect(locked.json<Err>().error).toEqual({
      code: 'ACCOUNT_LOCKED',
      message: 'Your account is locked after too many failed attempts. An administrator can unlock it, or you can unlock it yourself by choosing a new password through the link "Forgot your password?".',
    });
    const lockedEs = await post('/api/auth/login', { email: user.email, password: 'Passw0rd1' }, { cookies: { lang: 'es' } });
    expect(lockedEs.json<Err>().error.message).toBe(
      'Su cuenta está bloqueada por demasiados intentos fallidos. Un administrador puede desbloquearla, o puede desbloquearla usted mismo eligiendo una nueva contraseña con el enlace "¿Olvidó su contraseña?".',
    );

    // A locked account gets its link too, saying the new password unlocks it.
    expect((await post('/api/auth/recovery', { email: user.email })).statusCode).toBe(200);
    const mail = await smtp.waitFor(user.email);
    expect(mail.text).toContain('choosing a new password by this link also unlocks it');
    const token = /change-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] as string;
    expect((await post('/api/auth/password-reset', { token, password: 'Unlocked99', passwordConfirm: 'Unlocked99' })).statusCode).toBe(200);

    expect((await post('/api/auth/login', { email: user.email, password: 'Unlocked99' })).statusCode).toBe(200);
    const row = await t.db.selectFrom('users').where('id', '=', user.id).select(['locked', 'locked_at', 'failed_logins']).executeTakeFirstOrThrow();
    expect(row).toEqual({ locked: false, locked_at: null, failed_logins: 0 });
    // Gone from the administrator's blocked list, and the failures counted against it are forgotten.
    const admin = await login(t, `admin-${entity.id}@example.test`, 'Passw0rd1');
    const blocked = await t.request({ method: 'GET', url: '/api/users/blocked', cookies: admin });
    expect(blocked.json<{ items: Array<{ email: string }> }>().items).toEqual([]);
    expect(await t.db.selectFrom('auth_throttle').where('key', '=', `account:${user.email.toLowerCase()}`).select('failures').executeTakeFirst()).toBeUndefined();
    // Five new failures lock it again, as before.
    for (let i = 0; i < 5; i++) await post('/api/auth/login', { email: user.email, password: `Wrong${i}xyz` });
    expect((await post('/api/auth/login', { email: user.email, password: 'Unlocked99' })).json<Err>().error.code).toBe('ACCOUNT_LOCKED');
  });

  it('answers the same whether or not the account exists', async () => {
    const user = await freshUser();
    const known = await post('/api/auth/recovery', { email: user.email });
    const unknown = await post('/api/auth/recovery', { email: 'ghost@nowhere.test' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
  });

  it('refuses an expired link', async () => {
    const user = await freshUser();
    await post('/api/auth/recovery', { email: user.email });
    const token = /change-password\/([A-Za-z0-9_-]+)/.exec((await smtp.waitFor(user.email)).text)?.[1] as string;
    await t.db.updateTable('password_resets').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', user.id).execute();
    const res = await post('/api/auth/password-reset', { token, password: 'Brandnew99', passwordConfirm: 'Brandnew99' });
    expect(res.json<Err>().error.code).toBe('INVALID_RESET_LINK');
  });

  it.each([[{}], [[]], [null], [''], [123], ['short'], ['../../etc/passwd'], ['x'.repeat(500)]])('refuses the token %j with a 400', async (token) => {
    const res = await post('/api/auth/password-reset', { token, password: 'Brandnew99', passwordConfirm: 'Brandnew99' });
    expect(res.statusCode).toBe(400);
  });
});

describe('profile', () => {
  it('changes name, language and time zone, and refuses an unknown time zone', async () => {
    const user = await freshUser();
    const me = await login(t, user.email, 'Passw0rd1');
    const res = await t.request({ method: 'PUT', url: '/api/profile', cookies: me, payload: { name: 'Renamed', language: 'es', timeZone: 'America/New_York', role_id: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Renamed', language: 'es', timeZone: 'America/New_York' });
    const bad = await t.request({ method: 'PUT', url: '/api/profile', cookies: me, payload: { name: 'X', language: 'es', timeZone: 'Mars/Olympus' } });
    expect(bad.statusCode).toBe(400);
    // The role was not touched by the extra field.
    const role = await t.db.selectFrom('users').where('id', '=', user.id).select('role_id').executeTakeFirstOrThrow();
    expect(role.role_id).toBe(user.role_id);
  });

  it('changes the password with the current one and ends my other sessions', async () => {
    const user = await freshUser();
    const here = await login(t, user.email, 'Passw0rd1');
    const elsewhere = await login(t, user.email, 'Passw0rd1');
    const wrong = await t.request({ method: 'POST', url: '/api/auth/password', cookies: here, payload: { currentPassword: 'nope', password: 'Fresh1234', passwordConfirm: 'Fresh1234' } });
    expect(wrong.json<Err>().error.code).toBe('WRONG_PASSWORD');
    const ok = await t.request({ method: 'POST', url: '/api/auth/password', cookies: here, payload: { currentPassword: 'Passw0rd1', password: 'Fresh1234', passwordConfirm: 'Fresh1234' } });
    expect(ok.statusCode).toBe(200);
    expect((await session(here.sid)).statusCode).toBe(200);
    expect((await session(elsewhere.sid)).statusCode).toBe(401);
  });
});
