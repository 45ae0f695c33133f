import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_EVENTS } from '../../../core/api/templates.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { renderTemplate } from './commands.js';

/**
 * Email templates through the API: the defaults every tenant starts with,
 * CRUD with one default per event, who may do what, tenant isolation, the
 * placeholder check with positions, sanitising, the subject's one line, a
 * huge body, preview with a real case in English and Spanish, a test sent to
 * oneself, and renderTemplate for the notifications.
 */
const ROLES = {
  editor: { plantillas_correo: ['show', 'create', 'update', 'delete'], wf_casos: ['show'], wf_tareas: ['show'] },
  reader: { plantillas_correo: ['show'] },
  none: { wf_casos: ['show'] },
} as const;

type Who = { id: number; sid: string; email: string; name: string };
type Template = {
  id: number; name: string; event: string; subjectEn: string; subjectEs: string; bodyHtmlEn: string; bodyHtmlEs: string; bodyTextEn: string; bodyTextEs: string;
  isDefault: boolean; version: number; actions: string[];
};
type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };

let t: TestApp;
let entityId: number;
let editor: Who;
let reader: Who;
let outsider: Who;
let foreign: Who;
let caseId: number;
let caseSerial: string;

async function person(entity: number, role: keyof typeof ROLES, extra: Record<string, unknown> = {}): Promise<Who> {
  const u = await makeUser(t.db, entity, { role: `tpl-${role}`, rules: ROLES[role] as never, ...extra });
  return { id: u.id, name: u.name, email: u.email, sid: (await login(t, u.email, 'Passw0rd1')).sid };
}

const send = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, lang = 'en') =>
  t.request({ method, url, payload, cookies: { sid: who.sid, lang } });

const body = (over: Record<string, unknown> = {}) => ({
  name: `Assigned ${Math.random().toString(36).slice(2, 8)}`,
  event: 'task_assigned',
  subjectEn: 'Task {{taskName}} for {{caseNumber}}',
  subjectEs: 'Tarea {{taskName}} del {{caseNumber}}',
  bodyHtmlEn: '<p>Hello {{recipientName}}, <strong>{{applicantName}}</strong> needs you.</p><p><a href="{{recordLink}}">Open</a></p>',
  bodyHtmlEs: '<p>Hola {{recipientName}}, <strong>{{applicantName}}</strong> lo necesita.</p>',
  isDefault: false,
  ...over,
});
/** What the preview and the test take of the editor's template. */
const parts = (over: Record<string, unknown> = {}) => {
  const { subjectEn, subjectEs, bodyHtmlEn, bodyHtmlEs } = body(over);
  return { subjectEn, subjectEs, bodyHtmlEn, bodyHtmlEs };
};
const count = async () => Number((await t.db.selectFrom('mail_templates').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const outbox = () => t.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();

beforeAll(async () => {
  t = await createTestApp();
  entityId = (await makeEntity(t.db)).id;
  const projectId = (await makeProject(t.db, { entity_id: entityId, is_default: true, title: 'Rental help', support_phone: '+1 555 0100' })).id;
  editor = await person(entityId, 'editor', { language: 'es' });
  reader = await person(entityId, 'reader');
  outsider = await person(entityId, 'none');
  const otherEntity = (await makeEntity(t.db)).id;
  foreign = await person(otherEntity, 'editor');
  const protocol = await makePublishedProtocol(t.db, entityId);
  const applicant = await makeUser(t.db, entityId, { role: 'tpl-applicant', rules: { wf_casos: ['show'] } });
  const c = await makeCase(t.db, protocol, { ownerId: applicant.id, projectId, state: 'PENDING', data: { firstName: 'Ana <b>', lastName: 'Pérez & Co' } });
  caseId = c.id;
  caseSerial = c.serial as string;
});
afterAll(() => t?.close());

describe('defaults', () => {
  it('every tenant starts with one default template per event, in English and Spanish, with a plain-text part', async () => {
    const res = await send(reader, 'GET', '/api/mail-templates?limit=100');
    expect(res.statusCode).toBe(200);
    const { items, total } = res.json<{ items: Template[]; total: number }>();
    expect(total).toBe(MAIL_EVENTS.length);
    expect(items.map((i) => i.event).sort()).toEqual([...MAIL_EVENTS].sort());
    expect(items.every((i) => i.isDefault && i.subjectEn && i.subjectEs)).toBe(true);
    // A reader sees them but may do nothing on them.
    expect(items.every((i) => i.actions.length === 0)).toBe(true);
    const one = (await send(reader, 'GET', `/api/mail-templates/${items.find((i) => i.event === 'task_assigned')?.id}`)).json<Template>();
    expect(one.bodyHtmlEs).toContain('{{taskName}}');
    expect(one.bodyTextEn).toContain('{{taskName}}');
    expect(one.bodyTextEn).not.toContain('<');
  });

  it('renderTemplate fills the default of an event in the language asked, escaping values in the HTML only', async () => {
    const values = { recipientName: 'Rafa', taskName: 'Review <1>', caseNumber: 'C-1', applicantName: 'Ana', dueDate: '2026-12-01', recordLink: 'https://casebook.test/tasks/1' };
    const es = await renderTemplate(t.db, entityId, 'task_assigned', 'es', values);
    expect(es.subject).toBe('Nueva tarea: Review <1> (C-1)');
    expect(es.html).toContain('Hola Rafa');
    expect(es.html).toContain('Review &lt;1&gt;');
    expect(es.html).toContain('href="https://casebook.test/tasks/1"');
    expect(es.text).toContain('Review <1>');
    const en = await renderTemplate(t.db, entityId, 'task_assigned', 'en', values);
    expect(en.subject).toBe('New task: Review <1> (C-1)');
    // A value cannot bring a link scheme the allow-list refuses.
    const evil = await renderTemplate(t.db, entityId, 'task_assigned', 'en', { ...values, recordLink: 'javascript:alert(1)' });
    expect(evil.html).not.toContain('javascript:');
  });
});

describe('create, change, delete', () => {
  it('creates a template: HTML sanitised (scripts, on* and style attributes, javascript: links gone), text part generated', async () => {
    const res = await send(editor, 'POST', '/api/mail-templates', body({
      name: 'Sanitised',
      bodyHtmlEn:
        '<p onclick="steal()" style="color:red">Hi {{recipientName}}<script>alert(1)</script></p><img src=x onerror="alert(1)"><a href="javascript:alert(1)">bad</a> <a href="https://ok.example/x">good</a><iframe src="https://evil.example"></iframe><h2>Case {{caseNumber}}</h2>',
    }));
    expect(res.statusCode).toBe(201);
    const created = res.json<Template>();
    expect(created.bodyHtmlEn).toBe('<p>Hi {{recipientName}}</p><a>bad</a> <a href="https://ok.example/x">good</a><h2>Case {{caseNumber}}</h2>');
    expect(created.bodyTextEn).toContain('Case {{caseNumber}}');
    expect(created.bodyTextEn).toContain('good [https://ok.example/x]');
    expect(created.isDefault).toBe(false);
    expect(created.actions).toEqual(['edit', 'makeDefault', 'delete']);
    const stored = await t.db.selectFrom('mail_templates').where('id', '=', created.id).selectAll().executeTakeFirstOrThrow();
    expect(stored.body_html_en).not.toMatch(/script|onclick|onerror|style=|javascript:|iframe/);
  });

  it('refuses unknown placeholders and mustache logic at save, each with its field, line and column, storing nothing', async () => {
    const before = await count();
    const res = await send(editor, 'POST', '/api/mail-templates', body({
      subjectEn: 'Hi {{constructor}}',
      bodyHtmlEn: '<p>ok</p>\n<p>{{#caseNumber}}x{{/caseNumber}} {{{applicantName}}}</p>',
      bodyHtmlEs: '<p>{{__proto__}} {{> partial}} {{=<% %>=}}</p>',
    }));
    expect(res.statusCode).toBe(400);
    const err = res.json<Err>();
    expect(err.error.code).toBe('VALIDATION');
    expect(err.error.details).toEqual([
      { path: 'subjectEn', message: 'line 1, column 4: "constructor" is not a placeholder of the list' },
      { path: 'bodyHtmlEn', message: 'line 2, column 4: sections (#caseNumber) are not allowed' },
      { path: 'bodyHtmlEn', message: 'line 2, column 36: unescaped values (triple braces or &) are not allowed' },
      { path: 'bodyHtmlEs', message: 'line 1, column 4: "__proto__" is not a placeholder of the list' },
      { path: 'bodyHtmlEs', message: 'line 1, column 18: partials (>partial) are not allowed' },
      { path: 'bodyHtmlEs', message: 'line 1, column 32: changing the delimiters is not allowed' },
    ]);
    expect(await count()).toBe(before);
  });

  it('answers the refusals in Spanish to a Spanish caller, and sees through HTML entities that spell a placeholder', async () => {
    const res = await send(editor, 'POST', '/api/mail-templates', body({ bodyHtmlEn: '<p>&#123;&#123;constructor&#125;&#125;</p>' }), 'es');
    expect(res.statusCode).toBe(400);
    expect(res.json<Err>().error.details).toEqual([{ path: 'bodyHtmlEn', message: 'línea 1, columna 4: "constructor" no es un campo de la lista' }]);
  });

  it('refuses a subject with a line break (header injection), one too long, and a body over 100 KB; a huge request is 413', async () => {
    const before = await count();
    for (const subjectEn of ['Hello\r\nBcc: victim@example.org', 'Hello\nthere', 'x'.repeat(201)]) {
      const res = await send(editor, 'POST', '/api/mail-templates', body({ subjectEn }));
      expect(res.statusCode, subjectEn).toBe(400);
      expect(res.json<Err>().error.details?.[0]?.path).toBe('subjectEn');
    }
    const big = await send(editor, 'POST', '/api/mail-templates', body({ bodyHtmlEn: `<p>${'a'.repeat(101 * 1024)}</p>` }));
    expect(big.statusCode).toBe(400);
    expect(big.json<Err>().error.details).toEqual([{ path: 'bodyHtmlEn', message: 'The message is larger than 100 KB' }]);
    const huge = await send(editor, 'POST', '/api/mail-templates', body({ bodyHtmlEn: `<p>${'a'.repeat(2 * 1024 * 1024)}</p>` }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json<Err>().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await count()).toBe(before);
  });

  it('one default per event: a new default takes over, the old default cannot be unset, moved or deleted', async () => {
    const list = async () => (await send(editor, 'GET', '/api/mail-templates?event=case_closed')).json<{ items: Template[] }>().items;
    const [seeded] = await list();
    expect(seeded.isDefault).toBe(true);
    const del = await send(editor, 'DELETE', `/api/mail-templates/${seeded.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json<Err>().error.code).toBe('TEMPLATE_IS_DEFAULT');
    const full = (await send(editor, 'GET', `/api/mail-templates/${seeded.id}`)).json<Template>();
    const unset = await send(editor, 'PUT', `/api/mail-templates/${seeded.id}`, { ...body({ event: 'case_closed', name: full.name, isDefault: false }), version: full.version });
    expect(unset.statusCode).toBe(400);
    const moved = await send(editor, 'PUT', `/api/mail-templates/${seeded.id}`, { ...body({ event: 'digest', name: full.name, isDefault: true }), version: full.version });
    expect(moved.statusCode).toBe(400);

    const created = await send(editor, 'POST', '/api/mail-templates', body({ event: 'case_closed', name: 'Closed v2', isDefault: true }));
    expect(created.statusCode).toBe(201);
    const after = await list();
    expect(after.filter((i) => i.isDefault).map((i) => i.name)).toEqual(['Closed v2']);
    // The old one may go now.
    expect((await send(editor, 'DELETE', `/api/mail-templates/${seeded.id}`)).statusCode).toBe(204);
    expect((await send(editor, 'GET', `/api/mail-templates/${seeded.id}`)).statusCode).toBe(404);
    const rendered = await renderTemplate(t.db, entityId, 'case_closed', 'en', { taskName: 'T', caseNumber: 'N' });
    expect(rendered.subject).toBe('Task T for N');
  });

  it('changes a template on its version; a stale version is 409 and changes nothing', async () => {
    const created = (await send(editor, 'POST', '/api/mail-templates', body({ name: 'Versioned' }))).json<Template>();
    const changed = await send(editor, 'PUT', `/api/mail-templates/${created.id}`, { ...body({ name: 'Versioned 2', subjectEs: 'Nuevo {{caseNumber}}' }), version: created.version });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Template>()).toMatchObject({ name: 'Versioned 2', subjectEs: 'Nuevo {{caseNumber}}', version: created.version + 1 });
    const stale = await send(editor, 'PUT', `/api/mail-templates/${created.id}`, { ...body({ name: 'Versioned 3' }), version: created.version });
    expect(stale.statusCode).toBe(409);
    expect((await send(editor, 'GET', `/api/mail-templates/${created.id}`)).json<Template>().name).toBe('Versioned 2');
  });

  it('a duplicate name in the tenant is refused', async () => {
    await send(editor, 'POST', '/api/mail-templates', body({ name: 'Twin' }));
    const again = await send(editor, 'POST', '/api/mail-templates', body({ name: 'Twin' }));
    expect(again.statusCode).toBe(409);
    expect(again.json<Err>().error.code).toBe('DUPLICATE');
  });

  it('searches by name or subject and pages', async () => {
    const res = (await send(editor, 'GET', '/api/mail-templates?search=overdue&limit=1')).json<{ items: Template[]; total: number }>();
    expect(res.total).toBe(1);
    expect(res.items[0].event).toBe('task_overdue');
    const page2 = (await send(editor, 'GET', '/api/mail-templates?limit=2&page=2&sortBy=name')).json<{ items: Template[]; total: number }>();
    expect(page2.items).toHaveLength(2);
    expect(page2.total).toBeGreaterThan(4);
  });
});

describe('who may', () => {
  it('without the target nothing is listed; a reader cannot write; another tenant sees nothing of ours', async () => {
    expect((await send(outsider, 'GET', '/api/mail-templates')).statusCode).toBe(403);
    expect((await send(reader, 'POST', '/api/mail-templates', body())).statusCode).toBe(403);
    const ours = (await send(editor, 'GET', '/api/mail-templates?event=mention')).json<{ items: Template[] }>().items[0];
    expect((await send(reader, 'DELETE', `/api/mail-templates/${ours.id}`)).statusCode).toBe(403);
    expect((await send(foreign, 'GET', `/api/mail-templates/${ours.id}`)).statusCode).toBe(404);
    expect((await send(foreign, 'PUT', `/api/mail-templates/${ours.id}`, { ...body(), version: 1 })).statusCode).toBe(404);
    expect((await send(foreign, 'DELETE', `/api/mail-templates/${ours.id}`)).statusCode).toBe(404);
    const theirs = (await send(foreign, 'GET', '/api/mail-templates?limit=100')).json<{ items: Template[] }>().items;
    expect(theirs.some((i) => i.id === ours.id)).toBe(false);
    // Nor can another tenant preview with our case.
    const preview = await send(foreign, 'POST', '/api/mail-templates/preview', { ...parts(), caseId });
    expect(preview.statusCode).toBe(404);
  });
});

describe('preview and test', () => {
  it('offers the tenant cases to preview with', async () => {
    const options = (await send(editor, 'GET', `/api/mail-templates/case-options?search=${encodeURIComponent(caseSerial)}`)).json<Array<{ id: number; caseNumber: string; applicantName: string }>>();
    expect(options).toEqual([{ id: caseId, caseNumber: caseSerial, applicantName: 'Ana <b> Pérez & Co' }]);
    expect((await send(foreign, 'GET', `/api/mail-templates/case-options?search=${encodeURIComponent(caseSerial)}`)).json()).toEqual([]);
  });

  it("fills the editor's template with a real case's data in English and Spanish, escaped in the HTML", async () => {
    const res = await send(editor, 'POST', '/api/mail-templates/preview', {
      subjectEn: 'Case {{caseNumber}} of {{applicantName}}',
      subjectEs: 'Caso {{caseNumber}} ({{caseState}}) · {{programTitle}}',
      bodyHtmlEn: '<p>{{applicantFirstName}} <a href="{{recordLink}}">open</a> {{supportPhone}}</p>',
      bodyHtmlEs: '<p>{{applicantLastName}}</p>',
      caseId,
    });
    expect(res.statusCode).toBe(200);
    const p = res.json<{ en: { subject: string; html: string; text: string }; es: { subject: string; html: string; text: string } }>();
    expect(p.en.subject).toBe(`Case ${caseSerial} of Ana <b> Pérez & Co`);
    expect(p.en.html).toMatch(new RegExp(`^<p>Ana &lt;b&gt; <a href="https?://[^"]+/cases/${caseId}">open</a> \\+1 555 0100</p>$`));
    expect(p.en.text).toContain('Ana <b> open');
    expect(p.es.subject).toBe(`Caso ${caseSerial} (Pendiente) · Rental help`);
    expect(p.es.html).toBe('<p>Pérez &amp; Co</p>');
    expect(p.es.text).toBe('Pérez & Co');
  });

  it('refuses a preview with a bad placeholder, and with a case of nobody', async () => {
    const bad = await send(editor, 'POST', '/api/mail-templates/preview', { ...parts({ bodyHtmlEs: '{{constructor}}' }), caseId });
    expect(bad.statusCode).toBe(400);
    expect((await send(editor, 'POST', '/api/mail-templates/preview', { ...parts(), caseId: 99_999_999 })).statusCode).toBe(404);
  });

  it('previews with sample values without a case', async () => {
    const res = await send(editor, 'POST', '/api/mail-templates/preview', { ...parts(), caseId: null });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ es: { subject: string } }>().es.subject).toBe('Tarea Revisión de documentos del 2026-01-0001');
  });

  it('"send a test to me" queues one message to the signed-in user only, in the language asked', async () => {
    const before = (await outbox()).length;
    const res = await send(editor, 'POST', '/api/mail-templates/send-test', { ...parts({ subjectEs: 'Prueba {{caseNumber}}' }), caseId, language: 'es' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ to: editor.email });
    const rows = await outbox();
    expect(rows).toHaveLength(before + 1);
    const [msg] = rows.slice(-1);
    expect(msg).toMatchObject({ to_address: editor.email, entity_id: entityId, subject: `Prueba ${caseSerial}` });
    expect(msg.body_html).toContain('<strong>Ana &lt;b&gt; Pérez &amp; Co</strong>');
    expect(msg.body_text).toContain('Ana <b> Pérez & Co');
    // A reader may look but not send.
    expect((await send(reader, 'POST', '/api/mail-templates/send-test', { ...parts(), caseId, language: 'en' })).statusCode).toBe(403);
  });
});
