import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeUser } from '../../../tests/support/factories.js';
import { MAX_UPLOAD_MB } from './storage.js';

/**
 * Uploads and download links, on a tenant of this file's own (made with the
 * factories; the demo seed plays no part). The rights each person holds are
 * written out here: uploading and links need only a session, and a link to a
 * file held by no record goes to its uploader and to staff of its tenant.
 */
const ROLES = {
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
  /** Staff: sees every case of the tenant, so any file no other person's draft holds. */
  coordinator: { wf_casos: ['show', 'update'], admin_cases: ['show', 'update'], wf_tareas: ['show'] },
  /** The same staff rights, in another tenant. */
  otherAdmin: { wf_casos: ['show', 'update'], admin_cases: ['show', 'update'], wf_tareas: ['show'] },
} as const;
/** The tenant's folder under DATA_DIR/files: its name made a slug, and its document number. */
const TENANT = { name: 'Housing Agency', docnumber: '900700800' };
const FOLDER = 'housing-agency-900700800';

let t: TestApp;
let dataDir: string;
let entityId: number;
let applicant: { sid: string };
let coordinator: { sid: string };
let other: { sid: string };
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'casebook-files-'));
  // The disk store (DATA_DIR/files), the embedded mode's; the database and S3 stores: stores.api.test.ts.
  t = await createTestApp({ env: { DATA_DIR: dataDir, FILES_URL: 'disk' } });
  entityId = (await makeEntity(t.db, TENANT)).id;
  const otherEntityId = (await makeEntity(t.db)).id;
  const people = await Promise.all([
    makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345' }),
    makeUser(t.db, entityId, { role: 'coordinator', rules: ROLES.coordinator as never, password: 'Demo12345' }),
    makeUser(t.db, otherEntityId, { role: 'admin', rules: ROLES.otherAdmin as never, password: 'Demo12345' }),
  ]);
  [applicant, coordinator, other] = await Promise.all(people.map((u) => login(t, u.email, 'Demo12345')));
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Err = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

function multipart(filename: string, content: Buffer, fields: Record<string, string> = {}) {
  const boundary = '----casebooktest';
  const parts = [
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (who: { sid: string }, filename: string, content: Buffer, fields: Record<string, string> = {}, lang = 'en') =>
  t.request({ method: 'POST', url: '/api/files', cookies: { ...who, lang }, ...multipart(filename, content, fields) });

describe('upload', () => {
  it('stores a file checked by content, per entity, private by default', async () => {
    const res = await upload(applicant, 'lease.pdf', PDF);
    expect(res.statusCode).toBe(201);
    const file = res.json<{ id: string; extension: string; public: boolean; size: number }>();
    expect(file).toMatchObject({ extension: 'pdf', public: false, size: PDF.length });
    expect(readdirSync(path.join(dataDir, 'files'))).toEqual([FOLDER]);
    expect(readdirSync(path.join(dataDir, 'files', FOLDER))).toContain(`${file.id}.pdf`);
    expect(await t.db.selectFrom('files').where('id', '=', file.id).select('store').executeTakeFirstOrThrow()).toEqual({ store: 'disk' });
    const pub = await upload(applicant, 'photo.png', PNG, { public: 'true' });
    expect(readdirSync(path.join(dataDir, 'files', FOLDER, 'public'))).toContain(`${pub.json<{ id: string }>().id}.png`);
    // The plan state counts the tenant's files; another tenant's plan does not see them.
    const planOf = async (who: { sid: string }) => (await t.request({ method: 'GET', url: '/api/entity/plan', cookies: who })).json<{ diskUsedMb: number }>().diskUsedMb;
    const before = await planOf(coordinator);
    const big = Buffer.concat([PDF, Buffer.alloc(300 * 1024, 0x20)]);
    expect((await upload(applicant, 'scan.pdf', big)).statusCode).toBe(201);
    expect((await planOf(coordinator)) - before).toBeCloseTo(0.29, 1);
    expect(await planOf(other)).toBe(0);
  });

  it.each([
    ['invoice.pdf', Buffer.from('<html><script>alert(1)</script></html>')],
    ['photo.jpg', Buffer.from('MZ\x90\x00 this is a program')],
    ['notes.txt', Buffer.from('<!doctype html><html>')],
    ['tool.exe', Buffer.from('MZ')],
    ['no-extension', PDF],
    ['empty.pdf', Buffer.alloc(0)],
  ])('refuses %s whose content does not match an accepted type', async (name, content) => {
    const res = await upload(applicant, name, content, {}, 'es');
    expect(res.statusCode).toBe(400);
    expect(res.json<Err>().error.details).toEqual([{ path: 'file', message: 'El archivo no tiene una extensión válida' }]);
  });

  it('keeps only the base name a browser sends', async () => {
    const res = await upload(applicant, '../../etc/passwd.txt', Buffer.from('root:x:0:0'));
    expect(res.json<{ name: string }>().name).toBe('passwd.txt');
  });

  it('refuses what is not multipart, and a file past the plan disk quota', async () => {
    expect((await t.request({ method: 'POST', url: '/api/files', cookies: applicant, payload: { file: 'x' } })).statusCode).toBe(415);
    await t.db.updateTable('entities').set({ disk_quota_mb: 0 }).where('id', '=', entityId).execute();
    const full = await upload(applicant, 'lease.pdf', PDF);
    expect(full.statusCode).toBe(413);
    expect(full.json<Err>().error.message).toBe('The disk space of your plan is full');
    await t.db.updateTable('entities').set({ disk_quota_mb: 1024 }).where('id', '=', entityId).execute();
  });

  it('limits uploads per account (30 a minute) besides per address: the 31st is 429 with Retry-After and stores nothing; another account at the same address goes on', async () => {
    const [one, two] = await Promise.all(
      [0, 1].map(async () => login(t, (await makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345' })).email, 'Demo12345')),
    );
    // From an address of its own, so the other tests' uploads do not count against the address limit (60).
    const send = (who: { sid: string }) => t.request({ method: 'POST', url: '/api/files', cookies: { ...who, lang: 'es' }, ...multipart('a.pdf', PDF), remoteAddress: '10.77.0.1' });
    for (let i = 0; i < 30; i++) expect((await send(one)).statusCode).toBe(201);
    const before = await t.db.selectFrom('files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const refused = await send(one);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<Err>().error.code).toBe('RATE_LIMITED');
    const after = await t.db.selectFrom('files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    expect((await send(two)).statusCode).toBe(201);
  });

  it('needs a session', async () => {
    const res = await t.request({ method: 'POST', url: '/api/files', ...multipart('lease.pdf', PDF) });
    expect(res.statusCode).toBe(401);
  });
});

describe('the upload limit', () => {
  const LIMIT = MAX_UPLOAD_MB * 1024 * 1024;
  const folder = () => path.join(dataDir, 'files', FOLDER);
  const filesOnDisk = () => (existsSync(folder()) ? readdirSync(folder()).filter((f) => f !== 'public') : []);
  const rows = async () => Number((await t.db.selectFrom('files').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  /** One multipart body per size, whose file is a PDF of exactly `size` bytes. */
  function body(size: number) {
    const boundary = '----casebooklimit';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    const content = Buffer.alloc(size, 0x20);
    PDF.copy(content);
    const payload = Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    return { payload, fileStart: head.length, sha256: createHash('sha256').update(content).digest('hex'), contentType: `multipart/form-data; boundary=${boundary}` };
  }

  /**
   * The ways a body reaches the server in pieces. Where the pieces end
   * decides whether the parser sees the byte past the limit with the rest
   * or on its own, after the last byte it let through: each is tried.
   */
  const chunkings: Array<[string, (b: Buffer, fileEnd: number) => number[]]> = [
    ['one piece', () => []],
    ['64 KiB pieces', (b) => Array.from({ length: Math.floor(b.length / 65536) }, (_, i) => (i + 1) * 65536)],
    ['cut at the limit', (_b, fileEnd) => [fileEnd - 1, fileEnd]],
    ['cut just before the end', (b) => [b.length - 40, b.length - 10]],
    ['odd pieces', (b) => Array.from({ length: Math.floor(b.length / 99991) }, (_, i) => (i + 1) * 99991)],
  ];
  /** The body as a stream that yields between pieces, as a socket does between packets. */
  async function* pieces(b: Buffer, cuts: number[]) {
    const at = [0, ...cuts.filter((c) => c > 0 && c < b.length), b.length];
    for (let i = 1; i < at.length; i++) {
      yield b.subarray(at[i - 1], at[i]);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('a hundred uploads of limit - 1, limit and limit + 1 bytes: each whole and stored, or 413 and nothing stored', async () => {
    const bodies = new Map([LIMIT - 1, LIMIT, LIMIT + 1].map((size) => [size, body(size)]));
    const baseRows = await rows();
    const baseFiles = filesOnDisk();
    // Four applicants of the tenant, 25 tries each: under the per-account upload limit (30 a minute).
    const uploaders = await Promise.all(
      [0, 1, 2, 3].map(async () => login(t, (await makeUser(t.db, entityId, { role: 'applicant', rules: ROLES.applicant as never, password: 'Demo12345' })).email, 'Demo12345')),
    );
    for (let i = 0; i < 100; i++) {
      const size = LIMIT - 1 + (i % 3);
      const b = bodies.get(size)!;
      const [how, cuts] = chunkings[Math.floor(i / 3) % chunkings.length];
      const lang = i % 2 ? 'es' : 'en';
      const res = await t.request({
        method: 'POST',
        url: '/api/files',
        cookies: { ...uploaders[i % 4], lang },
        headers: { 'content-type': b.contentType, 'content-length': String(b.payload.length) },
        payload: Readable.from(pieces(b.payload, cuts(b.payload, b.fileStart + LIMIT))),
        // Each try from its own address, so the upload rate limit stays out of the way.
        remoteAddress: `10.9.${i >> 8}.${i & 255}`,
      });
      const tag = `try ${i}: ${size - LIMIT >= 0 ? '+' : ''}${size - LIMIT} bytes, ${how}`;
      if (size <= LIMIT) {
        expect(res.statusCode, tag).toBe(201);
        const { id, size: stored } = res.json<{ id: string; size: number }>();
        expect(stored, tag).toBe(size);
        const row = await t.db.selectFrom('files').where('id', '=', id).select(['size', 'sha256']).executeTakeFirstOrThrow();
        expect(row, tag).toEqual({ size, sha256: b.sha256 });
        expect(statSync(path.join(folder(), `${id}.pdf`)).size, tag).toBe(size);
        // Room for the next ones (the plan's quota) and for the disk.
        await t.db.deleteFrom('files').where('id', '=', id).execute();
        rmSync(path.join(folder(), `${id}.pdf`));
      } else {
        expect(res.statusCode, tag).toBe(413);
        expect(res.json<Err>().error, tag).toEqual({
          code: 'FILE_TOO_LARGE',
          message: lang === 'es' ? 'El archivo pesa más de 20 MB, el máximo que se puede subir' : 'The file is larger than 20 MB, the most that can be uploaded',
        });
      }
      expect(await rows(), tag).toBe(baseRows);
      expect(filesOnDisk(), tag).toEqual(baseFiles);
    }
  }, 120_000);
});

describe('download links', () => {
  it('serve one file as an attachment, with nosniff, for five minutes', async () => {
    const id = (await upload(applicant, 'Contrato año.pdf', PDF)).json<{ id: string }>().id;
    const link = (await t.request({ method: 'GET', url: `/api/files/${id}/link`, cookies: coordinator })).json<{ url: string; expiresAt: string }>();
    expect(link.url).toMatch(new RegExp(`^/archivos/${FOLDER}/${id}\\.pdf\\?exp=\\d+&token=`));
    expect(new Date(link.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const res = await t.request({ method: 'GET', url: link.url });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Contrato a_o.pdf"; filename*=UTF-8''Contrato%20a%C3%B1o.pdf`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });

  it('show a PDF or an image in the page with inline=1 (the review viewer), and anything else stays a download', async () => {
    const pdf = (await upload(applicant, 'lease.pdf', PDF)).json<{ id: string }>().id;
    const png = (await upload(applicant, 'stub.png', PNG)).json<{ id: string }>().id;
    const docx = (await upload(applicant, 'letter.docx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]))).json<{ id: string }>().id;
    const get = async (id: string) => {
      const link = (await t.request({ method: 'GET', url: `/api/files/${id}/link`, cookies: coordinator })).json<{ url: string }>().url;
      return t.request({ method: 'GET', url: `${link}&inline=1` });
    };
    const shownPdf = await get(pdf);
    expect(shownPdf.statusCode).toBe(200);
    expect(shownPdf.headers['content-type']).toBe('application/pdf');
    expect(shownPdf.headers['content-disposition']).toMatch(/^inline; filename="lease.pdf"/);
    expect(shownPdf.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(png)).headers['content-type']).toBe('image/png');
    const word = await get(docx);
    expect(word.headers['content-type']).toBe('application/octet-stream');
    expect(word.headers['content-disposition']).toMatch(/^attachment;/);
    const link = (await t.request({ method: 'GET', url: `/api/files/${pdf}/link`, cookies: coordinator })).json<{ url: string }>().url;
    expect((await t.request({ method: 'GET', url: `${link}&inline=yes` })).statusCode).toBe(400);
  });

  it('do not open another file, an expired link, or a forged token', async () => {
    const a = (await upload(applicant, 'a.pdf', PDF)).json<{ id: string }>().id;
    const b = (await upload(applicant, 'b.pdf', PDF)).json<{ id: string }>().id;
    const link = (await t.request({ method: 'GET', url: `/api/files/${a}/link`, cookies: applicant })).json<{ url: string }>().url;
    const otherFile = link.replace(a, b);
    expect((await t.request({ method: 'GET', url: otherFile })).statusCode).toBe(403);
    const expired = link.replace(/exp=\d+/, `exp=${Math.floor(Date.now() / 1000) - 1}`);
    expect((await t.request({ method: 'GET', url: expired })).statusCode).toBe(403);
    const forged = link.replace(/token=[^&]+/, 'token=AAAA');
    expect((await t.request({ method: 'GET', url: forged })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: link.replace(`/archivos/${FOLDER}/`, `/archivos/${FOLDER}/public/`) })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: link.split('?')[0] })).statusCode).toBe(400);
  });

  it("are not given for another tenant's file", async () => {
    const id = (await upload(applicant, 'mine.pdf', PDF)).json<{ id: string }>().id;
    expect((await t.request({ method: 'GET', url: `/api/files/${id}/link`, cookies: other })).statusCode).toBe(404);
  });
});
