/**
 * Writes server/db/types.ts from a freshly migrated database (kysely-codegen;
 * overrides in server/db/codegen.ts). Run after adding a migration:
 *   npm run db:types            (an embedded PostgreSQL in a temp directory)
 *   DATABASE_URL=... npm run db:types   (a scratch database there, dropped after)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { generateTypes } from '../server/db/codegen.js';
import { ensureDatabase } from '../server/db/database.js';
import { EmbeddedPostgres } from '../server/db/embedded.js';
import { migrate } from '../server/db/migrate.js';
import { openDb } from '../server/db/pool.js';

const out = path.join(import.meta.dirname, '../server/db/types.ts');
let admin = process.env.DATABASE_URL;
let embedded: EmbeddedPostgres | undefined;
const dir = admin ? undefined : mkdtempSync(path.join(os.tmpdir(), 'casebook-types-'));
if (dir) {
  embedded = await EmbeddedPostgres.start({ dataDir: dir, log: () => {} });
  admin = embedded.url;
}
const name = `casebook_types_${process.pid}`;
const h = openDb(await ensureDatabase(admin as string, name));
try {
  await migrate(h.db);
  writeFileSync(out, await generateTypes(h.db as never));
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await h.close();
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.end();
  await embedded?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
