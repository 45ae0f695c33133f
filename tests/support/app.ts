import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type AppOptions, buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { type Db, openDb } from '../../server/db/pool.js';
import { seedDemo } from '../../server/db/seed/demo.js';
import { seedDemoWorkflow } from '../../server/db/seed/workflow.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** app.inject with JSON in and out. */
  request(options: InjectOptions): Promise<LightMyRequestResponse & { body: string; json<T = unknown>(): T }>;
  /** With `realtime`, the app listens on a free loopback port: its address. */
  url?: string;
  close(): Promise<void>;
}

/** A fresh database cloned from the migrated template (or an empty one). */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const { adminUrl, template, prefix } = inject('testDb');
  const name = `${prefix}${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${options.empty ? 'template0' : template} strategy file_copy`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** An app on a fresh database. */
export async function createTestApp(
  options: {
    webDir?: string;
    demo?: boolean;
    workflow?: boolean;
    env?: Record<string, string>;
    logger?: FastifyServerOptions['logger'];
    realtime?: boolean;
    jobs?: AppOptions['jobs'];
    /** DATABASE_READ_URL: a database standing for the read replica (the test keeps it in step: server/db/read-replica.api.test.ts). */
    readUrl?: string;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const handle = openDb(database.url, { max: 5 });
  if (options.demo) await seedDemo(handle.db);
  const config = loadConfig({ DATA_DIR: '/tmp/casebook-test-unused', DATABASE_URL: database.url, ...(options.readUrl ? { DATABASE_READ_URL: options.readUrl } : {}), ...options.env });
  // As main.ts opens it.
  const readHandle = config.database.readUrl ? openDb(config.database.readUrl, { max: 5, connectTimeoutMs: 2_000 }) : undefined;
  // With an SMTP server, mail is delivered as in production: by pg-boss jobs (the sweeps stay with the tests).
  const jobs = options.jobs ?? (config.mail.smtpUrl ? { mail: true, mailRetry: { retryLimit: 2, retryDelay: 1 } } : false);
  const app = await buildApp({ config, db: handle.db, readDb: readHandle?.db, webDir: options.webDir, logger: options.logger, realtime: options.realtime, jobs });
  await app.ready();
  const url = options.realtime ? await app.listen({ port: 0, host: '127.0.0.1' }) : undefined;
  if (options.workflow) await seedDemoWorkflow(handle.db, app.engine);
  return {
    app,
    db: handle.db,
    request: (opts) => app.inject(opts) as never,
    url,
    async close() {
      await app.close();
      await readHandle?.close();
      await handle.close();
      await database.drop();
    },
  };
}

/** Signs in through the API and returns the session cookie for later requests. */
export async function login(t: TestApp, email: string, password = 'Demo12345'): Promise<{ sid: string }> {
  const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
  const sid = res.cookies.find((c) => c.name === 'sid')?.value;
  if (!sid) throw new Error('no session cookie');
  return { sid };
}
