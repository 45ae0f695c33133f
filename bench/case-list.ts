/**
 * The case list at scale: CASES cases (default 1,000,000) with a task each,
 * generated in bulk with SQL, then GET /api/cases with a form-field filter
 * hit by CLIENTS concurrent clients (default 20) over HTTP for SECONDS; the
 * server runs in its own process (`server/main.ts` on the same database).
 * Writes the EXPLAIN (ANALYZE, BUFFERS) of the hot queries to bench/explain/.
 * Target (issue 6): p95 under 50 ms.
 * Run: npx tsx bench/case-list.ts   (CASES, CLIENTS, SECONDS, DATABASE_URL, ONLY, KEEP_DB, REUSE_DB)
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { encodeSearch } from '../core/cases/search.js';
import { ensureDatabase } from '../server/db/database.js';
import { EmbeddedPostgres } from '../server/db/embedded.js';
import { migrate } from '../server/db/migrate.js';
import { openDb } from '../server/db/pool.js';
import { seedDemo } from '../server/db/seed/demo.js';
import { RENTAL_PROTOCOL_CODE, seedDemoWorkflow } from '../server/db/seed/workflow.js';
import { caseTextSearch, gatherThenSort } from '../server/modules/cases/textSearch.js';
import { freePort, startServer } from '../tests/support/server-process.js';

/** CPU seconds (user + system) spent so far by the processes that pass `which` and their ended children, from /proc (Linux). */
function cpuSeconds(which: (pid: number, comm: string) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!which(pid, comm)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, and the cutime, cstime of children that ended (fields 14 to 17 of stat): a backend
      // that exits meanwhile is then still counted, in its postmaster.
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // the process ended while we looked
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** The search box's texts measured: [what it is, what is typed]. Each finds something in the generated data. */
const TEXT_SEARCHES: Array<[string, string]> = [
  ['a rare last name', 'Rivera'],
  ['a common last name without its accent (10% of cases)', 'perez'],
  ['a full name', 'Marisol Rivera'],
  ['a common full name (1% of cases)', 'Ana Gómez'],
  ['a full name and a two-digit word', 'María Pérez 42'],
  ['a document number', '3000012345'],
  ['a document number prefix (1,000 cases)', '3000012'],
  // Case numbers do follow it: these are the oldest 1,000 cases, the far end of a newest-first walk.
  ['a case number prefix (1,000 cases)', '2020-01-1010'],
];

const CASES = Number(process.env.CASES ?? 1_000_000);
const CLIENTS = Number(process.env.CLIENTS ?? 20);
const SECONDS = Number(process.env.SECONDS ?? 20);

let embedded: EmbeddedPostgres | undefined;
let dir: string | undefined;
let url = process.env.DATABASE_URL;
if (!url) {
  dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-list-'));
  embedded = await EmbeddedPostgres.start({ dataDir: dir, log: () => {} });
  url = embedded.url;
}
// REUSE_DB names a database a previous run kept (KEEP_DB=1, with DATABASE_URL): no generation, no drop.
const reuse = process.env.REUSE_DB;
const dbName = reuse ?? `casebook_list_${Date.now()}`;
const dbUrl = await ensureDatabase(url, dbName);
const h = openDb(dbUrl, { max: CLIENTS + 4 });
const report: string[] = [];
try {
  const m0 = performance.now();
  const migrated = await migrate(h.db);
  // On a kept database, what a new migration costs at this size (an index built over every case, say).
  if (reuse && migrated.length) console.log(`migrated ${migrated.join(', ')} in ${((performance.now() - m0) / 1000).toFixed(1)} s`);
  const t0 = performance.now();
  if (!reuse) {
    await seedDemo(h.db);
    await seedDemoWorkflow(h.db, { publicUrl: 'http://localhost', smtpConfigured: false });
  }
  const p = await h.db.selectFrom('protocols').where('code', '=', RENTAL_PROTOCOL_CODE).select(['id', 'entity_id']).executeTakeFirstOrThrow();
  if (!reuse) {
    // Cases in bulk, one task each. Like real ones they arrive in time order (one every 30 s over about a
    // year, so the heap follows doc_date), and state and city do not follow the order (spread by a hash).
    await sql`
      insert into cases (entity_id, project_id, protocol_id, protocol_version_id, form_version_id, owner_id, case_type, serial, serial_month, serial_seq, doc_date, state, data, possible_duplicated)
      select c.entity_id, c.project_id, c.protocol_id, c.protocol_version_id, c.form_version_id, c.owner_id, c.case_type,
        '2020-01-' || lpad((1000000 + g)::text, 7, '0'), '2020-01', 1000000 + g, now() - (${CASES} - g) * interval '30 seconds',
        (array['PENDING','PENDING','PENDING','SUCCESS','REJECTED','CLOSED'])[1 + abs(hashint4(g)) % 6],
        jsonb_build_object(
          -- One case in 10,007 is a Marisol Rivera: a name few applicants share, as most names are.
          'firstName', case when g % 10007 = 0 then 'Marisol' else (array['Ana','Luis','María','José','Camila','Jorge','Laura','Andrés','Sofía','Diego'])[1 + g % 10] end,
          'lastName', case when g % 10007 = 0 then 'Rivera' else (array['Gómez','Pérez','López','Díaz','Torres','Ramírez','Moreno','Vargas','Castro','Rojas'])[1 + (g / 10) % 10] end || ' ' || (g % 997),
          -- Document numbers do not follow the order in which people apply: a permutation of g.
          'documentType', 'CC', 'documentNumber', (3000000000 + (g::bigint * 7919) % ${CASES})::text, 'municipio', (array['05001','11001','76001','08001','25754'])[1 + abs(hashint4(g + 7)) % 5],
          'payRent', 300 + (g::bigint * 7919) % 2000, 'housing_assistance', g % 3 = 0, 'email', 'a' || g || '@example.org'),
        g % 50 = 0
      from generate_series(1, ${CASES}) g, (select * from cases where protocol_id = ${p.id} and serial is not null limit 1) c`.execute(h.db);
    await sql`
      insert into tasks (entity_id, case_id, code, name, state, responsible_team_id, due_at)
      select c.entity_id, c.id, 'intake', 'Intake review', case when c.state = 'PENDING' then 'PENDING' else 'ACCEPTED' end, null, c.doc_date + interval '2 days'
      from cases c where c.serial_month = '2020-01'`.execute(h.db);
    // What autovacuum does on a live database (the machine's PostgreSQL here runs with it off): statistics
    // for the planner and a visibility map for index-only scans.
    await sql`vacuum analyze cases`.execute(h.db);
    await sql`vacuum analyze tasks`.execute(h.db);
  }
  const generated = (performance.now() - t0) / 1000;

  // The server in its own process, as in production, so that the clients here do not share its event loop.
  const port = await freePort();
  const server = startServer({ DATABASE_URL: dbUrl, PORT: String(port), DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'casebook-list-data-')), LOG_LEVEL: 'warn' }, {
    // SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server.
    nodeArgs: process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean),
  });
  // A failed run must not leave the server behind.
  process.once('exit', () => server.proc.kill('SIGTERM'));
  await server.waitFor(/is running at/, 120_000);
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'coordinator@demo.test', password: 'Demo12345' }) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];

  // Each filter as the list screen asks for it: the page without a count, and the count once per filter.
  const filters: Array<[string, string]> = [
    ['document number (equality on a form field)', `filters=${encodeURIComponent(encodeSearch([{ column: 'data.documentNumber', op: 'eq', value: '3000123457' }]))}`],
    ['last name and state (equality on a form field + a column)', `filters=${encodeURIComponent(encodeSearch([{ column: 'data.lastName', op: 'eq', value: 'Pérez 42' }, { column: 'state', op: 'eq', value: 'PENDING' }]))}`],
    ['city (a form field matching 20% of all cases)', `filters=${encodeURIComponent(encodeSearch([{ column: 'data.municipio', op: 'eq', value: '76001' }]))}`],
    // The search box (`search=`): what staff type with the applicant on the phone.
    ...TEXT_SEARCHES.map(([name, text]): [string, string] => [`search box: ${name}`, `search=${encodeURIComponent(text)}`]),
    ['no filter', ''],
  ];
  const scenarios = filters.flatMap(([name, query]): Array<[string, string]> => [
    [`${name}: first page`, `/api/cases?limit=20&count=false&${query}`],
    [`${name}: count`, `/api/cases/count?${query}`],
  ]);
  // node:http on a keep-alive agent rather than fetch: the clients share the server's two cores, and
  // fetch spent about 0.5 ms of CPU per request that remote browsers would not take from the server.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const get = (pathAndQuery: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(`${base}${pathAndQuery}`, { agent, headers: { cookie } }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  const run = async (query: string, clients: number, seconds: number) => {
    const latencies: number[] = [];
    const cpu0 = { client: process.cpuUsage(), server: cpuSeconds((pid) => pid === server.proc.pid), db: cpuSeconds((_, comm) => comm === 'postgres') };
    const end = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (Date.now() < end) {
          const s = performance.now();
          const status = await get(query);
          if (status !== 200) throw new Error(`${query}: HTTP ${status}; the server said:\n${server.output().slice(-3000)}`);
          latencies.push(performance.now() - s);
        }
      }),
    );
    // Where the two cores went, in CPU milliseconds per request: the clients here, the server, PostgreSQL.
    const perRequest = (cpuSecondsSpent: number) => ((cpuSecondsSpent * 1000) / latencies.length).toFixed(2);
    const clientCpu = process.cpuUsage(cpu0.client);
    const cpu = {
      client: perRequest((clientCpu.user + clientCpu.system) / 1e6),
      server: perRequest(cpuSeconds((pid) => pid === server.proc.pid) - cpu0.server),
      db: perRequest(cpuSeconds((_, comm) => comm === 'postgres') - cpu0.db),
    };
    latencies.sort((a, b) => a - b);
    const pct = (x: number) => `${latencies[Math.min(latencies.length - 1, Math.floor((x / 100) * latencies.length))].toFixed(1)} ms`;
    return { n: latencies.length, perSecond: (latencies.length / seconds).toFixed(0), pct, cpu };
  };
  report.push(
    `| request (the page: GET /api/cases, 20 per page, newest first; the count: GET /api/cases/count, up to 1,000) | 1 client: p50 | ${CLIENTS} clients: requests/s | p50 | p95 | p99 | CPU ms per request: clients / server / PostgreSQL |`,
    `|---|---|---|---|---|---|---|`,
  );
  // ONLY=<part of a name>[,<part>...] measures just the scenarios whose name contains one of them.
  const only = process.env.ONLY?.split(',').filter(Boolean);
  for (const [name, query] of scenarios.filter(([n]) => !only || only.some((part) => n.includes(part)))) {
    // What the filter finds, so that a wrong request is not measured as a fast one.
    const found = (await (await fetch(`${base}${query}`, { headers: { cookie } })).json()) as { items?: unknown[]; total: number; capped: boolean };
    if (!(found.total > 0)) throw new Error(`${name}: nothing found`);
    const alone = await run(query, 1, 3);
    const loaded = await run(query, CLIENTS, SECONDS);
    report.push(`| ${name} (${found.items ? `${found.items.length} rows` : `${found.capped ? 'more than ' : ''}${found.total}`}) | ${alone.pct(50)} | ${loaded.perSecond} | ${loaded.pct(50)} | ${loaded.pct(95)} | ${loaded.pct(99)} | ${loaded.cpu.client} / ${loaded.cpu.server} / ${loaded.cpu.db} |`);
  }
  server.proc.kill('SIGTERM');
  await server.exited;

  // The plans behind those numbers, kept beside the benchmark.
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  mkdirSync(path.join('bench', 'explain'), { recursive: true });
  // The statements behind the two requests: the page (one row more than shown, to know whether more
  // follow) and the count up to 1,000 (the SQL as the server sends it, with the values inlined).
  const where = (filter: string) => `c.entity_id = ${p.entity_id} and c.state <> 'DRAFT' and ${filter}`;
  const page = (filter: string, key = 'c.doc_date') =>
    `select c.id, c.serial, c.state, c.protocol_id, c.case_type, c.owner_id, c.doc_date, (select p.name from protocols p where p.id = c.protocol_id) as protocol_name, (select o.name from users o where o.id = c.owner_id) as owner_name, c.possible_duplicated, c.created_at, c.updated_at, trim(coalesce(c.data->>'firstName', '') || ' ' || coalesce(c.data->>'lastName', '')) as applicant, (select count(*) from tasks t where t.case_id = c.id and t.state in ('UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY'))::int as open_tasks from cases c where ${where(filter)} order by ${key} desc nulls last, c.id desc limit 21`;
  const count = (filter: string) => `select count(*) from (select 1 from cases c where ${where(filter)} limit 1001) as counted`;
  const documentNumber = `(c.data @> '{"documentNumber":"3000123457"}'::jsonb or c.data @> '{"documentNumber":3000123457}'::jsonb)`;
  const city = `(c.data @> '{"municipio":"76001"}'::jsonb or c.data @> '{"municipio":76001}'::jsonb)`;
  const plans: Array<[string, string, unknown[]]> = [
    ['case-list-document-number-page', page(documentNumber), []],
    ['case-list-document-number-count', count(documentNumber), []],
    ['case-list-city-page', page(city), []],
    ['case-list-city-count', count(city), []],
    ['case-list-no-filter-page', page('true'), []],
    ['case-list-no-filter-count', count('true'), []],
  ];
  // The search box's condition exactly as the server builds it, its words as parameters.
  for (const [name, text] of TEXT_SEARCHES) {
    const filter = (caseTextSearch(text) as NonNullable<ReturnType<typeof caseTextSearch>>).compile(h.db);
    const slug = `case-list-search-${name.replace(/\(.*\)/, '').trim().replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
    // The list's order as the server writes it for this search (routes.ts).
    const key = gatherThenSort(text) ? 'coalesce(c.doc_date, c.doc_date)' : 'c.doc_date';
    plans.push([`${slug}-page`, page(filter.sql, key), [...filter.parameters]], [`${slug}-count`, count(filter.sql), [...filter.parameters]]);
  }
  for (const [file, query, parameters] of plans) {
    // Twice, keeping the second: the plan as a warm server runs it, not the first read of its pages from disk.
    await client.query(`explain (analyze, buffers) ${query}`, parameters);
    const res = await client.query(`explain (analyze, buffers) ${query}`, parameters);
    const values = parameters.length ? `\n\nparameters: ${JSON.stringify(parameters)}` : '';
    writeFileSync(path.join('bench', 'explain', `${file}.txt`), `${query}${values}\n\n${res.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
  }
  await client.end();
  console.log(`${CASES} cases and their tasks generated in ${generated.toFixed(0)} s; ${CLIENTS} concurrent clients, ${SECONDS} s per query\n`);
  console.log(report.join('\n'));
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
