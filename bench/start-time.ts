/**
 * Start-up benchmark: time from `node server/main.ts` to the shell served at
 * the printed URL, on a fresh DATA_DIR (first time: initdb, migrations, seed)
 * and again on the same DATA_DIR (warm); memory of the server process and of
 * the embedded PostgreSQL after start; the gzip size of what the shell and
 * first page load. Prints a Markdown table for docs/performance.md.
 * Run: npm run bench
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureWebBuild, WEB_DIST } from '../server/web-build.js';
import { freePort, startServer } from '../tests/support/server-process.js';

const RUNS = Number(process.env.RUNS ?? 5);

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

function postgresRssKb(dataDir: string): number {
  const pid = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
  // Shared buffers are counted once per process by RSS: an upper bound.
  return [pid, ...children].reduce((sum, p) => sum + (existsSync(`/proc/${p}`) ? rssKb(p) : 0), 0);
}

async function timeStart(dataDir: string): Promise<{ ms: number; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const t0 = performance.now();
  const s = startServer({ DATA_DIR: dataDir, PORT: String(port) });
  await s.waitFor(/is running at/);
  const res = await fetch(`http://127.0.0.1:${port}/`);
  await res.text();
  const ms = performance.now() - t0;
  return {
    ms,
    pid: s.proc.pid as number,
    stop: async () => {
      s.proc.kill('SIGTERM');
      await s.exited;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await ensureWebBuild(() => {});
const first: number[] = [];
const warm: number[] = [];
let serverRss = 0;
let pgRss = 0;
for (let i = 0; i < RUNS; i++) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-bench-'));
  const a = await timeStart(dir);
  first.push(a.ms);
  await a.stop();
  const b = await timeStart(dir);
  warm.push(b.ms);
  await new Promise((r) => setTimeout(r, 500));
  serverRss = Math.max(serverRss, rssKb(b.pid));
  pgRss = Math.max(pgRss, postgresRssKb(dir));
  await b.stop();
  rmSync(dir, { recursive: true, force: true });
}

// What the browser loads for the shell and the home page: index.html's scripts and styles
// and their static imports (lazy pages excluded).
const index = readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
const entry = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
const seen = new Set<string>();
const queue = [...entry];
while (queue.length) {
  const file = queue.shift() as string;
  if (seen.has(file)) continue;
  seen.add(file);
  if (!file.endsWith('.js')) continue;
  const code = readFileSync(path.join(WEB_DIST, file), 'utf8');
  for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) queue.push(`assets/${m[1]}`);
}
const gz = [...seen].reduce((sum, f) => sum + gzipSync(readFileSync(path.join(WEB_DIST, f))).length, 0);
const all = readdirSync(path.join(WEB_DIST, 'assets')).length;

console.log(`| measure | result |`);
console.log(`|---|---|`);
console.log(`| first start to shell served (fresh DATA_DIR: initdb, migrate, seed), median of ${RUNS} | ${(median(first) / 1000).toFixed(2)} s (max ${(Math.max(...first) / 1000).toFixed(2)} s) |`);
console.log(`| warm start to shell served, median of ${RUNS} | ${(median(warm) / 1000).toFixed(2)} s (max ${(Math.max(...warm) / 1000).toFixed(2)} s) |`);
console.log(`| server process RSS after start | ${(serverRss / 1024).toFixed(0)} MiB |`);
console.log(`| embedded PostgreSQL RSS after start (all its processes) | ${(pgRss / 1024).toFixed(0)} MiB |`);
console.log(`| shell + first page, JS and CSS, gzip | ${(gz / 1024).toFixed(1)} KiB in ${seen.size} files (${all} asset files in the build) |`);
