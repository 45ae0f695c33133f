/**
 * The tenant-led indexes (migration 0034) before and after: the reads that
 * used the replaced indexes, run through the app's own finders on a seeded
 * database, each SQL statement they sent explained with
 * EXPLAIN (ANALYZE, BUFFERS); first with 0034 rolled back (its `down`), then
 * applied again. Also a draft's deletion, whose foreign keys look up every
 * child table by the case.
 *
 * Two tenants: CASES cases (default 60,000; at least 100,000 tasks from 25,000) in the demo tenant and a third as
 * many in the other, three tasks, five history rows, two notifications each,
 * a comment (with a mention and a document mark) every other case, a
 * participant every tenth; owners spread over 2,000 applicants.
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/tenant-indexes.ts
 *      (without DATABASE_URL an embedded PostgreSQL in a temporary directory). PLANS=1 prints the plans.
 */
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import { FileMigrationProvider, Migrator } from 'kysely/migration';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrate, MIGRATIONS_DIR } from '../server/db/migrate.js';
import { seedDemo } from '../server/db/seed/demo.js';
import { seedDemoWorkflow } from '../server/db/seed/workflow.js';
import type { Database } from '../server/db/types.js';
import { actorForUser } from '../server/modules/auth/sessions.js';
import { caseHistory, deleteDraft, listCases } from '../server/modules/cases/repo.js';
import { listThread } from '../server/modules/comments/repo.js';
import { listNotifications } from '../server/modules/notifications/repo.js';
import { caseTimeline, listPending } from '../server/modules/tasks/repo.js';
import { benchDatabase } from './support.js';

const CASES = Number(process.env.CASES ?? 60_000);
const database = await benchDatabase('casebook_tenant_idx');
const pool = new pg.Pool({ connectionString: database.url, max: 4 });
let captured: CompiledQuery[] = [];
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool }),
  log: (event) => {
    if (event.level === 'query') captured.push(event.query);
  },
});

async function generate(): Promise<void> {
  await seedDemo(db);
  await seedDemoWorkflow(db, { publicUrl: 'http://localhost', smtpConfigured: false });
  const other = Math.round(CASES / 3);
  // Applicants: copies of the demo applicant (every column but the unique ones).
  await sql`
    insert into users select (jsonb_populate_record(null::users, to_jsonb(u) - 'id' || jsonb_build_object(
      'id', nextval(pg_get_serial_sequence('users', 'id')), 'email', 'bench' || g || '@demo.test', 'docnumber', 'B' || g))).*
    from users u, generate_series(1, 2000) g where u.email = 'applicant@demo.test'`.execute(db);
  await sql`create temporary table apps as select id, row_number() over (order by id) - 1 as n from users where email like 'bench%'`.execute(db);
  const t = (await sql<{ id: number; entity_id: number }>`select id, entity_id from cases where serial is not null order by id limit 1`.execute(db)).rows[0];
  const otherEntity = (await sql<{ id: number; project: number }>`select e.id, (select p.id from projects p where p.entity_id = e.id order by p.id limit 1) project from entities e where e.id <> ${t.entity_id} order by e.id limit 1`.execute(db)).rows[0];
  await sql`
    insert into cases (entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, serial, serial_month, serial_seq, doc_date, state, data, possible_duplicated)
    select case when g <= ${CASES} then c.entity_id else ${otherEntity.id} end, case when g <= ${CASES} then c.project_id else ${otherEntity.project} end,
      c.protocol_id, c.protocol_version_id, c.form_version_id,
      a.id, c.case_type,
      '2020-01-' || lpad((1000000 + g)::text, 7, '0'), '2020-01', 1000000 + g, now() - (${CASES + other} - g) * interval '5 minutes',
      (array['PENDING','PENDING','PENDING','SUCCESS','REJECTED','CLOSED'])[1 + abs(hashint4(g)) % 6],
      jsonb_build_object('firstName', (array['Ana','Luis','María','José','Camila','Jorge','Laura','Andrés','Sofía','Diego'])[1 + g % 10],
        'lastName', (array['Gómez','Pérez','López','Díaz','Torres','Ramírez','Moreno','Vargas','Castro','Rojas'])[1 + (g / 10) % 10] || ' ' || (g % 997),
        'documentType', 'CC', 'documentNumber', (3000000000 + (g::bigint * 7919) % ${CASES + other})::text,
        'municipio', (array['05001','11001','76001','08001','25754'])[1 + abs(hashint4(g + 7)) % 5]),
      g % 50 = 0
    from generate_series(1, ${CASES + other}) g join apps a on a.n = g % 2000, (select * from cases where id = ${t.id}) c`.execute(db);
  // Staff of each tenant, who the tasks and notifications go to.
  await sql`create temporary table staff as select id, entity_id, row_number() over (partition by entity_id order by id) - 1 as n, count(*) over (partition by entity_id) as k
    from users where email not like 'bench%' and email not like 'applicant%'`.execute(db);
  await sql`
    insert into tasks (entity_id, case_id, code, name, state, responsible_user_id, due_at, created_at)
    select c.entity_id, c.id, x.code, x.code, case when x.i = 3 and c.state = 'PENDING' then 'PENDING' else 'ACCEPTED' end,
      (select s.id from staff s where s.entity_id = c.entity_id and s.n = (c.id + x.i) % s.k), c.doc_date + interval '2 days', c.doc_date + x.i * interval '1 hour'
    from cases c, (values (1, 'intake'), (2, 'review'), (3, 'payment')) x(i, code) where c.serial_month = '2020-01'`.execute(db);
  await sql`
    insert into case_events (entity_id, case_id, user_id, application_number, action, type, detail, created_at)
    select c.entity_id, c.id, c.owner_id, c.serial, 'case_' || i, 'case', '{}'::jsonb, c.doc_date + i * interval '1 minute'
    from cases c, generate_series(1, 5) i where c.serial_month = '2020-01'`.execute(db);
  await sql`
    insert into comments (entity_id, case_id, number, body, visible_to_applicant, case_state, author_id, created_at)
    select c.entity_id, c.id, 1, 'Please send the lease', true, c.state, (select s.id from staff s where s.entity_id = c.entity_id and s.n = c.id % s.k), c.doc_date + interval '1 day'
    from cases c where c.serial_month = '2020-01' and c.id % 2 = 0`.execute(db);
  await sql`insert into comment_mentions (entity_id, comment_id, user_id) select cm.entity_id, cm.id, c.owner_id from comments cm join cases c on c.id = cm.case_id where c.serial_month = '2020-01'`.execute(db);
  await sql`
    insert into case_document_marks (entity_id, case_id, code, mark, comment_id, user_id)
    select cm.entity_id, cm.case_id, 'lease', 'missing', cm.id, cm.author_id from comments cm join cases c on c.id = cm.case_id where c.serial_month = '2020-01'`.execute(db);
  await sql`
    insert into case_participants (entity_id, case_id, user_id)
    select c.entity_id, c.id, a.id from cases c join apps a on a.n = (c.id * 7) % 2000 where c.serial_month = '2020-01' and c.id % 10 = 0
    on conflict do nothing`.execute(db);
  await sql`
    insert into notifications (entity_id, user_id, kind, case_id, created_at)
    select t.entity_id, t.responsible_user_id, 'task_assigned', t.case_id, t.created_at from tasks t join cases c on c.id = t.case_id where c.serial_month = '2020-01' and t.code in ('review', 'payment')`.execute(db);
  for (const table of ['cases', 'tasks', 'case_events', 'comments', 'comment_mentions', 'case_document_marks', 'case_participants', 'notifications', 'users']) {
    await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  }
}

type Row = { name: string; statements: Array<{ sql: string; ms: number; buffers: number; plan: string }> };

/** Runs `read` once to warm up, then captures its statements and explains each one. */
async function measure(name: string, read: () => Promise<unknown>): Promise<Row> {
  await read();
  captured = [];
  await read();
  const statements: Row['statements'] = [];
  for (const q of [...captured].sort((x, y) => x.sql.localeCompare(y.sql))) {
    if (!/^\s*select/i.test(q.sql)) continue;
    const client = await pool.connect();
    try {
      // The median of five runs.
      const runs: Array<{ Plan: Record<string, number>; 'Execution Time': number }> = [];
      for (let i = 0; i < 5; i++) {
        const r = await client.query(`explain (analyze, buffers, format json) ${q.sql}`, q.parameters as unknown[]);
        runs.push(r.rows[0]['QUERY PLAN'][0]);
      }
      const plan = runs.sort((x, y) => x['Execution Time'] - y['Execution Time'])[2];
      const text = (await client.query(`explain (analyze, buffers, costs off, timing off, summary off) ${q.sql}`, q.parameters as unknown[])).rows.map((x) => x['QUERY PLAN']).join('\n');
      statements.push({ sql: q.sql, ms: plan['Execution Time'], buffers: (plan.Plan['Shared Hit Blocks'] ?? 0) + (plan.Plan['Shared Read Blocks'] ?? 0), plan: text });
    } finally {
      client.release();
    }
  }
  return { name, statements };
}

async function deleteDrafts(actor: Awaited<ReturnType<typeof actorForUser>>, n: number): Promise<number> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = (await sql<{ id: number }>`
      insert into cases (entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, state, data)
      select entity_id, project_id, protocol_id, protocol_version_id, form_version_id, ${actor.userId}, case_type, 'DRAFT', '{}'::jsonb from cases where serial_month = '2020-01' and entity_id = ${actor.entityId} limit 1
      returning id`.execute(db)).rows[0];
    ids.push(row.id);
  }
  const t0 = performance.now();
  for (const id of ids) await deleteDraft(db, actor, id);
  return (performance.now() - t0) / n;
}

async function round(label: string): Promise<{ label: string; rows: Row[]; draftMs: number }> {
  const ids = (await sql<{ staff: number; applicant: number; participant: number; entity: number; kase: number }>`
    select (select id from users where email = 'coordinator@demo.test') staff,
           (select owner_id from cases where serial_month = '2020-01' order by id limit 1) applicant,
           (select p.user_id from case_participants p order by p.case_id limit 1) participant,
           (select entity_id from cases where serial_month = '2020-01' order by id limit 1) entity,
           (select c.id from cases c where c.serial_month = '2020-01' and c.id % 2 = 0 and c.entity_id = (select entity_id from cases where serial_month = '2020-01' order by id limit 1) order by c.id desc limit 1) kase`.execute(db)).rows[0];
  const staff = await actorForUser(db, ids.staff);
  const applicant = await actorForUser(db, ids.applicant);
  const participant = await actorForUser(db, ids.participant);
  const rows = [
    await measure('the pendings list (a coordinator)', () => listPending(db, staff, { page: 1, limit: 20 })),
    await measure("a case's tasks", () => caseTimeline(db, staff, ids.kase)),
    await measure("a case's history", () => caseHistory(db, staff, ids.kase)),
    await measure("a case's comments", () => listThread(db, staff, ids.kase)),
    await measure('the bell', () => listNotifications(db, staff)),
    await measure("the applicant's cases", () => listCases(db, applicant, { page: 1, limit: 20, count: true } as never)),
    await measure("a participant's cases", () => listCases(db, participant, { page: 1, limit: 20, count: true } as never)),
    await measure('the case list, first page (staff: open tasks per case)', () => listCases(db, staff, { page: 1, limit: 20, count: false } as never)),
  ];
  const draftMs = await deleteDrafts(applicant, 20);
  return { label, rows, draftMs };
}

try {
  const g0 = performance.now();
  await migrate(db);
  await generate();
  console.log(`generated in ${((performance.now() - g0) / 1000).toFixed(0)} s: ${(await sql<{ n: string }>`select count(*) n from tasks`.execute(db)).rows[0].n} tasks, ${(await sql<{ n: string }>`select count(*) n from cases`.execute(db)).rows[0].n} cases`);
  const migrator = new Migrator({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR, import: (p: string) => import(p) }) });
  const down = await migrator.migrateDown();
  if (down.error || down.results?.[0]?.migrationName !== '0034_tenant_led_indexes') throw down.error ?? new Error(`rolled back ${down.results?.[0]?.migrationName}`);
  await sql`analyze`.execute(db);
  const before = await round('before (0034 rolled back)');
  const m0 = performance.now();
  const up = await migrator.migrateUp();
  if (up.error) throw up.error;
  console.log(`0034 applied in ${((performance.now() - m0) / 1000).toFixed(1)} s`);
  const after = await round('after (0034)');
  console.log('\n| read | before: ms (buffers) | after: ms (buffers) |\n|---|---|---|');
  for (let i = 0; i < before.rows.length; i++) {
    const b = before.rows[i];
    const a = after.rows[i];
    const cell = (r: Row) => r.statements.map((s) => `${s.ms.toFixed(2)} (${s.buffers})`).join(' + ');
    console.log(`| ${b.name} | ${cell(b)} | ${cell(a)} |`);
  }
  console.log(`| a draft deleted (foreign keys of its rows), mean of 20 | ${before.draftMs.toFixed(2)} | ${after.draftMs.toFixed(2)} |`);
  if (process.env.PLANS) {
    for (const r of [before, after]) {
      console.log(`\n===== ${r.label}`);
      for (const row of r.rows) for (const s of row.statements) console.log(`\n-- ${row.name}\n${s.sql}\n${s.plan}`);
    }
  }
} finally {
  await db.destroy();
  await database.drop();
}
