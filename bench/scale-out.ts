/**
 * The proof of issue 21: several instances behind a load balancer.
 *
 *   npm run bench:scale-out -- [--minutes 10] [--users 200] [--instances 3] [--system-postgres] [--keep]
 *
 * 1. HAProxy (Debian's package; installed when missing and we are root) with
 *    the repository's deploy/haproxy.cfg, adapted only for loopback ports;
 * 2. PostgreSQL 15: a private cluster made with the machine's binaries in a
 *    temporary directory (or, with --system-postgres, the machine's running
 *    cluster in a database of its own);
 * 3. N server processes (`node --import tsx server/main.ts`) started at once
 *    (one migrates under the advisory lock while the others wait), sharing
 *    one DATA_DIR for uploaded files, mail to an SMTP sink on loopback;
 * 4. U simulated people (applicants, reviewers, coordinators; bench/scale-out/load.ts)
 *    through HAProxy, each from its own loopback address, each with a socket;
 * 5. faults during the load: kill -9 of one instance (~20%), a rolling
 *    restart of every instance with SIGTERM and the drain (~40%), a
 *    PostgreSQL restart (~80%);
 * 6. checks (bench/scale-out/checks.ts) and a Markdown report, printed and
 *    written to bench/results/scale-out-<date>.md. Exit code 1 when a check fails.
 */
import { hash } from '@node-rs/argon2';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ensureWebBuild } from '../server/web-build.js';
import { freePort, ROOT } from '../tests/support/server-process.js';
import { type Check, checkJobs, checkRealtime, checkWorkflow, checkWrites } from './scale-out/checks.js';
import { type Database, HAProxy, haproxyConfig, type Instance, Instances, privatePostgres, probe, sleep, smtpSink, systemPostgres, waitForPostgres } from './scale-out/infra.js';
import { percentile, type Role, type Shared, SimUser, type SocketSession, Stats, WriteLog } from './scale-out/load.js';

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    users: { type: 'string', default: '200' },
    instances: { type: 'string', default: '3' },
    'system-postgres': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(flags.minutes);
const USERS = Number(flags.users);
const N = Number(flags.instances);
if (!(MINUTES > 0) || !(USERS >= 3) || !(N >= 2)) {
  console.error('usage: npm run bench:scale-out -- [--minutes N>0] [--users N>=3] [--instances N>=2] [--system-postgres] [--keep]');
  process.exit(2);
}
const DRAIN_SECONDS = 5;
const PASSWORD = 'Bench-12345';

const t0 = Date.now();
const log = (s: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${s}`);

// ------------------------------------------------------------------ clean-up, even on failure or Ctrl-C

const cleanups: Array<() => Promise<void> | void> = [];
let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (e) {
        console.error(`clean-up: ${(e as Error).message}`);
      }
    }
  })();
  return cleaning;
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    log(`${sig}: cleaning up`);
    void cleanup().then(() => process.exit(130));
  });
}

// ------------------------------------------------------------------ faults

interface FaultReport {
  lines: string[];
  checks: Check[];
  pgWindow: { start: number; end: number | null } | null;
}

async function faults(stats: Stats, instances: Instances, haproxy: HAProxy, db: Database, loadStart: number, loadMs: number, shouldStop: () => boolean): Promise<FaultReport> {
  const rep: FaultReport = { lines: [], checks: [], pgWindow: null };
  const at = async (fraction: number) => {
    const when = loadStart + fraction * loadMs;
    while (Date.now() < when && !shouldStop()) await sleep(250);
  };
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const since = (t: number) => `${((t - loadStart) / 1000).toFixed(0)} s`;

  // kill -9 of one instance, restarted as a service manager would.
  await at(0.2);
  if (shouldStop()) return rep;
  {
    const victim = instances.list[0] as Instance;
    const w = { name: `kill -9 ${victim.name}`, start: Date.now(), end: null as number | null };
    stats.windows.push(w);
    log(`fault: kill -9 ${victim.name}`);
    instances.signal(victim, 'SIGKILL');
    await victim.exited;
    const down = await haproxy.waitDown(victim.name, 15_000);
    await sleep(1000); // Restart=on-failure, RestartSec=1
    instances.start(victim);
    await instances.waitReady(victim);
    const ready = Date.now();
    const up = await haproxy.waitUp(victim.name);
    w.end = up;
    rep.lines.push(
      `| kill -9 of ${victim.name} at ${since(w.start)} | HAProxy marked it DOWN after ${down ? s(down - w.start) : 'never (it was back first)'}; restarted 1 s after it died, ready after ${s(ready - w.start)}, back in HAProxy after ${s(up - w.start)} |`,
    );
    rep.checks.push({ name: `kill -9: HAProxy took ${victim.name} out and put it back by itself`, ok: down !== null, detail: `down after ${down ? s(down - w.start) : '-'}, up after ${s(up - w.start)}` });
  }

  // Rolling restart: SIGTERM (ready answers 503 for the drain, then the process finishes what it has and exits 0), start, wait until HAProxy has it, next.
  await at(0.4);
  if (shouldStop()) return rep;
  {
    const w = { name: 'rolling restart', start: Date.now(), end: null as number | null };
    stats.windows.push(w);
    log('fault: rolling restart of every instance');
    for (const inst of instances.list) {
      const started = Date.now();
      instances.signal(inst, 'SIGTERM');
      const downP = haproxy.waitDown(inst.name, (DRAIN_SECONDS + 10) * 1000);
      const code = await inst.exited;
      const exitedAt = Date.now();
      const down = await downP;
      instances.start(inst);
      await instances.waitReady(inst);
      const ready = Date.now();
      const up = await haproxy.waitUp(inst.name);
      rep.lines.push(
        `| rolling restart: ${inst.name} at ${since(started)} | HAProxy took it out after ${down ? s(down - started) : 'never'} (drain ${DRAIN_SECONDS} s), exited with ${code} after ${s(exitedAt - started)}, ready again after ${s(ready - started)}, in HAProxy after ${s(up - started)} |`,
      );
      rep.checks.push({ name: `rolling restart: ${inst.name} left HAProxy during its drain and exited 0`, ok: code === 0 && down !== null && down <= exitedAt, detail: `exit ${code}; out of HAProxy ${down ? s(down - started) : 'never'} after SIGTERM, exited after ${s(exitedAt - started)}` });
    }
    w.end = Date.now();
  }

  // PostgreSQL restarted under load: every instance answers 503 meanwhile and is ready again within 10 s of PostgreSQL.
  await at(0.8);
  if (shouldStop()) return rep;
  {
    const w = { name: 'PostgreSQL restart', start: Date.now(), end: null as number | null };
    stats.windows.push(w);
    rep.pgWindow = w;
    log('fault: PostgreSQL restart (fast)');
    const seen = new Map<string, Map<number, number>>();
    let dbUp = 0;
    const readyAt = new Map<string, number>();
    let polling = true;
    const pollers = instances.list.map(async (inst) => {
      const m = new Map<number, number>();
      seen.set(inst.name, m);
      while (polling) {
        // A hang is what this looks for (readiness once waited behind the app's pool, 5 s and more); on two cores under
        // this load a quick answer can take 2 to 3 s to be written, so 5 s is the line.
        const st = await probe(`http://127.0.0.1:${inst.port}/api/ready`, 5000);
        m.set(st, (m.get(st) ?? 0) + 1);
        if (st === 200 && dbUp && !readyAt.has(inst.name)) readyAt.set(inst.name, Date.now());
        if (st !== 200 && readyAt.has(inst.name) && Date.now() - dbUp < 2000) readyAt.delete(inst.name);
        await sleep(100);
      }
    });
    await db.restart();
    dbUp = await waitForPostgres(db.url);
    const limit = Date.now() + 30_000;
    while (readyAt.size < instances.list.length && Date.now() < limit) await sleep(100);
    polling = false;
    await Promise.all(pollers);
    for (const inst of instances.list) await haproxy.waitUp(inst.name, 30_000).catch(() => 0);
    w.end = Date.now();
    const recovery = Math.max(...instances.list.map((i) => (readyAt.get(i.name) ?? Number.POSITIVE_INFINITY) - dbUp));
    const statuses = [...seen].map(([name, m]) => `${name}: ${[...m].map(([st, n]) => `${st <= 0 ? (st === 0 ? 'refused' : 'timeout') : st}×${n}`).join(' ')}`).join('; ');
    const bad = [...seen.values()].some((m) => [...m.keys()].some((st) => st !== 200 && st !== 503));
    const saw503 = [...seen.values()].every((m) => (m.get(503) ?? 0) > 0);
    rep.lines.push(
      `| PostgreSQL restart at ${since(w.start)} | accepting again after ${s(dbUp - w.start)}; every instance ready again ${s(recovery)} after that (no restart); /api/ready meanwhile: ${statuses}; all back in HAProxy after ${s(w.end - w.start)} |`,
    );
    rep.checks.push({ name: 'PostgreSQL restart: every instance ready again within 10 s, by itself', ok: recovery <= 10_000, detail: `${s(recovery)} after PostgreSQL accepted connections` });
    rep.checks.push({ name: 'PostgreSQL restart: the instances answered 503 meanwhile (no 500, no hang)', ok: !bad && saw503, detail: statuses });
  }
  return rep;
}

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  log(`scale-out proof: ${N} instances, ${USERS} users, ${MINUTES} min, ${flags['system-postgres'] ? "the machine's PostgreSQL" : 'a private PostgreSQL 15'}`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'casebook-scaleout-'));
  cleanups.push(() => {
    if (flags.keep) log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  });
  const haproxyBin = HAProxy.ensureInstalled(log);

  log('web build (once, before the instances)');
  await ensureWebBuild((m) => log(`  ${m}`));

  const db = flags['system-postgres'] ? await systemPostgres(log) : await privatePostgres(tmp, log);
  cleanups.push(() => db.stop());
  const smtp = await smtpSink();
  cleanups.push(() => smtp.close());

  const lbPort = await freePort();
  const base = `http://127.0.0.1:${lbPort}`;
  const instances = new Instances(
    {
      DATABASE_URL: db.url,
      // Uploaded files in PostgreSQL (the default with DATABASE_URL), said out loud; each instance has its own DATA_DIR.
      FILES_URL: 'database',
      PUBLIC_URL: base,
      HOST: '127.0.0.1',
      // HAProxy connects from 127.0.0.1; each simulated person from an address of its own, which HAProxy puts in X-Forwarded-For.
      TRUST_PROXY: '127.0.0.1',
      SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
      DEMO_DATA: 'on',
      DEMO_HISTORY: 'off',
      SMTP_URL: smtp.url,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
    },
    tmp,
  );
  for (let i = 1; i <= N; i++) await instances.add(`app${i}`);
  cleanups.push(() => instances.stopAll());
  log(`starting ${N} instances at once (ports ${instances.list.map((i) => i.port).join(', ')})`);
  for (const inst of instances.list) instances.start(inst);
  await Promise.all(instances.list.map((i) => instances.waitReady(i)));
  log('every instance is ready');

  const statsSocket = path.join(tmp, 'haproxy.sock');
  const cfgFile = path.join(tmp, 'haproxy.cfg');
  writeFileSync(cfgFile, haproxyConfig(readFileSync(path.join(ROOT, 'deploy/haproxy.cfg'), 'utf8'), lbPort, instances.list, statsSocket));
  const haproxy = new HAProxy(cfgFile, statsSocket, path.join(tmp, 'haproxy.log'));
  haproxy.start(haproxyBin);
  cleanups.push(() => haproxy.stop());
  await Promise.all(instances.list.map((i) => haproxy.waitUp(i.name)));
  log(`HAProxy on ${base}: every server UP`);

  // ---------------------------------------------------------------- people
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const entity = (await admin.query<{ id: number }>(`select id from entities where docnumber = '900100200'`)).rows[0]?.id;
  const protocolId = (await admin.query<{ id: number }>(`select id from protocols where entity_id = $1 and code = 'rental-assistance'`, [entity])).rows[0]?.id;
  if (!entity || !protocolId) throw new Error('the demo tenant or its protocol is missing');
  const roles = new Map((await admin.query<{ code: string; id: number }>('select code, id from acl_roles where entity_id = $1', [entity])).rows.map((r) => [r.code, r.id]));
  const teams = (await admin.query<{ id: number }>(`select id from teams where entity_id = $1 and name in ('Intake', 'Document review', 'Payments')`, [entity])).rows.map((r) => r.id);
  const passwordHash = await hash(PASSWORD);
  const runTag = `so${Date.now().toString(36).slice(-4)}`;
  const people: Array<{ email: string; role: Role }> = [];
  for (let i = 0; i < USERS; i++) {
    const r = i / USERS;
    const role: Role = r < 0.25 ? 'applicant' : r < 0.7 ? 'reviewer' : 'coordinator';
    people.push({ email: `${role}${i}.${runTag}@bench.test`, role });
  }
  const inserted = await admin.query<{ id: number; email: string }>(
    `insert into users (entity_id, email, name, docnumber, role_id, password_hash)
     select $1, e, 'Bench ' || split_part(e, '@', 1), $2 || n, r, $3 from unnest($4::text[], $5::bigint[]) with ordinality as x(e, r, n) returning id, email`,
    [entity, `9${Date.now() % 1_000_000}`, passwordHash, people.map((p) => p.email), people.map((p) => roles.get(p.role))],
  );
  const staffIds = inserted.rows.filter((r) => !r.email.startsWith('applicant')).map((r) => r.id);
  await admin.query(`insert into team_members (entity_id, team_id, user_id, role) select $1, t, u, 'member' from unnest($2::bigint[]) t, unnest($3::bigint[]) u`, [entity, teams, staffIds]);
  const since = Number((await admin.query<{ n: number }>('select coalesce(max(id), 0) + 1 as n from cases')).rows[0]?.n);
  await admin.end();
  log(`${USERS} people: ${people.filter((p) => p.role === 'applicant').length} applicants, ${people.filter((p) => p.role === 'reviewer').length} reviewers, ${people.filter((p) => p.role === 'coordinator').length} coordinators (staff in the Intake, Document review and Payments teams)`);

  // ---------------------------------------------------------------- the load
  const stats = new Stats();
  const resultsDir = path.join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const writesFile = path.join(tmp, 'writes.jsonl');
  const writes = new WriteLog(writesFile);
  const sessions: SocketSession[] = [];
  const loadMs = MINUTES * 60_000;
  const loadStart = Date.now();
  const shared: Shared = {
    base, stats, writes, sessions, protocolId, password: PASSWORD, deadline: loadStart + loadMs, stopped: false, runTag,
    pdf: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/MediaBox[0 0 612 792]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
  };
  const users = people.map((p, i) => new SimUser(i, p.email, p.role, `127.20.${Math.floor(i / 250)}.${(i % 250) + 1}`, shared));
  cleanups.push(() => {
    shared.stopped = true;
    for (const u of users) u.close();
  });
  log(`load: ${USERS} people for ${MINUTES} min through HAProxy`);
  const loads: number[] = [];
  const progress = setInterval(() => {
    loads.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
    const total = [...stats.kinds.values()].reduce((a, k) => a + k.count, 0);
    const bad = [...stats.kinds.values()].reduce((a, k) => a + k.server + k.retryableOutside, 0);
    log(`  ${total} requests, ${writes.writes.length} writes acknowledged, ${sessions.filter((s) => s.disconnectedAt === null).length} sockets connected, ${bad} server errors outside fault windows`);
  }, 30_000);
  const faultRun = faults(stats, instances, haproxy, db, loadStart, loadMs, () => shared.stopped);
  await Promise.all(users.map((u) => u.run()));
  const faultReport = await faultRun;
  clearInterval(progress);
  const loadEnd = Date.now();
  const loadSeconds = (loadEnd - loadStart) / 1000;
  shared.stopped = true;
  for (const u of users) u.close();
  log('load over; waiting for the jobs to finish');

  // ---------------------------------------------------------------- after the load
  const checker = new pg.Client({ connectionString: db.url });
  await checker.connect();
  cleanups.push(() => checker.end());
  // Read now: ended windows are swept every minute.
  const keys = (await checker.query<{ key: string }>('select key from rate_limits')).rows.map((r) => r.key);
  const drainEnd = Date.now() + 180_000;
  for (;;) {
    const busy = (
      await checker.query<{ n: number }>(
        `select (select count(*) from pgboss.job where state in ('created', 'retry', 'active') and name not in ('overdue-sweep', 'mail-sweep', 'mail-digest'))
              + (select count(*) from mail_outbox where status = 'queued')
              + (select count(*) from case_imports where status = 'running')
              + (select count(*) from case_exports where state = 'running')
              + (select count(*) from data_tape_exports where state = 'running') as n`,
      )
    ).rows[0]?.n;
    if (Number(busy) === 0 || Date.now() > drainEnd) break;
    await sleep(1000);
  }
  // A minute sweep of the last minute may still be running.
  await sleep(3000);

  const checks: Check[] = [];
  checks.push({
    name: 'no instance stopped by itself (crash)',
    ok: instances.crashes.length === 0,
    detail: instances.crashes.length ? instances.crashes.map((c) => `${c.name} at +${((c.at - loadStart) / 1000).toFixed(0)} s exit ${c.code}: ${c.tail.trim().split('\n').slice(-6).join(' / ').slice(0, 400)}`).join('; ') : 'none',
  });
  const serverErrors = [...stats.kinds].filter(([n, k]) => n !== 'bench.exception' && (k.server > 0 || k.retryableOutside > 0));
  checks.push({
    name: 'no answer >= 500 (502/503 only inside a fault window)',
    ok: serverErrors.length === 0,
    detail: serverErrors.length ? serverErrors.map(([n, k]) => `${n}: ${k.server} server errors, ${k.retryableOutside} 502/503/cut outside the fault windows`).join('; ') : '0',
  });
  checks.push({ name: 'the load generator itself raised nothing', ok: !stats.kinds.has('bench.exception'), detail: String(stats.kinds.get('bench.exception')?.count ?? 0) });
  const errors = [...stats.kinds].reduce((a, [, k]) => a + k.client + k.session, 0);
  checks.push({ name: 'no unexpected 4xx (401, 403, 404, 429 ...)', ok: errors === 0, detail: String(errors) });
  checks.push(...faultReport.checks);
  checks.push(...(await checkWrites(checker, writes.writes)));
  checks.push(...(await checkWorkflow(checker, since)));
  checks.push(...(await checkJobs(checker, smtp.received, stats.windows, loadStart)));
  // Each person's own address reached the app through HAProxy's X-Forwarded-For (TRUST_PROXY): the per-address limits counted them apart.
  const addresses = new Set(keys.map((key) => /127\.20\.\d+\.\d+$/.exec(key)?.[0]).filter(Boolean));
  const balancerKeys = keys.filter((key) => key.endsWith('-127.0.0.1'));
  checks.push({
    name: "the app counted each person's own address (X-Forwarded-For from HAProxy), not the balancer's",
    ok: addresses.size > 0 && balancerKeys.length === 0,
    detail: `${addresses.size} people's addresses among the live rate-limit keys, ${balancerKeys.length} keys for 127.0.0.1`,
  });
  const rt = checkRealtime(writes.writes, sessions, faultReport.pgWindow ? [faultReport.pgWindow] : [], loadStart);
  checks.push(...rt.checks);

  // Errors the instances logged (level 50 and up), and what HAProxy saw.
  const logErrors: string[] = [];
  for (const inst of instances.list) {
    for (const line of readFileSync(inst.logFile, 'utf8').split('\n')) {
      if (/"level":(50|60)/.test(line) && Number(/"time":(\d+)/.exec(line)?.[1] ?? 0) <= loadEnd) logErrors.push(`${inst.name}: ${line.slice(0, 400)}`);
    }
  }
  const hap = readFileSync(haproxy.logFile, 'utf8');
  const hapStatus = new Map<string, number>();
  for (const m of hap.matchAll(/ casebook(?:_instances)?\/(\S+) \S+ (\d{3}) /g)) {
    const key = `${m[2]}`;
    if (Number(m[2]) >= 500) hapStatus.set(`${key} ${m[1]}`, (hapStatus.get(`${key} ${m[1]}`) ?? 0) + 1);
  }

  // ---------------------------------------------------------------- report
  const k = [...stats.kinds].sort(([a], [b]) => a.localeCompare(b));
  const total = k.reduce((a, [, x]) => a + x.count, 0);
  const fmt = (n: number) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(1) : n.toFixed(0));
  const md: string[] = [];
  md.push(`# Scale-out proof, ${new Date(loadStart).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  md.push('');
  md.push(`${N} instances behind HAProxy (${haproxyVersion(haproxyBin)}, deploy/haproxy.cfg), ${db.describe}; uploaded files in PostgreSQL (FILES_URL=database; each instance has a DATA_DIR of its own, nothing shared but the database); ${USERS} simulated people for ${MINUTES} min (${loadSeconds.toFixed(0)} s with the faults), think time 1-5 s; ${os.cpus().length} cores, Node ${process.version}. Run: \`npm run bench:scale-out -- --minutes ${MINUTES} --users ${USERS} --instances ${N}${flags['system-postgres'] ? ' --system-postgres' : ''}\`.`);
  md.push('');
  md.push(`${total} requests (${(total / loadSeconds).toFixed(0)}/s), ${writes.writes.length} acknowledged writes, ${sessions.length} socket connections made. Machine load average during the load (1 min, sampled every 30 s): ${loads.length ? `mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1)}, max ${Math.max(...loads).toFixed(1)}` : '-'} on ${os.cpus().length} cores (everything on this machine counts, other work included).`);
  md.push('');
  md.push('| kind | count | ok | refused (409/422) | errors | 502/503/cut in a fault window | p50 ms | p95 ms | p99 ms |');
  md.push('|---|---|---|---|---|---|---|---|---|');
  for (const [name, x] of k) {
    const l = [...x.latencies].sort((a, b) => a - b);
    md.push(`| ${name} | ${x.count} | ${x.ok} | ${x.refused} | ${x.client + x.session + x.server + x.retryableOutside} | ${x.retryableInWindow} | ${fmt(percentile(l, 50))} | ${fmt(percentile(l, 95))} | ${fmt(percentile(l, 99))} |`);
  }
  md.push('');
  md.push('Writes acknowledged: ' + ['comment', 'decision', 'file', 'draft', 'submission', 'import', 'case-export', 'data-tape'].map((w) => `${w} ${writes.writes.filter((x) => x.what === w).length}`).join(', ') + '.');
  md.push('');
  md.push('| fault | what happened |');
  md.push('|---|---|');
  md.push(...faultReport.lines);
  md.push('');
  const cl = [...rt.comment.latencies].sort((a, b) => a - b);
  const tl = [...rt.task.latencies].sort((a, b) => a - b);
  md.push(`Realtime across instances (from sending the write to another instance's socket hearing it): comments ${rt.comment.delivered}/${rt.comment.expected} deliveries (${rt.comment.refetched} refetched instead), p50 ${fmt(percentile(cl, 50))} ms, p99 ${fmt(percentile(cl, 99))} ms; task decisions ${rt.task.delivered}/${rt.task.expected} (${rt.task.refetched} refetched instead), p50 ${fmt(percentile(tl, 50))} ms, p99 ${fmt(percentile(tl, 99))} ms. Instance pairs (comments): ${[...rt.comment.pairs].map(([p, n]) => `${p} ${n}`).join(', ')}. Resync events heard: ${sessions.reduce((a, s) => a + s.resyncs, 0)}.`);
  md.push('');
  md.push('| check | result | detail |');
  md.push('|---|---|---|');
  for (const c of checks) md.push(`| ${c.name} | ${c.ok ? 'pass' : '**FAIL**'} | ${c.detail.replace(/\|/g, '/')} |`);
  md.push('');
  md.push(`HAProxy's log, answers >= 500 by server: ${[...hapStatus].map(([kk, n]) => `${kk} ×${n}`).join(', ') || 'none'}. Errors the instances logged (level >= 50): ${logErrors.length}.`);
  if (stats.samples.length) {
    md.push('');
    md.push('Samples of answers other than 2xx (first 5 of each kind and status):');
    md.push('');
    for (const s of stats.samples.slice(0, 60)) md.push(`- +${((s.at - loadStart) / 1000).toFixed(1)} s ${s.kind} ${s.status}: ${s.detail.replace(/\s+/g, ' ')}`);
  }
  if (logErrors.length) {
    md.push('');
    md.push('First errors the instances logged:');
    md.push('');
    for (const e of logErrors.slice(0, 15)) md.push(`- ${e}`);
  }
  const report = md.join('\n');
  console.log(`\n${report}\n`);
  const file = path.join(resultsDir, `scale-out-${new Date(loadStart).toISOString().replace(/[:.]/g, '-').slice(0, 19)}.md`);
  writeFileSync(file, `${report}\n`);
  writeFileSync(file.replace(/\.md$/, '-writes.jsonl'), readFileSync(writesFile));
  log(`report: ${path.relative(ROOT, file)} (the write log beside it)`);
  const failed = checks.filter((c) => !c.ok);
  log(failed.length ? `${failed.length} check(s) FAILED` : 'every check passed');
  return failed.length ? 1 : 0;
}

function haproxyVersion(bin: string): string {
  try {
    return `HAProxy ${/version (\S+)/.exec(execFileSync(bin, ['-v'], { encoding: 'utf8' }))?.[1] ?? ''}`.trim();
  } catch {
    return 'HAProxy';
  }
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(e);
} finally {
  await cleanup();
}
process.exit(code);
