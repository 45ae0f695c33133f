import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';
import { closedPort, startS3 } from '../../../tests/support/s3.js';
import { startSmtp } from '../../../tests/support/smtp.js';
import { notify } from '../notifications/commands.js';
import type { StoreKind } from './storage.js';

/**
 * Where uploaded files' bytes live (issue 21): the disk (DATA_DIR/files), the
 * database (`file_blobs`) or an S3-compatible bucket (s3rver, a real S3 server
 * on loopback). For each store, through the API: an upload is where the store
 * keeps it and a download link serves the same bytes; a project's logo and
 * favicon are stored, served and removed with their bytes; a case prints with
 * the logo, and a mail carries that print. A store out of reach answers 503
 * FILE_STORE_UNAVAILABLE and leaves nothing behind. The move command:
 * move.api.test.ts.
 */
const ROLES = {
  admin: {
    menu_configuracion: ['show', 'create', 'update', 'delete'],
    plantillas_correo: ['show', 'create', 'update', 'delete'],
    wf_casos: ['show', 'print'],
    wf_tareas: ['show'],
  },
} as const;

type Err = { error: { code: string; message: string } };
/** A real 1x1 PNG: pdfmake draws it, so a print with the logo has an image. */
const LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(32, 5)]);
/** A PDF-looking megabyte of random bytes: nothing in it compresses, as in real scans. */
const scan = () => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(1024 * 1024)]);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function multipart(filename: string, content: Buffer) {
  const boundary = '----casebookstores';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Image XObjects in a PDF (the logo, when printed with it). */
async function images(pdf: Buffer): Promise<number> {
  const doc = await PDFDocument.load(pdf);
  let n = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream && String(object.dict.get(PDFName.of('Subtype'))) === '/Image') n += 1;
  }
  return n;
}

/** An app on its own database with its own tenant, an admin, a default project and a case to print. */
async function tenantApp(env: Record<string, string>, smtpUrl?: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'casebook-stores-'));
  const t = await createTestApp({
    env: { DATA_DIR: dataDir, ...env, ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}) },
    ...(smtpUrl ? { jobs: { mail: true, mailRetry: { retryLimit: 1, retryDelay: 1 } } } : {}),
  });
  const entity = await makeEntity(t.db, { name: 'Store Agency', docnumber: '900333444' });
  const project = await makeProject(t.db, { entity_id: entity.id, is_default: true, title: 'Rental help' });
  const admin = await makeUser(t.db, entity.id, { role: 'stores-admin', rules: ROLES.admin as never });
  const sid = (await login(t, admin.email, 'Passw0rd1')).sid;
  const protocol = await makePublishedProtocol(t.db, entity.id);
  const owner = await makeUser(t.db, entity.id, { role: 'stores-owner', rules: { wf_casos: ['show'] }, language: 'en' });
  const caseId = (await makeCase(t.db, protocol, { ownerId: owner.id, projectId: project.id, state: 'SUCCESS', data: { firstName: 'Ana', lastName: 'Pérez' } })).id;
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, lang = 'en') => t.request({ method, url, payload, cookies: { sid, lang } });
  const upload = (filename: string, content: Buffer, lang = 'en') => t.request({ method: 'POST', url: '/api/files', cookies: { sid, lang }, ...multipart(filename, content) });
  const uploadBranding = (kind: 'logo' | 'favicon', filename: string, content: Buffer, lang = 'en') =>
    t.request({ method: 'POST', url: `/api/settings/application/${kind}`, cookies: { sid, lang }, ...multipart(filename, content) });
  const download = async (id: string) => {
    const link = await send('GET', `/api/files/${id}/link`);
    expect(link.statusCode).toBe(200);
    return t.request({ method: 'GET', url: link.json<{ url: string }>().url });
  };
  const close = async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { t, dataDir, entity, project, owner, caseId, send, upload, uploadBranding, download, close, folder: path.join(dataDir, 'files', 'store-agency-900333444') };
}

type Tenant = Awaited<ReturnType<typeof tenantApp>>;

let s3: Awaited<ReturnType<typeof startS3>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  [s3, smtp] = await Promise.all([startS3(), startSmtp()]);
});
afterAll(async () => {
  await s3?.close();
  await smtp?.close();
});

describe.each(['disk', 'database', 's3'] as const)('the %s store', (kind: StoreKind) => {
  let x: Tenant;
  beforeAll(async () => {
    x = await tenantApp({ FILES_URL: kind === 's3' ? s3.filesUrl : kind }, smtp.url);
  });
  afterAll(async () => {
    await x?.close();
  });

  /** The bytes the store holds for a file, read behind the app's back; undefined when it holds none. */
  async function held(id: string, ext: string, isPublic = false): Promise<Buffer | undefined> {
    if (kind === 'disk') {
      const file = path.join(x.folder, ...(isPublic ? ['public'] : []), `${id}.${ext}`);
      return existsSync(file) ? readFileSync(file) : undefined;
    }
    if (kind === 'database') return (await x.t.db.selectFrom('file_blobs').where('id', '=', id).select('bytes').executeTakeFirst())?.bytes;
    const key = `${x.entity.id}/${id}.${ext}`;
    return (await s3.keys()).includes(key) ? s3.object(key) : undefined;
  }

  it('stores an upload there, records it, and a download link serves the same bytes', async () => {
    const bytes = scan();
    const res = await x.upload('scan.pdf', bytes);
    expect(res.statusCode).toBe(201);
    const { id } = res.json<{ id: string }>();
    expect(await x.t.db.selectFrom('files').where('id', '=', id).select(['store', 'size', 'sha256']).executeTakeFirstOrThrow()).toEqual({ store: kind, size: bytes.length, sha256: sha256(bytes) });
    expect((await held(id, 'pdf'))?.equals(bytes)).toBe(true);
    // Only the chosen store holds it.
    if (kind !== 'database') expect(await x.t.db.selectFrom('file_blobs').where('id', '=', id).select('id').execute()).toEqual([]);
    if (kind !== 'disk') expect(existsSync(path.join(x.dataDir, 'files'))).toBe(false);
    const got = await x.download(id);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-length']).toBe(String(bytes.length));
    expect(got.rawPayload.equals(bytes)).toBe(true);
  });

  it("keeps a project's logo and favicon there, serves them, and removes the old bytes when replaced or removed", async () => {
    const first = await x.uploadBranding('logo', 'logo.png', LOGO);
    expect(first.statusCode).toBe(200);
    const logoUrl = first.json<{ logo: string }>().logo;
    const logoId = /([0-9a-f-]{36})\.png$/.exec(logoUrl)?.[1] as string;
    expect((await held(logoId, 'png', true))?.equals(LOGO)).toBe(true);
    const served = await x.t.request({ method: 'GET', url: logoUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(LOGO)).toBe(true);

    const favicon = await x.uploadBranding('favicon', 'favicon.ico', ICO);
    expect(favicon.statusCode).toBe(200);
    const faviconUrl = favicon.json<{ favicon: string }>().favicon;
    expect((await x.t.request({ method: 'GET', url: faviconUrl })).rawPayload.equals(ICO)).toBe(true);

    // Replaced: a new file, and the old one's bytes are gone from the store with its row.
    const again = await x.uploadBranding('logo', 'logo.png', LOGO);
    const newId = /([0-9a-f-]{36})\.png$/.exec(again.json<{ logo: string }>().logo)?.[1] as string;
    expect(newId).not.toBe(logoId);
    expect(await held(logoId, 'png', true)).toBeUndefined();
    expect((await held(newId, 'png', true))?.equals(LOGO)).toBe(true);
    const faviconId = /([0-9a-f-]{36})\.ico$/.exec(faviconUrl)?.[1] as string;
    expect((await x.send('DELETE', '/api/settings/application/favicon')).statusCode).toBe(200);
    expect(await held(faviconId, 'ico', true)).toBeUndefined();
    expect((await x.t.request({ method: 'GET', url: faviconUrl })).statusCode).toBe(404);
  });

  it('prints a case with the logo read from there, and mails that print', async () => {
    const letter = await x.send('POST', '/api/print-templates', { kind: 'letter', name: 'Carta', nameEn: 'Letter', protocolId: null });
    expect(letter.statusCode).toBe(201);
    const letterId = letter.json<{ id: number }>().id;
    const print = async () => {
      const res = await x.send('GET', `/api/cases/${x.caseId}/print/${letterId}`);
      expect(res.statusCode).toBe(200);
      return images(res.rawPayload);
    };
    await x.send('DELETE', '/api/settings/application/logo');
    expect(await print()).toBe(0);
    expect((await x.uploadBranding('logo', 'logo.png', LOGO)).statusCode).toBe(200);
    // The PNG and its alpha mask.
    expect(await print()).toBeGreaterThan(0);

    // The case-completed mail carries the print, logo included.
    const list = (await x.send('GET', '/api/mail-templates?event=case_completed')).json<{ items: Array<{ id: number; isDefault: boolean }> }>();
    const templateId = list.items.find((i) => i.isDefault)?.id as number;
    const current = (await x.send('GET', `/api/mail-templates/${templateId}`)).json<Record<string, unknown>>();
    const saved = await x.send('PUT', `/api/mail-templates/${templateId}`, {
      name: current.name, event: current.event, isDefault: current.isDefault, version: current.version,
      subjectEn: current.subjectEn, subjectEs: current.subjectEs, bodyHtmlEn: current.bodyHtmlEn, bodyHtmlEs: current.bodyHtmlEs,
      printTemplateId: letterId,
    });
    expect(saved.statusCode).toBe(200);
    await x.t.db.transaction().execute((trx) => notify(trx, { publicUrl: 'http://localhost', smtpConfigured: true }, { event: 'case_completed', entityId: x.entity.id, caseId: x.caseId, to: [x.owner.id] }));
    x.t.app.mailer.kick();
    const mail = await smtp.waitFor(x.owner.email);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0].contentType).toBe('application/pdf');
    expect(await images(mail.attachments[0].content)).toBeGreaterThan(0);
  });
});

describe('a file store out of reach', () => {
  const rows = (t: TestApp) => t.db.selectFrom('files').select('id').execute();

  it('an S3 server that does not answer: 503 FILE_STORE_UNAVAILABLE in seconds, in the caller\'s language, no files row, the logo unchanged', async () => {
    const x = await tenantApp({ FILES_URL: `s3+http://key:secret@127.0.0.1:${await closedPort()}/case-files` });
    try {
      const started = Date.now();
      const res = await x.upload('scan.pdf', scan());
      expect(res.statusCode).toBe(503);
      expect(res.json<Err>().error).toEqual({ code: 'FILE_STORE_UNAVAILABLE', message: 'The file storage cannot be reached right now; nothing was changed. Try again in a moment.' });
      expect(Date.now() - started).toBeLessThan(10_000);
      const es = await x.upload('scan.pdf', scan(), 'es');
      expect(es.json<Err>().error.message).toBe('El almacenamiento de archivos no está disponible en este momento; no se cambió nada. Inténtelo de nuevo en un momento.');
      const logo = await x.uploadBranding('logo', 'logo.png', LOGO);
      expect(logo.statusCode).toBe(503);
      expect(logo.json<Err>().error.code).toBe('FILE_STORE_UNAVAILABLE');
      expect(await rows(x.t)).toEqual([]);
      expect((await x.t.db.selectFrom('projects').where('id', '=', x.project.id).select(['logo', 'logo_file_id']).executeTakeFirstOrThrow())).toEqual({ logo: null, logo_file_id: null });
      expect(existsSync(path.join(x.dataDir, 'files'))).toBe(false);
    } finally {
      await x.close();
    }
  });

  it('a disk that cannot be written: 503, no files row, no part left', async () => {
    const x = await tenantApp({ FILES_URL: 'disk' });
    try {
      // The tenant's folder is a file: nothing can be written under it (as root, permissions would not stop us).
      mkdirSync(path.dirname(x.folder), { recursive: true });
      writeFileSync(x.folder, 'not a folder');
      const res = await x.upload('scan.pdf', scan());
      expect(res.statusCode).toBe(503);
      expect(res.json<Err>().error.code).toBe('FILE_STORE_UNAVAILABLE');
      expect(await rows(x.t)).toEqual([]);
      expect(readdirSync(path.dirname(x.folder))).toEqual([path.basename(x.folder)]);
    } finally {
      await x.close();
    }
  });

  it('an S3 upload refused after its object was put (the quota is full) leaves no object', async () => {
    const x = await tenantApp({ FILES_URL: s3.filesUrl });
    try {
      const before = await s3.keys();
      await x.t.db.updateTable('entities').set({ disk_quota_mb: 0 }).where('id', '=', x.entity.id).execute();
      const res = await x.upload('scan.pdf', scan());
      expect(res.statusCode).toBe(413);
      expect(res.json<Err>().error.code).toBe('QUOTA_FULL');
      expect(await rows(x.t)).toEqual([]);
      expect(await s3.keys()).toEqual(before);
    } finally {
      await x.close();
    }
  });
});
