import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The public entry through the API, without a session: tenants of this file
 * made with the factories (a public one, one with only private or unpublished
 * protocols, an inactive one, one per applications state), and the demo seed
 * with its workflow, whose rental-assistance programme is public in both
 * languages.
 */
let t: TestApp;
type Entity = Awaited<ReturnType<typeof makeEntity>>;
let open: Entity;
let hidden: Entity;
let inactive: Entity;
let rival: Entity;
const TEXTS = {
  public_title_en: 'Title clearance',
  public_title_es: 'Saneamiento de títulos',
  public_description_en: 'Help to put the title of your home in your name.',
  public_description_es: 'Ayuda para poner el título de su vivienda a su nombre.',
  eligibility_en: 'Owners who live in the home.',
  eligibility_es: 'Propietarios que viven en la vivienda.',
};

/** A published protocol of the tenant with this code, public unless told, with its public page texts. */
async function programme(entityId: number, code: string, options: { public?: boolean; published?: boolean; texts?: Partial<typeof TEXTS> } = {}) {
  const p = await makePublishedProtocol(t.db, entityId);
  await t.db
    .updateTable('protocols')
    .set({ code, public: options.public ?? true, published_version: options.published === false ? null : 1, ...(options.texts ?? {}) })
    .where('id', '=', p.id)
    .execute();
  return p;
}

/** A wall-clock time in US Eastern `hours` from now, as the projects' deadline is written. */
const easternIn = (hours: number) => dayjs().tz('America/New_York').add(hours, 'hour').format('YYYY-MM-DDTHH:mm:ss');

beforeAll(async () => {
  t = await createTestApp({ demo: true, workflow: true });
  open = await makeEntity(t.db, { name: 'Oficina de Títulos Públicos' });
  await makeProject(t.db, { entity_id: open.id, is_default: false, logo: 'https://cdn.example.org/logo.png' });
  await programme(open.id, 'title-clearance', { texts: TEXTS });
  await programme(open.id, 'internal-review', { public: false });
  await programme(open.id, 'coming-soon', { published: false });

  hidden = await makeEntity(t.db);
  await makeProject(t.db, { entity_id: hidden.id });
  await programme(hidden.id, 'internal-review', { public: false });
  await programme(hidden.id, 'coming-soon', { published: false });

  inactive = await makeEntity(t.db, { active: false });
  await makeProject(t.db, { entity_id: inactive.id });
  await programme(inactive.id, 'title-clearance', { texts: TEXTS });

  // Another tenant with public programmes of its own, one of them with the same code as one of `hidden`.
  rival = await makeEntity(t.db, { name: 'Rival Agency' });
  await makeProject(t.db, { entity_id: rival.id, logo: 'javascript:alert(1)' });
  await programme(rival.id, 'rival-aid');
  await programme(rival.id, 'internal-review');
});
afterAll(() => t.close());

type Err = { error: { code: string; message: string } };
type Ref = { slug: string; docnumber: string; name: string; logo: string | null };
type Programme = { code: string; name: string; title: { en: string; es: string }; description: { en: string; es: string }; eligibility: { en: string; es: string } };
type EntityPage = Ref & { project: string; applications: string; programmes: Programme[] };
type ProgrammePage = Programme & { id: number; entity: Ref & { project: string; applications: string } };
const get = (url: string, options: { lang?: string; sid?: string } = {}) =>
  t.request({ method: 'GET', url, cookies: { ...(options.lang ? { lang: options.lang } : {}), ...(options.sid ? { sid: options.sid } : {}) } });

describe('the list of entities', () => {
  it('lists the active entities with published public programmes, and only those, with how many each has', async () => {
    const res = await get('/api/public/entities?limit=100');
    expect(res.statusCode).toBe(200);
    const { items, total } = res.json<{ items: Array<Ref & { programmes: number }>; total: number }>();
    const docnumbers = items.map((e) => e.docnumber);
    expect(docnumbers).toContain(open.docnumber);
    expect(docnumbers).toContain(rival.docnumber);
    expect(docnumbers).toContain('900100200');
    expect(docnumbers).not.toContain(hidden.docnumber);
    expect(docnumbers).not.toContain(inactive.docnumber);
    // "Other Agency" of the demo has no protocol at all.
    expect(docnumbers).not.toContain('900300400');
    expect(total).toBe(items.length);
    expect(items.find((e) => e.docnumber === open.docnumber)).toEqual({
      slug: 'oficina-de-titulos-publicos', docnumber: open.docnumber, name: 'Oficina de Títulos Públicos', logo: 'https://cdn.example.org/logo.png', programmes: 1,
    });
    // A logo that is not https or a path of this site never reaches a page.
    expect(items.find((e) => e.docnumber === rival.docnumber)).toMatchObject({ programmes: 2, logo: null });
    expect(items.find((e) => e.docnumber === '900100200')).toMatchObject({ slug: 'demo-housing-agency', name: 'Demo Housing Agency', programmes: 1 });
  });

  it('searches the names, accents and case aside, and pages', async () => {
    for (const search of ['titulos', 'TÍTULOS', 'de títulos']) {
      const found = (await get(`/api/public/entities?search=${encodeURIComponent(search)}`)).json<{ items: Ref[] }>();
      expect(found.items.map((e) => e.docnumber), search).toEqual([open.docnumber]);
    }
    expect((await get('/api/public/entities?search=%25')).json<{ items: Ref[] }>().items).toEqual([]);
    const page = (await get('/api/public/entities?limit=1&page=2')).json<{ items: Ref[]; total: number }>();
    expect(page.items).toHaveLength(1);
    expect(page.total).toBe(3);
  });

  it('refuses a bad query with a clear 400', async () => {
    for (const url of ['/api/public/entities?limit=1000', '/api/public/entities?sortBy=docnumber', '/api/public/entities?owner=1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<Err>().error.code, url).toBe('VALIDATION');
    }
  });
});

describe("an entity's page", () => {
  it('is found by docnumber or by slug (any case): its public published programmes, its project and whether it takes applications', async () => {
    const byDoc = await get(`/api/public/entities/${open.docnumber}`);
    expect(byDoc.statusCode).toBe(200);
    const page = byDoc.json<EntityPage>();
    expect(Object.keys(page).sort()).toEqual(['applications', 'docnumber', 'logo', 'name', 'programmes', 'project', 'slug']);
    expect(page).toMatchObject({ slug: 'oficina-de-titulos-publicos', name: 'Oficina de Títulos Públicos', applications: 'open', logo: 'https://cdn.example.org/logo.png' });
    expect(page.programmes).toEqual([
      {
        code: 'title-clearance',
        name: expect.any(String),
        title: { en: TEXTS.public_title_en, es: TEXTS.public_title_es },
        description: { en: TEXTS.public_description_en, es: TEXTS.public_description_es },
        eligibility: { en: TEXTS.eligibility_en, es: TEXTS.eligibility_es },
      },
    ]);
    expect((await get('/api/public/entities/oficina-de-titulos-publicos')).body).toBe(byDoc.body);
    expect((await get('/api/public/entities/Oficina-De-Titulos-Publicos')).body).toBe(byDoc.body);
  });

  it("never shows another tenant's programmes", async () => {
    const page = (await get(`/api/public/entities/${rival.slug}`)).json<EntityPage>();
    expect(page.programmes.map((p) => p.code).sort()).toEqual(['internal-review', 'rival-aid']);
    const mine = (await get(`/api/public/entities/${open.slug}`)).json<EntityPage>();
    expect(mine.programmes.map((p) => p.code)).toEqual(['title-clearance']);
  });

  it('answers the same 404 for a missing entity, an inactive one and one with nothing public', async () => {
    const answers = await Promise.all(['999999999999', 'no-such-agency', inactive.docnumber, inactive.slug, hidden.docnumber, hidden.slug].map((key) => get(`/api/public/entities/${key}`)));
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json<Err>()).toEqual({ error: { code: 'NOT_FOUND', message: 'The requested record was not found.' } });
      expect(res.headers['content-length']).toBe(answers[0].headers['content-length']);
    }
    expect((await get(`/api/public/entities/${hidden.docnumber}`, { lang: 'es' })).json<Err>().error.message).toBe('No se encontró el registro solicitado.');
  });

  it('refuses an address that cannot name an entity with a clear 400', async () => {
    for (const key of ['a%20b', '-lead', '%C3%B1and%C3%BA', 'x'.repeat(64)]) {
      const res = await get(`/api/public/entities/${key}`);
      expect(res.statusCode, key).toBe(400);
      expect(res.json<Err>().error.code, key).toBe('VALIDATION');
    }
  });
});

describe("a programme's page", () => {
  it('shows a published public protocol with its entity; only the public fields leave the server', async () => {
    const res = await get(`/api/public/entities/${open.slug}/protocols/title-clearance`);
    expect(res.statusCode).toBe(200);
    const page = res.json<ProgrammePage>();
    expect(Object.keys(page).sort()).toEqual(['code', 'description', 'eligibility', 'entity', 'id', 'name', 'title']);
    expect(Object.keys(page.entity).sort()).toEqual(['applications', 'docnumber', 'logo', 'name', 'project', 'slug']);
    expect(page).toMatchObject({ code: 'title-clearance', title: { en: TEXTS.public_title_en, es: TEXTS.public_title_es }, entity: { slug: open.slug, applications: 'open' } });
    expect(res.body).not.toMatch(/mainForm|definition|tasks|responsible|entity_id|"draft"/);
    expect((await get(`/api/public/entities/${open.docnumber}/protocols/title-clearance`)).body).toBe(res.body);
  });

  it('answers the same 404 for a missing, private or unpublished protocol, an inactive entity, and a code of another tenant', async () => {
    const urls = [
      `/api/public/entities/${open.slug}/protocols/no-such-programme`,
      `/api/public/entities/${open.slug}/protocols/internal-review`,
      `/api/public/entities/${open.slug}/protocols/coming-soon`,
      `/api/public/entities/${inactive.slug}/protocols/title-clearance`,
      `/api/public/entities/${hidden.slug}/protocols/internal-review`,
      // Public at the rival, not here.
      `/api/public/entities/${open.slug}/protocols/rival-aid`,
      `/api/public/entities/no-such-agency/protocols/title-clearance`,
    ];
    const answers = await Promise.all(urls.map((url) => get(url)));
    for (const [i, res] of answers.entries()) {
      expect(res.statusCode, urls[i]).toBe(404);
      expect(res.body, urls[i]).toBe(answers[0].body);
    }
  });

  it('refuses a code that cannot be a protocol code with a clear 400', async () => {
    for (const code of ['Title-Clearance', '9lives', 'a%20b']) {
      const res = await get(`/api/public/entities/${open.slug}/protocols/${code}`);
      expect(res.statusCode, code).toBe(400);
      expect(res.json<Err>().error.code, code).toBe('VALIDATION');
    }
  });

  it('answers the same with a session of any tenant as without one', async () => {
    const user = await makeUser(t.db, rival.id, { role: 'super-admin', password: 'Demo12345' });
    const { sid } = await login(t, user.email, 'Demo12345');
    const url = `/api/public/entities/${open.slug}/protocols/title-clearance`;
    expect((await get(url, { sid })).body).toBe((await get(url)).body);
    expect((await get(`/api/public/entities/${hidden.slug}/protocols/internal-review`, { sid })).statusCode).toBe(404);
  });
});

describe('whether the entity takes applications', () => {
  /** A tenant with one public programme and a project with these settings; its programme's state. */
  async function stateWith(project: { new_applications_deadline: string | null; allow_new_applications: boolean; maintenance?: boolean }, later?: { maintenance: boolean }) {
    const entity = await makeEntity(t.db);
    await makeProject(t.db, { entity_id: entity.id, maintenance: false, ...project });
    // A second project counts only as the tenant's default (the demo holds the one default of this database).
    if (later) await makeProject(t.db, { entity_id: entity.id, ...later });
    await programme(entity.id, 'aid');
    const page = (await get(`/api/public/entities/${entity.slug}/protocols/aid`)).json<ProgrammePage>();
    const entityPage = (await get(`/api/public/entities/${entity.slug}`)).json<EntityPage>();
    expect(entityPage.applications).toBe(page.entity.applications);
    return page.entity.applications;
  }

  it('closed past the deadline without the allow flag, compared in US Eastern time', async () => {
    expect(await stateWith({ new_applications_deadline: '2021-12-01T00:00:00', allow_new_applications: false })).toBe('closed');
    expect(await stateWith({ new_applications_deadline: easternIn(-2), allow_new_applications: false })).toBe('closed');
    // Two hours ahead in New York is already past in UTC: open only when read as US Eastern.
    expect(await stateWith({ new_applications_deadline: easternIn(2), allow_new_applications: false })).toBe('open');
  });

  it('open with the allow flag or without a deadline', async () => {
    expect(await stateWith({ new_applications_deadline: '2021-12-01T00:00:00', allow_new_applications: true })).toBe('open');
    expect(await stateWith({ new_applications_deadline: null, allow_new_applications: false })).toBe('open');
  });

  it('maintenance while the flag is on, before any deadline', async () => {
    expect(await stateWith({ new_applications_deadline: null, allow_new_applications: true, maintenance: true })).toBe('maintenance');
    expect(await stateWith({ new_applications_deadline: '2021-12-01T00:00:00', allow_new_applications: false, maintenance: true })).toBe('maintenance');
    // The tenant's first project is the one that counts when none is its default.
    expect(await stateWith({ new_applications_deadline: null, allow_new_applications: true }, { maintenance: true })).toBe('open');
  });
});

describe('the demo', () => {
  it("publishes the rental-assistance programme in English and Spanish, where the protocol list's public URL points", async () => {
    const { sid } = await login(t, 'admin@demo.test');
    const list = await t.request({ method: 'GET', url: '/api/protocols?search=rental', cookies: { sid } });
    const publicUrl = list.json<{ items: Array<{ code: string; publicUrl: string }> }>().items.find((p) => p.code === 'rental-assistance')?.publicUrl as string;
    const [, entity, code] = /\/publico\/([^/]+)\/([^/]+)$/.exec(new URL(publicUrl).pathname) ?? [];
    expect([entity, code]).toEqual(['900100200', 'rental-assistance']);
    const res = await get(`/api/public/entities/${entity}/protocols/${code}`);
    expect(res.statusCode).toBe(200);
    const page = res.json<ProgrammePage>();
    expect(page.title).toEqual({ en: 'Emergency Rental Assistance', es: 'Asistencia de emergencia para el alquiler' });
    for (const text of [page.description.en, page.description.es, page.eligibility.en, page.eligibility.es]) expect(text.length).toBeGreaterThan(40);
    expect(page.eligibility.es).toContain('Puede solicitarla si');
    expect(page.entity).toEqual({ slug: 'demo-housing-agency', docnumber: '900100200', name: 'Demo Housing Agency', logo: null, project: 'applications', applications: 'open' });
    // The id is the one the new-application page starts from.
    const options = await t.request({ method: 'GET', url: '/api/cases/new-options', cookies: (await login(t, 'applicant@demo.test')) as never });
    expect(options.json<{ protocols: Array<{ id: number; caseType: string }> }>().protocols).toContainEqual(expect.objectContaining({ id: page.id, caseType: 'RADICACION_PUBLICA' }));
  });
});
