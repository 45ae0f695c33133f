import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgres } from '../../server/db/embedded.js';
import { isRunning } from '../../server/db/procfs.js';
import { ensureWebBuild } from '../../server/web-build.js';
import { freePort, type ServerProcess, startServer } from '../support/server-process.js';

/**
 * The database goes away and comes back, under a load of reads and accepts:
 * what a managed database's failover or minor upgrade does to DATABASE_URL,
 * and what an out-of-memory kill does to the embedded one. The app must not
 * crash; requests answer 503 DB_UNAVAILABLE meanwhile (never 500); it serves
 * again within 10 s of the database being back, with no restart; and every
 * write it acknowledged is there afterwards.
 */
const base = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(path.join(base, 'casebook-faults-'));
  dirs.push(d);
  return d;
};
const READY = /is running at (http:\/\/\S+)/;

beforeAll(async () => {
  await ensureWebBuild(() => {});
}, 180_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Outcome {
  status: number;
  code?: string;
}

/** A signed-in coordinator who reads the case list and creates and accepts ad-hoc tasks on an open case. */
class Load {
  private cookie = '';
  private userId = 0;
  private caseId = 0;
  private running = false;
  private workers: Promise<void>[] = [];
  readonly outcomes: Outcome[] = [];
  /** Tasks whose creation answered 201, and those whose accept answered 200. */
  readonly created = new Set<number>();
  readonly accepted = new Set<number>();
  lastOkAt = 0;

  constructor(private readonly port: number) {}

  async signIn(): Promise<void> {
    const res = await this.call('POST', '/api/auth/login', { email: 'coordinator@demo.test', password: 'Demo12345' });
    expect(res.status).toBe(200);
    this.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    this.userId = Number((await (await this.call('GET', '/api/auth/session')).json()).user.uid);
    const cases = await (await this.call('GET', '/api/cases?state=PENDING&limit=1&count=false')).json();
    this.caseId = cases.items[0].id;
    expect(this.caseId).toBeGreaterThan(0);
  }

  call(method: string, url: string, body?: unknown): Promise<Response> {
    return fetch(`http://127.0.0.1:${this.port}${url}`, {
      method,
      headers: { cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
  }

  private async record(res: Response): Promise<Response> {
    const outcome: Outcome = { status: res.status };
    if (res.status >= 400) outcome.code = ((await res.clone().json()) as { error?: { code?: string } }).error?.code;
    this.outcomes.push(outcome);
    if (res.status < 400) this.lastOkAt = Date.now();
    return res;
  }

  start(readers = 4, writers = 2): void {
    this.running = true;
    const read = async () => {
      while (this.running) {
        try {
          await this.record(await this.call('GET', '/api/cases?limit=20&count=false'));
        } catch {
          // a connection cut by the server is not an answer
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const write = async (w: number) => {
      for (let i = 0; this.running; i++) {
        try {
          const res = await this.record(await this.call('POST', '/api/tasks', { caseId: this.caseId, name: `restart ${w}-${i}`, userId: this.userId }));
          if (res.status !== 201) continue;
          const { id } = (await res.json()) as { id: number };
          this.created.add(id);
          const accept = await this.record(await this.call('POST', `/api/tasks/${id}/accept`, {}));
          if (accept.status === 200) this.accepted.add(id);
        } catch {
          // a connection cut by the server is not an answer
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    this.workers = [...Array.from({ length: readers }, read), ...Array.from({ length: writers }, (_, w) => write(w))];
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Waits until a request made after `since` succeeds; the time it took. */
  async recovered(since: number, limitMs = 10_000): Promise<number> {
    for (;;) {
      if (this.lastOkAt > since) return this.lastOkAt - since;
      if (Date.now() - since > limitMs + 5_000) return Date.now() - since;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Every acknowledged creation exists, and every acknowledged accept is ACCEPTED. */
  async checkNothingLost(): Promise<void> {
    expect(this.created.size).toBeGreaterThan(0);
    for (const id of this.created) {
      const res = await this.call('GET', `/api/tasks/${id}`);
      expect(res.status, `task ${id}`).toBe(200);
      const task = (await res.json()) as { state: string };
      if (this.accepted.has(id)) expect(task.state, `task ${id}`).toBe('ACCEPTED');
    }
  }

  /** Nothing but successes and 503 DB_UNAVAILABLE: never a 500. */
  checkAnswers(): void {
    const bad = this.outcomes.filter((o) => o.status >= 400 && !(o.status === 503 && o.code === 'DB_UNAVAILABLE'));
    expect(bad).toEqual([]);
    expect(this.outcomes.some((o) => o.status === 503)).toBe(true);
  }
}

function expectNoCrash(s: ServerProcess): void {
  expect(s.proc.exitCode).toBeNull();
  expect(s.output()).not.toMatch(/Unhandled 'error' event|uncaughtException|"level":60/);
  expect(s.output()).not.toMatch(/"level":50,[^\n]*"msg":"request failed"/);
}

describe('the database restarts under load', () => {
  it('with DATABASE_URL: 503 while it is away, serving again within 10 s of its return, nothing acknowledged lost', async () => {
    const dbDir = dataDir();
    let external = await EmbeddedPostgres.start({ dataDir: dbDir, log: () => {}, fsync: false });
    const port = await freePort();
    const s = startServer({ DATA_DIR: dataDir(), PORT: String(port), DATABASE_URL: external.url, DEMO_DATA: 'on', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });
    try {
      await s.waitFor(READY, 120_000);
      const load = new Load(port);
      await load.signIn();
      load.start();
      await new Promise((r) => setTimeout(r, 1500));

      // A fast shutdown, as a failover or a minor upgrade does: sessions are terminated mid-transaction.
      const dbPort = external.port;
      await external.stop();
      await new Promise((r) => setTimeout(r, 2000));
      const down = load.outcomes.length;
      external = await EmbeddedPostgres.start({ dataDir: dbDir, log: () => {}, fsync: false, port: dbPort });
      const back = Date.now();
      const took = await load.recovered(back);
      await new Promise((r) => setTimeout(r, 500));
      await load.stop();

      expect(took).toBeLessThan(10_000);
      expect(load.outcomes.length).toBeGreaterThan(down);
      load.checkAnswers();
      await load.checkNothingLost();
      expectNoCrash(s);
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    } finally {
      s.proc.kill('SIGTERM');
      await s.exited;
      await external.stop();
    }
  });

  it('embedded: a killed database is restarted by the app, which keeps serving and says so', async () => {
    const dir = dataDir();
    const port = await freePort();
    const s = startServer({ DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });
    try {
      await s.waitFor(READY, 120_000);
      const load = new Load(port);
      await load.signIn();
      load.start();
      await new Promise((r) => setTimeout(r, 1500));

      // What the out-of-memory killer does.
      const killed = Date.now();
      process.kill(postmasterPid(dir), 'SIGKILL');
      await s.waitFor(/the embedded database is running again/, 30_000);
      const took = await load.recovered(killed, 15_000);
      await load.stop();

      expect(took).toBeLessThan(15_000);
      load.checkAnswers();
      await load.checkNothingLost();
      expectNoCrash(s);
      expect(s.output()).toMatch(/the embedded database stopped unexpectedly/);
      expect(isRunning(postmasterPid(dir))).toBe(true);
    } finally {
      s.proc.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  });

  it('embedded: when the database cannot be started again three times in a row, the app stops with one clear line', async () => {
    const dir = dataDir();
    const port = await freePort();
    const s = startServer({ DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'fatal', LOG_FORMAT: 'json' });
    await s.waitFor(READY, 120_000);
    const dbPort = Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
    process.kill(postmasterPid(dir), 'SIGKILL');
    // Someone else takes the database's port, so every restart fails.
    const blocker = await takePort(dbPort);
    try {
      expect(await s.exited).toBe(1);
      expect(s.output()).toMatch(/^Error: the embedded database stopped and could not be restarted three times in a row; see .*postgres\.log$/m);
      expect(existsSync(path.join(dir, 'app.lock'))).toBe(false);
    } finally {
      blocker.close();
    }
  });
});

function postmasterPid(dir: string): number {
  return Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Listens on 127.0.0.1:port as soon as the dead database has let it go. */
async function takePort(port: number): Promise<Server> {
  for (let i = 0; ; i++) {
    try {
      return await new Promise<Server>((resolve, reject) => {
        const srv = createServer();
        srv.once('error', reject);
        srv.listen(port, '127.0.0.1', () => resolve(srv));
      });
    } catch (e) {
      if (i > 200) throw e;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
