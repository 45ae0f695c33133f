import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lockfile from 'proper-lockfile';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const WEB_DIST = path.join(ROOT, 'dist', 'web');
const STAMP = path.join(WEB_DIST, '.source-hash');
/** What the web build is made of: a change to any of these makes it stale. */
const SOURCES = ['web', 'core', 'package-lock.json', 'package.json'];

function walk(file: string, out: string[]): void {
  const st = statSync(file);
  if (st.isDirectory()) {
    for (const name of readdirSync(file).sort()) {
      if (name === 'node_modules' || name.endsWith('.test.ts') || name.endsWith('.test.tsx')) continue;
      walk(path.join(file, name), out);
    }
  } else {
    out.push(file);
  }
}

/** A hash of the web app's sources (content, not times: a fresh clone has new mtimes). */
export function webSourceHash(): string {
  const files: string[] = [];
  for (const s of SOURCES) {
    const p = path.join(ROOT, s);
    if (existsSync(p)) walk(p, files);
  }
  const hash = createHash('sha256');
  for (const f of files) {
    hash.update(path.relative(ROOT, f));
    hash.update(readFileSync(f));
  }
  return hash.digest('hex');
}

export type BuildState = 'fresh' | 'missing' | 'stale' | 'no-sources';

export function webBuildState(): BuildState {
  if (!existsSync(path.join(ROOT, 'web', 'index.html'))) return existsSync(path.join(WEB_DIST, 'index.html')) ? 'no-sources' : 'missing';
  if (!existsSync(path.join(WEB_DIST, 'index.html')) || !existsSync(STAMP)) return 'missing';
  return readFileSync(STAMP, 'utf8').trim() === webSourceHash() ? 'fresh' : 'stale';
}

/**
 * Runs `fn` while holding a lock on `target` (proper-lockfile: a `<target>.lock`
 * folder whose time the holder refreshes; one left by a process that died is
 * taken over once it is `staleMs` old). The others wait for it, up to `waitMs`.
 */
export async function withFileLock<T>(target: string, fn: () => Promise<T>, o: { staleMs?: number; waitMs?: number } = {}): Promise<T> {
  const staleMs = o.staleMs ?? 20_000;
  const deadline = Date.now() + (o.waitMs ?? 15 * 60_000);
  for (;;) {
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(target, {
        realpath: false,
        stale: staleMs,
        update: Math.max(1000, Math.floor(staleMs / 4)),
        // Its default throws from a timer: a lock taken over while this process was
        // too busy to refresh it costs at most a second build (each builds into a
        // folder of its own and swaps by rename), never the process.
        onCompromised: () => {},
      });
    } catch (e) {
      if ((e as { code?: string }).code !== 'ELOCKED' || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      return await fn();
    } finally {
      await release().catch(() => {});
    }
  }
}

/**
 * Builds the web app with Vite when its build is missing or stale. Several
 * instances started together from one checkout build it once: the first takes
 * the lock, the others wait for it and then find the build fresh.
 */
export async function ensureWebBuild(log: (msg: string) => void): Promise<BuildState> {
  const first = webBuildState();
  if (first === 'fresh' || first === 'no-sources') return first;
  mkdirSync(path.dirname(WEB_DIST), { recursive: true });
  return withFileLock(WEB_DIST, () => buildUnlocked(log));
}

async function buildUnlocked(log: (msg: string) => void): Promise<BuildState> {
  const state = webBuildState();
  if (state === 'fresh' || state === 'no-sources') return state;
  log(`building the web app (${state})...`);
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  // Build beside the live one and swap, so a server never serves a half-written build.
  const tmpOut = `${WEB_DIST}.tmp-${process.pid}`;
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const child = spawn(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn', '--outDir', tmpOut], {
      cwd: ROOT,
      // Always a production build: under vitest NODE_ENV is 'test', which would
      // bundle React's development build and serve it as if it were the real one.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`web build failed:\n${output.slice(-4000)}`))));
  });
  writeFileSync(path.join(tmpOut, '.source-hash'), webSourceHash());
  keepRecentAssets(path.join(WEB_DIST, 'assets'), path.join(tmpOut, 'assets'));
  // Two renames, so the folder is missing for a moment only, never half there.
  const old = `${WEB_DIST}.old-${process.pid}`;
  if (existsSync(WEB_DIST)) renameSync(WEB_DIST, old);
  renameSync(tmpOut, WEB_DIST);
  rmSync(old, { recursive: true, force: true });
  return state;
}

/** How long the scripts of a replaced build stay servable. */
const KEEP_OLD_ASSETS_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Copies the previous build's hashed assets (those younger than a week, by
 * their build time) into the new one. A tab opened before the new build still
 * loads the pages it has not visited yet, instead of failing on a chunk whose
 * name is gone; hashed names never collide with the new ones.
 */
export function keepRecentAssets(fromDir: string, toDir: string, now = Date.now()): string[] {
  if (!existsSync(fromDir) || !existsSync(toDir)) return [];
  const kept: string[] = [];
  for (const name of readdirSync(fromDir)) {
    const from = path.join(fromDir, name);
    const to = path.join(toDir, name);
    const stat = statSync(from);
    if (!stat.isFile() || existsSync(to) || now - stat.mtimeMs > KEEP_OLD_ASSETS_MS) continue;
    cpSync(from, to, { preserveTimestamps: true });
    kept.push(name);
  }
  return kept;
}
