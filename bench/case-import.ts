/**
 * Bulk import of applications (issue 17): a CSV of ROWS applicants of the
 * demo's rental-assistance protocol, uploaded, checked (dry run) and imported
 * through the API of a real server process, as the import dialog does it.
 * Measured: the dry run's time, the import's time and rows per second, the
 * server's resident memory (idle before, peak during, and a few seconds
 * after), and the p95 of another user's case-list request while the dry run
 * and the import run (a reviewer reading /api/cases every 200 ms).
 * Targets (issue 17): 100,000 rows validated in under 5 s and imported in
 * under 30 s, memory under 300 MiB throughout, the list's p95 under 100 ms.
 * Run: npx tsx bench/case-import.ts   (ROWS, default 2,000; DATABASE_URL to a
 * server's admin database for the machine's PostgreSQL, else an embedded one;
 * SERVER_NODE_ARGS, extra node options for the server, e.g. --trace-gc)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APPLICANT_MAPPING, applicantsCsv } from '../tests/support/applicants-csv.js';
import { benchDatabase } from './support.js';
import { freePort, type ServerProcess, startServer } from '../tests/support/server-process.js';

const ROWS = Number(process.env.ROWS ?? 2000);
const dirs: string[] = [];

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number) : Number.NaN;
}

async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'Demo12345' }) });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
  return /sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] as string;
}

/** Resident memory of a process, MiB (Linux). */
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Samples the server's memory and another user's list latency until stopped. */
function watch(base: string, reviewer: string, pid: number) {
  const latencies: number[] = [];
  let peak = 0;
  let running = true;
  const memory = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 250);
  const reader = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${base}/api/cases?limit=20`, { headers: { cookie: `sid=${reviewer}` } }).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return async () => {
    running = false;
    clearInterval(memory);
    await reader;
    return { p95: percentile(latencies, 95), samples: latencies.length, peak };
  };
}

async function main() {
  const db = await benchDatabase('casebook_bench_import');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-bench-import-'));
  dirs.push(dir);
  const port = await freePort();
  const server: ServerProcess = startServer({ DATA_DIR: dir, PORT: String(port), DATABASE_URL: db.url, DEMO_DATA: 'on', PUBLIC_URL: `http://127.0.0.1:${port}` }, { nodeArgs: (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean) });
  try {
    await server.waitFor(/is running at/, 180_000);
    const base = `http://127.0.0.1:${port}`;
    const pid = server.proc.pid as number;
    const [coordinator, reviewer] = [await login(base, 'coordinator@demo.test'), await login(base, 'reviewer@demo.test')];
    const headers = { cookie: `sid=${coordinator}` };
    const protocols = (await (await fetch(`${base}/api/protocols?search=rental-assistance`, { headers })).json()) as { items: Array<{ id: number; code: string }> };
    const protocolId = protocols.items.find((p) => p.code === 'rental-assistance')?.id as number;
    await new Promise((r) => setTimeout(r, 3000));
    const idle = rssMiB(pid);

    const file = Buffer.from(applicantsCsv(`B${Date.now().toString(36)}`, ROWS), 'utf8');
    const stopUpload = watch(base, reviewer, pid);
    const uploadStarted = performance.now();
    const uploaded = await fetch(`${base}/api/cases/imports?protocolId=${protocolId}&fileName=bench.csv`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: new Uint8Array(file) });
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
    const job = (await uploaded.json()) as { id: number };
    const uploadMs = performance.now() - uploadStarted;
    const duringUpload = await stopUpload();
    const mapping = APPLICANT_MAPPING;
    const post = (url: string) => fetch(`${base}${url}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(mapping) });

    let stop = watch(base, reviewer, pid);
    let started = performance.now();
    const dry = await post(`/api/cases/imports/${job.id}/dry-run`);
    const dryMs = performance.now() - started;
    const dryAnswer = (await dry.json()) as { valid?: number; errors?: unknown[] };
    const duringDry = await stop();

    stop = watch(base, reviewer, pid);
    started = performance.now();
    const run = await post(`/api/cases/imports/${job.id}/run`);
    if (run.status !== 202) throw new Error(`run: ${run.status} ${await run.text()}`);
    let state = { status: 'running', processed: 0, created: 0, failed: 0 };
    while (state.status === 'running') {
      await new Promise((r) => setTimeout(r, 250));
      state = (await (await fetch(`${base}/api/cases/imports/${job.id}`, { headers })).json()) as typeof state;
    }
    const importMs = performance.now() - started;
    const duringImport = await stop();
    await new Promise((r) => setTimeout(r, 5000));
    const after = rssMiB(pid);
    // V8 gives memory back once the process has been quiet for 8 s (its memory reducer).
    await new Promise((r) => setTimeout(r, 10_000));
    const settled = rssMiB(pid);

    const row = (label: string, value: string) => console.log(`| ${label} | ${value} |`);
    console.log(`\nimport of ${ROWS} rows, ${process.env.DATABASE_URL ? "the machine's PostgreSQL" : 'embedded PostgreSQL'}\n`);
    console.log('| measure | value |\n|---|---|');
    row('upload', `${(uploadMs / 1000).toFixed(1)} s (${(file.length / 1024 / 1024).toFixed(1)} MB), list p95 meanwhile ${duringUpload.p95.toFixed(0)} ms`);
    row('dry run', `${(dryMs / 1000).toFixed(1)} s (${dry.status}, valid ${dryAnswer.valid ?? '-'}, errors ${dryAnswer.errors?.length ?? '-'})`);
    row('import', `${(importMs / 1000).toFixed(1)} s, ${Math.round(state.created / (importMs / 1000))} rows/s (${state.status}: created ${state.created}, failed ${state.failed})`);
    row('server memory', `idle ${idle.toFixed(0)} MiB, peak ${Math.max(duringUpload.peak, duringDry.peak, duringImport.peak).toFixed(0)} MiB (upload ${duringUpload.peak.toFixed(0)}, dry run ${duringDry.peak.toFixed(0)}, import ${duringImport.peak.toFixed(0)}), 5 s after ${after.toFixed(0)} MiB, 15 s after ${settled.toFixed(0)} MiB`);
    row("another user's case list, p95", `during the dry run ${duringDry.p95.toFixed(0)} ms (${duringDry.samples}), during the import ${duringImport.p95.toFixed(0)} ms (${duringImport.samples})`);
  } finally {
    server.proc.kill('SIGTERM');
    await server.exited;
    await db.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
