import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangedEvent, JoinAck, PresenceEvent } from '../../core/realtime.js';
import { EmbeddedPostgres } from '../../server/db/embedded.js';
import { ensureWebBuild } from '../../server/web-build.js';
import { freePort, type ServerProcess, startServer } from '../support/server-process.js';
import { startSmtp } from '../support/smtp.js';
import { PgBoss } from 'pg-boss';

/**
 * Two server processes on one PostgreSQL (the machine's on 127.0.0.1:5432,
 * in a database of its own; an embedded one where the machine has none),
 * both delivering mail to one SMTP server on loopback: a change made through
 * one instance reaches a socket of the other, a room event sent on one
 * reaches the other's sockets (@socket.io/postgres-adapter), presence counts
 * the people on both, and an overdue task's reminder and escalation go out
 * once although both instances run the deadline sweep (pg-boss).
 */
const READY = /is running at (http:\/\/\S+)/;
const MACHINE_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const dirs: string[] = [];
const servers: ServerProcess[] = [];
const sockets: Socket[] = [];
let cleanupDb: () => Promise<void> = async () => {};
let databaseUrl: string;
let base: [string, string];
let smtp: Awaited<ReturnType<typeof startSmtp>>;

async function machinePostgres(): Promise<string | null> {
  const admin = new pg.Client({ connectionString: MACHINE_PG, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `casebook_rt_${Date.now().toString(36)}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanupDb = async () => {
    const c = new pg.Client({ connectionString: MACHINE_PG });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
  return MACHINE_PG.replace(/\/postgres$/, `/${name}`);
}

async function login(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'Demo12345' }) });
  expect(res.status).toBe(200);
  return /sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] as string;
}

async function socketTo(url: string, sid: string): Promise<Socket> {
  const s = connect(url, { path: '/socket.io', transports: ['websocket'], reconnection: false, extraHeaders: { cookie: `sid=${sid}` } });
  sockets.push(s);
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  return s;
}

const next = <T>(s: Socket, event: string, match: (e: T) => boolean = () => true, ms = 5000) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    const on = (e: T) => {
      if (!match(e)) return;
      clearTimeout(timer);
      s.off(event, on);
      resolve(e);
    };
    s.on(event, on);
  });

beforeAll(async () => {
  await ensureWebBuild(() => {});
  let url = await machinePostgres();
  if (!url) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-rt-db-'));
    dirs.push(dir);
    const external = await EmbeddedPostgres.start({ dataDir: dir, log: () => {}, fsync: false });
    cleanupDb = () => external.stop();
    url = external.url;
  }
  databaseUrl = url;
  smtp = await startSmtp();
  // One after the other: the first migrates and seeds the demo, the second finds it done.
  const urls: string[] = [];
  for (let i = 0; i < 2; i++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-rt-'));
    dirs.push(dir);
    const port = await freePort();
    const s = startServer({ DATA_DIR: dir, PORT: String(port), DATABASE_URL: databaseUrl, DEMO_DATA: 'on', PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url });
    servers.push(s);
    await s.waitFor(READY, 90_000);
    urls.push(`http://127.0.0.1:${port}`);
  }
  base = urls as [string, string];
}, 240_000);

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const s of servers) s.proc.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.exited));
  await cleanupDb();
  await smtp?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

describe('two instances on one PostgreSQL', () => {
  it('a change through one instance reaches a socket of the other; room events and presence cross too', async () => {
    const [one, two] = base;
    const coordinator = await login(one, 'coordinator@demo.test');
    const reviewer = await login(two, 'reviewer@demo.test');
    const cases = (await (await fetch(`${one}/api/cases?limit=1&count=false`, { headers: { cookie: `sid=${coordinator}` } })).json()) as { items: Array<{ id: number }> };
    const caseId = cases.items[0]?.id as number;
    expect(caseId).toBeGreaterThan(0);

    const onTwo = await socketTo(two, reviewer);
    const onOne = await socketTo(one, coordinator);
    expect((await onTwo.emitWithAck('join', { kind: 'review', id: caseId })) as JoinAck).toMatchObject({ ok: true });
    // Presence counts the people on both instances.
    const bothPresent = next<PresenceEvent>(onTwo, 'presence', (p) => p.users.length === 2);
    const joined = (await onOne.emitWithAck('join', { kind: 'review', id: caseId })) as JoinAck;
    expect(joined.ok && joined.users.map((u) => u.name).sort()).toEqual(['Carla Coordinator', 'Rafael Reviewer'].sort());
    await bothPresent;

    // A write through instance one: the database tells both instances; the socket on two hears it.
    const heard = next<ChangedEvent>(onTwo, 'changed', (e) => e.kind === 'comment' && e.caseIds.includes(caseId));
    const res = await fetch(`${one}/api/cases/${caseId}/comments`, {
      method: 'POST',
      headers: { cookie: `sid=${coordinator}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Please upload the lease, all pages.' }),
    });
    expect(res.status).toBe(201);
    await heard;

    // A room event sent on one instance reaches the room's sockets on the other (the adapter).
    const refreshed = next<{ caseId: number; by: { name: string } }>(onTwo, 'refresh_page');
    expect(await onOne.emitWithAck('refresh_page', { caseId })).toEqual({ ok: true });
    expect(await refreshed).toMatchObject({ caseId, by: { name: 'Carla Coordinator' } });
  });

  it('an overdue task tells its responsible and its team’s leader once, with both instances sweeping', { timeout: 120_000 }, async () => {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', supervise: false, schedule: false, migrate: false });
    try {
      // An open task of the demo's "Document review" team, given to a member other than its leader (the demo's round
      // robin may have given them all to the leader), made overdue by an hour.
      const given = await db.query<{ id: number }>(
        `update tasks set responsible_user_id = (
           select m.user_id from team_members m join teams t on t.id = m.team_id
           where t.name = 'Document review' and m.role <> 'leader' and m.active order by m.user_id limit 1)
         where id = (select k.id from tasks k join teams t on t.id = k.responsible_team_id where k.state = 'PENDING' and t.name = 'Document review' order by k.id limit 1)
         returning id`,
      );
      expect(given.rows).toHaveLength(1);
      const { rows } = await db.query<{ id: number; name: string; serial: string; case_id: number }>(
        // The English name: the demo's people read English, and a task's name follows its reader (issue 18).
        `select k.id, coalesce(nullif(k.name_en, ''), k.name) as name, c.serial, k.case_id from tasks k join cases c on c.id = k.case_id where k.id = $1`,
        [given.rows[0].id],
      );
      const task = rows[0];
      expect(task).toBeTruthy();
      const leader = (await db.query<{ email: string }>(`select u.email from team_members m join users u on u.id = m.user_id join teams t on t.id = m.team_id where t.name = 'Document review' and m.role = 'leader'`)).rows[0].email;
      const responsible = (await db.query<{ email: string }>(`select u.email from tasks k join users u on u.id = k.responsible_user_id where k.id = $1`, [task.id])).rows[0].email;
      await db.query(`update tasks set due_at = now() - interval '1 hour', overdue = false, escalation_level = 0 where id = $1`, [task.id]);

      // Both instances take sweep jobs (besides their minute schedule): several at once.
      await boss.start();
      await Promise.all([boss.send('overdue-sweep', {}), boss.send('overdue-sweep', {}), boss.send('overdue-sweep', {})]);
      const about = (to: string) => smtp.mails.filter((m) => m.to.includes(to) && m.subject === `Overdue: ${task.name} (${task.serial})`);
      const end = Date.now() + 90_000;
      while ((about(leader).length === 0 || about(responsible).length === 0) && Date.now() < end) await new Promise((r) => setTimeout(r, 250));
      await boss.send('overdue-sweep', {});
      await new Promise((r) => setTimeout(r, 4000));
      expect(about(leader)).toHaveLength(1);
      expect(about(responsible)).toHaveLength(1);
      const events = await db.query(`select action from case_events where task_id = $1 and action in ('task_overdue', 'task_escalated')`, [task.id]);
      expect(events.rows.map((r) => r.action).sort()).toEqual(['task_escalated', 'task_overdue']);
    } finally {
      await boss.stop({ graceful: false }).catch(() => {});
      await db.end();
    }
  });

  it('the request limits’ ended windows are swept by a scheduled job, which the instances run', { timeout: 60_000 }, async () => {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', supervise: false, schedule: false, migrate: false });
    try {
      const schedules = await db.query<{ name: string; cron: string }>(`select name, cron from pgboss.schedule where name = 'rate-limit-sweep'`);
      expect(schedules.rows).toEqual([{ name: 'rate-limit-sweep', cron: '* * * * *' }]);
      await db.query(`insert into rate_limits (key, count, expires_at) values ('test-ended', 3, now() - interval '1 minute'), ('test-live', 3, now() + interval '1 hour')`);
      await boss.start();
      await boss.send('rate-limit-sweep', {});
      const end = Date.now() + 30_000;
      const left = async () => (await db.query<{ key: string }>(`select key from rate_limits where key like 'test-%' order by key`)).rows.map((r) => r.key);
      while ((await left()).includes('test-ended') && Date.now() < end) await new Promise((r) => setTimeout(r, 250));
      expect(await left()).toEqual(['test-live']);
    } finally {
      await boss.stop({ graceful: false }).catch(() => {});
      await db.end();
    }
  });

  it('stops each instance promptly on SIGTERM while sockets are connected', async () => {
    const [, two] = base;
    const s = await socketTo(two, await login(two, 'reviewer@demo.test'));
    const gone = new Promise<void>((resolve) => s.once('disconnect', () => resolve()));
    const started = Date.now();
    const server = servers[1] as ServerProcess;
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await gone;
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
