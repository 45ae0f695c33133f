import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeForm, makeMaster, makeMasterItem, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { submitCase } from '../cases/commands.js';

/**
 * Both languages in the data (issue 18): task, protocol and master item
 * names are kept in Spanish (`name`) and English (`name_en`) and each reader
 * gets the one of the page's language, the other when it is missing. Tasks
 * copy the template's names when the engine creates them.
 */
const CRUD = ['show', 'create', 'update', 'delete'] as const;
const RULES = { wf_casos: ['show'], wf_tareas: ['show', 'update'], wf_protocolos: ['show', 'update'], menu_maestros: CRUD } as never;

let t: TestApp;
let entityId: number;
let sid: string;
let caseId: number;
let protocolId: number;

const get = async <T>(url: string, lang: 'en' | 'es') => {
  const res = await t.request({ method: 'GET', url, cookies: { sid, lang } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
};
type TaskItem = { id: number; code: string; name: string; protocolName: string };

beforeAll(async () => {
  t = await createTestApp();
  entityId = (await makeEntity(t.db)).id;
  const project = await makeProject(t.db, { entity_id: entityId, is_default: true });
  // The profile says English: the page's language (the lang cookie) is what counts.
  const owner = await makeUser(t.db, entityId, { role: 'names-staff', rules: RULES, language: 'en' });
  sid = (await login(t, owner.email, 'Passw0rd1')).sid;

  const colors = await makeMaster(t.db, entityId, { code: 'colors', name: 'Colores' });
  await makeMasterItem(t.db, colors, { code: 'red', name: 'Rojo', name_en: 'Red' });
  await makeMasterItem(t.db, colors, { code: 'green', name: 'Verde' });
  const mainForm = await makeForm(t.db, entityId, {
    definition: {
      name: 'Main',
      fields: [
        { name: 'color', type: 'master_select', master: 'colors', label: 'Color', label_en: 'Colour' },
        { name: 'other', type: 'master_select', master: 'colors', label: 'Otro', label_en: 'Other' },
      ],
    },
  });
  const protocol = await makePublishedProtocol(t.db, entityId, {
    mainForm,
    start: ['review', 'check'],
    tasks: [
      { code: 'review', name: 'Revisión de ingreso', name_en: 'Intake review', responsible: { kind: 'owner' } },
      // No English name: English readers get the Spanish one.
      { code: 'check', name: 'Lista de chequeo', responsible: { kind: 'owner' } },
    ],
  });
  protocolId = protocol.id;
  await t.db.updateTable('protocols').set({ name: 'Asistencia de arriendo', name_en: 'Rental assistance' }).where('id', '=', protocol.id).execute();
  const c = await makeCase(t.db, protocol, { ownerId: owner.id, projectId: project.id, data: { color: 'red', other: 'green' } });
  caseId = c.id;
  await submitCase(t.db, { publicUrl: 'https://cases.example.org', smtpConfigured: false }, { system: true, entityId }, c.id);
});
afterAll(() => t.close());

describe('task names', () => {
  it('are copied from the template when the engine creates the task', async () => {
    const rows = await t.db.selectFrom('tasks').where('case_id', '=', caseId).select(['code', 'name', 'name_en']).orderBy('code').execute();
    expect(rows).toEqual([
      { code: 'check', name: 'Lista de chequeo', name_en: '' },
      { code: 'review', name: 'Revisión de ingreso', name_en: 'Intake review' },
    ]);
  });

  it("come in the page's language in the task list, with the protocol's name, each falling back to the other", async () => {
    const names = async (lang: 'en' | 'es') =>
      (await get<{ items: TaskItem[] }>(`/api/tasks?caseId=${caseId}&sortBy=name&descending=false`, lang)).items.map((i) => [i.code, i.name, i.protocolName]);
    expect(await names('es')).toEqual([
      ['check', 'Lista de chequeo', 'Asistencia de arriendo'],
      ['review', 'Revisión de ingreso', 'Asistencia de arriendo'],
    ]);
    // Sorted by the name the reader sees.
    expect(await names('en')).toEqual([
      ['review', 'Intake review', 'Rental assistance'],
      ['check', 'Lista de chequeo', 'Rental assistance'],
    ]);
    // Searching finds a task by either name.
    expect((await get<{ items: TaskItem[] }>(`/api/tasks?caseId=${caseId}&search=intake`, 'es')).items.map((i) => i.name)).toEqual(['Revisión de ingreso']);
  });

  it("come in the page's language on the task page, the case's timeline, the case list and the bell", async () => {
    const [review] = (await get<{ items: TaskItem[] }>(`/api/tasks?caseId=${caseId}&search=intake`, 'en')).items;
    expect((await get<TaskItem>(`/api/tasks/${review.id}`, 'es')).name).toBe('Revisión de ingreso');
    expect((await get<TaskItem>(`/api/tasks/${review.id}`, 'en')).name).toBe('Intake review');
    const timeline = async (lang: 'en' | 'es') => (await get<{ tasks: TaskItem[] }>(`/api/cases/${caseId}/timeline`, lang)).tasks.map((x) => x.name).sort();
    expect(await timeline('es')).toEqual(['Lista de chequeo', 'Revisión de ingreso']);
    expect(await timeline('en')).toEqual(['Intake review', 'Lista de chequeo']);
    const caseList = async (lang: 'en' | 'es') => (await get<{ items: Array<{ id: number; protocolName: string }> }>('/api/cases', lang)).items.find((c) => c.id === caseId)?.protocolName;
    expect(await caseList('es')).toBe('Asistencia de arriendo');
    expect(await caseList('en')).toBe('Rental assistance');
    const bell = async (lang: 'en' | 'es') =>
      (await get<{ items: Array<{ taskName: string | null; kind: string }> }>('/api/notifications', lang)).items.filter((n) => n.kind === 'task_assigned').map((n) => n.taskName).sort();
    expect(await bell('es')).toEqual(['Lista de chequeo', 'Revisión de ingreso']);
    expect(await bell('en')).toEqual(['Intake review', 'Lista de chequeo']);
  });
});

describe("a protocol's English name", () => {
  it('is saved and returned; a body without it keeps it', async () => {
    const detail = await get<Record<string, unknown>>(`/api/protocols/${protocolId}`, 'en');
    expect(detail).toMatchObject({ name: 'Asistencia de arriendo', nameEn: 'Rental assistance' });
    const body = { code: detail.code, name: detail.name, description: detail.description, caseType: detail.caseType, public: detail.public, mainFormId: detail.mainFormId, definition: detail.definition };
    const put = (payload: object) => t.request({ method: 'PUT', url: `/api/protocols/${protocolId}`, cookies: { sid, lang: 'en' }, payload });
    let res = await put({ ...body, nameEn: 'Rent help' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ nameEn: 'Rent help' });
    res = await put(body);
    expect(res.json()).toMatchObject({ nameEn: 'Rent help' });
    res = await put({ ...body, nameEn: 'x'.repeat(201) });
    expect(res.statusCode).toBe(400);
  });
});

describe('master item names', () => {
  type Item = { code: string; name: string; nameEn: string };
  const items = async () => (await get<{ items: Item[] }>('/api/masters/colors/items?sortBy=code', 'en')).items.map(({ code, name, nameEn }) => ({ code, name, nameEn }));

  it("are shown in the page's language where a form's values are read", async () => {
    const labels = async (lang: 'en' | 'es') => (await get<{ optionLabels: Record<string, Record<string, string>> }>(`/api/cases/${caseId}`, lang)).optionLabels;
    expect(await labels('es')).toEqual({ color: { red: 'Rojo', green: 'Verde' }, other: { red: 'Rojo', green: 'Verde' } });
    // No English name: the Spanish one.
    expect(await labels('en')).toEqual({ color: { red: 'Red', green: 'Verde' }, other: { red: 'Red', green: 'Verde' } });
  });

  it('are saved and returned by the item form', async () => {
    const res = await t.request({ method: 'POST', url: '/api/masters/colors/items', cookies: { sid, lang: 'en' }, payload: { code: 'blue', name: 'Azul', nameEn: 'Blue' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ code: 'blue', name: 'Azul', nameEn: 'Blue' });
    expect(await items()).toContainEqual({ code: 'blue', name: 'Azul', nameEn: 'Blue' });
    const tooLong = await t.request({ method: 'POST', url: '/api/masters/colors/items', cookies: { sid, lang: 'en' }, payload: { code: 'long', name: 'Largo', nameEn: 'x'.repeat(501) } });
    expect(tooLong.statusCode).toBe(400);
  });

  it('travel in the CSV export and import; a file without the English column keeps the English names', async () => {
    const csv = (await t.request({ method: 'GET', url: '/api/masters/colors/export', cookies: { sid, lang: 'en' } })).body;
    expect(csv.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe('code,name,name_en,active');
    expect(csv).toContain('red,Rojo,Red,true');
    const upload = (text: string) =>
      t.request({ method: 'POST', url: '/api/masters/colors/import?dryRun=false', cookies: { sid, lang: 'en' }, payload: text, headers: { 'content-type': 'text/csv' } });
    let res = await upload('code,name,name_en\nyellow,Amarillo,Yellow\ngreen,Verde,Green\n');
    expect(res.statusCode, res.body).toBe(200);
    res = await upload('code,name\nred,Rojo vivo\n');
    expect(res.statusCode, res.body).toBe(200);
    const after = await items();
    expect(after).toContainEqual({ code: 'yellow', name: 'Amarillo', nameEn: 'Yellow' });
    expect(after).toContainEqual({ code: 'green', name: 'Verde', nameEn: 'Green' });
    expect(after).toContainEqual({ code: 'red', name: 'Rojo vivo', nameEn: 'Red' });
  });
});
