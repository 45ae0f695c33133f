import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeForm, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { seedEntityPrintTemplates } from '../../db/seed/print-templates.js';

/**
 * Print templates through the API: create, upload a PDF (a good one, one
 * that is not a PDF, one with a JavaScript open action), its fields listed,
 * a mapping to a field that does not exist refused with nothing saved, a
 * case printed (the answer parsed with pdf-lib: filled and flattened), a
 * letter in both languages, the case's print menu, tenant and record
 * isolation, and the built-in templates of the demo tenants.
 */
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../tests/fixtures');
const W9 = readFileSync(path.join(FIXTURES, 'w9-sample.pdf'));
const SCRIPTED = readFileSync(path.join(FIXTURES, 'script-openaction.pdf'));

const ROLES = {
  admin: { menu_configuracion: ['show', 'create', 'update', 'delete'], wf_casos: ['show', 'print'], wf_tareas: ['show'] },
  // Reads and prints cases, but sees only its own (not staff).
  stranger: { wf_casos: ['show', 'print'] },
  noPrint: { wf_casos: ['show'], wf_tareas: ['show'] },
} as const;

type Who = { sid: string };
type Err = { error: { code: string; message: string } };
type Tpl = { id: number; kind: string; version: number; pdfFields: Array<{ name: string; type: string; options: string[] }>; mapping: Record<string, string>; hasPdf: boolean; builtin: string | null; actions: string[] };

let t: TestApp;
let entityId: number;
let protocolId: number;
let caseId: number;
let admin: Who;
let stranger: Who;
let noPrint: Who;
let foreign: Who;
let foreignCaseId: number;

async function person(entity: number, role: keyof typeof ROLES): Promise<Who> {
  const u = await makeUser(t.db, entity, { role: `print-${role}`, rules: ROLES[role] as never });
  return { sid: (await login(t, u.email, 'Passw0rd1')).sid };
}

const send = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, lang = 'en') => t.request({ method, url, payload, cookies: { sid: who.sid, lang } });

function multipart(filename: string, content: Buffer) {
  const boundary = '----casebookprint';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (who: Who, id: number, filename: string, content: Buffer, lang = 'en') =>
  t.request({ method: 'PUT', url: `/api/print-templates/${id}/pdf`, cookies: { sid: who.sid, lang }, ...multipart(filename, content) });

async function newAcroform(protocol: number | null = protocolId): Promise<Tpl> {
  const res = await send(admin, 'POST', '/api/print-templates', { kind: 'acroform', name: `W-9 ${Math.random().toString(36).slice(2, 8)}`, nameEn: 'W-9', protocolId: protocol });
  expect(res.statusCode).toBe(201);
  return res.json<Tpl>();
}

/** Every stream of the document, inflated, as latin1 text. */
function pageText(doc: PDFDocument): string {
  let out = '';
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const filter = object.dict.get(PDFName.of('Filter'));
    const bytes = Buffer.from(object.getContents());
    out += filter && String(filter).includes('FlateDecode') ? inflateSync(bytes).toString('latin1') : bytes.toString('latin1');
  }
  return out;
}
const hex = (text: string) => `<${Buffer.from(text, 'latin1').toString('hex').toUpperCase()}>`;

const stored = (id: number) => t.db.selectFrom('print_templates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await createTestApp();
  entityId = (await makeEntity(t.db)).id;
  await seedEntityPrintTemplates(t.db, entityId);
  const projectId = (await makeProject(t.db, { entity_id: entityId, is_default: true, title: 'Mortgage help', support_phone: '+1 555 0100' })).id;
  const form = await makeForm(t.db, entityId, {
    definition: {
      name: 'Mortgage application',
      fields: [
        { name: 'firstName', type: 'text', label: 'Nombre', label_en: 'First name' },
        { name: 'lastName', type: 'text', label: 'Apellido', label_en: 'Last name' },
        { name: 'documentNumber', type: 'text', label: 'Documento', label_en: 'Document' },
        { name: 'street', type: 'text', label: 'Dirección', label_en: 'Street address' },
        {
          name: 'taxClass', type: 'select', label: 'Clasificación', label_en: 'Tax classification',
          options: [{ value: 'llc', label: 'LLC', label_en: 'LLC' }, { value: 'individual', label: 'Persona natural', label_en: 'Individual/sole proprietor' }],
        },
        { name: 'isIndividual', type: 'checkbox', label: 'Persona natural', label_en: 'Individual' },
        { name: 'proof', type: 'file', label: 'Soporte', label_en: 'Proof' },
      ],
    },
  });
  const protocol = await makePublishedProtocol(t.db, entityId, { mainForm: form });
  protocolId = protocol.id;
  const owner = await makeUser(t.db, entityId, { role: 'print-owner', rules: { wf_casos: ['show'] } });
  const c = await makeCase(t.db, protocol, {
    ownerId: owner.id,
    projectId,
    state: 'PENDING',
    data: { firstName: 'Ana', lastName: 'Pérez <b>', documentNumber: '123-45-6789', street: '1 Main St', taxClass: 'llc', isIndividual: true, proof: [{ id: crypto.randomUUID(), name: 'lease.pdf' }] },
  });
  caseId = c.id;
  admin = await person(entityId, 'admin');
  stranger = await person(entityId, 'stranger');
  noPrint = await person(entityId, 'noPrint');
  const other = (await makeEntity(t.db)).id;
  await seedEntityPrintTemplates(t.db, other);
  const u = await makeUser(t.db, other, { role: 'print-admin', rules: ROLES.admin as never });
  foreign = { sid: (await login(t, u.email, 'Passw0rd1')).sid };
  const otherProtocol = await makePublishedProtocol(t.db, other);
  foreignCaseId = (await makeCase(t.db, otherProtocol, { ownerId: u.id, state: 'PENDING', data: { firstName: 'Otto' } })).id;
});
afterAll(() => t?.close());

describe('upload', () => {
  it('takes a fillable PDF and answers its AcroForm fields with their types and options', async () => {
    const tpl = await newAcroform();
    const res = await upload(admin, tpl.id, 'fw9.pdf', W9);
    expect(res.statusCode).toBe(200);
    const body = res.json<Tpl>();
    expect(body.hasPdf).toBe(true);
    expect(body.pdfFields.map((f) => f.name)).toEqual(['name', 'businessName', 'address', 'cityStateZip', 'ssn', 'ein', 'taxClassification', 'individual']);
    expect(body.pdfFields.find((f) => f.name === 'individual')?.type).toBe('checkbox');
    expect(body.pdfFields.find((f) => f.name === 'taxClassification')).toMatchObject({ type: 'dropdown', options: expect.arrayContaining(['LLC', 'Partnership']) });
    expect((await stored(tpl.id)).pdf?.length).toBe(W9.length);
  });

  it('refuses a file that is not a PDF, and a PDF that runs JavaScript when opened, keeping nothing', async () => {
    const tpl = await newAcroform();
    const notPdf = await upload(admin, tpl.id, 'fw9.pdf', Buffer.from('<html><script>alert(1)</script></html>'));
    expect(notPdf.statusCode).toBe(400);
    expect(notPdf.json<Err>().error.code).toBe('PDF_INVALID');
    const broken = await upload(admin, tpl.id, 'fw9.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 0x41)]));
    expect(broken.json<Err>().error.code).toBe('PDF_INVALID');
    const script = await upload(admin, tpl.id, 'evil.pdf', SCRIPTED, 'es');
    expect(script.statusCode).toBe(400);
    expect(script.json<Err>().error).toMatchObject({ code: 'PDF_SCRIPT', message: expect.stringContaining('OpenAction') });
    expect(script.json<Err>().error.message).toMatch(/rechazado/);
    expect((await stored(tpl.id)).pdf).toBeNull();
  });

  it('refuses a PDF with a script hidden in a page annotation (/AA) as well', async () => {
    const doc = await PDFDocument.load(W9);
    const page = doc.getPage(0);
    const { PDFString } = await import('@cantoo/pdf-lib');
    page.node.set(PDFName.of('AA'), doc.context.obj({ O: { S: 'JavaScript', JS: PDFString.of('app.alert(1)') } }));
    const tpl = await newAcroform();
    const res = await upload(admin, tpl.id, 'aa.pdf', Buffer.from(await doc.save()));
    expect(res.json<Err>().error.code).toBe('PDF_SCRIPT');
  });

  it('refuses a PDF on a letter template, and uploads by someone without the right', async () => {
    const letter = (await send(admin, 'POST', '/api/print-templates', { kind: 'letter', name: `Letter ${Date.now()}`, nameEn: 'Letter', protocolId: null })).json<Tpl>();
    expect((await upload(admin, letter.id, 'fw9.pdf', W9)).json<Err>().error.code).toBe('PRINT_NOT_ACROFORM');
    expect((await upload(noPrint, letter.id, 'fw9.pdf', W9)).statusCode).toBe(403);
  });
});

describe('mapping', () => {
  it('lists the case fields and the protocol form fields as sources', async () => {
    const res = await send(admin, 'GET', `/api/print-templates/sources?protocolId=${protocolId}`);
    const sources = res.json<{ items: Array<{ source: string }> }>().items.map((s) => s.source);
    expect(sources).toEqual(expect.arrayContaining(['case.number', 'case.applicantName', 'case.today', 'form.firstName', 'form.taxClass', 'form.isIndividual']));
    expect(sources).not.toContain('form.proof');
  });

  it('refuses a mapping to a PDF field or a source that does not exist, naming it, and saves nothing', async () => {
    const tpl = await newAcroform();
    await upload(admin, tpl.id, 'fw9.pdf', W9);
    const before = await stored(tpl.id);
    const base = { name: before.name, nameEn: 'W-9', protocolId, bodyHtmlEn: '', bodyHtmlEs: '', version: before.version };
    const noField = await send(admin, 'PUT', `/api/print-templates/${tpl.id}`, { ...base, mapping: { name: 'case.applicantName', spouseName: 'form.firstName' } });
    expect(noField.statusCode).toBe(400);
    expect(noField.json<Err>().error).toMatchObject({ code: 'PRINT_UNKNOWN_FIELD', message: expect.stringContaining('spouseName') });
    const noSource = await send(admin, 'PUT', `/api/print-templates/${tpl.id}`, { ...base, mapping: { name: 'form.middleName' } });
    expect(noSource.statusCode).toBe(400);
    expect(noSource.json<Err>().error.message).toContain('form.middleName');
    const after = await stored(tpl.id);
    expect(after.mapping).toEqual({});
    expect(after.version).toBe(before.version);
  });
});

describe('printing a case', () => {
  let w9: Tpl;
  beforeAll(async () => {
    w9 = await newAcroform();
    await upload(admin, w9.id, 'fw9.pdf', W9);
    const saved = await send(admin, 'PUT', `/api/print-templates/${w9.id}`, {
      name: `W-9 mapped ${Date.now()}`, nameEn: 'W-9 mapped', protocolId, bodyHtmlEn: '', bodyHtmlEs: '', version: (await stored(w9.id)).version,
      mapping: { name: 'case.applicantName', address: 'form.street', ssn: 'case.applicantDocument', individual: 'form.isIndividual', taxClassification: 'form.taxClass' },
    });
    expect(saved.statusCode).toBe(200);
  });

  it('answers the AcroForm filled from the case and flattened', async () => {
    const res = await send(admin, 'GET', `/api/cases/${caseId}/print/${w9.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = await PDFDocument.load(res.rawPayload);
    // Flattened: no field is left to edit ...
    expect(pdf.getForm().getFields()).toHaveLength(0);
    // ... and the values are drawn in the page (standard fonts write WinAnsi text as hex strings).
    const drawn = pageText(pdf);
    expect(drawn).toContain(hex('Ana Pérez <b>'));
    expect(drawn).toContain(hex('123-45-6789'));
    expect(drawn).toContain(hex('1 Main St'));
    expect(drawn).toContain(hex('LLC'));
    expect(drawn).not.toContain(hex('Otto'));
  });

  it('turns each source into text: the applicant, the document, a checkbox as Yes, a choice by its label', async () => {
    const { mappedValues } = await import('./sources.js');
    const values = mappedValues({ name: 'case.applicantName', ssn: 'case.applicantDocument', individual: 'form.isIndividual', taxClassification: 'form.taxClass' }, {
      id: 1, serial: '2026-01-0001', state: 'PENDING', docDate: null, programName: 'P', timeZone: 'America/New_York', masterNames: {},
      data: { firstName: 'Ana', lastName: 'Pérez', documentNumber: '123-45-6789', isIndividual: true, taxClass: 'llc' },
      fields: [{ name: 'isIndividual', type: 'checkbox', label: 'x' }, { name: 'taxClass', type: 'select', label: 'x', options: [{ value: 'llc', label: 'LLC' }] }],
    }, 'en');
    expect(values).toMatchObject({ name: 'Ana Pérez', ssn: '123-45-6789', individual: 'Yes', taxClassification: 'LLC' });
  });

  it('prints a letter in the reader\'s language, with pages', async () => {
    const list = await send(admin, 'GET', '/api/print-templates?search=notif');
    const letter = list.json<{ items: Tpl[] }>().items.find((i) => i.builtin === 'notification_letter') as Tpl;
    for (const lang of ['en', 'es']) {
      const res = await send(admin, 'GET', `/api/cases/${caseId}/print/${letter.id}`, undefined, lang);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const pdf = await PDFDocument.load(res.rawPayload);
      expect(pdf.getPageCount()).toBeGreaterThan(0);
      expect(pdf.getTitle()).toBe(lang === 'en' ? 'Notification letter' : 'Carta de notificación');
    }
  });

  it('prints the complete application', async () => {
    const list = await send(admin, 'GET', '/api/print-templates?search=complet');
    const complete = list.json<{ items: Tpl[] }>().items.find((i) => i.builtin === 'complete_application') as Tpl;
    const res = await send(admin, 'GET', `/api/cases/${caseId}/print/${complete.id}`, undefined, 'es');
    expect(res.statusCode).toBe(200);
    expect((await PDFDocument.load(res.rawPayload)).getPageCount()).toBeGreaterThan(0);
  });

  it("lists the case's print menu: its protocol's templates and those for every protocol, not empty AcroForms", async () => {
    const empty = await newAcroform();
    const res = await send(admin, 'GET', `/api/cases/${caseId}/print-templates`);
    const ids = res.json<{ items: Array<{ id: number }> }>().items.map((i) => i.id);
    expect(ids).toContain(w9.id);
    expect(ids).not.toContain(empty.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
  });

  it('is 404 for a reader who may not see the case, for another tenant, and for another protocol\'s template', async () => {
    expect((await send(stranger, 'GET', `/api/cases/${caseId}/print/${w9.id}`)).statusCode).toBe(404);
    expect((await send(stranger, 'GET', `/api/cases/${caseId}/print-templates`)).statusCode).toBe(404);
    expect((await send(foreign, 'GET', `/api/cases/${caseId}/print/${w9.id}`)).statusCode).toBe(404);
    expect((await send(admin, 'GET', `/api/cases/${foreignCaseId}/print/${w9.id}`)).statusCode).toBe(404);
    const foreignTemplate = (await send(foreign, 'GET', '/api/print-templates')).json<{ items: Tpl[] }>().items[0];
    expect((await send(admin, 'GET', `/api/cases/${caseId}/print/${foreignTemplate.id}`)).statusCode).toBe(404);
    expect((await send(admin, 'GET', `/api/print-templates/${foreignTemplate.id}`)).statusCode).toBe(404);
    const otherProtocol = await makePublishedProtocol(t.db, entityId);
    const elsewhere = await newAcroform(otherProtocol.id);
    await upload(admin, elsewhere.id, 'fw9.pdf', W9);
    expect((await send(admin, 'GET', `/api/cases/${caseId}/print/${elsewhere.id}`)).statusCode).toBe(404);
    expect((await send(noPrint, 'GET', `/api/cases/${caseId}/print/${w9.id}`)).statusCode).toBe(403);
  });
});

describe('templates', () => {
  it('keeps the built-in ones (edit, never delete) and deletes others', async () => {
    const items = (await send(admin, 'GET', '/api/print-templates?limit=100')).json<{ items: Tpl[] }>().items;
    const builtin = items.find((i) => i.builtin === 'complete_application') as Tpl;
    expect(builtin.actions).toEqual(['edit']);
    expect((await send(admin, 'DELETE', `/api/print-templates/${builtin.id}`)).json<Err>().error.code).toBe('SYSTEM_RECORD');
    const tpl = await newAcroform();
    expect((await send(admin, 'DELETE', `/api/print-templates/${tpl.id}`)).statusCode).toBe(204);
    expect(await t.db.selectFrom('print_templates').where('id', '=', tpl.id).select('id').executeTakeFirst()).toBeUndefined();
  });

  it('refuses a letter body with a placeholder outside the catalogue and keeps the sanitised HTML', async () => {
    const letter = (await send(admin, 'POST', '/api/print-templates', { kind: 'letter', name: `Letter ${Math.random()}`, nameEn: 'L', protocolId })).json<Tpl>();
    const base = { name: `Letter b ${Math.random()}`, nameEn: 'L', protocolId, mapping: {}, version: letter.version };
    const bad = await send(admin, 'PUT', `/api/print-templates/${letter.id}`, { ...base, bodyHtmlEn: '<p>{{constructor}}</p>', bodyHtmlEs: '<p>x</p>' });
    expect(bad.statusCode).toBe(400);
    const ok = await send(admin, 'PUT', `/api/print-templates/${letter.id}`, { ...base, bodyHtmlEn: '<p onclick="x()">Hi {{applicantName}}</p><script>alert(1)</script>', bodyHtmlEs: '<p>Hola</p>' });
    expect(ok.statusCode).toBe(200);
    expect((await stored(letter.id)).body_html_en).toBe('<p>Hi {{applicantName}}</p>');
  });
});

describe('demo tenants', () => {
  it('start with the complete application and the notification letter', async () => {
    const demo = await createTestApp({ demo: true });
    try {
      const rows = await demo.db.selectFrom('print_templates').select(['entity_id', 'builtin', 'kind', 'protocol_id']).orderBy('entity_id').orderBy('builtin').execute();
      const entities = await demo.db.selectFrom('entities').select('id').execute();
      expect(entities.length).toBeGreaterThanOrEqual(2);
      for (const e of entities) {
        expect(rows.filter((r) => r.entity_id === e.id).map((r) => r.builtin)).toEqual(['complete_application', 'notification_letter']);
      }
      expect(rows.every((r) => r.kind === 'letter' && r.protocol_id === null)).toBe(true);
    } finally {
      await demo.close();
    }
  });
});
