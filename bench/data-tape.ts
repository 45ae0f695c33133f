/**
 * The data tape (issue 19) over CASES applications of the demo's rental
 * protocol (its form flattened: the household's members numbered, up to five
 * here), written as CSV and as Excel by the job itself (`tapeExportJob`),
 * each in a process of its own so that its peak resident memory is the
 * job's: seconds, peak RSS, the file's size and columns.
 * Applications are written straight into `cases` (the engine's cost is not
 * what is measured here).
 * Run: node --import tsx bench/data-tape.ts   (CASES, default 100,000; DATABASE_URL for a server's database)
 */
import '../server/heap.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { ensureDatabase } from '../server/db/database.js';
import { migrate } from '../server/db/migrate.js';
import { openDb } from '../server/db/pool.js';
import { seedDemo } from '../server/db/seed/demo.js';
import { RENTAL_PROTOCOL_CODE, seedDemoWorkflow } from '../server/db/seed/workflow.js';
import { actorForUser } from '../server/modules/auth/sessions.js';
import { tapeExportJob } from '../server/modules/datatape/export.js';
import { insertTapeExport, tapeConfig } from '../server/modules/datatape/repo.js';
import { benchDatabase } from './support.js';

const CASES = Number(process.env.CASES ?? 100_000);

if (process.argv[2] === 'child') {
  const [url, id, userId] = process.argv.slice(3) as [string, string, string];
  const h = openDb(url, { max: 4 });
  const log = { warn: () => {}, error: (o: unknown) => console.error(o), info: () => {} } as never;
  const started = performance.now();
  await tapeExportJob(h.db, log, { id, userId: Number(userId) }, { retryCount: 1, lastTry: true });
  console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, peakMiB: process.resourceUsage().maxRSS / 1024 }));
  await h.close();
} else {
  const server = await benchDatabase('tape');
  // A database of this run's own, dropped at the end (on a shared server a second run would find the first's cases).
  const dbName = `casebook_tape_${Date.now().toString(36)}`;
  const url = await ensureDatabase(server.url, dbName);
  const h = openDb(url, { max: 4 });
  try {
    await migrate(h.db);
    await seedDemo(h.db);
    await seedDemoWorkflow(h.db, { publicUrl: 'http://localhost', smtpConfigured: false });
    const p = await h.db.selectFrom('protocols').where('code', '=', RENTAL_PROTOCOL_CODE).select(['id', 'entity_id', 'published_version']).executeTakeFirstOrThrow();
    const v = await h.db.selectFrom('protocol_versions').where('protocol_id', '=', p.id).where('version', '=', p.published_version as number).select(['id', 'definition']).executeTakeFirstOrThrow();
    const project = await h.db.selectFrom('projects').where('entity_id', '=', p.entity_id).where('is_default', '=', true).select('id').executeTakeFirstOrThrow();
    const coordinator = await h.db.selectFrom('users').where('email', '=', 'coordinator@demo.test').select('id').executeTakeFirstOrThrow();
    const t0 = performance.now();
    await sql`
      insert into cases (entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, state, data, serial, serial_month, serial_seq, doc_date)
      select ${p.entity_id}, ${project.id}, ${p.id}, ${v.id}, ${(v.definition as { mainFormVersionId: number }).mainFormVersionId}, ${coordinator.id}, 'RADICACION_PUBLICA',
        (array['PENDING', 'SUCCESS', 'REJECTED', 'CLOSED'])[1 + g % 4]::text,
        jsonb_build_object(
          'firstName', 'Nombre' || g, 'lastName', 'Apellido ' || g, 'documentType', 'CC', 'documentNumber', (3000000000 + g)::text,
          'email', 'p' || g || '@example.org', 'phone', '3001234567', 'departamento', '76', 'municipio', '76001', 'zipCode', '76001',
          'payRent', 500 + g % 900, 'sourceSNAP', g % 2 = 0, 'housing_assistance', g % 3 = 0, 'working_third_party', false,
          'householdInformation', (select jsonb_agg(jsonb_build_object('memberName', 'Miembro ' || m, 'relationship', case when m = 1 then 'self' else 'child' end, 'age', 5 + m * 7))
                                   from generate_series(1, 1 + g % 5) m)),
        '2025-01-' || lpad(g::text, 6, '0'), '2025-01', g, now() - make_interval(days => g % 180)
      from generate_series(1, ${CASES}) g`.execute(h.db);
    console.log(`\n${CASES.toLocaleString('en')} applications written in ${((performance.now() - t0) / 1000).toFixed(1)} s; Node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1)}\n`);
    const actor = await actorForUser(h.db, coordinator.id);
    const { columns } = await tapeConfig(h.db, actor, p.id);
    console.log('| format | seconds | peak RSS MiB | file MiB | columns | chunks |\n|---|---|---|---|---|---|');
    for (const format of ['csv', 'xlsx'] as const) {
      const id = `bench-${format}-${Date.now().toString(36)}-tape`;
      await insertTapeExport(h.db, actor, { id, protocolId: p.id, format, headers: 'en', columns });
      const child = spawnSync(process.execPath, [...(process.env.CHILD_ARGS ? process.env.CHILD_ARGS.split(' ') : []), '--import', 'tsx', fileURLToPath(import.meta.url), 'child', url, id, String(coordinator.id)], { encoding: 'utf8' });
      if (child.status !== 0) throw new Error(child.stderr);
      const r = JSON.parse(child.stdout.trim().split('\n').pop() as string) as { seconds: number; peakMiB: number };
      const x = await h.db.selectFrom('data_tape_exports').where('id', '=', id).select(['state', 'done', 'bytes', 'column_count', 'error']).executeTakeFirstOrThrow();
      if (x.state !== 'done') throw new Error(`${format}: ${x.state} ${x.error}`);
      const chunks = await h.db.selectFrom('data_tape_chunks').where('export_id', '=', id).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      console.log(`| ${format} | ${r.seconds.toFixed(1)} | ${Math.round(r.peakMiB)} | ${((x.bytes ?? 0) / 1048576).toFixed(1)} | ${x.column_count} | ${chunks.n} |`);
    }
  } finally {
    await h.close();
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    await server.drop();
  }
}
