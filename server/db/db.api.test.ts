import { promises as fs, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/support/app.js';
import { MIGRATIONS_DIR, migrate, MigrationError } from './migrate.js';
import { type DbHandle, openDb } from './pool.js';
import { DEMO_TENANTS, seedDemo } from './seed/demo.js';

let handle: DbHandle;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
  handle = openDb(database.url);
});
afterAll(async () => {
  await handle.close();
  await database.drop();
});

describe('migrations', () => {
  it('are idempotent: a migrated database has nothing left to apply', async () => {
    expect(await migrate(handle.db)).toEqual([]);
  });

  it('run each in its own transaction: a failing one leaves no trace, earlier ones stay', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mig-'));
    writeFileSync(
      path.join(dir, '0001_good.mjs'),
      `import { sql } from 'kysely'; export async function up(db) { await sql\`create table good_one (id int)\`.execute(db); }`,
    );
    writeFileSync(
      path.join(dir, '0002_bad.mjs'),
      `import { sql } from 'kysely'; export async function up(db) { await sql\`create table half_done (id int)\`.execute(db); await sql\`select * from no_such_table\`.execute(db); }`,
    );
    const scratch = await createTestDatabase({ empty: true });
    const h = openDb(scratch.url);
    try {
      await expect(migrate(h.db, () => {}, dir)).rejects.toThrow(/Migration 0002_bad failed/);
      const tables = await sql<{ t: string | null }>`select to_regclass('good_one')::text as t union all select to_regclass('half_done')::text`.execute(h.db);
      expect(tables.rows.map((r) => r.t)).toEqual(['good_one', null]);
    } finally {
      await h.close();
      await scratch.drop();
    }
  });

  it('two instances migrating one fresh database at once both succeed, and each migration runs once', async () => {
    const scratch = await createTestDatabase({ empty: true });
    // Two pools, as two processes would have: Kysely's migration lock (a session advisory lock) is per connection.
    const a = openDb(scratch.url, { max: 2 });
    const b = openDb(scratch.url, { max: 2 });
    try {
      const [byA, byB] = await Promise.all([migrate(a.db), migrate(b.db)]);
      const files = (await fs.readdir(MIGRATIONS_DIR)).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts')).map((f) => f.replace(/\.(ts|js)$/, ''));
      // Between them they applied every migration, in order, and none twice.
      expect([...byA, ...byB].sort()).toEqual(files.sort());
      const recorded = await sql<{ name: string; n: number }>`select name, count(*)::int as n from kysely_migration group by name order by name`.execute(a.db);
      expect(recorded.rows).toEqual(files.map((name) => ({ name, n: 1 })));
      // Both start on an up-to-date database afterwards.
      expect(await migrate(a.db)).toEqual([]);
      expect(await migrate(b.db)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
      await scratch.drop();
    }
  });

  it('refuse a database migrated by a newer version', async () => {
    const scratch = await createTestDatabase();
    const h = openDb(scratch.url);
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', now()::text)`.execute(h.db);
      await expect(migrate(h.db)).rejects.toThrow(MigrationError);
      await expect(migrate(h.db)).rejects.toThrow(/newer version/);
    } finally {
      await h.close();
      await scratch.drop();
    }
  });
});

describe('demo seed', () => {
  it('seeds both tenants once, even when two instances start together', async () => {
    const results = await Promise.all([seedDemo(handle.db), seedDemo(handle.db), seedDemo(handle.db)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const names = await handle.db.selectFrom('entities').select('name').orderBy('id').execute();
    expect(names.map((n) => n.name)).toEqual(DEMO_TENANTS.map((t) => t.entity.name));
    const projects = await handle.db.selectFrom('projects').select(['uid', 'is_default']).orderBy('id').execute();
    expect(projects).toEqual([
      { uid: 'applications', is_default: true },
      { uid: 'other', is_default: false },
    ]);
    expect(await seedDemo(handle.db)).toBe(false);
  });
});

describe('int8', () => {
  it('comes back as a number and refuses values past 2^53', async () => {
    const ok = await sql<{ n: number; a: number[] }>`select 42::int8 as n, array[1,2]::int8[] as a`.execute(handle.db);
    expect(ok.rows[0]).toEqual({ n: 42, a: [1, 2] });
    await expect(sql`select 9007199254740993::int8 as n`.execute(handle.db)).rejects.toThrow(/out of safe range/);
  });
});
