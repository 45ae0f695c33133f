import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { startSmtp } from '../../../tests/support/smtp.js';
import { seedEntityPrintTemplates } from '../../db/seed/print-templates.js';
import { seedEntityMailTemplates } from '../../db/seed/templates.js';
import { notify } from '../notifications/commands.js';

/**
 * An email template may carry a print template (issue 20): the case's PDF,
 * printed with it in the recipient's language, goes with every email of
 * that template about a case, over real SMTP on loopback. Another tenant's
 * print template cannot be chosen; a print template deleted after the
 * message was queued leaves the message to go without it.
 */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let entityId: number;
let adminSid: string;
let caseId: number;
let ownerId: number;
let completedTemplate: { id: number; version: number };
let letterId: number;
let foreignLetterId: number;

const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => t.request({ method, url, payload, cookies: { sid: adminSid, lang: 'en' } });
const outboxOf = (to: string) => t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id', 'desc').executeTakeFirstOrThrow();

async function tellCompleted(to: number) {
  await t.db.transaction().execute((trx) => notify(trx, { publicUrl: 'http://localhost', smtpConfigured: true }, { event: 'case_completed', entityId, caseId, to: [to] }));
  t.app.mailer.kick();
}

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: smtp.url }, jobs: { mail: true, mailRetry: { retryLimit: 1, retryDelay: 1 } } });
  entityId = (await makeEntity(t.db)).id;
  await seedEntityMailTemplates(t.db, entityId);
  await seedEntityPrintTemplates(t.db, entityId);
  await makeProject(t.db, { entity_id: entityId, is_default: true, title: 'Rental help' });
  const admin = await makeUser(t.db, entityId, { role: 'attach-admin', rules: { plantillas_correo: ['show', 'create', 'update', 'delete'], menu_configuracion: ['show', 'create', 'update', 'delete'] } });
  adminSid = (await login(t, admin.email, 'Passw0rd1')).sid;
  const protocol = await makePublishedProtocol(t.db, entityId);
  const owner = await makeUser(t.db, entityId, { role: 'attach-owner', rules: { wf_casos: ['show'] }, language: 'es' });
  ownerId = owner.id;
  caseId = (await makeCase(t.db, protocol, { ownerId, state: 'SUCCESS', data: { firstName: 'Ana', lastName: 'Pérez' } })).id;
  const list = (await send('GET', '/api/mail-templates?event=case_completed')).json<{ items: Array<{ id: number; isDefault: boolean }> }>();
  const id = list.items.find((i) => i.isDefault)?.id as number;
  completedTemplate = { id, version: (await send('GET', `/api/mail-templates/${id}`)).json<{ version: number }>().version };
  const created = await send('POST', '/api/print-templates', { kind: 'letter', name: 'Carta de cierre', nameEn: 'Closing letter', protocolId: null });
  expect(created.statusCode).toBe(201);
  letterId = created.json<{ id: number }>().id;
  const other = (await makeEntity(t.db)).id;
  await seedEntityPrintTemplates(t.db, other);
  foreignLetterId = (await t.db.selectFrom('print_templates').where('entity_id', '=', other).select('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function attach(printTemplateId: number | null) {
  const current = (await send('GET', `/api/mail-templates/${completedTemplate.id}`)).json<Record<string, unknown>>();
  return send('PUT', `/api/mail-templates/${completedTemplate.id}`, {
    name: current.name, event: current.event, isDefault: current.isDefault, version: current.version,
    subjectEn: current.subjectEn, subjectEs: current.subjectEs, bodyHtmlEn: current.bodyHtmlEn, bodyHtmlEs: current.bodyHtmlEs,
    printTemplateId,
  });
}

describe('an email template with a print template', () => {
  it("refuses another tenant's print template and changes nothing", async () => {
    const res = await attach(foreignLetterId);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { details: Array<{ path: string }> } }>().error.details.map((d) => d.path)).toEqual(['printTemplateId']);
    expect((await send('GET', `/api/mail-templates/${completedTemplate.id}`)).json<{ printTemplateId: number | null; version: number }>()).toMatchObject({ printTemplateId: null, version: completedTemplate.version });
  });

  it("sends the case's PDF, printed in the recipient's language, with the email", async () => {
    expect((await attach(letterId)).statusCode).toBe(200);
    expect((await send('GET', `/api/mail-templates/${completedTemplate.id}`)).json<{ printTemplateId: number }>().printTemplateId).toBe(letterId);
    const owner = await t.db.selectFrom('users').where('id', '=', ownerId).select('email').executeTakeFirstOrThrow();
    await tellCompleted(ownerId);
    const row = await outboxOf(owner.email);
    expect([row.print_template_id, row.print_language]).toEqual([letterId, 'es']);
    const mail = await smtp.waitFor(owner.email);
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf.contentType).toBe('application/pdf');
    // The Spanish name of the template names the file.
    expect(pdf.filename).toMatch(/^Carta-de-cierre-.*\.pdf$/);
    expect((await PDFDocument.load(pdf.content)).getPageCount()).toBeGreaterThan(0);
  });

  it('goes without the attachment when its print template was deleted after the message was queued', async () => {
    const late = await makeUser(t.db, entityId, { role: 'attach-owner', language: 'en' });
    await t.db.updateTable('cases').set({ owner_id: late.id }).where('id', '=', caseId).execute();
    await t.db.transaction().execute((trx) => notify(trx, { publicUrl: 'http://localhost', smtpConfigured: true }, { event: 'case_completed', entityId, caseId, to: [late.id] }));
    // Held back from the minute sweep while the template goes, then queued again.
    const queued = await outboxOf(late.email);
    expect(queued.print_template_id).toBe(letterId);
    await t.db.updateTable('mail_outbox').set({ status: 'kept' }).where('id', '=', queued.id).execute();
    expect((await send('DELETE', `/api/print-templates/${letterId}`)).statusCode).toBe(204);
    await t.db.updateTable('mail_outbox').set({ status: 'queued' }).where('id', '=', queued.id).execute();
    t.app.mailer.kick();
    const mail = await smtp.waitFor(late.email);
    expect(mail.attachments).toEqual([]);
    expect(mail.subject).toBeTruthy();
  });
});
