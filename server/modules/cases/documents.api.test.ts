import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeForm, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

// A protocol that requires documents: submitting without any is refused with the spec's message, and nothing changes.
// The tenant, its form, its public protocol and its applicant are made here with the factories.
const ROLES = { applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] } } as const;
const FORM = {
  name: 'Application with documents',
  fields: [
    { name: 'firstName', type: 'text', label: 'Nombres', label_en: 'First name', required: true },
    { name: 'lastName', type: 'text', label: 'Apellidos', label_en: 'Last name', required: true },
    { name: 'documents', type: 'file', label: 'Documentos', label_en: 'Documents', accept: ['pdf'] },
  ],
};

let t: TestApp;
let dataDir: string;
let applicant: { sid: string };
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'casebook-docs-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  const entityId = (await makeEntity(t.db)).id;
  await makeProject(t.db, { entity_id: entityId });
  const protocol = await makePublishedProtocol(t.db, entityId, { mainForm: await makeForm(t.db, entityId, { definition: FORM }) });
  await t.db.updateTable('protocols').set({ public: true }).where('id', '=', protocol.id).execute();
  // Before any case is submitted (the engine caches published versions): the protocol names its documents field.
  await sql`update protocol_versions set definition = jsonb_set(definition, '{requiredDocumentsField}', '"documents"') where id = ${protocol.versionId}`.execute(t.db);
  const user = await makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345' });
  applicant = await login(t, user.email, 'Demo12345');
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Err = { error: { code: string; message: string } };
const req = (method: string, url: string, payload?: unknown, lang = 'en') =>
  t.request({ method: method as 'GET', url, cookies: { ...applicant, lang }, payload: payload as string });
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const boundary = '----casebookdocs';
const upload = () =>
  t.request({
    method: 'POST',
    url: '/api/files',
    cookies: applicant,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lease.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      PDF,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
const data = { firstName: 'Inés', lastName: 'Docs' };

describe('required documents', () => {
  it("refuses 'without documents' in both languages and leaves the draft a draft; with a document the case opens", async () => {
    const pid = (await req('GET', '/api/cases/new-options')).json<{ protocols: Array<{ id: number }> }>().protocols[0].id;
    const { id } = (await req('POST', '/api/cases/drafts', { protocolId: pid, data })).json<{ id: number }>();
    const en = await req('POST', `/api/cases/drafts/${id}/submit`, {});
    expect(en.statusCode).toBe(422);
    expect(en.json<Err>().error).toMatchObject({ code: 'DOCUMENTS_REQUIRED', message: "Can't make this action without documents in the application" });
    const es = await req('POST', `/api/cases/drafts/${id}/submit`, {}, 'es');
    expect(es.json<Err>().error.message).not.toBe(en.json<Err>().error.message);
    expect((await req('GET', `/api/cases/drafts/${id}`)).statusCode).toBe(200);
    const tasks = await t.db.selectFrom('tasks').where('case_id', '=', id).select('id').execute();
    expect(tasks).toHaveLength(0);

    const file = (await upload()).json<{ id: string }>();
    const ok = await req('POST', `/api/cases/drafts/${id}/submit`, { data: { ...data, documents: [{ id: file.id, name: 'lease.pdf' }] } });
    expect(ok.statusCode).toBe(200);
    expect((await req('GET', `/api/cases/${id}`)).json<{ state: string }>().state).toBe('PENDING');
  });
});
