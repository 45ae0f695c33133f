import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgres } from '../../server/db/embedded.js';
import { isRunning } from '../../server/db/procfs.js';
import { ensureWebBuild } from '../../server/web-build.js';
import { freePort, startServer } from '../support/server-process.js';

/**
 * The real server process, as `npm start` runs it: start, serve, stop on a
 * signal after requests in flight, recover from kill -9, refuse a second
 * instance, and stop with one clear line on bad input.
 */
const base = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(path.join(base, 'casebook-life-'));
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

function postmasterPid(dir: string): number | undefined {
  const file = path.join(dir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

async function health(port: number) {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`);
  return { status: res.status, body: await res.json() };
}

describe('npm start', () => {
  it('starts on an empty DATA_DIR, seeds, serves the SPA and the API, and stops cleanly on SIGTERM (not ready for SHUTDOWN_DRAIN_SECONDS first)', async () => {
    const dir = dataDir();
    const port = await freePort();
    const s = startServer({ DATA_DIR: dir, PORT: String(port), SHUTDOWN_DRAIN_SECONDS: '2' });
    const line = await s.waitFor(READY);
    expect(line).toContain(`http://localhost:${port}`);
    expect(s.output()).toContain('demo data seeded');
    expect(await health(port)).toEqual({ status: 200, body: { status: 'ok', database: 'up' } });
    const page = await fetch(`http://127.0.0.1:${port}/some/client/route`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    // A script of the build that is not there is a 404, not the page served as JavaScript.
    const missing = await fetch(`http://127.0.0.1:${port}/assets/Gone-0123abcd.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
    const pgPid = postmasterPid(dir) as number;
    expect(isRunning(pgPid)).toBe(true);

    const ready = () => fetch(`http://127.0.0.1:${port}/api/ready`).then(async (r) => ({ status: r.status, code: r.status === 200 ? null : (await r.json()).error.code }));
    expect(await ready()).toEqual({ status: 200, code: null });

    s.proc.kill('SIGTERM');
    // The balancer's check sees the instance leave while it still answers everything else.
    const deadline = Date.now() + 1500;
    let seen = await ready();
    while (seen.status === 200 && Date.now() < deadline) seen = await ready();
    expect(seen).toEqual({ status: 503, code: 'SHUTTING_DOWN' });
    expect((await health(port)).status).toBe(200);
    expect(await s.exited).toBe(0);
    expect(isRunning(pgPid)).toBe(false);
    expect(existsSync(path.join(dir, 'app.lock'))).toBe(false);
  });

  it('finishes a request in flight before stopping', async () => {
    const dir = dataDir();
    const port = await freePort();
    const s = startServer({ DATA_DIR: dir, PORT: String(port) });
    await s.waitFor(READY);
    // A request whose body is still arriving when the signal comes.
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/version', headers: { 'content-type': 'application/json', 'content-length': '11' } },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"a":');
      setTimeout(() => {
        s.proc.kill('SIGTERM');
        setTimeout(() => req.end('"bcd"}'), 400);
      }, 100);
    });
    const res = await response;
    expect(res.status).toBe(404); // POST /api/version does not exist: answered, not cut off
    expect(JSON.parse(res.body).error.code).toBe('ROUTE_NOT_FOUND');
    expect(await s.exited).toBe(0);
  });

  it('recovers after kill -9: the orphaned database is stopped and the data is kept', async () => {
    const dir = dataDir();
    const port = await freePort();
    const first = startServer({ DATA_DIR: dir, PORT: String(port) });
    await first.waitFor(READY);
    const orphan = postmasterPid(dir) as number;
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(isRunning(orphan)).toBe(true); // PostgreSQL outlives a killed server

    const second = startServer({ DATA_DIR: dir, PORT: String(port) });
    await second.waitFor(READY);
    expect(second.output()).not.toContain('demo data seeded'); // the data survived
    expect(isRunning(orphan)).toBe(false);
    expect((await health(port)).status).toBe(200);
    second.proc.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('recovers from a stale postmaster.pid whose process is gone', async () => {
    const dir = dataDir();
    const port = await freePort();
    const first = startServer({ DATA_DIR: dir, PORT: String(port) });
    await first.waitFor(READY);
    const pg = postmasterPid(dir) as number;
    first.proc.kill('SIGKILL');
    await first.exited;
    process.kill(pg, 'SIGKILL'); // the database dies too, leaving its pid file
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(true);

    const second = startServer({ DATA_DIR: dir, PORT: String(port) });
    await second.waitFor(READY);
    expect((await health(port)).status).toBe(200);
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('refuses a second instance on the same DATA_DIR and leaves the first untouched', async () => {
    const dir = dataDir();
    const port = await freePort();
    const first = startServer({ DATA_DIR: dir, PORT: String(port) });
    await first.waitFor(READY);
    const second = startServer({ DATA_DIR: dir, PORT: String(await freePort()) });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toMatch(/^Error: Another instance \(pid \d+\) is already running on DATA_DIR/m);
    expect((await health(port)).status).toBe(200);
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  it('stops with one line when the port is in use, and leaves no database running', async () => {
    const dir = dataDir();
    const blocker = createServer();
    const port = await new Promise<number>((r) => blocker.listen(0, '0.0.0.0', () => r((blocker.address() as { port: number }).port)));
    try {
      const s = startServer({ DATA_DIR: dir, PORT: String(port) });
      expect(await s.exited).not.toBe(0);
      expect(s.output().trim()).toBe(`Error: Port ${port} is already in use; set PORT to a free port.`);
      const pid = postmasterPid(dir);
      expect(pid === undefined || !isRunning(pid)).toBe(true);
      expect(existsSync(path.join(dir, 'app.lock'))).toBe(false);
    } finally {
      blocker.close();
    }
  });
});

describe('bad input at start', () => {
  it.each([
    [{ PORT: 'abc' }, /^Error: Invalid configuration: PORT must be a whole number \(got "abc"\)$/],
    [{ DATABASE_URL: 'mysql://x' }, /^Error: Invalid configuration: DATABASE_URL must be a URL/],
    [{ DEMO_DATA: 'perhaps' }, /^Error: Invalid configuration: DEMO_DATA must be on or off/],
  ])('a wrong %o stops with one line naming the variable', async (env, message) => {
    const s = startServer({ DATA_DIR: dataDir(), ...env });
    expect(await s.exited).toBe(2);
    expect(s.output().trim().split('\n')).toHaveLength(1);
    expect(s.output().trim()).toMatch(message);
  });

  it('a DATA_DIR that cannot be written stops with one line', async () => {
    const file = path.join(dataDir(), 'a-file');
    writeFileSync(file, 'x');
    const s = startServer({ DATA_DIR: path.join(file, 'data'), PORT: String(await freePort()) });
    expect(await s.exited).not.toBe(0);
    expect(s.output().trim()).toMatch(/^Error: DATA_DIR .* is not writable/);
  });

  it('a DATA_DIR from a newer PostgreSQL is refused and left as it was', async () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, 'pg'));
    writeFileSync(path.join(dir, 'pg', 'PG_VERSION'), '99\n');
    const s = startServer({ DATA_DIR: dir, PORT: String(await freePort()) });
    expect(await s.exited).not.toBe(0);
    expect(s.output().trim()).toMatch(/^Error: DATA_DIR .* holds a PostgreSQL 99 database, newer than this version's PostgreSQL \d+/);
    expect(readFileSync(path.join(dir, 'pg', 'PG_VERSION'), 'utf8')).toBe('99\n');
  });
});

describe('DATABASE_URL', () => {
  it('uses that PostgreSQL and embeds nothing', async () => {
    const external = await EmbeddedPostgres.start({ dataDir: dataDir(), log: () => {}, fsync: false });
    try {
      const dir = dataDir();
      const port = await freePort();
      const s = startServer({ DATA_DIR: dir, PORT: String(port), DATABASE_URL: external.url, DEMO_DATA: 'on' });
      await s.waitFor(READY);
      expect(s.output()).toContain('Database: DATABASE_URL');
      expect(existsSync(path.join(dir, 'pg'))).toBe(false);
      expect((await health(port)).status).toBe(200);
      s.proc.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    } finally {
      await external.stop();
    }
  });
});
