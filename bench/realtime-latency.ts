/**
 * Realtime latency: from a write to the event arriving at another person's
 * socket, on one instance and across two (two server processes on one
 * PostgreSQL, the machine's when DATABASE_URL is given, else an embedded one).
 * Three paths:
 *   - a comment written through the API (POST, committed, NOTIFY, the
 *     listener, the room): from sending the request to the socket's event;
 *   - a statement written straight to the database (any writer: an import,
 *     the engine): from sending it to the socket's event;
 *   - a room event sent by one socket (refresh_page), which crosses instances
 *     through @socket.io/postgres-adapter.
 * Target (issue 15): p99 under 300 ms on loopback.
 * Run: npx tsx bench/realtime-latency.ts   (ROUNDS, DATABASE_URL to a server's admin database)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { benchDatabase } from './support.js';
import { freePort, type ServerProcess, startServer } from '../tests/support/server-process.js';

const ROUNDS = Number(process.env.ROUNDS ?? 200);
const dirs: string[] = [];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] as number };
};

async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'Demo12345' }) });
  return /sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] as string;
}

async function socketTo(base: string, sid: string): Promise<Socket> {
  const s = connect(base, { path: '/socket.io', transports: ['websocket'], reconnection: false, extraHeaders: { cookie: `sid=${sid}` } });
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  return s;
}

const once = <T>(s: Socket, event: string, match: (e: T) => boolean) =>
  new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event}`)), 5000);
    const on = (e: T) => {
      if (!match(e)) return;
      const at = performance.now();
      clearTimeout(timer);
      s.off(event, on);
      resolve(at);
    };
    s.on(event, on);
  });

async function main(): Promise<void> {
  const db = await benchDatabase('casebook_bench_rt');
  const servers: ServerProcess[] = [];
  const bases: string[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-bench-rt-'));
      dirs.push(dir);
      const port = await freePort();
      const s = startServer({ DATA_DIR: dir, PORT: String(port), DATABASE_URL: db.url, DEMO_DATA: 'on', LOG_LEVEL: 'error' });
      servers.push(s);
      await s.waitFor(/is running at/, 120_000);
      bases.push(`http://127.0.0.1:${port}`);
    }
    const [one, two] = bases as [string, string];
    const writer = await login(one, 'coordinator@demo.test');
    const cases = (await (await fetch(`${one}/api/cases?limit=1&count=false`, { headers: { cookie: `sid=${writer}` } })).json()) as { items: Array<{ id: number }> };
    const caseId = cases.items[0]?.id as number;
    const sender = await socketTo(one, writer);
    await sender.emitWithAck('join', { kind: 'review', id: caseId });
    const direct = new pg.Client({ connectionString: db.url });
    await direct.connect();

    const rows: string[] = [];
    for (const [label, base] of [['one instance', one], ['two instances', two]] as const) {
      const listener = await socketTo(base, await login(base, 'reviewer@demo.test'));
      await listener.emitWithAck('join', { kind: 'review', id: caseId });
      const api: number[] = [];
      const sqlWrite: number[] = [];
      const room: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        let heard = once(listener, 'changed', (e: { kind: string; caseIds: number[] }) => e.kind === 'comment' && e.caseIds.includes(caseId));
        let t0 = performance.now();
        const res = await fetch(`${one}/api/cases/${caseId}/comments`, {
          method: 'POST',
          headers: { cookie: `sid=${writer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ body: `Latency round ${i}` }),
        });
        if (res.status !== 201) throw new Error(`comment: ${res.status}`);
        api.push((await heard) - t0);

        heard = once(listener, 'changed', (e: { kind: string; ids: number[] }) => e.kind === 'case' && e.ids.includes(caseId));
        t0 = performance.now();
        await direct.query('update cases set updated_at = now() where id = $1', [caseId]);
        sqlWrite.push((await heard) - t0);

        heard = once(listener, 'refresh_page', (e: { caseId: number }) => e.caseId === caseId);
        t0 = performance.now();
        sender.emit('refresh_page', { caseId });
        room.push((await heard) - t0);
        // The sender's event budget: 30 per 10 s.
        if (i % 25 === 24) await new Promise((r) => setTimeout(r, 10_000));
      }
      listener.disconnect();
      for (const [what, xs] of [['comment through the API', api], ['statement straight to the database', sqlWrite], ['room event from another socket', room]] as const) {
        const s = summary(xs);
        rows.push(`| ${label} | ${what} | ${ROUNDS} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.max.toFixed(1)} |`);
      }
    }
    await direct.end();
    sender.disconnect();
    console.log(`\nRealtime latency, ${ROUNDS} rounds each, ${process.env.DATABASE_URL ? 'the machine\'s PostgreSQL' : 'an embedded PostgreSQL'}, Node ${process.version}\n`);
    console.log('| listener on | write | rounds | p50 ms | p99 ms | max ms |');
    console.log('|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    for (const s of servers) s.proc.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    await db.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
