import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Bundle, BUNDLE_MAX_BYTES } from '../../../core/api/gallery.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeForm, makeProject, makeTeam, makeUser } from '../../../tests/support/factories.js';
import title from './apps/title-clearance.json' with { type: 'json' };

/**
 * The gallery through the API: the list, the preview with and without
 * conflicts, an install that gives a working protocol (a case goes through
 * it, its condition included), tenant isolation, export and import into
 * another tenant, bad files refused with nothing created, and a failure
 * part-way that leaves nothing behind.
 */
type Who = { id: number; sid: string };
type Plan = { project: { uid: string; uidTaken: boolean }; items: Array<{ kind: string; code: string; action: string; as: string }>; problems: Array<{ path: string; message: string }>; ok: boolean };
type Installed = Plan & { projectId: number; protocols: Array<{ id: number; code: string; name: string; publicUrl: string }> };
type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };

let t: TestApp;

async function admin(entityId: number): Promise<Who> {
  const u = await makeUser(t.db, entityId, { role: 'super-admin' });
  return { id: u.id, sid: (await login(t, u.email, 'Passw0rd1')).sid };
}
async function tenantWithAdmin() {
  const entity = await makeEntity(t.db);
  await makeProject(t.db, { entity_id: entity.id });
  return { entity, admin: await admin(entity.id) };
}
const send = (who: Who | null, method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
  t.request({ method, url, payload, cookies: who ? { sid: who.sid, lang } : { lang } });

/** Rows of the tenant an install writes, to see that nothing was. */
async function footprint(entityId: number) {
  const n = async (table: 'projects' | 'forms' | 'masters' | 'teams' | 'mail_templates' | 'protocols' | 'protocol_versions' | 'master_items' | 'project_protocols' | 'print_templates') =>
    Number((await t.db.selectFrom(table).where('entity_id', '=', entityId).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    projects: await n('projects'), forms: await n('forms'), masters: await n('masters'), items: await n('master_items'), teams: await n('teams'),
    templates: await n('mail_templates'), protocols: await n('protocols'), versions: await n('protocol_versions'), links: await n('project_protocols'),
    prints: await n('print_templates'),
  };
}

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t?.close());

describe('GET /api/gallery', () => {
  it('lists the applications in both languages with what each contains; needs menu_configuracion show', async () => {
    const { entity, admin: a } = await tenantWithAdmin();
    const res = await send(a, 'GET', '/api/gallery');
    expect(res.statusCode).toBe(200);
    const items = res.json<{ items: Array<{ key: string; title: { en: string; es: string }; contains: Record<string, number>; protocols: unknown[] }> }>().items;
    expect(items.map((i) => i.key)).toEqual(['rental-assistance', 'title-clearance']);
    const rental = items[0];
    expect(rental.title).toEqual({ en: 'Rental assistance', es: 'Asistencia para el alquiler' });
    expect(rental.contains).toMatchObject({ forms: 7, masters: 1, protocols: 1, tasks: 7, teams: 4 });
    expect(items[1].contains).toEqual({ forms: 2, masters: 1, protocols: 1, tasks: 4, teams: 2, mailTemplates: 1 });

    const reader = await makeUser(t.db, entity.id, { role: 'gal-reader', rules: { menu_configuracion: ['show'] } });
    const readerSid = { id: reader.id, sid: (await login(t, reader.email, 'Passw0rd1')).sid };
    expect((await send(readerSid, 'GET', '/api/gallery')).statusCode).toBe(200);
    // Listing is not installing.
    const refused = await send(readerSid, 'POST', '/api/gallery/title-clearance/preview', { uid: 'x-reader', title: 'X' });
    expect(refused.statusCode).toBe(403);
    const nobody = await makeUser(t.db, entity.id, { role: 'gal-none', rules: { wf_casos: ['show'] } });
    expect((await send({ id: nobody.id, sid: (await login(t, nobody.email, 'Passw0rd1')).sid }, 'GET', '/api/gallery')).statusCode).toBe(403);
    expect((await send(null, 'GET', '/api/gallery')).statusCode).toBe(401);
  });
});

describe('POST /api/gallery/:app/preview', () => {
  it('without conflicts: everything is new, and nothing is written', async () => {
    const { entity, admin: a } = await tenantWithAdmin();
    const before = await footprint(entity.id);
    const res = await send(a, 'POST', '/api/gallery/title-clearance/preview', { uid: 'tc-fresh', title: 'Title office' });
    expect(res.statusCode).toBe(200);
    const plan = res.json<Plan>();
    expect(plan.ok).toBe(true);
    expect(plan.problems).toEqual([]);
    expect(plan.items.every((i) => i.action === 'create' && i.as === (i.kind === 'team' || i.kind === 'mailTemplate' ? i.as : i.code))).toBe(true);
    expect(plan.items.map((i) => `${i.kind}:${i.code}`).sort()).toEqual(
      ['form:title-clearance-request', 'form:title-search', 'mailTemplate:title-search-assigned', 'master:property_types', 'protocol:title-clearance', 'team:closing', 'team:title-examiners'].sort(),
    );
    expect(await footprint(entity.id)).toEqual(before);
  });

  it('with conflicts: codes taken are renamed with a suffix, a team of the same name is reused, a taken uid stops it', async () => {
    const { entity, admin: a } = await tenantWithAdmin();
    await makeForm(t.db, entity.id, { code: 'title-search' });
    await makeTeam(t.db, entity.id, { name: 'Closing' });
    await t.db.insertInto('masters').values({ entity_id: entity.id, code: 'property_types', name: 'Mine' }).execute();
    const other = await makeEntity(t.db);
    const foreignProject = await makeProject(t.db, { entity_id: other.id });

    const res = await send(a, 'POST', '/api/gallery/title-clearance/preview', { uid: foreignProject.uid, title: 'Title office' }, 'es');
    const plan = res.json<Plan>();
    const item = (kind: string, code: string) => plan.items.find((i) => i.kind === kind && i.code === code);
    expect(item('form', 'title-search')).toMatchObject({ action: 'rename', as: 'title-search-2' });
    expect(item('form', 'title-clearance-request')).toMatchObject({ action: 'create' });
    expect(item('master', 'property_types')).toMatchObject({ action: 'rename', as: 'property_types-2' });
    expect(item('team', 'closing')).toMatchObject({ action: 'reuse', as: 'Closing' });
    expect(item('team', 'title-examiners')).toMatchObject({ action: 'create' });
    expect(plan.project.uidTaken).toBe(true);
    expect(plan.ok).toBe(false);
    expect(plan.problems[0].message).toContain(foreignProject.uid);
    expect(plan.problems[0].message).toMatch(/ya está en uso/);
  });

  it('an unknown application is 404; a bad uid is 400', async () => {
    const { admin: a } = await tenantWithAdmin();
    expect((await send(a, 'POST', '/api/gallery/no-such-app/preview', { uid: 'ok-uid', title: 'X' })).statusCode).toBe(404);
    expect((await send(a, 'POST', '/api/gallery/title-clearance/preview', { uid: 'Bad UID!', title: 'X' })).statusCode).toBe(400);
  });
});

describe('POST /api/gallery/:app/install', () => {
  it("fills a new agency's empty built-in places with the application's, and keeps an agency's own list", async () => {
    const itemsOf = async (entityId: number, code: string) =>
      t.db
        .selectFrom('master_items as i')
        .innerJoin('masters as m', 'm.id', 'i.master_id')
        .leftJoin('master_items as p', 'p.id', 'i.parent_item_id')
        .where('i.entity_id', '=', entityId)
        .where('m.code', '=', code)
        .select(['i.code', 'p.code as parent'])
        .orderBy('i.code')
        .execute();
    const places = (plan: Plan) => plan.items.filter((i) => i.kind === 'master' && ['departamentos', 'municipios'].includes(i.code)).map((i) => [i.code, i.action, i.as]);

    // Empty lists (a new agency's): both filled, the cities under their departments.
    const fresh = await tenantWithAdmin();
    const preview = await send(fresh.admin, 'POST', '/api/gallery/rental-assistance/preview', { uid: 'ra-places', title: 'Rental' });
    expect(places(preview.json<Plan>())).toEqual([['departamentos', 'fill', '5'], ['municipios', 'fill', '10']]);
    expect((await send(fresh.admin, 'POST', '/api/gallery/rental-assistance/install', { uid: 'ra-places', title: 'Rental' })).statusCode).toBe(201);
    expect(await itemsOf(fresh.entity.id, 'departamentos')).toHaveLength(5);
    expect(await itemsOf(fresh.entity.id, 'municipios')).toContainEqual({ code: '05001', parent: '05' });
    expect(await itemsOf(fresh.entity.id, 'municipios')).toHaveLength(10);

    // An agency with its own departments: kept; only the cities under a department it has go in.
    const own = await tenantWithAdmin();
    const deps = await t.db.selectFrom('masters').where('entity_id', '=', own.entity.id).where('code', '=', 'departamentos').select('id').executeTakeFirstOrThrow();
    await t.db.insertInto('master_items').values({ entity_id: own.entity.id, master_id: deps.id, code: '05', name: 'Antioquia (ours)' }).execute();
    const kept = await send(own.admin, 'POST', '/api/gallery/rental-assistance/preview', { uid: 'ra-own', title: 'Rental' });
    expect(places(kept.json<Plan>())).toEqual([['departamentos', 'keep', '5'], ['municipios', 'fill', '3']]);
    expect((await send(own.admin, 'POST', '/api/gallery/rental-assistance/install', { uid: 'ra-own', title: 'Rental' })).statusCode).toBe(201);
    expect(await itemsOf(own.entity.id, 'departamentos')).toEqual([{ code: '05', parent: null }]);
    expect((await itemsOf(own.entity.id, 'municipios')).map((i) => i.parent)).toEqual(['05', '05', '05']);
  });

  it('creates the project and a published protocol a case goes through, its condition included', async () => {
    const { entity, admin: a } = await tenantWithAdmin();
    const res = await send(a, 'POST', '/api/gallery/title-clearance/install', { uid: 'tc-install', title: 'Title office' });
    expect(res.statusCode).toBe(201);
    const done = res.json<Installed>();
    const project = await t.db.selectFrom('projects').where('id', '=', done.projectId).selectAll().executeTakeFirstOrThrow();
    expect(project).toMatchObject({ entity_id: entity.id, uid: 'tc-install', title: 'Title office', color_primary: '#2E7D32' });
    expect(done.protocols).toHaveLength(1);
    const [p] = done.protocols;
    expect(p.publicUrl).toBe(`/publico/${entity.docnumber}/title-clearance`);
    const row = await t.db.selectFrom('protocols').where('id', '=', p.id).selectAll().executeTakeFirstOrThrow();
    expect(row.entity_id).toBe(entity.id);
    expect(row.published_version).toBe(1);
    expect(row.public_title_es).toBe('Saneamiento de títulos');
    const link = await t.db.selectFrom('project_protocols').where('protocol_id', '=', p.id).selectAll().executeTakeFirstOrThrow();
    expect(link.project_id).toBe(done.projectId);
    // The task's template is the installed one.
    const version = await t.db.selectFrom('protocol_versions').where('protocol_id', '=', p.id).select('definition').executeTakeFirstOrThrow();
    const def = version.definition as ProtocolDefinition;
    const tpl = await t.db.selectFrom('mail_templates').where('entity_id', '=', entity.id).where('name', '=', 'Title clearance: title search assigned').select(['id', 'is_default']).executeTakeFirstOrThrow();
    expect(def.tasks.find((x) => x.code === 'search')?.mailTemplates).toEqual({ task_assigned: tpl.id });
    expect(tpl.is_default).toBe(false);
    const master = await t.db.selectFrom('masters').where('entity_id', '=', entity.id).where('code', '=', 'property_types').select('id').executeTakeFirstOrThrow();
    expect(await t.db.selectFrom('master_items').where('master_id', '=', master.id).select('code').execute()).toHaveLength(4);

    // An application through the cases API.
    const draft = await send(a, 'POST', '/api/cases/drafts', {
      protocolId: p.id,
      data: { ownerName: 'Rosa Díaz', ownerEmail: 'rosa@example.org', propertyAddress: '1 Main St', parcelNumber: 'AB-12', propertyType: 'residential' },
    });
    expect(draft.statusCode).toBe(201);
    const submitted = await send(a, 'POST', `/api/cases/drafts/${draft.json<{ id: number }>().id}/submit`, {});
    expect(submitted.statusCode).toBe(200);
    const caseId = submitted.json<{ id: number }>().id;
    const taskOf = async (code: string) => t.db.selectFrom('tasks').where('case_id', '=', caseId).where('code', '=', code).select(['id', 'state', 'responsible_team_id']).executeTakeFirst();
    const review = await taskOf('review');
    const examiners = await t.db.selectFrom('teams').where('entity_id', '=', entity.id).where('name', '=', 'Title examiners').select('id').executeTakeFirstOrThrow();
    expect(review?.responsible_team_id).toBe(examiners.id);
    // The team has nobody yet: an administrator takes the tasks and decides them.
    const accept = async (code: string, data: Record<string, unknown>) => {
      const task = await taskOf(code);
      await send(a, 'POST', `/api/tasks/${task?.id}/assign`, { userId: a.id });
      const v = await t.db.selectFrom('tasks').where('id', '=', task?.id as number).select('version').executeTakeFirstOrThrow();
      return send(a, 'POST', `/api/tasks/${task?.id}/accept`, { data, version: v.version });
    };
    expect((await accept('review', {})).statusCode).toBe(200);
    expect((await accept('search', { liensFound: 'no', chainComplete: true })).statusCode).toBe(200);
    // No liens: straight to the certificate, no lien release.
    expect(await taskOf('certificate')).toBeTruthy();
    expect(await taskOf('liens')).toBeUndefined();
  });

  it('installs beside what exists: renamed form used by the protocol, reused team; a second install gets -2 codes', async () => {
    const { entity, admin: a } = await tenantWithAdmin();
    const closing = await makeTeam(t.db, entity.id, { name: 'Closing' });
    expect((await send(a, 'POST', '/api/gallery/title-clearance/install', { uid: 'tc-first', title: 'First' })).statusCode).toBe(201);
    const second = await send(a, 'POST', '/api/gallery/title-clearance/install', { uid: 'tc-second', title: 'Second' });
    expect(second.statusCode).toBe(201);
    const done = second.json<Installed>();
    expect(done.protocols[0].code).toBe('title-clearance-2');
    const def = (await t.db.selectFrom('protocols').where('id', '=', done.protocols[0].id).select('draft').executeTakeFirstOrThrow()).draft as ProtocolDefinition;
    const searchForm = await t.db.selectFrom('forms').where('entity_id', '=', entity.id).where('code', '=', 'title-search-2').select('id').executeTakeFirstOrThrow();
    expect(def.tasks.find((x) => x.code === 'search')?.formId).toBe(searchForm.id);
    expect(def.tasks.find((x) => x.code === 'liens')?.responsible).toEqual({ kind: 'team', teamId: closing.id });
    // The renamed master is the one the renamed main form names.
    const main = await t.db
      .selectFrom('forms as f')
      .innerJoin('form_versions as v', 'v.form_id', 'f.id')
      .where('f.entity_id', '=', entity.id)
      .where('f.code', '=', 'title-clearance-request-2')
      .select('v.definition')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(main.definition)).toContain('"master":"property_types-2"');
    expect(await t.db.selectFrom('teams').where('entity_id', '=', entity.id).where('name', '=', 'Closing').select('id').execute()).toHaveLength(1);
  });

  it("cannot take another tenant's project: its uid is refused and nothing is created", async () => {
    const { entity, admin: a } = await tenantWithAdmin();
    const other = await tenantWithAdmin();
    const theirs = await makeProject(t.db, { entity_id: other.entity.id });
    const before = await footprint(entity.id);
    const theirsBefore = await footprint(other.entity.id);
    const res = await send(a, 'POST', '/api/gallery/title-clearance/install', { uid: theirs.uid, title: 'Hijack' });
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().error.code).toBe('DUPLICATE');
    expect(await footprint(entity.id)).toEqual(before);
    expect(await footprint(other.entity.id)).toEqual(theirsBefore);
    // Nor export it.
    expect((await send(a, 'GET', `/api/projects/${theirs.uid}/export`)).statusCode).toBe(404);
  });

  it('a failure part-way leaves nothing: no project, form, master, team or template', async () => {
    const { entity, admin: a } = await tenantWithAdmin();
    const before = await footprint(entity.id);
    // Publishing (the last writes) fails inside the transaction.
    await sql`create function gallery_test_fail() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$`.execute(t.db);
    await sql`create trigger gallery_test_fail before insert on protocol_versions for each row execute function gallery_test_fail()`.execute(t.db);
    try {
      const res = await send(a, 'POST', '/api/gallery/title-clearance/install', { uid: 'tc-broken', title: 'Broken' });
      expect(res.statusCode).toBe(500);
    } finally {
      await sql`drop trigger gallery_test_fail on protocol_versions`.execute(t.db);
      await sql`drop function gallery_test_fail()`.execute(t.db);
    }
    expect(await footprint(entity.id)).toEqual(before);
    expect(await t.db.selectFrom('projects').where('uid', '=', 'tc-broken').select('id').executeTakeFirst()).toBeUndefined();
  });
});

describe('export and import', () => {
  it('a project exported from one tenant imports into another: dry run, then all of it', async () => {
    const a = await tenantWithAdmin();
    const installed = await send(a.admin, 'POST', '/api/gallery/rental-assistance/install', { uid: 'ra-source', title: 'Rental source' });
    expect(installed.statusCode).toBe(201);
    // A W-9 filled from the application, for the installed protocol: it travels with the project.
    const w9 = readFileSync(path.join(import.meta.dirname, '../../../tests/fixtures/w9-sample.pdf'));
    await t.db
      .insertInto('print_templates')
      .values({
        entity_id: a.entity.id, kind: 'acroform', name: 'Formulario W-9', name_en: 'W-9 form', protocol_id: installed.json<Installed>().protocols[0].id,
        mapping: JSON.stringify({ name: 'case.applicantName', address: 'form.firstName' }), pdf: w9, pdf_name: 'w9.pdf',
      })
      .execute();
    const exported = await send(a.admin, 'GET', '/api/projects/ra-source/export');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toContain('ra-source.casebook.json');
    const file = exported.json<Bundle>();
    expect(file.format).toBe('casebook.project/1');
    expect(file.protocols.map((p) => p.code)).toEqual(['rental-assistance']);
    expect(JSON.stringify(file)).not.toMatch(/"formId"|"teamId"/);
    expect(file.printTemplates.map((p) => [p.key, p.kind, p.protocol, p.mapping, p.pdfName])).toEqual([
      ['w-9-form', 'acroform', 'rental-assistance', { name: 'case.applicantName', address: 'form.firstName' }, 'w9.pdf'],
    ]);
    expect(Buffer.from(file.printTemplates[0].pdf as string, 'base64').equals(w9)).toBe(true);

    const b = await tenantWithAdmin();
    const before = await footprint(b.entity.id);
    const dry = await send(b.admin, 'POST', '/api/projects/import', { bundle: file, uid: 'ra-copy', title: 'Rental copy', dryRun: true });
    expect(dry.statusCode).toBe(200);
    expect(dry.json<Plan>()).toMatchObject({ ok: true, project: { uid: 'ra-copy', uidTaken: false } });
    expect(dry.json<Plan>().items.filter((i) => i.kind === 'protocol')).toHaveLength(1);
    expect(dry.json<Plan>().items.filter((i) => i.kind === 'printTemplate')).toEqual([{ kind: 'printTemplate', code: 'w-9-form', name: 'W-9 form', action: 'create', as: 'Formulario W-9' }]);
    expect(await footprint(b.entity.id)).toEqual(before);

    // The file's own uid is the source's: taken, so the dry run says so.
    const sameUid = await send(b.admin, 'POST', '/api/projects/import', { bundle: file, dryRun: true });
    expect(sameUid.json<Plan>()).toMatchObject({ ok: false, project: { uid: 'ra-source', uidTaken: true } });

    const done = await send(b.admin, 'POST', '/api/projects/import', { bundle: file, uid: 'ra-copy', title: 'Rental copy', dryRun: false });
    expect(done.statusCode).toBe(201);
    const again = (await send(b.admin, 'GET', '/api/projects/ra-copy/export')).json<Bundle>();
    const strip = (x: Bundle) => ({ ...x, exportedAt: undefined, project: { ...x.project, uid: undefined, title: undefined } });
    expect(strip(again)).toEqual(strip(file));
    // Tenant A still has its own, untouched; B's rows are B's.
    const bProtocol = await t.db.selectFrom('protocols').where('id', '=', done.json<Installed>().protocols[0].id).select('entity_id').executeTakeFirstOrThrow();
    expect(bProtocol.entity_id).toBe(b.entity.id);
    // B's W-9 prints for B's protocol, with the same PDF.
    const bPrint = await t.db.selectFrom('print_templates').where('entity_id', '=', b.entity.id).where('name', '=', 'Formulario W-9').select(['protocol_id', 'pdf']).executeTakeFirstOrThrow();
    expect(bPrint.protocol_id).toBe(done.json<Installed>().protocols[0].id);
    expect(Buffer.from(bPrint.pdf as Buffer).equals(w9)).toBe(true);
  });

  it('refuses a file of the wrong format, a newer version or broken references with a 400 report, and creates nothing', async () => {
    const { entity, admin: a } = await tenantWithAdmin();
    const before = await footprint(entity.id);
    const post = (bundle: unknown, lang = 'en') => send(a, 'POST', '/api/projects/import', { bundle, uid: 'bad-file', title: 'Bad', dryRun: false }, lang);

    const wrong = await post({ format: 'casebook-protocol', formatVersion: 1 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<Err>().error.code).toBe('BUNDLE_INVALID');
    expect(wrong.json<Err>().error.details?.[0].message).toMatch(/not a project file/);
    expect((await post('just text')).json<Err>().error.code).toBe('BUNDLE_INVALID');

    const newer = await post({ ...title, format: 'casebook.project/2' }, 'es');
    expect(newer.statusCode).toBe(400);
    expect(newer.json<Err>().error).toMatchObject({ code: 'BUNDLE_NEWER' });
    expect(newer.json<Err>().error.message).toMatch(/versión de formato 2/);

    const broken = structuredClone(title) as typeof title;
    broken.protocols[0].definition.tasks[1].form = 'no-such-form';
    broken.protocols[0].mainForm = 'missing-main';
    const res = await post(broken);
    expect(res.statusCode).toBe(400);
    const details = res.json<Err>().error.details ?? [];
    expect(details.map((d) => d.path)).toEqual(expect.arrayContaining(['protocols.title-clearance.mainForm', 'protocols.title-clearance.tasks.search.form']));
    expect(details.find((d) => d.path.endsWith('tasks.search.form'))?.message).toMatch(/no-such-form/);
    // The dry run answers the same 400.
    expect((await send(a, 'POST', '/api/projects/import', { bundle: broken, dryRun: true })).statusCode).toBe(400);

    const loop = structuredClone(title) as typeof title;
    loop.protocols[0].definition.tasks[3].onAccept = [{ to: 'review' }] as never;
    expect((await post(loop)).statusCode).toBe(400);

    const badForm = structuredClone(title) as typeof title;
    (badForm.forms[1].definition.fields[0] as { type: string }).type = 'nonsense';
    expect((await post(badForm)).statusCode).toBe(400);

    // Print templates: an unknown protocol, a source that is no field, a placeholder off the list; a PDF with a script.
    const badPrints = { ...title, printTemplates: [
      { key: 'lost', kind: 'letter', name: 'Perdida', protocol: 'no-such-protocol', htmlEn: '<p>{{constructor}}</p>' },
      { key: 'w9', kind: 'acroform', name: 'W9', protocol: 'title-clearance', mapping: { name: 'form.noSuchField' } },
    ] };
    const refused = await post(badPrints);
    expect(refused.statusCode).toBe(400);
    expect((refused.json<Err>().error.details ?? []).map((d) => d.path)).toEqual(['printTemplates.lost.protocol', 'printTemplates.lost', 'printTemplates.w9.mapping']);
    const scripted = readFileSync(path.join(import.meta.dirname, '../../../tests/fixtures/script-openaction.pdf')).toString('base64');
    const scriptRes = await post({ ...title, printTemplates: [{ key: 'w9', kind: 'acroform', name: 'W9', protocol: 'title-clearance', pdf: scripted }] });
    expect(scriptRes.statusCode).toBe(400);
    expect((scriptRes.json<Err>().error.details ?? []).map((d) => d.path)).toEqual(['printTemplates.w9.pdf']);

    expect(await footprint(entity.id)).toEqual(before);
  });

  it('caps the file size', async () => {
    const { admin: a } = await tenantWithAdmin();
    const huge = { ...title, project: { ...title.project, description: 'x'.repeat(BUNDLE_MAX_BYTES + 1024 * 1024) } };
    const res = await send(a, 'POST', '/api/projects/import', { bundle: huge, dryRun: true });
    expect(res.statusCode).toBe(413);
  });
});
