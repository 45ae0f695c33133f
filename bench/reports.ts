/**
 * The reports at a million tasks: TASKS tasks (default 1,000,000) on
 * TASKS / 5 applications of the demo protocol over the last year, with their
 * history (every task's creation, every decision, submissions and endings)
 * and a comment on one application in four, generated in bulk with SQL in a
 * database of their own; then each report's views and the staff home's
 * dashboard asked through the real API (`server/main.ts` in its own process)
 * by 1 and by CLIENTS concurrent clients (default 4) for SECONDS each
 * (default 15). Writes the EXPLAIN (ANALYZE, BUFFERS) of the pivots'
 * statements to bench/explain/.
 * Targets (issue 19): p95 under 1 s for every report, under 300 ms for the dashboard.
 * Run: npx tsx bench/reports.ts   (TASKS, CLIENTS, SECONDS, DATABASE_URL, ONLY, KEEP_DB, REUSE_DB)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { ensureDatabase } from '../server/db/database.js';
import { EmbeddedPostgres } from '../server/db/embedded.js';
import { migrate } from '../server/db/migrate.js';
import { openDb } from '../server/db/pool.js';
import { seedDemo } from '../server/db/seed/demo.js';
import { RENTAL_PROTOCOL_CODE, seedDemoWorkflow } from '../server/db/seed/workflow.js';
import type { Database } from '../server/db/types.js';
import { actorForUser } from '../server/modules/auth/sessions.js';
import { dashboard, pivotReport, taskRows } from '../server/modules/reports/repo.js';
import { freePort, startServer } from '../tests/support/server-process.js';

const TASKS = Number(process.env.TASKS ?? 1_000_000);
const CASES = Math.ceil(TASKS / 5);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 15);
const STAFF = 40;

let embedded: EmbeddedPostgres | undefined;
let dir: string | undefined;
let url = process.env.DATABASE_URL;
if (!url) {
  dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-reports-'));
  embedded = await EmbeddedPostgres.start({ dataDir: dir, log: () => {} });
  url = embedded.url;
}
// REUSE_DB names a database a previous run kept (KEEP_DB=1, with DATABASE_URL): no generation, no drop.
const reuse = process.env.REUSE_DB;
const dbName = reuse ?? `casebook_reports_${Date.now()}`;
const dbUrl = await ensureDatabase(url, dbName);
const h = openDb(dbUrl, { max: 8 });
const report: string[] = [];
try {
  const m0 = performance.now();
  const migrated = await migrate(h.db);
  if (reuse && migrated.length) console.log(`migrated ${migrated.join(', ')} in ${((performance.now() - m0) / 1000).toFixed(1)} s`);
  const t0 = performance.now();
  if (!reuse) {
    await seedDemo(h.db);
    await seedDemoWorkflow(h.db, { publicUrl: 'http://localhost', smtpConfigured: false });
  }
  const p = await h.db.selectFrom('protocols').where('code', '=', RENTAL_PROTOCOL_CODE).select(['id', 'entity_id']).executeTakeFirstOrThrow();
  if (!reuse) await generate(p.entity_id, p.id);
  const generated = (performance.now() - t0) / 1000;

  // The server in its own process, as in production, so that the clients here do not share its event loop.
  const port = await freePort();
  const server = startServer({ DATABASE_URL: dbUrl, PORT: String(port), DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'casebook-reports-data-')), LOG_LEVEL: 'warn' }, {
    nodeArgs: process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean),
  });
  process.once('exit', () => server.proc.kill('SIGTERM'));
  await server.waitFor(/is running at/, 120_000);
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'coordinator@demo.test', password: 'Demo12345' }) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];

  const { today } = (await sql<{ today: string }>`select to_char(now() at time zone 'America/Bogota', 'YYYY-MM-DD') as today`.execute(h.db)).rows[0];
  const daysAgo = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
  const quarter = `from=${daysAgo(90)}&to=${today}`;
  const month = `from=${daysAgo(30)}&to=${today}`;
  const scenarios: Array<[string, string]> = [
    ['status by task: task x state, count, every task', '/api/reports/status-by-task/pivot'],
    ['status by task: last 90 days', `/api/reports/status-by-task/pivot?${quarter}`],
    ['status by task: team x state', '/api/reports/status-by-task/pivot?rows=team'],
    ['status by task: task x team, average days, decided tasks', '/api/reports/status-by-task/pivot?columns=team&measure=avgDays&state=ACCEPTED&state=REJECTED'],
    ['task details: first page and total, newest first', '/api/reports/task-details/rows'],
    ['task details: first page, pending of one team', '/api/reports/task-details/rows?state=PENDING&teamId=TEAM'],
    ['task details: task x month created, average days', '/api/reports/task-details/pivot?columns=createdMonth'],
    ['status by user: user x state, every task', '/api/reports/status-by-user/pivot'],
    ['tracking by case: first page of applications', '/api/reports/tracking-by-case/rows'],
    ['tracking by case: protocol x state, average days', '/api/reports/tracking-by-case/pivot'],
    ['tracking by case: state x month', '/api/reports/tracking-by-case/pivot?rows=state&columns=month&measure=count'],
    ['tracking by case: first page of comments, last 30 days', `/api/reports/tracking-by-case/comments?${month}`],
    ['tracking by user: user x action, all history', '/api/reports/tracking-by-user/pivot'],
    ['tracking by user: user x kind, last 30 days', `/api/reports/tracking-by-user/pivot?columns=kind&${month}`],
    ['tracking by user: first page of the spec rows, last 30 days', `/api/reports/tracking-by-user/rows?${month}`],
    ['tracking by user: first page of the spec rows, all history', '/api/reports/tracking-by-user/rows'],
    ['export: status by task as Excel', '/api/reports/status-by-task/export'],
    ['dashboard', '/api/reports/dashboard'],
  ];
  const teamId = (await h.db.selectFrom('teams').where('entity_id', '=', p.entity_id).select('id').orderBy('id').executeTakeFirstOrThrow()).id;

  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const get = (pathAndQuery: string) =>
    new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      const req = http.get(`${base}${pathAndQuery}`, { agent, headers: { cookie } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  const run = async (query: string, clients: number, seconds: number) => {
    const latencies: number[] = [];
    const end = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        // At least 3 requests per client, however slow.
        for (let i = 0; Date.now() < end || i < 3; i++) {
          const s = performance.now();
          const { status } = await get(query);
          if (status !== 200) throw new Error(`${query}: HTTP ${status}; the server said:\n${server.output().slice(-3000)}`);
          latencies.push(performance.now() - s);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const pct = (x: number) => `${latencies[Math.min(latencies.length - 1, Math.floor((x / 100) * latencies.length))].toFixed(0)} ms`;
    return { n: latencies.length, pct };
  };
  report.push(`| request | answer | 1 client: p50 / p95 | ${CLIENTS} clients: requests | p50 | p95 | p99 |`, '|---|---|---|---|---|---|---|');
  const only = process.env.ONLY?.split(',').filter(Boolean);
  for (const [name, rawQuery] of scenarios.filter(([n]) => !only || only.some((part) => n.includes(part)))) {
    const query = rawQuery.replace('TEAM', String(teamId));
    // What it answers, so that a wrong request is not measured as a fast one.
    const first = await fetch(`${base}${query}`, { headers: { cookie } });
    const body = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200) throw new Error(`${name}: HTTP ${first.status} ${body.toString().slice(0, 500)}`);
    let answer = `${(body.length / 1024).toFixed(0)} KiB`;
    if ((first.headers.get('content-type') ?? '').includes('json')) {
      const json = JSON.parse(body.toString()) as { total?: number | { count: number }; rowKeys?: unknown[]; columnKeys?: unknown[]; items?: unknown[] };
      if (json.rowKeys) answer = `${json.rowKeys.length} x ${json.columnKeys?.length ?? 0}, ${(json.total as { count: number }).count.toLocaleString('en')} counted`;
      else if (json.items) answer = `${json.items.length} rows of ${Number(json.total).toLocaleString('en')}`;
      else answer = 'tiles';
    }
    const alone = await run(query, 1, 4);
    const loaded = await run(query, CLIENTS, SECONDS);
    report.push(`| ${name} | ${answer} | ${alone.pct(50)} / ${alone.pct(95)} | ${loaded.n} | ${loaded.pct(50)} | ${loaded.pct(95)} | ${loaded.pct(99)} |`);
    console.log(report.at(-1));
  }

  // One long download: the task details of the whole tenant as CSV (100,000 rows, the cap), timed once.
  const d0 = performance.now();
  const csv = await get('/api/reports/task-details/export?format=csv');
  const d1 = performance.now();
  const xlsx = await get('/api/reports/task-details/export?format=xlsx');
  const d2 = performance.now();
  const downloads = `task details, 100,000 rows: CSV ${(csv.bytes / 1048576).toFixed(1)} MiB in ${((d1 - d0) / 1000).toFixed(1)} s, Excel ${(xlsx.bytes / 1048576).toFixed(1)} MiB in ${((d2 - d1) / 1000).toFixed(1)} s`;
  server.proc.kill('SIGTERM');
  await server.exited;

  await explainPlans(p.entity_id, teamId);
  console.log(`\n${TASKS.toLocaleString('en')} tasks on ${CASES.toLocaleString('en')} applications and their history generated in ${generated.toFixed(0)} s; ${CLIENTS} concurrent clients, ${SECONDS} s per request\n`);
  console.log(report.join('\n'));
  console.log(`\n${downloads}`);
} finally {
  await h.close();
  if (!embedded && (process.env.KEEP_DB || reuse)) console.log(`kept database ${dbName}`);
  else if (!embedded) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  } else {
    await embedded.stop();
    rmSync(dir as string, { recursive: true, force: true });
  }
}

/**
 * The data, set-based. Staff: the demo's and STAFF more spread over its
 * teams. Applications arrive one every ~2.6 minutes over the last year;
 * each has five tasks of the protocol two days apart, all decided but the
 * last of an open application; people, teams and outcomes are spread by a
 * hash, not by the order.
 */
async function generate(entityId: number, protocolId: number) {
  const db = h.db;
  const coordinator = await db.selectFrom('users').where('email', '=', 'coordinator@demo.test').select(['password_hash', 'role_id']).executeTakeFirstOrThrow();
  const reviewerRole = await db.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', 'reviewer').select('id').executeTakeFirstOrThrow();
  await sql`
    insert into users (entity_id, email, name, role_id, password_hash)
    select ${entityId}, 'staff' || g || '@bench.test', 'Staff ' || lpad(g::text, 2, '0'), ${reviewerRole.id}, ${coordinator.password_hash}
    from generate_series(1, ${STAFF}) g`.execute(db);
  await sql`
    insert into team_members (entity_id, team_id, user_id, role)
    select ${entityId}, t.id, u.id, 'member'
    from (select id, row_number() over (order by id) - 1 as i from users where email like '%@bench.test') u
    join (select id, row_number() over (order by id) - 1 as i, count(*) over () as n from teams where entity_id = ${entityId}) t on t.i = u.i % t.n
    on conflict do nothing`.execute(db);
  const seconds = Math.floor((365 * 86_400) / CASES);
  // Applications, in time order; their state by a hash.
  await sql`
    insert into cases (entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, serial, serial_month, serial_seq, doc_date, created_at, state, closed_at, data)
    select c.entity_id, c.project_id, c.protocol_id, c.protocol_version_id, c.form_version_id, c.owner_id, c.case_type,
      'B-' || lpad(g::text, 7, '0'), 'bench', g, now() - (${CASES} - g) * ${seconds} * interval '1 second', now() - (${CASES} - g) * ${seconds} * interval '1 second',
      s.state, case when s.state in ('SUCCESS', 'REJECTED', 'CLOSED') then now() - (${CASES} - g) * ${seconds} * interval '1 second' + interval '11 days' end,
      jsonb_build_object('firstName', 'Ana', 'lastName', 'Bench ' || g)
    from generate_series(1, ${CASES}) g
    cross join lateral (select (array['PENDING','PENDING','PENDING','PENDING','SUCCESS','SUCCESS','SUCCESS','REJECTED','REJECTED','CLOSED','INCONSISTENCY'])[1 + abs(hashint4(g)) % 11] as state) s,
      (select * from cases where protocol_id = ${protocolId} and serial is not null limit 1) c`.execute(db);
  // Five tasks each. The last task of an open application is open (overdue one time in four); the others were decided.
  await sql`
    with staff as (select array_agg(id order by id) as ids from users where entity_id = ${entityId} and role_id = ${reviewerRole.id}),
      crews as (select array_agg(id order by id) as ids from teams where entity_id = ${entityId})
    insert into tasks (entity_id, case_id, code, name, name_en, state, responsible_user_id, responsible_team_id, created_at, due_at, decided_at, decided_by, overdue, updated_at)
    select c.entity_id, c.id, (array['intake','documents','eligibility','landlord','payment'])[k + 1],
      (array['Revisión de ingreso','Verificación de documentos','Elegibilidad','Verificación del arrendador','Aprobación del pago'])[k + 1],
      (array['Intake review','Document verification','Eligibility','Landlord verification','Payment approval'])[k + 1],
      x.state, x.who, crews.ids[1 + (k % cardinality(crews.ids))], x.created, x.created + interval '3 days',
      case when x.state in ('ACCEPTED', 'REJECTED') then x.created + (abs(hashint4(c.id::int * 5 + k)) % 120) * interval '1 hour' end,
      case when x.state in ('ACCEPTED', 'REJECTED') then x.who end,
      x.state = 'PENDING' and abs(hashint4(c.id::int + k)) % 4 = 0, x.created
    from cases c cross join generate_series(0, 4) k cross join staff cross join crews
    cross join lateral (
      select c.doc_date + k * interval '2 days' as created,
        case when x0.unassigned then null else staff.ids[1 + abs(hashint4(c.id::int * 7 + k)) % cardinality(staff.ids)] end as who,
        case
          when k < 4 then case when abs(hashint4(c.id::int * 3 + k)) % 10 = 0 then 'REJECTED' else 'ACCEPTED' end
          when c.state = 'PENDING' then case when x0.unassigned then 'UNASSIGNED' else 'PENDING' end
          when c.state = 'SUCCESS' then 'ACCEPTED'
          when c.state = 'REJECTED' then 'REJECTED'
          when c.state = 'INCONSISTENCY' then 'INCONSISTENCY'
          else 'CLOSED'
        end as state
      from (select k = 4 and c.state = 'PENDING' and abs(hashint4(c.id::int)) % 5 = 0 as unassigned) x0
    ) x
    where c.serial_month = 'bench'`.execute(db);
  // The history: every task's creation (the system), every decision, submissions by the owner, and the ends of the applications.
  await sql`
    insert into case_events (entity_id, case_id, task_id, user_id, application_number, action, type, detail, created_at)
    select t.entity_id, t.case_id, t.id, null, c.serial, 'task_created', 'task', jsonb_build_object('code', t.code), t.created_at
    from tasks t join cases c on c.id = t.case_id where c.serial_month = 'bench'
    union all
    select t.entity_id, t.case_id, t.id, t.decided_by, c.serial, case when t.state = 'ACCEPTED' then 'task_accepted' else 'task_rejected' end, 'task', jsonb_build_object('code', t.code), t.decided_at
    from tasks t join cases c on c.id = t.case_id where c.serial_month = 'bench' and t.decided_at is not null
    union all
    select c.entity_id, c.id, null, c.owner_id, c.serial, 'case_submit', 'case', '{"from":"DRAFT","to":"PENDING"}'::jsonb, c.doc_date
    from cases c where c.serial_month = 'bench'
    union all
    select c.entity_id, c.id, null, (select id from users where email = 'coordinator@demo.test'), c.serial,
      case c.state when 'SUCCESS' then 'case_complete' when 'REJECTED' then 'case_reject' else 'case_close' end, 'case',
      jsonb_build_object('from', 'PENDING', 'to', c.state), c.closed_at
    from cases c where c.serial_month = 'bench' and c.closed_at is not null`.execute(db);
  // A comment on one application in four, by its first task's responsible.
  await sql`
    with written as (
      insert into comments (entity_id, case_id, number, body, case_state, author_id, created_at)
      select c.entity_id, c.id, 1, 'Documents checked for application ' || c.serial, c.state, t.responsible_user_id, c.doc_date + interval '1 day'
      from cases c join tasks t on t.case_id = c.id and t.code = 'intake'
      where c.serial_month = 'bench' and c.id % 4 = 0
      returning entity_id, case_id, author_id, created_at)
    insert into case_events (entity_id, case_id, user_id, application_number, action, type, detail, created_at)
    select w.entity_id, w.case_id, w.author_id, c.serial, 'comment_added', 'comment', '{"number":1}'::jsonb, w.created_at from written w join cases c on c.id = w.case_id`.execute(db);
  // What autovacuum does on a live database (the machine's PostgreSQL runs with it off): statistics and the visibility map.
  for (const table of ['cases', 'tasks', 'case_events', 'comments', 'users', 'team_members']) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
}

/** The statements behind the pivots, the task details' page and the dashboard, as the server sends them, with their plans. */
async function explainPlans(entityId: number, teamId: number) {
  const captured: CompiledQuery[] = [];
  const pool = new pg.Pool({ connectionString: dbUrl, max: 2 });
  const logged = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (e) => void captured.push(e.query) });
  const coordinator = await h.db.selectFrom('users').where('email', '=', 'coordinator@demo.test').where('entity_id', '=', entityId).select('id').executeTakeFirstOrThrow();
  const actor = { ...(await actorForUser(h.db, coordinator.id)), language: 'en' as const };
  const plans: Array<[string, () => Promise<unknown>, (q: CompiledQuery) => boolean]> = [
    ['reports-status-by-task', () => pivotReport(logged, actor, 'status-by-task', {}), (q) => q.sql.includes('grouping sets')],
    ['reports-status-by-task-by-team', () => pivotReport(logged, actor, 'status-by-task', { rows: 'team' }), (q) => q.sql.includes('grouping sets')],
    ['reports-status-by-user', () => pivotReport(logged, actor, 'status-by-user', {}), (q) => q.sql.includes('grouping sets')],
    ['reports-tracking-by-case', () => pivotReport(logged, actor, 'tracking-by-case', {}), (q) => q.sql.includes('grouping sets')],
    ['reports-tracking-by-user', () => pivotReport(logged, actor, 'tracking-by-user', {}), (q) => q.sql.includes('grouping sets')],
    ['reports-task-details-page', () => taskRows(logged, actor, { page: 1, limit: 20, teamId, state: 'PENDING' }), (q) => q.sql.includes('limit')],
    ['reports-dashboard-decisions', () => dashboard(logged, actor), (q) => q.sql.includes("filter (where t.state = 'ACCEPTED')")],
    ['reports-dashboard-average-days', () => dashboard(logged, actor), (q) => q.sql.includes("avg(date_part('epoch'")],
  ];
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  mkdirSync(path.join('bench', 'explain'), { recursive: true });
  for (const [file, call, pick] of plans) {
    captured.length = 0;
    await call();
    const q = captured.find(pick);
    if (!q) throw new Error(`${file}: the statement was not seen`);
    await client.query(`explain (analyze, buffers) ${q.sql}`, [...q.parameters]);
    const res = await client.query(`explain (analyze, buffers) ${q.sql}`, [...q.parameters]);
    writeFileSync(path.join('bench', 'explain', `${file}.txt`), `${q.sql}\n\nparameters: ${JSON.stringify(q.parameters)}\n\n${res.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
  }
  await client.end();
  await logged.destroy();
}
