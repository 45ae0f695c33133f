import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestApp, createTestDatabase, login, type TestApp } from '../../tests/support/app.js';
import { makeEntity, makeProject, makePublishedProtocol, makeUser } from '../../tests/support/factories.js';
import { READ_AFTER_WRITE_COOKIE } from '../plugins/reads.js';

/**
 * Read replicas (DATABASE_READ_URL): the case and task lists and the reports
 * read the replica; writes and the writer's own reads for
 * READ_AFTER_WRITE_SECONDS (1 here) go to the primary; a replica that is gone
 * leaves the lists answering from the primary.
 *
 * The "replica" is a second database of the test server, cloned from the
 * same migrated template, which this test keeps in step with the primary
 * itself (`sync`): until it runs, the replica lags, as a real one may, and a
 * row written on the primary is missing there. Both the embedded PostgreSQL
 * and CI's PostgreSQL 15 run it (nothing but SQL: no pg_dump).
 */
type List = { items: Array<{ id: number; caseId?: number }>; total: number };

/**
 * Copies every table of the primary's public schema into the replica in one
 * transaction: emptied, then refilled from the primary's rows as JSON
 * (generated columns left to the replica; triggers and foreign keys off
 * under session_replication_role = replica, as a standby replays).
 */
async function sync(primaryUrl: string, replicaUrl: string): Promise<void> {
  const source = new pg.Client({ connectionString: primaryUrl });
  const target = new pg.Client({ connectionString: replicaUrl });
  await Promise.all([source.connect(), target.connect()]);
  try {
    const { rows: tables } = await source.query<{ name: string; columns: string[] }>(`
      select c.relname as name,
             array_agg(quote_ident(a.attname) order by a.attnum) as columns
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
       where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
       group by c.relname`);
    await target.query('begin');
    await target.query('set local session_replication_role = replica');
    await target.query(`truncate ${tables.map((t) => `public.${pg.escapeIdentifier(t.name)}`).join(', ')}`);
    for (const t of tables) {
      const table = `public.${pg.escapeIdentifier(t.name)}`;
      const { rows } = await source.query<{ rows: string }>(`select coalesce(json_agg(x), '[]')::text as rows from ${table} x`);
      if (rows[0].rows === '[]') continue;
      const columns = t.columns.join(', ');
      await target.query(`insert into ${table} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${table}, $1::json)`, [rows[0].rows]);
    }
    await target.query('commit');
  } catch (e) {
    await target.query('rollback').catch(() => {});
    throw e;
  } finally {
    await Promise.all([source.end(), target.end()]);
  }
}

/** The rows of every table of the replica, to show that no write reaches it. */
async function rowCounts(url: string): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows: tables } = await c.query<{ name: string }>(`select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and relkind = 'r' order by 1`);
    const counts: Record<string, number> = {};
    for (const { name } of tables) counts[name] = Number((await c.query(`select count(*) as n from public.${pg.escapeIdentifier(name)}`)).rows[0].n);
    return counts;
  } finally {
    await c.end();
  }
}

/** A tenant with a published protocol (one task, for the case's owner), a writer and a reader who both see every case and task. */
async function tenantOf(t: TestApp) {
  const entityId = (await makeEntity(t.db)).id;
  await makeProject(t.db, { entity_id: entityId });
  const protocol = await makePublishedProtocol(t.db, entityId);
  const writer = await makeUser(t.db, entityId, { role: 'super-admin', password: 'Demo12345' });
  const reader = await makeUser(t.db, entityId, { role: 'super-admin', password: 'Demo12345' });
  return { protocolId: protocol.id, writer: await login(t, writer.email), reader: await login(t, reader.email) };
}

type Who = { sid: string; rw?: string };
const get = (t: TestApp, url: string, who: Who) => t.request({ method: 'GET', url, cookies: { ...who, lang: 'en' } });
async function list(t: TestApp, url: string, who: Who): Promise<List> {
  const res = await get(t, url, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<List>();
}

/** A case made through the API: a draft, then submitted (its first task for the writer). Returns its id and the read-after-write cookie of the submit. */
async function createCase(t: TestApp, protocolId: number, who: Who): Promise<{ id: number; rw: string }> {
  const draft = await t.request({ method: 'POST', url: '/api/cases/drafts', cookies: { sid: who.sid }, payload: { protocolId, data: { firstName: 'Lucía' } } });
  expect(draft.statusCode, draft.body).toBe(201);
  const id = draft.json<{ id: number }>().id;
  const submitted = await t.request({ method: 'POST', url: `/api/cases/drafts/${id}/submit`, cookies: { sid: who.sid }, payload: { data: { firstName: 'Lucía' } } });
  expect(submitted.statusCode, submitted.body).toBe(200);
  const rw = submitted.cookies.find((c) => c.name === READ_AFTER_WRITE_COOKIE);
  expect(rw).toMatchObject({ path: '/api', httpOnly: true, maxAge: t.app.config.database.readAfterWriteSeconds });
  return { id, rw: (rw as { value: string }).value };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const metric = (body: string, series: string) => Number(body.split('\n').find((l) => l.startsWith(series))?.split(' ').pop() ?? 0);

describe('with a replica that lags', () => {
  let t: TestApp;
  let replica: Awaited<ReturnType<typeof createTestDatabase>>;
  let primaryUrl: string;
  let tenant: Awaited<ReturnType<typeof tenantOf>>;
  const caseIds = (l: List) => l.items.map((i) => i.id);
  const taskCaseIds = (l: List) => l.items.map((i) => i.caseId);
  /** What the reader sees of case `id`: in the case list, in the task list, and the count of the task report. */
  const readerSees = async (id: number) => ({
    cases: caseIds(await list(t, '/api/cases?limit=100', tenant.reader)).includes(id),
    tasks: taskCaseIds(await list(t, '/api/tasks?limit=100', tenant.reader)).includes(id),
    reported: (await get(t, '/api/reports/status-by-task/pivot', tenant.reader)).json<{ total: { value: number } }>().total.value,
  });

  beforeAll(async () => {
    replica = await createTestDatabase();
    // The case queues run the data tape's job.
    t = await createTestApp({ readUrl: replica.url, env: { READ_AFTER_WRITE_SECONDS: '1', METRICS: 'on' }, jobs: { mail: false, schedules: false, cases: true } });
    primaryUrl = (t.app.config.database.url as string);
    tenant = await tenantOf(t);
    await sync(primaryUrl, replica.url);
  });
  afterAll(async () => {
    await t.close();
    await replica.drop();
  });

  it('shows another user a new case, its task and its count only once the replica has it; no write reaches the replica', async () => {
    const before = await readerSees(-1);
    const replicaRows = await rowCounts(replica.url);
    const { id } = await createCase(t, tenant.protocolId, tenant.writer);
    expect(await t.db.selectFrom('tasks').where('case_id', '=', id).select('id').execute()).toHaveLength(1);

    // The reader (no recent write) reads the replica, which does not have it yet.
    expect(await readerSees(id)).toEqual({ cases: false, tasks: false, reported: before.reported });
    expect((await list(t, '/api/tasks/pending', tenant.reader)).total).toBe(0);
    expect((await get(t, '/api/reports/dashboard', tenant.reader)).statusCode).toBe(200);
    // Writes went to the primary only: the replica's tables are as the last sync left them.
    expect(await rowCounts(replica.url)).toEqual(replicaRows);

    await sync(primaryUrl, replica.url);
    expect(await readerSees(id)).toEqual({ cases: true, tasks: true, reported: before.reported + 1 });
  });

  it("reads the writer's own lists from the primary for READ_AFTER_WRITE_SECONDS, then from the replica again", async () => {
    const { id, rw } = await createCase(t, tenant.protocolId, tenant.writer);
    const writer = { ...tenant.writer, rw };
    // At once: the list and the pending tasks (the task is the owner's) show it.
    expect(caseIds(await list(t, '/api/cases?limit=100', writer))).toContain(id);
    expect(taskCaseIds(await list(t, '/api/tasks/pending?limit=100', writer))).toContain(id);
    // Another session of nobody's write still reads the replica.
    expect(caseIds(await list(t, '/api/cases?limit=100', tenant.reader))).not.toContain(id);

    // The window is a second: past it, the same cookie reads the replica, which still lags.
    await sleep(1_100);
    expect(caseIds(await list(t, '/api/cases?limit=100', writer))).not.toContain(id);
    await sync(primaryUrl, replica.url);
    expect(caseIds(await list(t, '/api/cases?limit=100', writer))).toContain(id);
  });

  it('writes the data tape and the background case export from the replica, READ_AFTER_WRITE_SECONDS after they were asked for', async () => {
    /** Starts a background job through the API and polls it until it is done; its count of rows. */
    const run = async (url: string, payload: Record<string, unknown>) => {
      const started = await t.request({ method: 'POST', url, cookies: { sid: tenant.reader.sid }, payload });
      expect(started.statusCode, started.body).toBe(202);
      const id = started.json<{ id: string }>().id;
      for (let i = 0; i < 400; i++) {
        const view = (await get(t, `${url}/${id}`, tenant.reader)).json<{ state: string; done: number }>();
        if (view.state !== 'running') return view;
        await sleep(25);
      }
      throw new Error(`${url}/${id} still running`);
    };
    const tape = () => run('/api/data-tape/exports', { protocolId: tenant.protocolId, format: 'csv' });
    const caseExport = () => run('/api/cases/exports', { format: 'csv', query: {} });
    await sync(primaryUrl, replica.url);
    await createCase(t, tenant.protocolId, tenant.writer);
    const [lagging, laggingExport] = [await tape(), await caseExport()];
    expect([lagging.state, laggingExport.state]).toEqual(['done', 'done']);
    await sync(primaryUrl, replica.url);
    // The application made before the first runs was on the primary only: they read the replica.
    expect(await tape()).toMatchObject({ state: 'done', done: lagging.done + 1 });
    expect(await caseExport()).toMatchObject({ state: 'done', done: laggingExport.done + 1 });
  });

  it('sets the cookie on writes answered 2xx only, and counts reads by database', async () => {
    const refused = await t.request({ method: 'POST', url: '/api/cases/drafts', cookies: { sid: tenant.writer.sid }, payload: { protocolId: 999_999_999, data: {} } });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.cookies.find((c) => c.name === READ_AFTER_WRITE_COOKIE)).toBeUndefined();
    expect((await get(t, '/api/cases', tenant.reader)).cookies.find((c) => c.name === READ_AFTER_WRITE_COOKIE)).toBeUndefined();

    const metrics = (await t.request({ method: 'GET', url: '/api/metrics' })).body;
    expect(metric(metrics, 'casebook_db_reads_total{target="replica",reason="replica"}')).toBeGreaterThan(5);
    expect(metric(metrics, 'casebook_db_reads_total{target="primary",reason="recent_write"}')).toBeGreaterThanOrEqual(2);
    expect(metric(metrics, 'casebook_db_replica_fallbacks_total{cause="unavailable"}')).toBe(0);
  });
});

describe('with the replica gone', () => {
  it('answers the lists and reports from the primary when the replica database is dropped', async () => {
    const replica = await createTestDatabase();
    const t = await createTestApp({ readUrl: replica.url, env: { METRICS: 'on' } });
    try {
      const tenant = await tenantOf(t);
      await sync(t.app.config.database.url as string, replica.url);
      // The replica answers once (a pooled connection is open), then goes.
      expect((await list(t, '/api/cases', tenant.reader)).total).toBe(0);
      await replica.drop();

      // Made on the primary and never copied: the reader sees it, so the read was the primary's.
      const { id } = await createCase(t, tenant.protocolId, tenant.writer);
      expect((await list(t, '/api/cases', tenant.reader)).items.map((i) => i.id)).toContain(id);
      expect((await list(t, '/api/tasks', tenant.reader)).items.map((i) => i.caseId)).toContain(id);
      expect((await list(t, '/api/tasks/pending', tenant.writer)).total).toBe(1);
      const pivot = await get(t, '/api/reports/status-by-task/pivot', tenant.reader);
      expect(pivot.statusCode).toBe(200);
      expect(pivot.json<{ total: { value: number } }>().total.value).toBe(1);
      const file = await get(t, '/api/reports/task-details/export?view=rows&format=csv', tenant.reader);
      expect(file.statusCode, file.body).toBe(200);
      expect(file.body).toContain('Review');

      const metrics = (await t.request({ method: 'GET', url: '/api/metrics' })).body;
      expect(metric(metrics, 'casebook_db_replica_fallbacks_total{cause="unavailable"}')).toBeGreaterThanOrEqual(1);
      expect(metric(metrics, 'casebook_db_reads_total{target="primary",reason="fallback"}')).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
      await replica.drop();
    }
  });

  it('answers from the primary when nothing listens at the replica address', async () => {
    const t = await createTestApp({ readUrl: 'postgres://postgres@127.0.0.1:1/casebook' });
    try {
      const tenant = await tenantOf(t);
      const { id } = await createCase(t, tenant.protocolId, tenant.writer);
      expect((await list(t, '/api/cases', tenant.reader)).items.map((i) => i.id)).toContain(id);
      expect((await get(t, '/api/reports/dashboard', tenant.reader)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
