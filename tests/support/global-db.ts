import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureDatabase } from '../../server/db/database.js';
import { EmbeddedPostgres } from '../../server/db/embedded.js';
import { migrate } from '../../server/db/migrate.js';
import { openDb } from '../../server/db/pool.js';

/**
 * Once per test run: a PostgreSQL (the embedded one on tmpfs, or the server of
 * DATABASE_URL) and a migrated template database. Each API test file clones
 * the template (tests/support/app.ts), so files never see each other's rows.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    testDb: { adminUrl: string; template: string; prefix: string };
  }
}

export default async function setup(project: TestProject) {
  const run = randomBytes(4).toString('hex');
  const prefix = `casebook_t${run}_`;
  let embedded: EmbeddedPostgres | undefined;
  let dataDir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    // tmpfs: cloning a database there takes milliseconds instead of hundreds.
    const base = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
    dataDir = path.join(base, `casebook-test-${run}`);
    embedded = await EmbeddedPostgres.start({ dataDir, log: () => {}, fsync: false });
    adminUrl = embedded.url;
  }
  const template = `${prefix}template`;
  const templateUrl = await ensureDatabase(adminUrl, template);
  const handle = openDb(templateUrl, { max: 1 });
  await migrate(handle.db);
  await handle.close();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`alter database ${template} with is_template true allow_connections false`);
  await admin.end();
  project.provide('testDb', { adminUrl, template, prefix });

  return async () => {
    if (embedded) {
      await embedded.stop();
      rmSync(dataDir as string, { recursive: true, force: true });
      return;
    }
    // On a shared server, drop what this run made.
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    const { rows } = await c.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${prefix}%`]);
    for (const { datname } of rows) {
      await c.query(`alter database ${datname} is_template false`);
      await c.query(`drop database if exists ${datname} with (force)`);
    }
    await c.end();
  };
}
