/**
 * The machinery of the scale-out proof (bench/scale-out.ts): a private
 * PostgreSQL 15 cluster made with the machine's binaries (or the machine's
 * running cluster), N server processes, HAProxy in front of them with the
 * repository's deploy/haproxy.cfg adapted, and an SMTP sink that counts
 * messages by their Message-ID.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, createWriteStream, existsSync, mkdirSync, readFileSync, type WriteStream, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { freePort, ROOT } from '../../tests/support/server-process.js';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs a command, throwing with its output when it fails. */
function run(cmd: string, args: string[], opts: { asPostgres?: boolean } = {}): string {
  const [file, argv] = opts.asPostgres && process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(file, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** The same, without blocking the event loop (the load goes on meanwhile). */
function runAsync(cmd: string, args: string[], opts: { asPostgres?: boolean } = {}): Promise<string> {
  const [file, argv] = opts.asPostgres && process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const p = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout?.on('data', (c) => (out += c));
    p.stderr?.on('data', (c) => (out += c));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} failed (${code}): ${out}`))));
  });
}

// ------------------------------------------------------------------ PostgreSQL

export interface Database {
  /** The application's database. */
  url: string;
  /** Where PostgreSQL listens. */
  port: number;
  describe: string;
  /** Restarts PostgreSQL (fast shutdown: sessions are cut); resolves once the restart command returns. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * A cluster of its own in a temporary directory, on a free loopback port, so
 * that restarting it disturbs nothing else on the machine. Run as `postgres`
 * when we are root (PostgreSQL refuses root).
 */
export async function privatePostgres(tmp: string, log: (s: string) => void): Promise<Database> {
  if (!existsSync(path.join(PG_BIN, 'initdb'))) {
    throw new Error(`PostgreSQL 15's binaries are not in ${PG_BIN}: install Debian's postgresql-15 (apt-get install -y postgresql-15), or pass --system-postgres`);
  }
  const root = process.getuid?.() === 0;
  const dir = path.join(tmp, 'pg');
  mkdirSync(dir, { mode: 0o700 });
  const password = randomBytes(18).toString('base64url');
  const pwfile = path.join(tmp, 'pgpass');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(tmp, uid, gid);
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  const port = await freePort();
  run(path.join(PG_BIN, 'initdb'), ['-D', dir, '-U', 'postgres', '--pwfile', pwfile, '--auth-host=scram-sha-256', '--auth-local=peer', '-E', 'UTF8', '--locale=C.UTF-8'], { asPostgres: true });
  // Three instances: up to 18 connections each (10 requests, 4 realtime, 4 pg-boss), a fourth set while one restarts,
  // and the checker's. Settings of a small dedicated server; fsync and synchronous commit stay on.
  const settings = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${tmp}'`,
    'max_connections = 200',
    'shared_buffers = 512MB',
    'work_mem = 8MB',
    'maintenance_work_mem = 128MB',
    'effective_cache_size = 4GB',
    'wal_buffers = 16MB',
    'max_wal_size = 2GB',
    'checkpoint_timeout = 15min',
    'random_page_cost = 1.1',
    `log_min_messages = warning`,
    `logging_collector = off`,
  ];
  writeFileSync(path.join(dir, 'postgresql.conf'), `${readFileSync(path.join(dir, 'postgresql.conf'), 'utf8')}\n# bench/scale-out.ts\n${settings.join('\n')}\n`);
  const pgLog = path.join(tmp, 'postgres.log');
  writeFileSync(pgLog, '');
  if (root) chownSync(pgLog, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), 0);
  const ctl = (args: string[]) => run(path.join(PG_BIN, 'pg_ctl'), ['-D', dir, '-l', pgLog, '-w', '-t', '60', ...args], { asPostgres: true });
  ctl(['start']);
  const admin = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database casebook`);
  await c.end();
  log(`private PostgreSQL 15 in ${dir} on 127.0.0.1:${port}`);
  return {
    url: admin.replace(/\/postgres$/, '/casebook'),
    port,
    describe: `a private PostgreSQL 15 cluster (Debian's binaries, data on ${os.tmpdir()}, fsync on) on 127.0.0.1:${port}`,
    async restart() {
      await runAsync(path.join(PG_BIN, 'pg_ctl'), ['-D', dir, '-l', pgLog, '-w', '-t', '60', 'restart', '-m', 'fast'], { asPostgres: true });
    },
    async stop() {
      try {
        ctl(['stop', '-m', 'fast']);
      } catch {
        // already stopped
      }
    },
  };
}

/** The machine's running cluster on 127.0.0.1:5432, in a database of its own, restarted with pg_ctlcluster. */
export async function systemPostgres(log: (s: string) => void): Promise<Database> {
  const admin = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `casebook_scaleout_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 3000 });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  log(`the machine's PostgreSQL, database ${name}`);
  return {
    url: url.toString(),
    port: Number(url.port || 5432),
    describe: `the machine's PostgreSQL 15 (${url.host}), database ${name}`,
    async restart() {
      await runAsync('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', 'restart', '-m', 'fast']);
    },
    async stop() {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

/** Resolves once PostgreSQL answers a query at `url` (polled every 50 ms). */
export async function waitForPostgres(url: string, timeoutMs = 60_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('select 1');
      await c.end();
      return Date.now();
    } catch {
      await c.end().catch(() => {});
      if (Date.now() > end) throw new Error('PostgreSQL did not come back');
      await sleep(50);
    }
  }
}

// ------------------------------------------------------------------ instances

export interface Instance {
  name: string;
  port: number;
  proc: ChildProcess | null;
  /** How many times its process was started. */
  starts: number;
  logFile: string;
  exited: Promise<number | null> | null;
  /** Set while we stop or kill it; an exit without it is a crash. */
  stopping: boolean;
}

export interface Crash {
  name: string;
  at: number;
  code: number | null;
  /** The end of its output: why it stopped. */
  tail: string;
}

export class Instances {
  readonly list: Instance[] = [];
  /** Processes that exited by themselves; each is started again a second later, as a service manager would. */
  readonly crashes: Crash[] = [];
  private logs = new Map<string, WriteStream>();
  private closing = false;

  constructor(
    private readonly env: Record<string, string>,
    private readonly tmp: string,
  ) {}

  async add(name: string): Promise<Instance> {
    const port = await freePort();
    const inst: Instance = { name, port, proc: null, starts: 0, logFile: path.join(this.tmp, `${name}.log`), exited: null, stopping: false };
    mkdirSync(path.join(this.tmp, `data-${name}`));
    this.list.push(inst);
    return inst;
  }

  /** Starts the process (`node --import tsx server/main.ts`, as npm start does); its output goes to its log file. */
  start(inst: Instance): void {
    let out = this.logs.get(inst.name);
    if (!out) {
      out = createWriteStream(inst.logFile, { flags: 'a' });
      this.logs.set(inst.name, out);
    }
    out.write(`\n===== start ${inst.starts + 1} at ${new Date().toISOString()}\n`);
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
      cwd: ROOT,
      // A DATA_DIR of its own: with DATABASE_URL uploaded files go to PostgreSQL (FILES_URL's default), so nothing but
      // the database is shared, and a document uploaded through one instance is downloaded through another.
      env: { ...process.env, ...this.env, PORT: String(inst.port), DATA_DIR: path.join(this.tmp, `data-${inst.name}`) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stream = out;
    proc.stdout?.on('data', (c: Buffer) => stream.write(c));
    proc.stderr?.on('data', (c: Buffer) => stream.write(c));
    inst.proc = proc;
    inst.starts++;
    inst.stopping = false;
    let tail = '';
    proc.stdout?.on('data', (c: Buffer) => (tail = (tail + c.toString('utf8')).slice(-3000)));
    proc.stderr?.on('data', (c: Buffer) => (tail = (tail + c.toString('utf8')).slice(-3000)));
    inst.exited = new Promise((resolve) =>
      proc.once('exit', (code, signal) => {
        resolve(code ?? (signal ? 128 : null));
        if (inst.stopping || this.closing) return;
        this.crashes.push({ name: inst.name, at: Date.now(), code, tail });
        stream.write(`\n===== ${inst.name} exited by itself (${code ?? signal}); started again in 1 s\n`);
        setTimeout(() => !this.closing && inst.proc === proc && this.start(inst), 1000);
      }),
    );
  }

  /** kill -9 or SIGTERM, expected (not a crash). */
  signal(inst: Instance, sig: NodeJS.Signals): void {
    inst.stopping = true;
    inst.proc?.kill(sig);
  }

  /** Waits until the instance's own /api/ready answers 200 (it has migrated and listens). */
  async waitReady(inst: Instance, timeoutMs = 180_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    let exited = false;
    void inst.exited?.then(() => (exited = true));
    while (Date.now() < end) {
      if (exited) throw new Error(`${inst.name} exited while starting; see ${inst.logFile}`);
      if ((await probe(`http://127.0.0.1:${inst.port}/api/ready`, 1000)) === 200) return;
      await sleep(100);
    }
    throw new Error(`${inst.name} not ready within ${timeoutMs / 1000} s; see ${inst.logFile}`);
  }

  async stopAll(): Promise<void> {
    this.closing = true;
    for (const i of this.list) if (i.proc && i.proc.exitCode === null && i.proc.signalCode === null) i.proc.kill('SIGTERM');
    await Promise.race([Promise.all(this.list.map((i) => i.exited)), sleep(20_000)]);
    for (const i of this.list) if (i.proc && i.proc.exitCode === null && i.proc.signalCode === null) i.proc.kill('SIGKILL');
    for (const s of this.logs.values()) s.end();
  }
}

/** GET a URL on loopback: its status, 0 on a connection error, -1 on a timeout. */
export async function probe(url: string, timeoutMs: number): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status;
  } catch (e) {
    return (e as Error).name === 'TimeoutError' ? -1 : 0;
  }
}

// ------------------------------------------------------------------ HAProxy

/**
 * The repository's deploy/haproxy.cfg with only what a test on one machine
 * must change: the frontend binds a free loopback port, the servers are the
 * instances' ports, a stats socket lets the bench see what HAProxy thinks of
 * each server, and each answer names the server that gave it
 * (`X-Casebook-Instance`, so the bench can tell which instance a request or a
 * socket went to). Health checks, timeouts, balancing, retries and
 * X-Forwarded-For stay as the example has them; each substitution must match
 * or the bench stops, so the example and the proof cannot drift apart.
 */
export function haproxyConfig(example: string, listenPort: number, servers: Array<{ name: string; port: number }>, statsSocket: string): string {
  let cfg = example;
  const replace = (from: RegExp, to: string) => {
    if (!from.test(cfg)) throw new Error(`deploy/haproxy.cfg changed: ${from} not found; update bench/scale-out/infra.ts`);
    cfg = cfg.replace(from, to);
  };
  replace(/^(\s*)bind :80$/m, `$1bind 127.0.0.1:${listenPort}`);
  replace(/^(\s*)maxconn 8000$/m, `$1maxconn 8000\n$1stats socket ${statsSocket} mode 600 level admin`);
  const serverLines = /^(\s*)server app1 127\.0\.0\.1:3001\n\s*server app2 127\.0\.0\.1:3002\n\s*server app3 127\.0\.0\.1:3003$/m;
  replace(serverLines, `$1http-response set-header X-Casebook-Instance %s\n${servers.map((s) => `$1server ${s.name} 127.0.0.1:${s.port}`).join('\n')}`);
  return cfg;
}

export class HAProxy {
  private proc: ChildProcess | null = null;
  private out: WriteStream | null = null;

  constructor(
    readonly cfgFile: string,
    readonly statsSocket: string,
    readonly logFile: string,
  ) {}

  static ensureInstalled(log: (s: string) => void): string {
    const found = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => existsSync(p));
    if (found) return found;
    if (process.getuid?.() !== 0) throw new Error('HAProxy is not installed: run `apt-get install -y haproxy` as root (or run this bench as root, which installs it)');
    log('installing HAProxy (apt-get install -y haproxy)');
    const r = spawnSync('apt-get', ['install', '-y', 'haproxy'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) throw new Error('apt-get install -y haproxy failed');
    return ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => existsSync(p)) as string;
  }

  start(bin: string): void {
    run(bin, ['-c', '-q', '-f', this.cfgFile]);
    this.out = createWriteStream(this.logFile);
    const proc = spawn(bin, ['-db', '-f', this.cfgFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.pipe(this.out, { end: false });
    proc.stderr?.pipe(this.out, { end: false });
    this.proc = proc;
  }

  /** `show stat` of the stats socket: each server's status (UP, DOWN, MAINT, "UP 1/2" ...). */
  async serverStates(): Promise<Map<string, string>> {
    const text = await new Promise<string>((resolve, reject) => {
      const s = createConnection(this.statsSocket);
      let buf = '';
      s.on('connect', () => s.write('show stat\n'));
      s.on('data', (c) => (buf += c.toString()));
      s.on('end', () => resolve(buf));
      s.on('error', reject);
      s.setTimeout(2000, () => s.destroy(new Error('stats socket timeout')));
    });
    const lines = text.trim().split('\n');
    const header = (lines[0] ?? '').replace(/^# /, '').split(',');
    const [px, sv, st] = ['pxname', 'svname', 'status'].map((h) => header.indexOf(h));
    const out = new Map<string, string>();
    for (const l of lines.slice(1)) {
      const f = l.split(',');
      if (f[px] === 'casebook_instances' && f[sv] !== 'BACKEND' && f[sv] !== 'FRONTEND') out.set(f[sv] as string, f[st] as string);
    }
    return out;
  }

  /** Waits until HAProxy's checks show the server UP (rise 2: two checks 2 s apart). */
  async waitUp(name: string, timeoutMs = 60_000): Promise<number> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const st = await this.serverStates().catch(() => new Map<string, string>());
      if (st.get(name) === 'UP') return Date.now();
      await sleep(100);
    }
    throw new Error(`HAProxy did not see ${name} UP within ${timeoutMs / 1000} s`);
  }

  async waitDown(name: string, timeoutMs = 30_000): Promise<number | null> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const st = await this.serverStates().catch(() => new Map<string, string>());
      if (st.get(name)?.startsWith('DOWN')) return Date.now();
      await sleep(100);
    }
    return null;
  }

  async stop(): Promise<void> {
    if (this.proc && this.proc.exitCode === null) {
      const gone = new Promise((r) => this.proc?.once('exit', r));
      this.proc.kill('SIGTERM');
      await Promise.race([gone, sleep(5000)]);
    }
    this.out?.end();
  }
}

// ------------------------------------------------------------------ SMTP sink

/**
 * An SMTP server on loopback that keeps only each message's Message-ID and
 * the time it arrived (no parsing of bodies: the load generator shares two
 * cores with everything else).
 */
export async function smtpSink(): Promise<{ url: string; received: Map<string, number[]>; close(): Promise<void> }> {
  const received = new Map<string, number[]>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      let done = false;
      stream.on('data', (c: Buffer) => {
        if (done) return;
        head += c.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end >= 0 || head.length > 64 * 1024) {
          done = true;
          head = end >= 0 ? head.slice(0, end) : head;
        }
      });
      stream.on('end', () => {
        const id = /^message-id:\s*(<[^>]+>)/im.exec(head)?.[1] ?? `(none ${received.size})`;
        const list = received.get(id) ?? [];
        list.push(Date.now());
        received.set(id, list);
        callback();
      });
    },
  });
  // A sender killed mid-message (kill -9 of an instance) resets its connection: without a listener that 'error' would stop this process.
  server.on('error', () => {});
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)));
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}
