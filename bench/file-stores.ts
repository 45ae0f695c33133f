/**
 * A 20 MB upload and its download through the API over loopback HTTP
 * (multipart parse, sniff, quota, store; then the signed link's download), in the disk
 * store and in the database store, median of RUNS each after 2 warm-up runs.
 * Run: node --import tsx bench/file-stores.ts   (DATABASE_URL=... for an
 * external PostgreSQL; otherwise an embedded one; RUNS=10)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { ensureDatabase } from '../server/db/database.js';
import { migrate } from '../server/db/migrate.js';
import { openDb } from '../server/db/pool.js';
import { makeEntity, makeUser } from '../tests/support/factories.js';
import { benchDatabase } from './support.js';

const RUNS = Number(process.env.RUNS ?? 10);
const SIZE = 20 * 1024 * 1024 - 1024;
const server = await benchDatabase('casebook_bench_files');
const url = process.env.DATABASE_URL ? server.url : await ensureDatabase(server.url, 'casebook');
const handle = openDb(url, { max: 5 });
await migrate(handle.db);
const entity = await makeEntity(handle.db, { disk_quota_mb: 100_000 });
const user = await makeUser(handle.db, entity.id, { role: 'bench', rules: {} });
const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(SIZE)]);
const boundary = '----casebookbench';
const payload = Buffer.concat([
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
  bytes,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);

for (const store of ['disk', 'database'] as const) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'casebook-bench-files-'));
  const app = await buildApp({ config: loadConfig({ DATABASE_URL: url, DATA_DIR: dataDir, FILES_URL: store }), db: handle.db });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'Passw0rd1' } });
  const sid = login.cookies.find((c) => c.name === 'sid')?.value as string;
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { cookie: `sid=${sid}` };
  const times = { upload: [] as number[], download: [] as number[] };
  for (let i = 0; i < RUNS + 2; i++) {
    const t0 = performance.now();
    const up = await fetch(`${base}/api/files`, { method: 'POST', body: payload, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` } });
    const { id } = (await up.json()) as { id: string };
    const t1 = performance.now();
    if (up.status !== 201) throw new Error(`upload: ${up.status}`);
    const link = (await (await fetch(`${base}/api/files/${id}/link`, { headers })).json()) as { url: string };
    const t2 = performance.now();
    const down = Buffer.from(await (await fetch(`${base}${link.url}`)).arrayBuffer());
    const t3 = performance.now();
    if (down.length !== bytes.length) throw new Error('download: wrong length');
    if (i >= 2) {
      times.upload.push(t1 - t0);
      times.download.push(t3 - t2);
    }
  }
  const median = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)].toFixed(0);
  console.log(`${store}: 20 MB upload median ${median(times.upload)} ms, download median ${median(times.download)} ms (${RUNS} runs)`);
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
await handle.close();
await server.drop();
