/**
 * Accept throughput of the task engine: N open cases, then every intake task
 * accepted by C concurrent workers through acceptTask (form validation, next
 * tasks with team assignment and due dates, audit rows, notifications: the
 * full transaction). Runs on the embedded PostgreSQL (fsync on, as the
 * product runs), or on DATABASE_URL when set.
 * Run: npx tsx bench/accept-throughput.ts   (CASES=2000 WORKERS=16)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import pg_ from 'pg';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase } from '../server/db/database.js';
import { EmbeddedPostgres } from '../server/db/embedded.js';
import { migrate } from '../server/db/migrate.js';
import { openDb } from '../server/db/pool.js';
import { seedDemo } from '../server/db/seed/demo.js';
import { RENTAL_PROTOCOL_CODE, seedDemoWorkflow } from '../server/db/seed/workflow.js';
import { actorForUser } from '../server/modules/auth/sessions.js';
import { createDraft, submitCaseInTrx } from '../server/modules/cases/commands.js';
import { acceptTask, type EngineEnv } from '../server/modules/workflow/engine.js';

const CASES = Number(process.env.CASES ?? 2000);
const WORKERS = Number(process.env.WORKERS ?? 16);
const env: EngineEnv = { publicUrl: 'http://localhost:3000', smtpConfigured: false };

let pg: EmbeddedPostgres | undefined;
let dir: string | undefined;
let url = process.env.DATABASE_URL;
if (!url) {
  dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'casebook-bench-'));
  pg = await EmbeddedPostgres.start({ dataDir: dir, log: () => {} });
  url = pg.url;
}
const dbName = `casebook_bench_${Date.now()}`;
const h = openDb(await ensureDatabase(url, dbName), { max: WORKERS + 4 });
try {
  await migrate(h.db);
  await seedDemo(h.db);
  await seedDemoWorkflow(h.db, env);
  const protocol = await h.db.selectFrom('protocols').where('code', '=', RENTAL_PROTOCOL_CODE).select('id').executeTakeFirstOrThrow();
  const project = await h.db.selectFrom('projects').where('uid', '=', 'applications').select('id').executeTakeFirstOrThrow();
  const applicant = await actorForUser(h.db, (await h.db.selectFrom('users').where('email', '=', 'applicant@demo.test').select('id').executeTakeFirstOrThrow()).id);
  const coordinator = await actorForUser(h.db, (await h.db.selectFrom('users').where('email', '=', 'coordinator@demo.test').select('id').executeTakeFirstOrThrow()).id);
  const data = (i: number) => ({
    firstName: 'Bench', lastName: `Case ${i}`, documentType: 'CC', documentNumber: `9${i}`, email: `b${i}@example.org`, phone: '3001234567',
    departamento: '11', municipio: '11001', zipCode: '11001', payRent: 900, householdInformation: [{ memberName: 'Bench', relationship: 'self', age: 40 }],
  });

  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      for (let i = next++; i < CASES; i = next++) {
        await h.db.transaction().execute(async (trx) => {
          const id = await createDraft(trx, applicant, { protocolId: protocol.id, projectId: project.id, ownerId: applicant.userId, data: data(i) });
          await submitCaseInTrx(trx, env, applicant, id);
        });
      }
    }),
  );
  const submitSeconds = (performance.now() - t0) / 1000;

  const tasks = (await h.db.selectFrom('tasks').where('code', '=', 'intake').where('state', '=', 'PENDING').select('id').orderBy('id').execute()).map((t) => t.id);
  const latencies: number[] = [];
  const cpu0 = process.cpuUsage();
  const t1 = performance.now();
  let k = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      for (let i = k++; i < tasks.length; i = k++) {
        const s = performance.now();
        await acceptTask(h.db, env, coordinator, tasks[i], { data: { complete: 'yes' } });
        latencies.push(performance.now() - s);
      }
    }),
  );
  const acceptSeconds = (performance.now() - t1) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const nodeCpu = (cpu.user + cpu.system) / 1e6;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
  console.log(`| measure | result |`);
  console.log(`|---|---|`);
  console.log(`| cases submitted (validation, numbering, first task assigned) | ${CASES} in ${submitSeconds.toFixed(1)} s = ${(CASES / submitSeconds).toFixed(0)}/s |`);
  console.log(`| tasks accepted, ${WORKERS} concurrent workers | ${tasks.length} in ${acceptSeconds.toFixed(1)} s = **${(tasks.length / acceptSeconds).toFixed(0)} accepts/s** |`);
  console.log(`| accept latency p50 / p95 / p99 | ${pct(50)} / ${pct(95)} / ${pct(99)} ms |`);
  console.log(`| Node CPU during the accepts (one core = 100%) | ${((nodeCpu / acceptSeconds) * 100).toFixed(0)}% |`);
  console.log(`| database | ${pg ? 'embedded PostgreSQL 18, fsync on' : 'DATABASE_URL'} |`);
} finally {
  await h.close();
  if (!pg) {
    // On a shared server, leave nothing behind.
    const admin = new pg_.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
  if (pg) await pg.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
