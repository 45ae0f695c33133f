import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../server/web-build.js';
import { APPLICANT_MAPPING, applicantsCsv } from '../support/applicants-csv.js';
import { freePort, startServer } from '../support/server-process.js';

/**
 * A bulk import cut off by kill -9 in the middle (issue 17): the server is
 * started again as `npm start` does, the import's job is taken up again by
 * the new process and goes on from the first row without an outcome, and it
 * ends with every row of the file imported exactly once.
 */
const ROWS = Number(process.env.IMPORT_KILL_ROWS ?? 100_000);
const base = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const dirs: string[] = [];
const READY = /is running at (http:\/\/\S+)/;

beforeAll(async () => {
  await ensureWebBuild(() => {});
}, 180_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Job = { id: number; status: string; processed: number; created: number; skipped: number; failed: number; total: number };

describe('a bulk import cut off by kill -9', () => {
  it(`resumes after npm start and ends with every one of ${ROWS.toLocaleString('en')} rows imported once`, { timeout: 600_000 }, async () => {
    const dir = mkdtempSync(path.join(base, 'casebook-import-kill-'));
    dirs.push(dir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let server = startServer({ DATA_DIR: dir, PORT: String(port), PUBLIC_URL: url });
    await server.waitFor(READY, 180_000);

    const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'coordinator@demo.test', password: 'Demo12345' }) });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const get = async <T>(p: string) => (await (await fetch(`${url}${p}`, { headers: { cookie } })).json()) as T;
    const protocols = await get<{ items: Array<{ id: number; code: string }> }>('/api/protocols?search=rental-assistance');
    const protocolId = protocols.items.find((p) => p.code === 'rental-assistance')?.id as number;
    const run = `K${Date.now().toString(36)}`;
    const up = await fetch(`${url}/api/cases/imports?protocolId=${protocolId}&fileName=kill.csv`, { method: 'POST', headers: { cookie, 'content-type': 'text/csv' }, body: applicantsCsv(run, ROWS) });
    expect(up.status).toBe(201);
    const job = (await up.json()) as Job;
    expect(job.total).toBe(ROWS);
    const started = await fetch(`${url}/api/cases/imports/${job.id}/run`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(APPLICANT_MAPPING) });
    expect(started.status).toBe(202);

    // Cut off once some batches have committed, well before the end.
    let seen: Job;
    for (;;) {
      seen = await get<Job>(`/api/cases/imports/${job.id}`);
      if (seen.processed >= ROWS / 3 || seen.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.status).toBe('running');
    server.proc.kill('SIGKILL');
    await server.exited;

    server = startServer({ DATA_DIR: dir, PORT: String(port), PUBLIC_URL: url });
    await server.waitFor(READY, 180_000);
    const again = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'coordinator@demo.test', password: 'Demo12345' }) });
    const cookie2 = (again.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const get2 = async <T>(p: string) => (await (await fetch(`${url}${p}`, { headers: { cookie: cookie2 } })).json()) as T;
    let done: Job;
    for (;;) {
      // A server that went away says why.
      done = await get2<Job>(`/api/cases/imports/${job.id}`).catch((e: Error) => {
        throw new Error(`${e.message} (${String(e.cause)}); the restarted server said:\n${server.output().slice(-6000)}`);
      });
      if (done.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(done).toMatchObject({ status: 'done', total: ROWS, processed: ROWS, created: ROWS, skipped: 0, failed: 0 });
    // Every row once, read in the embedded database itself: one case per reference, each with its first task and history.
    const port2 = Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
    const password = readFileSync(path.join(dir, 'pg-password'), 'utf8').trim();
    const client = new pg.Client({ connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port2}/casebook` });
    await client.connect();
    try {
      const counts = await client.query(
        `select count(*)::int as cases, count(distinct external_ref)::int as refs,
                (select count(*)::int from tasks t join cases c2 on c2.id = t.case_id where c2.external_ref like $1) as tasks,
                (select count(*)::int from case_events e join cases c3 on c3.id = e.case_id where c3.external_ref like $1 and e.action = 'case_submit') as submits
         from cases where external_ref like $1`,
        [`${run}-%`],
      );
      expect(counts.rows[0]).toEqual({ cases: ROWS, refs: ROWS, tasks: ROWS, submits: ROWS });
    } finally {
      await client.end();
    }
    server.proc.kill('SIGTERM');
    await server.exited;
  });
});
