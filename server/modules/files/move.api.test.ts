import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeUser } from '../../../tests/support/factories.js';
import { startS3 } from '../../../tests/support/s3.js';
import { moveFiles } from './move.js';
import { diskPath, entityFolder, type FileStore, type StoreKind } from './storage.js';
import { FileStores } from './stores.js';

/**
 * `npm run files:move -- --to <store>` (move.ts, move-cli.ts): every file
 * goes disk -> database -> s3 -> disk keeping every byte (its sha256), with
 * downloads working between the moves and while a file moves under a read;
 * a second run finds nothing to do; a file whose bytes do not match its
 * sha256 is named, not moved, and the command exits 1.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const TENANT = { name: 'Move Agency', docnumber: '900555666' };

let t: TestApp;
let s3: Awaited<ReturnType<typeof startS3>>;
let dataDir: string;
let entityId: number;
let sid: string;
/** What was uploaded: id -> bytes. */
const uploaded = new Map<string, { bytes: Buffer; ext: string; public: boolean }>();

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
function multipart(filename: string, content: Buffer, isPublic: boolean) {
  const boundary = '----casebookmove';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="public"\r\n\r\n${isPublic}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

beforeAll(async () => {
  s3 = await startS3('move-files');
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'casebook-move-'));
  // With the bucket configured the app reads every store; uploads go to the bucket first.
  t = await createTestApp({ env: { DATA_DIR: dataDir, FILES_URL: s3.filesUrl } });
  entityId = (await makeEntity(t.db, TENANT)).id;
  const user = await makeUser(t.db, entityId, { role: 'mover', rules: { wf_casos: ['show'] } });
  sid = (await login(t, user.email, 'Passw0rd1')).sid;
  const files: Array<[string, Buffer, boolean]> = [
    ['scan.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(3 * 1024 * 1024)]), false],
    ['lease.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2000)]), false],
    ['photo.png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(5000)]), true],
  ];
  for (const [name, bytes, isPublic] of files) {
    const res = await t.request({ method: 'POST', url: '/api/files', cookies: { sid }, ...multipart(name, bytes, isPublic) });
    expect(res.statusCode).toBe(201);
    uploaded.set(res.json<{ id: string }>().id, { bytes, ext: path.extname(name).slice(1), public: isPublic });
  }
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const stores = () => t.db.selectFrom('files').select(['id', 'store']).orderBy('id').execute();
const folder = entityFolder(TENANT);
const onDisk = (id: string) => {
  const f = uploaded.get(id)!;
  return diskPath(path.join(dataDir, 'files'), { id, entityId, folder, public: f.public, extension: f.ext });
};

/** Where each file's bytes are, read behind the app's back: every store that holds a copy. */
async function holders(id: string): Promise<StoreKind[]> {
  const f = uploaded.get(id)!;
  const found: StoreKind[] = [];
  if (existsSync(onDisk(id))) found.push('disk');
  if (await t.db.selectFrom('file_blobs').where('id', '=', id).select('id').executeTakeFirst()) found.push('database');
  if ((await s3.keys()).includes(`${entityId}/${id}.${f.ext}`)) found.push('s3');
  return found;
}

async function expectAllIn(kind: StoreKind) {
  for (const row of await stores()) expect(row.store, row.id).toBe(kind);
  for (const [id, f] of uploaded) {
    expect(await holders(id), id).toEqual([kind]);
    // Downloads work, with every byte.
    const link = await t.request({ method: 'GET', url: `/api/files/${id}/link`, cookies: { sid } });
    const got = await t.request({ method: 'GET', url: link.json<{ url: string }>().url });
    expect(got.statusCode, id).toBe(200);
    expect(sha256(got.rawPayload), id).toBe(sha256(f.bytes));
  }
}

describe('moving files between stores', () => {
  it('goes disk -> database -> s3 -> disk keeping every byte; a second run does nothing', async () => {
    await expectAllIn('s3');
    const lines: string[] = [];
    const first = await moveFiles(t.db, t.app.files, 'disk', (l) => lines.push(l));
    expect(first).toMatchObject({ moved: 3, total: 3, alreadyThere: 0, failed: [], leftBehind: [] });
    expect(lines[0]).toBe('3 file(s) to move to disk (0 already there)');
    expect(lines.filter((l) => l.includes('s3 -> disk'))).toHaveLength(3);
    await expectAllIn('disk');
    for (const to of ['database', 's3', 'disk'] as const) {
      expect(await moveFiles(t.db, t.app.files, to)).toMatchObject({ moved: 3, failed: [] });
      await expectAllIn(to);
      expect(await moveFiles(t.db, t.app.files, to)).toMatchObject({ moved: 0, total: 0, alreadyThere: 3, failed: [] });
      await expectAllIn(to);
    }
  });

  it('a read whose file moves under it finds the file where it went', async () => {
    const [id] = uploaded.keys();
    const disk = t.app.files.get('disk');
    // The disk store as a reader sees it: the row said disk, and the move runs before the file is opened.
    const racing: FileStore = {
      ...disk,
      async open(db, key) {
        await moveFiles(db, t.app.files, 'database');
        return disk.open(db, key);
      },
    };
    const files = new FileStores('disk', { disk: racing, database: t.app.files.get('database') });
    const body = await files.open(t.db, id);
    expect(Buffer.isBuffer(body) && sha256(body)).toBe(sha256(uploaded.get(id)!.bytes));
    await expectAllIn('database');
    await moveFiles(t.db, t.app.files, 'disk');
  });

  it('npm run files:move names a file whose bytes do not match its sha256, moves the others, and exits 1', async () => {
    await expectAllIn('disk');
    const [bad] = uploaded.keys();
    const original = readFileSync(onDisk(bad));
    writeFileSync(onDisk(bad), Buffer.concat([original.subarray(0, 100), Buffer.from('tampered')]));
    const run = () =>
      spawnSync(process.execPath, ['--import', 'tsx', 'server/modules/files/move-cli.ts', '--to', 'database'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, DATABASE_URL: t.app.config.database.url, DATA_DIR: dataDir, FILES_URL: s3.filesUrl, LOG_LEVEL: 'silent' },
      });
    const res = run();
    expect(res.status, res.stderr).toBe(1);
    expect(res.stdout).toMatch(/moved 2 of 3 file\(s\) to database; 1 not moved; 0 were there already/);
    expect(res.stderr).toContain(`${bad} scan.pdf in disk: its bytes in the disk store do not match its sha256`);
    const rows = new Map((await stores()).map((r) => [r.id, r.store]));
    for (const id of uploaded.keys()) expect(rows.get(id), id).toBe(id === bad ? 'disk' : 'database');
    // The file that was not moved is still where it was, as it was.
    expect(await holders(bad)).toEqual(['disk']);

    // Repaired, a second run moves it alone.
    writeFileSync(onDisk(bad), original);
    const again = run();
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/moved 1 of 1 file\(s\) to database; 0 not moved; 2 were there already/);
    await expectAllIn('database');
  }, 120_000);

  it('refuses an unknown target with one line and exit code 2', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'server/modules/files/move-cli.ts', '--to', 'tape'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, DATABASE_URL: t.app.config.database.url, DATA_DIR: dataDir },
    });
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toBe('Error: Invalid configuration: --to must be one of disk, database, s3 (usage: npm run files:move -- --to database|s3|disk)');
  });
});
