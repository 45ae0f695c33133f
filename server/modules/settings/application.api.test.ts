import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangedEvent } from '../../../core/realtime.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

/**
 * The application settings (`/configuracion`) through the API, on tenants
 * made here: read and saved for the tenant's default project or another of
 * its projects, never another tenant's; every bad value refused with 400
 * naming the field and nothing saved; the logo and favicon checked by their
 * content and size, served while shown and removed; a save announced to the
 * tenant's open pages; index blocking (X-Robots-Tag, /robots.txt); the
 * maintenance flag stops an applicant's new application; the plan state.
 */
let t: TestApp;
let dataDir: string;
type Who = 'admin' | 'reader' | 'none' | 'other admin' | 'applicant';
const sessions = {} as Record<Who, { sid: string }>;
const PASSWORD = 'Passw0rd1';
let entityId: number;
let otherId: number;
let main: { id: number; uid: string };
let second: { id: number; uid: string };
let foreign: { id: number; uid: string };
let protocolId: number;

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
type Settings = Record<string, unknown> & { project: string; logo: string | null; favicon: string | null; colors: Record<string, string> };

const good = {
  title: 'Rental help',
  description: 'Help with the rent',
  colors: { primary: '#0D47A1', secondary: '#455A64', accent: '#FFB300', text: '#1B1B1B' },
  supportPhone: '+1 (555) 010-0199',
  language: 'es',
  timeZone: 'America/New_York',
  idleTimeoutSeconds: 1800,
  autosaveSeconds: 60,
  newApplicationsDeadline: '2030-12-01T17:00',
  allowNewApplications: false,
  maintenance: false,
  blockIndexing: false,
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'casebook-appsettings-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir }, realtime: true });
  const entity = await makeEntity(t.db, { name: 'Settings Agency', docnumber: '900111222' });
  const other = await makeEntity(t.db);
  entityId = entity.id;
  otherId = other.id;
  main = await makeProject(t.db, { entity_id: entity.id, is_default: true });
  second = await makeProject(t.db, { entity_id: entity.id });
  foreign = await makeProject(t.db, { entity_id: other.id });
  // A public programme: the entity has a public entry, and applicants may start applications.
  protocolId = (await makePublishedProtocol(t.db, entity.id)).id;
  await t.db.updateTable('protocols').set({ code: 'aid', public: true, published_version: 1 }).where('id', '=', protocolId).execute();
  const users: Array<[Who, number, Record<string, string[]>]> = [
    ['admin', entity.id, { menu_configuracion: ['show', 'update'] }],
    ['reader', entity.id, { menu_configuracion: ['show'] }],
    ['none', entity.id, { wf_casos: ['show'] }],
    ['other admin', other.id, { menu_configuracion: ['show', 'update'] }],
    ['applicant', entity.id, { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] }],
  ];
  for (const [who, e, rules] of users) {
    const u = await makeUser(t.db, e, { role: who.replace(/ /g, '-'), rules: rules as never, password: PASSWORD });
    sessions[who] = await login(t, u.email, PASSWORD);
  }
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const url = (project?: string, tail = '') => `/api/settings/application${tail}${project ? `?project=${project}` : ''}`;
const as = (who: Who, method: 'GET' | 'PUT' | 'DELETE', options: { project?: string; payload?: unknown; tail?: string; lang?: string } = {}) =>
  t.request({ method, url: url(options.project, options.tail), cookies: { ...sessions[who], lang: options.lang ?? 'en' }, payload: options.payload as string });
const row = (id: number) => t.db.selectFrom('projects').where('id', '=', id).selectAll().executeTakeFirstOrThrow();

function multipart(filename: string, content: Buffer) {
  const boundary = '----casebooktest';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (who: Who, kind: string, filename: string, content: Buffer, project?: string, lang = 'en') =>
  t.request({ method: 'POST', url: url(project, `/${kind}`), cookies: { ...sessions[who], lang }, ...multipart(filename, content) });

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32, 3)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(32, 4)]);
const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(32, 5)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe('GET/PUT /api/settings/application', () => {
  it("reads the tenant's default project, lists its projects, and saves every setting", async () => {
    const res = await as('reader', 'GET');
    expect(res.statusCode).toBe(200);
    const body = res.json<Settings>();
    expect(body.project).toBe(main.uid);
    expect(body.projects).toEqual([
      { uid: main.uid, title: expect.any(String), isDefault: true },
      { uid: second.uid, title: expect.any(String), isDefault: false },
    ]);
    expect(body.blockIndexing).toBe(false);

    const saved = await as('admin', 'PUT', { payload: good });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<Settings>()).toMatchObject({ ...good, newApplicationsDeadline: '2030-12-01T17:00:00' });
    expect(await row(main.id)).toMatchObject({
      title: 'Rental help', color_primary: '#0D47A1', color_text: '#1B1B1B', support_phone: '+1 (555) 010-0199', language: 'es',
      time_zone: 'America/New_York', idle_timeout_seconds: 1800, autosave_seconds: 60, new_applications_deadline: '2030-12-01T17:00:00',
      allow_new_applications: false, maintenance: false, block_indexing: false,
    });
    // The public settings every page loads show it.
    const pub = await t.request({ method: 'GET', url: `/api/projects/${main.uid}/settings` });
    expect(pub.json()).toMatchObject({ title: 'Rental help', colors: good.colors, supportPhone: good.supportPhone, idleTimeoutSeconds: 1800 });
    // The other project of the tenant is untouched.
    expect((await row(second.id)).title).not.toBe('Rental help');
  });

  it('`?project=` picks another project of the same tenant; another tenant\'s is 404 and stays as it was', async () => {
    const res = await as('admin', 'PUT', { project: second.uid, payload: { ...good, title: 'Second portal' } });
    expect(res.statusCode).toBe(200);
    expect(res.json<Settings>().project).toBe(second.uid);
    expect((await row(second.id)).title).toBe('Second portal');
    expect((await row(main.id)).title).toBe('Rental help');

    const before = await row(foreign.id);
    for (const method of ['GET', 'PUT'] as const) {
      const r = await as('admin', method, { project: foreign.uid, payload: method === 'PUT' ? good : undefined });
      expect(r.statusCode, method).toBe(404);
      expect(r.json<Err>().error.code).toBe('NOT_FOUND');
    }
    expect((await upload('admin', 'logo', 'a.png', PNG, foreign.uid)).statusCode).toBe(404);
    expect((await as('admin', 'DELETE', { project: foreign.uid, tail: '/logo' })).statusCode).toBe(404);
    expect(await row(foreign.id)).toEqual(before);
    expect((await as('admin', 'GET', { project: 'no-such-project' })).statusCode).toBe(404);
    expect((await as('admin', 'GET', { project: 'Bad Id!' })).statusCode).toBe(400);
    // The other tenant's admin sees their own default project, never ours.
    const theirs = await as('other admin', 'GET');
    expect(theirs.json<Settings>().project).toBe(foreign.uid);
    expect((await as('other admin', 'GET', { project: main.uid })).statusCode).toBe(404);
  });

  it.each([
    ['reader', 'PUT', 403],
    ['none', 'GET', 403],
    ['none', 'PUT', 403],
    ['applicant', 'PUT', 403],
  ] as const)('%s: %s is %i, nothing saved', async (who, method, status) => {
    const before = await row(main.id);
    const res = await as(who, method, { payload: method === 'PUT' ? { ...good, title: 'Hijacked' } : undefined });
    expect(res.statusCode).toBe(status);
    expect(await row(main.id)).toEqual(before);
  });

  it('needs a session', async () => {
    expect((await t.request({ method: 'GET', url: url() })).statusCode).toBe(401);
    expect((await t.request({ method: 'PUT', url: url(), payload: good })).statusCode).toBe(401);
  });

  it.each([
    ['a colour that is not #RRGGBB', { colors: { ...good.colors, primary: 'red' } }, 'colors.primary', 'Write the colour as #RRGGBB'],
    ['a three-digit colour', { colors: { ...good.colors, text: '#FFF' } }, 'colors.text', 'Write the colour as #RRGGBB'],
    ['a script for a colour', { colors: { ...good.colors, accent: '#FFF;}</style><script>' } }, 'colors.accent', 'Write the colour as #RRGGBB'],
    ['an empty title', { title: '  ' }, 'title', 'This field is required'],
    ['a title too long', { title: 'x'.repeat(121) }, 'title', 'The text is too long'],
    ['a phone with letters', { supportPhone: 'call me' }, 'supportPhone', 'Invalid phone number'],
    ['an unknown language', { language: 'fr' }, 'language', 'You must choose an option'],
    ['a time zone that does not exist', { timeZone: 'Mars/Olympus_Mons' }, 'timeZone', 'You must choose an option'],
    ['an idle time under a minute', { idleTimeoutSeconds: 5 }, 'idleTimeoutSeconds', 'The number must be at least 60'],
    ['an idle time over a day', { idleTimeoutSeconds: 90_000 }, 'idleTimeoutSeconds', 'The number must be at most 86400'],
    ['an autosave every second', { autosaveSeconds: 1 }, 'autosaveSeconds', 'The number must be at least 10'],
    ['a fractional autosave', { autosaveSeconds: 30.5 }, 'autosaveSeconds', ''],
    ['a deadline that is not a date', { newApplicationsDeadline: 'next friday' }, 'newApplicationsDeadline', 'Invalid date'],
    ['a deadline on 30 February', { newApplicationsDeadline: '2030-02-30T10:00' }, 'newApplicationsDeadline', 'Invalid date'],
    ['a flag that is not a boolean', { maintenance: 'yes' }, 'maintenance', ''],
    ['an unknown field', { colour: '#000000' }, '', ''],
    ['a missing field', { blockIndexing: undefined }, 'blockIndexing', ''],
  ])('refuses %s with 400 naming the field, and saves nothing', async (_what, change, field, message) => {
    const before = await row(main.id);
    const res = await as('admin', 'PUT', { payload: { ...good, title: 'Changed', ...change } });
    expect(res.statusCode).toBe(400);
    const err = res.json<Err>().error;
    expect(err.code).toBe('VALIDATION');
    if (field) {
      const detail = err.details?.find((d) => d.path === field);
      expect(detail, JSON.stringify(err.details)).toBeDefined();
      if (message) expect(detail?.message).toBe(message);
    }
    expect(await row(main.id)).toEqual(before);
  });

  it('says what is wrong in Spanish too', async () => {
    const res = await as('admin', 'PUT', { payload: { ...good, colors: { ...good.colors, primary: 'azul' } }, lang: 'es' });
    expect(res.json<Err>().error.details?.find((d) => d.path === 'colors.primary')?.message).toBe('Escriba el color como #RRGGBB');
  });
});

describe('logo and favicon', () => {
  // With DATABASE_URL the images' bytes are in the database (file_blobs); the disk and S3 stores: files/stores.api.test.ts.
  const files = async () => (await t.db.selectFrom('file_blobs').where('entity_id', '=', entityId).select('id').execute()).map((b) => b.id);

  it('takes a PNG logo, serves it while shown (cached, its type), replaces and removes it with its file', async () => {
    const res = await upload('admin', 'logo', 'logo.png', PNG);
    expect(res.statusCode).toBe(200);
    const logo = res.json<Settings>().logo as string;
    expect(logo).toMatch(new RegExp(`^/api/projects/${main.uid}/branding/[0-9a-f-]{36}\\.png$`));
    const served = await t.request({ method: 'GET', url: logo });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect((await t.request({ method: 'GET', url: `/api/projects/${main.uid}/settings` })).json<Settings>().logo).toBe(logo);
    expect(await files()).toHaveLength(1);

    // Replaced: the old address is gone, and so is its file.
    const again = await upload('admin', 'logo', 'whatever.bin', JPEG);
    expect(again.statusCode).toBe(200);
    const jpeg = again.json<Settings>().logo as string;
    expect(jpeg).toMatch(/\.jpg$/);
    expect((await t.request({ method: 'GET', url: logo })).statusCode).toBe(404);
    expect(await files()).toHaveLength(1);
    // Another project's address does not serve it.
    expect((await t.request({ method: 'GET', url: jpeg.replace(main.uid, second.uid) })).statusCode).toBe(404);

    const removed = await as('admin', 'DELETE', { tail: '/logo' });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<Settings>().logo).toBeNull();
    expect((await t.request({ method: 'GET', url: jpeg })).statusCode).toBe(404);
    expect(await files()).toHaveLength(0);
    expect(await t.db.selectFrom('files').where('entity_id', '=', entityId).select('id').execute()).toEqual([]);
  });

  it.each([
    ['favicon', 'ICO', 'favicon.ico', ICO, /\.ico$/],
    ['favicon', 'GIF', 'f.gif', GIF, /\.gif$/],
    ['logo', 'WebP', 'l.webp', WEBP, /\.webp$/],
  ] as const)('takes a %s in %s, told by content', async (kind, _type, name, bytes, ext) => {
    const res = await upload('admin', kind, name, bytes);
    expect(res.statusCode).toBe(200);
    expect(res.json<Settings>()[kind]).toMatch(ext);
  });

  it.each([
    ['an SVG (it can carry script)', 'logo', 'logo.svg', SVG, 'BRANDING_IMAGE_INVALID'],
    ['an SVG named .png', 'favicon', 'icon.png', SVG, 'BRANDING_IMAGE_INVALID'],
    ['an HTML page named .png', 'logo', 'logo.png', Buffer.from('<html><script>alert(1)</script></html>'), 'BRANDING_IMAGE_INVALID'],
    ['an ICO as the logo', 'logo', 'logo.ico', ICO, 'BRANDING_IMAGE_INVALID'],
    ['an empty file', 'logo', 'logo.png', Buffer.alloc(0), 'BRANDING_IMAGE_INVALID'],
    ['a logo over 1 MB', 'logo', 'big.png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]), 'BRANDING_IMAGE_TOO_LARGE'],
    ['a favicon over 256 KB', 'favicon', 'big.png', Buffer.concat([PNG, Buffer.alloc(256 * 1024)]), 'BRANDING_IMAGE_TOO_LARGE'],
  ])('refuses %s with a translated 400, and keeps what was there', async (_what, kind, name, bytes, code) => {
    const before = await row(main.id);
    const filesBefore = await files();
    const res = await upload('admin', kind, name, bytes);
    expect(res.statusCode).toBe(400);
    expect(res.json<Err>().error.code).toBe(code);
    expect(await row(main.id)).toEqual(before);
    expect((await files()).sort()).toEqual(filesBefore.sort());
  });

  it('says so in Spanish, naming what it takes or the limit', async () => {
    const svg = await upload('admin', 'logo', 'logo.svg', SVG, undefined, 'es');
    expect(svg.json<Err>().error.message).toBe('El archivo no es una imagen admitida. Use PNG, JPEG, WebP, GIF.');
    const big = await upload('admin', 'favicon', 'big.ico', Buffer.concat([ICO, Buffer.alloc(300 * 1024)]), undefined, 'es');
    expect(big.json<Err>().error.message).toBe('La imagen supera el límite de 256 KB.');
  });

  it('is refused to a reader, another tenant and an unknown kind', async () => {
    expect((await upload('reader', 'logo', 'l.png', PNG)).statusCode).toBe(403);
    expect((await upload('other admin', 'logo', 'l.png', PNG, main.uid)).statusCode).toBe(404);
    expect((await upload('admin', 'banner', 'l.png', PNG)).statusCode).toBe(400);
    expect((await as('reader', 'DELETE', { tail: '/favicon' })).statusCode).toBe(403);
  });
});

describe('a save reaches every open page of the tenant', () => {
  const open = (who: { sid: string }) => connect(t.url as string, { path: '/socket.io', transports: ['websocket'], reconnection: false, extraHeaders: { cookie: `sid=${who.sid}` } });
  const connected = (s: Socket) => new Promise<void>((resolve, reject) => (s.connected ? resolve() : (s.once('connect', () => resolve()), s.once('connect_error', reject))));
  const next = (s: Socket, ms = 2500) =>
    new Promise<ChangedEvent | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), ms);
      s.on('changed', (e: ChangedEvent) => {
        if (e.kind !== 'project') return;
        clearTimeout(timer);
        resolve(e);
      });
    });

  it('announces `project` with the id only, to the tenant (applicants too), not to another tenant', async () => {
    const sockets = [open(sessions.reader), open(sessions.applicant), open(sessions['other admin'])];
    try {
      await Promise.all(sockets.map(connected));
      const heard = sockets.map((s) => next(s));
      expect((await as('admin', 'PUT', { payload: { ...good, colors: { ...good.colors, primary: '#B71C1C' } } })).statusCode).toBe(200);
      const [reader, applicant, other] = await Promise.all(heard);
      expect(reader).toEqual({ kind: 'project', ids: [main.id], caseIds: [] });
      expect(applicant).toEqual({ kind: 'project', ids: [main.id], caseIds: [] });
      expect(other).toBeNull();
    } finally {
      for (const s of sockets) s.disconnect();
    }
  });

  it('a refused save announces nothing', async () => {
    const s = open(sessions.reader);
    try {
      await connected(s);
      const heard = next(s, 1200);
      expect((await as('admin', 'PUT', { payload: { ...good, colors: { ...good.colors, primary: 'nope' } } })).statusCode).toBe(400);
      expect(await heard).toBeNull();
    } finally {
      s.disconnect();
    }
  });
});

describe('index blocking and maintenance', () => {
  it('blocks indexing: X-Robots-Tag on the project and its public entity, /robots.txt disallows all for the default project', async () => {
    const robotsBefore = await t.request({ method: 'GET', url: '/robots.txt' });
    expect(robotsBefore.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/projects/${main.uid}/settings` })).headers['x-robots-tag']).toBeUndefined();
    const entityPage = await t.request({ method: 'GET', url: '/api/public/entities/900111222' });
    expect(entityPage.statusCode).toBe(200);
    expect(entityPage.headers['x-robots-tag']).toBeUndefined();

    expect((await as('admin', 'PUT', { payload: { ...good, blockIndexing: true } })).statusCode).toBe(200);
    const pub = await t.request({ method: 'GET', url: `/api/projects/${main.uid}/settings` });
    expect(pub.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(pub.json<Settings>().blockIndexing).toBe(true);
    // The public entry of that entity (by docnumber or slug), its programme's page too.
    expect((await t.request({ method: 'GET', url: '/api/public/entities/900111222' })).headers['x-robots-tag']).toBe('noindex, nofollow');
    expect((await t.request({ method: 'GET', url: '/api/public/entities/settings-agency/protocols/aid' })).headers['x-robots-tag']).toBe('noindex, nofollow');
    const { is_default } = await row(main.id);
    // `default` is the one project marked default across tenants: ours.
    expect(is_default).toBe(true);
    const robots = await t.request({ method: 'GET', url: '/robots.txt' });
    expect(robots.headers['content-type']).toContain('text/plain');
    expect(robots.body).toBe('User-agent: *\nDisallow: /\n');
    // The other project of the tenant does not block.
    expect((await t.request({ method: 'GET', url: `/api/projects/${second.uid}/settings` })).headers['x-robots-tag']).toBeUndefined();

    await as('admin', 'PUT', { payload: good });
    expect((await t.request({ method: 'GET', url: '/robots.txt' })).body).toBe('User-agent: *\nDisallow: /api/\nDisallow: /landing/\n');
  });

  it('maintenance: an applicant cannot start an application (503 MAINTENANCE, translated) until it is off; staff still read the settings', async () => {
    expect((await as('admin', 'PUT', { payload: { ...good, maintenance: true, allowNewApplications: true, newApplicationsDeadline: null } })).statusCode).toBe(200);
    const res = await t.request({ method: 'POST', url: '/api/cases/drafts', cookies: { ...sessions.applicant, lang: 'es' }, payload: { protocolId, data: {} } });
    expect(res.statusCode).toBe(503);
    expect(res.json<Err>().error).toMatchObject({ code: 'MAINTENANCE', message: 'Las radicaciones están en pausa por mantenimiento. Inténtelo más tarde.' });
    expect((await as('reader', 'GET')).json<Settings>().maintenance).toBe(true);
    expect((await as('admin', 'PUT', { payload: { ...good, maintenance: false, allowNewApplications: true, newApplicationsDeadline: null } })).statusCode).toBe(200);
    const after = await t.request({ method: 'POST', url: '/api/cases/drafts', cookies: sessions.applicant, payload: { protocolId, data: {} } });
    expect(after.statusCode, after.body).toBe(201);
  });
});

describe('GET /api/settings/plan', () => {
  it('gives accounts used and left, files and database use, and warns past 90 %', async () => {
    await t.db.updateTable('entities').set({ account_limit: 50, disk_quota_mb: 1024 }).where('id', '=', entityId).execute();
    const res = await t.request({ method: 'GET', url: '/api/settings/plan', cookies: sessions.reader });
    expect(res.statusCode).toBe(200);
    const plan = res.json<{ accountLimit: number; accountsUsed: number; accountsAvailable: number; databaseMb: number; databaseMeasuredAt: string; warnings: string[] }>();
    expect(plan).toMatchObject({ accountLimit: 50, accountsUsed: 4, accountsAvailable: 46, warnings: [] });
    expect(plan.databaseMb).toBeGreaterThanOrEqual(0);
    const measured = await t.db.selectFrom('entity_storage_usage').where('entity_id', '=', entityId).selectAll().executeTakeFirstOrThrow();
    expect(measured.database_bytes).toBeGreaterThan(0);

    // Kept for minutes: a second view does not measure again.
    await t.db.updateTable('entity_storage_usage').set({ database_bytes: 950 * 1024 * 1024 }).where('entity_id', '=', entityId).execute();
    await t.db.updateTable('entities').set({ account_limit: 4 }).where('id', '=', entityId).execute();
    const near = (await t.request({ method: 'GET', url: '/api/settings/plan', cookies: sessions.reader })).json<typeof plan>();
    expect(near).toMatchObject({ databaseMb: 950, accountsAvailable: 0, warnings: ['accounts', 'disk'] });
    expect(near.databaseMeasuredAt).toBe(plan.databaseMeasuredAt);

    // Older than five minutes: measured again.
    await t.db.updateTable('entity_storage_usage').set({ computed_at: new Date(Date.now() - 6 * 60_000) }).where('entity_id', '=', entityId).execute();
    const fresh = (await t.request({ method: 'GET', url: '/api/settings/plan', cookies: sessions.reader })).json<typeof plan>();
    expect(fresh.databaseMb).toBeLessThan(950);
    expect(fresh.warnings).toEqual(['accounts']);
  });

  it('is refused without menu_configuracion show', async () => {
    expect((await t.request({ method: 'GET', url: '/api/settings/plan', cookies: sessions.none })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/settings/plan' })).statusCode).toBe(401);
  });

  it('counts only the tenant\'s own rows', async () => {
    const other = (await t.request({ method: 'GET', url: '/api/settings/plan', cookies: sessions['other admin'] })).json<{ accountsUsed: number }>();
    expect(other.accountsUsed).toBe(1);
    expect(otherId).not.toBe(entityId);
  });
});
