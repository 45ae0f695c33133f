import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app.js';
import { APP_VERSION } from '../version.js';
import { createTestApp, login, type TestApp } from '../../tests/support/app.js';
import {
  makeAclAction, makeCase, makeEntity, makeForm, makeMasterItem, makeProject, makePublishedProtocol, makeRole, makeTask, makeTeam, makeTeamMember, makeUser,
} from '../../tests/support/factories.js';
import {
  DEEP_LEVELS, deepJson, HUGE_NUMBER_PARAM, HUGE_NUMBER_TEXT, jsonWith, leavesOf, LONG_QUERY_STRING, MEGABYTE_STRING, multipartWith, NUL, paramNames, propertiesOf, requiredQuery, sampleOf, schemasOf,
  type JsonSchemaLike,
} from '../../tests/support/route-walker.js';
import { AppError } from '../errors.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('conventions every route follows', () => {
  it('puts X-App-Version on every response, errors included', async () => {
    for (const url of ['/api/version', '/api/health', '/api/nope', '/api/projects/NOPE!/settings', '/api/projects/%E0%A4%A/settings']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.headers['x-app-version'], url).toBe(APP_VERSION);
    }
  });

  it('answers an unknown /api path with a 404 JSON error in the caller language', async () => {
    const en = await t.request({ method: 'GET', url: '/api/does/not/exist' });
    expect(en.statusCode).toBe(404);
    expect(en.headers['content-type']).toMatch(/application\/json/);
    expect(en.json()).toEqual({ error: { code: 'ROUTE_NOT_FOUND', message: 'This address of the API does not exist.' } });

    const es = await t.request({ method: 'POST', url: '/api/does/not/exist', cookies: { lang: 'es' } });
    expect(es.statusCode).toBe(404);
    expect(es.json()).toEqual({ error: { code: 'ROUTE_NOT_FOUND', message: 'Esta dirección de la API no existe.' } });

    const accept = await t.request({ method: 'GET', url: '/api/x', headers: { 'accept-language': 'es-CO,es;q=0.9' } });
    expect(accept.json<{ error: { message: string } }>().error.message).toBe('Esta dirección de la API no existe.');
  });

  it('answers what the router refuses (a broken %-escape, an over-long parameter) in the same shape and language', async () => {
    const escape = await t.request({ method: 'GET', url: '/api/projects/%E0%A4%A/settings', cookies: { lang: 'es' } });
    expect(escape.statusCode).toBe(400);
    expect(escape.json()).toEqual({ error: { code: 'BAD_REQUEST', message: 'La solicitud no es válida.' } });
    const long = await t.request({ method: 'GET', url: `/api/projects/${'x'.repeat(300)}/settings` });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ error: { code: 'BAD_REQUEST', message: 'The request is not valid.' } });
  });

  it('refuses a write from a browser built for another version with 409 VERSION_MISMATCH', async () => {
    const stale = await t.request({ method: 'POST', url: '/api/version', headers: { 'x-app-version': '0.0.0-old' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ error: { code: string } }>().error.code).toBe('VERSION_MISMATCH');
    // Reads still work, so the browser can load the new version's answer.
    const read = await t.request({ method: 'GET', url: '/api/version', headers: { 'x-app-version': '0.0.0-old' } });
    expect(read.statusCode).toBe(200);
  });

  it('sets security headers', async () => {
    const res = await t.request({ method: 'GET', url: '/api/version' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('publishes the OpenAPI document', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/version', '/api/projects/{id}/settings']));
  });
});

describe('error mapping', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // A throwaway app with routes that fail in each way a handler can.
    app = await buildApp({ config: t.app.config, db: t.db });
    app.get('/api/test/boom', { config: { access: 'public' } }, async () => {
      throw new Error('select * from secrets where password = 42');
    });
    app.get('/api/test/app-error', { config: { access: 'public' } }, async () => {
      throw new AppError('FORBIDDEN');
    });
    app.post(
      '/api/test/echo',
      { config: { access: 'public' }, schema: { body: z.strictObject({ name: z.string().max(5) }) } },
      async (req) => req.body,
    );
    app.post(
      '/api/test/loose',
      { config: { access: 'public' }, schema: { body: z.object({ name: z.string() }) } },
      async (req) => req.body,
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('never shows a stack trace or SQL: unexpected errors are INTERNAL 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'INTERNAL', message: 'A problem has occurred' } });
    expect(res.body).not.toMatch(/select|secrets|at .*\.ts/);
  });

  it('maps a typed error to its status and translated message', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/app-error', cookies: { lang: 'es' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'El usuario no tiene permiso para la página' } });
  });

  it('answers invalid bodies with 400 VALIDATION naming the field', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { name: 'much too long' } });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: { code: string; message: string; details: Array<{ path: string }> } }>();
    expect(body.error.code).toBe('VALIDATION');
    expect(body.error.details[0].path).toBe('name');
    expect(body.error.message).toContain('name');
  });

  it('drops unknown body fields before the handler sees them (mass assignment)', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/test/loose', payload: { name: 'ok', role: 'admin', __proto__: { admin: true } } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'ok' });
  });

  it('answers malformed JSON with 400, a wrong content type with 415, a huge body with 413', async () => {
    const bad = await app.inject({ method: 'POST', url: '/api/test/echo', payload: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { code: string } }>().error.code).toBe('BAD_REQUEST');

    const type = await app.inject({ method: 'POST', url: '/api/test/echo', payload: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(type.statusCode).toBe(415);
    expect(type.json<{ error: { code: string } }>().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const huge = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { name: 'x'.repeat(2 * 1024 * 1024) } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json<{ error: { code: string } }>().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('route access declarations', () => {
  it('every /api route declares who may call it', () => {
    const api = t.app.routeAccess;
    expect(api.length).toBeGreaterThan(0);
    for (const route of api) expect(route.access, `${route.method} ${route.url}`).toBeTruthy();
    expect(api.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/health', 'GET /api/version', 'GET /api/projects/:id/settings']),
    );
  });

  it('refuses to build an app with an undeclared /api route', async () => {
    const app = await buildApp({ config: t.app.config, db: t.db });
    expect(() => app.get('/api/test/undeclared', async () => 'x')).toThrow(/does not declare config.access/);
    await app.close();
  });
});

describe('every route refuses malformed input with a 4xx, never a 500', () => {
  let w: TestApp;
  let sid: string;
  /** The platform operator's session, for the routes declared `access: 'operator'` (a tenant's super-admin gets 403 there). */
  let operatorSid: string;
  let docnumber: string;
  /** The record each route with an id in its path acts on, by the start of its path up to the id. */
  const records: Array<[string, number]> = [];
  // Error-level lines of the app's log: a refused input must not log one.
  const errorLines: string[] = [];
  beforeAll(async () => {
    const stream = { write: (line: string) => void (JSON.parse(line).level >= 50 && errorLines.push(line)) };
    w = await createTestApp({ logger: { level: 'warn', stream } });
    // A tenant with a record of each kind a path names, made with the factories, and its super-admin who walks.
    const db = w.db;
    const entity = await makeEntity(db);
    docnumber = entity.docnumber;
    await makeProject(db, { entity_id: entity.id, is_default: true });
    const admin = await makeUser(db, entity.id, { role: 'super-admin', name: 'Diana Admin', password: 'Demo12345' });
    const departamentos = await db.selectFrom('masters').where('entity_id', '=', entity.id).where('code', '=', 'departamentos').selectAll().executeTakeFirstOrThrow();
    const item = await makeMasterItem(db, departamentos, { code: '05', name: 'Antioquia' });
    const form = await makeForm(db, entity.id, {
      definition: {
        name: 'Application',
        fields: [
          { name: 'firstName', type: 'text', label: 'Nombre', label_en: 'First name' },
          { name: 'departamento', type: 'master_select', label: 'Departamento', label_en: 'State', master: 'departamentos' },
          { name: 'municipio', type: 'master_select', label: 'Municipio', label_en: 'City', master: 'municipios', type_aux: 'departamento' },
          { name: 'proof', type: 'file', label: 'Soporte', label_en: 'Proof' },
        ],
      },
    });
    const protocol = await makePublishedProtocol(db, entity.id, { mainForm: form });
    const task = await makeTask(db, entity.id, { ownerId: admin.id, protocol });
    const draft = await makeCase(db, protocol, { ownerId: admin.id });
    const team = await makeTeam(db, entity.id);
    const member = await makeTeamMember(db, team, admin.id);
    const user = await makeUser(db, entity.id, { role: 'clerk', rules: { wf_casos: ['show'] } });
    const role = await makeRole(db, entity.id, { rules: { wf_casos: ['show'] } });
    const action = await makeAclAction(db, entity.id);
    const module = await db.selectFrom('acl_modules').where('entity_id', '=', entity.id).select('id').orderBy('id').executeTakeFirstOrThrow();
    const comment = await db
      .insertInto('comments')
      .values({ entity_id: entity.id, case_id: task.case_id, number: 1, body: 'Walker comment', case_state: 'PENDING', author_id: admin.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    records.push(
      ['/api/cases/:id', task.case_id], ['/api/cases/drafts/:id', draft.id], ['/api/tasks/:id', task.id], ['/api/protocols/:id', protocol.id], ['/api/forms/:id', form.id],
      ['/api/teams/:id', team.id], ['/api/team-members/:id', member.id], ['/api/users/:id', user.id], ['/api/acl/roles/:id', role.id], ['/api/acl/actions/:id', action.id],
      ['/api/acl/modules/:id', module.id], ['/api/masters/:code/items/:id', item.id], ['/api/comments/:id', comment.id],
    );
    ({ sid } = await login(w, admin.email, 'Demo12345'));
    const operator = await makeUser(db, entity.id, { role: 'invitado', password: 'Demo12345', platform_operator: true });
    records.push(['/api/agencies/:id', entity.id]);
    ({ sid: operatorSid } = await login(w, operator.email, 'Demo12345'));
  });
  afterAll(() => w.close());

  const errorCodeOf = (body: string) => {
    try {
      return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
    } catch {
      return undefined;
    }
  };

  /**
   * Path parameters that pass their schema and mostly name records of the
   * walker's tenant (made above), so that what the schema lets through
   * reaches the handler. Kinds the tenant has none of (saved searches,
   * exports, imports, external hosts) get id 1, which names nothing.
   * Every request of the walk is malformed somewhere: one that changed a
   * record would be a 2xx, and a failure of this test.
   */
  const plausible = (name: string, schema: JsonSchemaLike | undefined, url: string) => {
    const type = schema?.type ?? schema?.anyOf?.[0]?.type;
    if (type === 'integer' || type === 'number') {
      const record = records.find(([prefix]) => url === prefix || url.startsWith(`${prefix}/`));
      return String(record?.[1] ?? 1);
    }
    if (typeof schema?.pattern === 'string' && schema.pattern.includes('{16,64}')) return 'A'.repeat(24);
    return ({ code: 'departamentos', entity: docnumber, id: 'default', field: 'departamento' } as Record<string, string>)[name] ?? 'walker';
  };

  it("refuses the NULs of issue 13 with 400 VALIDATION naming the field, in the caller's language", async () => {
    const code = (await w.request({ method: 'GET', url: '/api/masters?limit=1', cookies: { sid } })).json<{ items: Array<{ code: string }> }>().items[0].code;
    const cases: Array<[InjectOptions, string]> = [
      [{ method: 'GET', url: '/api/cases?search=a%00b' }, 'search'],
      [{ method: 'GET', url: '/api/users?search=%00' }, 'search'],
      [{ method: 'GET', url: '/api/tasks?search=%00' }, 'search'],
      [{ method: 'GET', url: `/api/masters/${code}/items?search=%00` }, 'search'],
      [{ method: 'PUT', url: '/api/profile', payload: { name: 'Diana\u0000', language: 'en', timeZone: 'America/Bogota' } }, 'name'],
      [{ method: 'POST', url: '/api/cases/saved-searches', payload: { name: 'mine\u0000', query: {} } }, 'name'],
    ];
    for (const [options, path] of cases) {
      const res = await w.request({ ...options, cookies: { sid } });
      expect(res.statusCode, String(options.url)).toBe(400);
      expect(res.json(), String(options.url)).toEqual({
        error: { code: 'VALIDATION', message: `Some values are not valid: ${path}: Text cannot contain the NUL character (\\u0000)`, details: [{ path, message: 'Text cannot contain the NUL character (\\u0000)' }] },
      });
    }
    // Signing in, without a session, and in Spanish.
    const login = await w.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@example.test\u0000', password: 'x' }, cookies: { lang: 'es' } });
    expect(login.statusCode).toBe(400);
    expect(login.json<{ error: { message: string } }>().error.message).toBe('Algunos valores no son válidos: email: El texto no puede contener el carácter NUL (\\u0000)');
    // A key, in a path parameter: refused as well, and the profile is unchanged.
    expect((await w.request({ method: 'PUT', url: '/api/profile', payload: { 'na\u0000me': 'x' }, cookies: { sid } })).statusCode).toBe(400);
    expect((await w.request({ method: 'GET', url: '/api/masters/a%00b/items', cookies: { sid } })).statusCode).toBe(400);
    expect((await w.request({ method: 'GET', url: '/api/profile', cookies: { sid } })).json<{ name: string }>().name).toBe('Diana Admin');
  });

  it('NUL in any string, malformed JSON, wrong type, array for object, huge number, 1 MB string, deep nesting', { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    let sent = 0;
    let nulRefused = 0;
    const send = async (label: string, options: InjectOptions & { wantNul?: boolean; signedIn: boolean; asOperator?: boolean }) => {
      const { wantNul, signedIn, asOperator, ...inject } = options;
      sent++;
      // Each request from its own address, so rate limits (login, sign-up) never answer in place of validation.
      const res = await w.app.inject({ ...inject, remoteAddress: `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`, cookies: signedIn ? { sid: asOperator ? operatorSid : sid } : {} });
      // A HEAD answer has no body: its status is what can be checked.
      const head = inject.method === 'HEAD';
      const code = head ? 'HEAD' : errorCodeOf(res.body);
      const ok = wantNul ? res.statusCode === 400 && (head || code === 'VALIDATION') : res.statusCode >= 400 && res.statusCode < 500 && !!code;
      if (wantNul && ok) nulRefused++;
      if (!ok) failures.push(`${signedIn ? '' : '(no session) '}${inject.method} ${String(inject.url).slice(0, 120)} ${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    };

    // Signing out last: a body it ignored would end the session the other routes need.
    const routes = [...w.app.routeAccess].sort((a, b) => Number(a.url === '/api/auth/logout') - Number(b.url === '/api/auth/logout'));
    for (const route of routes) {
      const method = route.method as InjectOptions['method'];
      const schemas = schemasOf(route.schema);
      const params = Object.fromEntries(propertiesOf(schemas.params));
      const names = paramNames(route.url);
      const urlWith = (overrides: Record<string, string> = {}) =>
        route.url.replace(/:(\w+)/g, (_, n: string) => encodeURIComponent(overrides[n] ?? plausible(n, params[n], route.url)));
      const queryProps = propertiesOf(schemas.querystring);
      const queryNames = queryProps.length ? queryProps.map(([n]) => n) : ['search'];
      // Required query parameters (the protocol of a CSV import) go with every request, so the body is reached.
      const query = requiredQuery(schemas.querystring);
      const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
      const passes = route.access === 'public' ? [true, false] : [true];

      for (const signedIn of passes) {
        const go = (label: string, o: InjectOptions & { wantNul?: boolean }) => send(label, { ...o, signedIn, asOperator: route.access === 'operator' });
        for (const name of names) {
          await go(`NUL in :${name}`, { method, url: urlWith({ [name]: NUL }), query, wantNul: true });
          const type = params[name]?.type;
          if (type === 'integer' || type === 'number') await go(`huge :${name}`, { method, url: urlWith({ [name]: HUGE_NUMBER_PARAM }), query });
        }
        const qs = new URLSearchParams(query).toString();
        for (const name of names) {
          // What the router itself refuses, before any hook: a broken %-escape, a parameter past maxParamLength.
          await go(`bad escape in :${name}`, { method, url: urlWith({ [name]: '\u0001' }).replace('%01', '%E0%A4%A'), query });
          await go(`long :${name}`, { method, url: urlWith({ [name]: 'x'.repeat(300) }), query });
        }
        for (const name of queryNames) {
          await go(`NUL in ?${name}`, { method, url: urlWith(), query: { ...query, [name]: NUL }, wantNul: true });
          const prop = Object.fromEntries(queryProps)[name];
          // A parameter that takes one value, given twice (the query parser makes a list of it).
          if (prop && !JSON.stringify(prop).includes('"array"')) await go(`?${name} twice`, { method, url: `${urlWith()}?${qs}${qs ? '&' : ''}${name}=1&${name}=2` });
          const type = Object.fromEntries(queryProps)[name]?.type;
          if (type === 'integer' || type === 'number') await go(`huge ?${name}`, { method, url: urlWith(), query: { ...query, [name]: HUGE_NUMBER_PARAM } });
          else if (queryProps.length) await go(`32 KB ?${name}`, { method, url: urlWith(), query: { ...query, [name]: LONG_QUERY_STRING } });
        }
        if (!hasBody) continue;
        const json = (label: string, payload: string, wantNul = false) =>
          go(label, { method, url: urlWith(), query, payload, headers: { 'content-type': 'application/json' }, wantNul });
        await json('malformed JSON', '{"name":');
        await go('wrong content type', { method, url: urlWith(), query, payload: '<x/>', headers: { 'content-type': 'application/xml' } });
        // Routes that take a file as text (CSV imports) get a NUL byte in it; the others refuse the type.
        await go('NUL in a CSV body', { method, url: urlWith(), query, payload: Buffer.from(`code,name\nwalker,${NUL}\n`), headers: { 'content-type': 'text/csv' } });
        // Uploads get a file whose name holds a NUL; the others refuse the type.
        await go('NUL in a multipart file name', { method, url: urlWith(), query, ...multipartWith(`${NUL}.pdf`, '%PDF-1.4 walker') });
        await json('deep nesting', deepJson(DEEP_LEVELS));
        if (!schemas.body) {
          // No body expected: what the guard refuses for every route still applies.
          await json('NUL in a body string', JSON.stringify({ name: NUL }), true);
          await json('NUL in a body key', JSON.stringify({ [NUL]: 'x' }), true);
          continue;
        }
        // The body as another JSON type altogether, or announced as JSON and empty.
        for (const other of ['null', '"text"', '42', '']) await json(`body ${other || 'empty'}`, other);
        const sample = sampleOf(schemas.body, schemas.body);
        const leaves = leavesOf(sample);
        for (const path of leaves.strings) {
          await json(`NUL in ${path.join('.')}`, jsonWith(sample, path, JSON.stringify(NUL)), true);
          await json(`1 MB in ${path.join('.')}`, jsonWith(sample, path, JSON.stringify(MEGABYTE_STRING)));
        }
        for (const path of leaves.numbers) await json(`huge number in ${path.join('.')}`, jsonWith(sample, path, HUGE_NUMBER_TEXT));
        for (const path of leaves.objects) {
          const at = path.join('.') || 'the body';
          await json(`array for ${at}`, jsonWith(sample, path, '[]'));
          await json(`NUL in a key of ${at}`, jsonWith(sample, [...path, NUL], '"x"'), true);
          if (path.length) await json(`deep nesting in ${at}`, jsonWith(sample, path, deepJson(DEEP_LEVELS)));
        }
      }
    }

    expect(failures).toEqual([]);
    expect(errorLines).toEqual([]);
    // The walk reached validation: every NUL was refused as such (a lost session would answer 401 instead).
    expect(nulRefused).toBeGreaterThan(w.app.routeAccess.length);
    expect(sent).toBeGreaterThan(1_000);
  });
});
