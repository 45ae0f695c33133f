import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, realpathSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_DATA_DIR } from '../config.js';
import { StartupError } from '../startup-error.js';

/** The user that runs PostgreSQL: ourselves, or `postgres` when we are root. */
export interface RunAs {
  uid?: number;
  gid?: number;
}

/** Who runs PostgreSQL: this user, or the `postgres` system user (created when missing) when we are root. */
export function postgresUser(): RunAs {
  if (process.getuid?.() !== 0) return {};
  // PostgreSQL refuses to run as root: run it as the `postgres` system user.
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    try {
      spawnSync('groupadd', ['--system', 'postgres']);
      execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres']);
      return ids();
    } catch (e) {
      throw new StartupError(`Running as root, and no 'postgres' user could be created to run the embedded database: ${(e as Error).message}`);
    }
  }
}

export interface DataLocation {
  dir: string;
  /** Why the checkout's own data/ was not used, when it was not. */
  movedBecause?: string;
}

export interface ChooseOptions {
  /** DATA_DIR as configured, or the default. */
  dir: string;
  /** DATA_DIR was set: use it as given. */
  explicit: boolean;
  /** The checkout the default belongs to; its path names the fallback. */
  checkout: string;
  runAs: RunAs;
  /** Where fallbacks go; the defaults are /var/lib/casebook as root, ~/.local/share/casebook otherwise. */
  fallbackRoot?: string;
}

/** The data directory of a configuration: DATA_DIR, or the checkout's data/ when it can hold the database, or its fallback. */
export function dataLocation(data: { dir: string; explicit: boolean }): DataLocation {
  return chooseDataDir({ dir: data.dir, explicit: data.explicit, checkout: path.dirname(DEFAULT_DATA_DIR), runAs: postgresUser() });
}

/** The least free space the embedded database starts with: initdb alone writes about 40 MiB. */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

/**
 * Where the embedded database and uploaded files live. A set DATA_DIR is used
 * as given (a problem with it is one clear line). The default, the checkout's
 * `data/`, is used when the user that runs PostgreSQL can reach it; a clone
 * under a private home started as root cannot (PostgreSQL will not run as
 * root, and `postgres` cannot enter /root). Then the data goes to a directory
 * of its own under /var/lib/casebook, named after the checkout's path, so
 * that two checkouts never share one and the next start finds the same data.
 */
export function chooseDataDir(options: ChooseOptions): DataLocation {
  if (options.explicit) {
    prepareDataDir(options.dir, options.runAs);
    return { dir: options.dir };
  }
  const problem = problemWith(options.dir, options.runAs);
  if (!problem) {
    prepareDataDir(options.dir, options.runAs, `The data directory ${options.dir}`);
    return { dir: options.dir };
  }
  const root = options.fallbackRoot ?? defaultFallbackRoot(options.runAs);
  const dir = path.join(root, fallbackName(options.checkout));
  try {
    mkdirSync(root, { recursive: true, mode: 0o755 });
  } catch (e) {
    throw new StartupError(
      `${options.dir} cannot hold the database (${problem}), and ${root} cannot be created either (${(e as Error).message}); set DATA_DIR to a directory that can.`,
    );
  }
  prepareDataDir(dir, options.runAs, `${options.dir} cannot hold the database (${problem}), and the data directory ${dir}`);
  const marker = path.join(dir, 'CHECKOUT');
  if (!existsSync(marker)) writeFileSync(marker, `The data of the Casebook checkout in ${realCheckout(options.checkout)}\n`);
  return { dir, movedBecause: problem };
}

/** `<name of the checkout>-<8 hex of its real path>`: readable, and never shared by two checkouts. */
export function fallbackName(checkout: string): string {
  const real = realCheckout(checkout);
  const slug =
    path
      .basename(real)
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 40) || 'casebook';
  return `${slug}-${createHash('sha256').update(real).digest('hex').slice(0, 8)}`;
}

function realCheckout(checkout: string): string {
  try {
    return realpathSync(checkout);
  } catch {
    return path.resolve(checkout);
  }
}

function defaultFallbackRoot(runAs: RunAs): string {
  if (runAs.uid !== undefined) return '/var/lib/casebook';
  const base = process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'casebook');
}

/** Why `dir` cannot hold the database, or undefined when it can (it is created when missing). */
function problemWith(dir: string, runAs: RunAs): string | undefined {
  const existing = nearestExisting(dir);
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch {
    return `${existing} is not writable by this user`;
  }
  if (runAs.uid !== undefined && !reachableBy(existing, runAs)) {
    return `the 'postgres' user that runs the database cannot reach it (${privateParent(existing) ?? 'a parent directory'} is private)`;
  }
  return undefined;
}

/**
 * Creates `dir` if needed and checks that we can write it, that PostgreSQL's
 * user can reach it, and that a new database has room. `label` names it in
 * messages (DATA_DIR by default).
 */
export function prepareDataDir(dir: string, runAs: RunAs, label = `DATA_DIR ${dir}`): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new StartupError(`${label} is not writable; choose a directory this user can write, or fix its permissions.`);
  }
  if (runAs.uid !== undefined) {
    // The postgres user needs search permission on DATA_DIR and every parent.
    // DATA_DIR is ours to open for search (not for listing); parents are not ours to change.
    if (!reachableBy(dir, runAs)) chmodSync(dir, statSync(dir).mode | 0o001);
    if (!reachableBy(dir, runAs)) {
      throw new StartupError(
        `${label} is not reachable by the 'postgres' user that runs the embedded database (${privateParent(dir) ?? 'a parent directory'} is private); set DATA_DIR to a directory outside a private home, such as /var/lib/casebook.`,
      );
    }
  }
  const free = freeBytes(dir);
  if (free !== undefined && free < MIN_FREE_BYTES && !existsSync(path.join(dir, 'pg', 'PG_VERSION'))) {
    throw new StartupError(
      `${label} has only ${(free / 1024 / 1024).toFixed(1)} MiB free; the embedded database needs at least ${MIN_FREE_BYTES / 1024 / 1024} MiB. Free some space or set DATA_DIR to another disk.`,
    );
  }
}

export function freeBytes(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return undefined;
  }
}

function nearestExisting(dir: string): string {
  let d = path.resolve(dir);
  while (!existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
}

export function reachableBy(dir: string, runAs: RunAs): boolean {
  return spawnSync('test', ['-x', dir], { ...runAs }).status === 0;
}

/** The outermost directory on the way to `dir` that others may not enter. */
function privateParent(dir: string): string | undefined {
  const parts = path.resolve(dir).split(path.sep).filter(Boolean);
  let d: string = path.sep;
  for (const part of parts) {
    d = path.join(d, part);
    try {
      if ((statSync(d).mode & 0o001) === 0) return d;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
