import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator } from 'kysely/migration';
import type { Db } from './pool.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/**
 * Applies pending migrations in order, each in a transaction of its own
 * (Kysely's migrateToLatest would put them all in one). A database that has
 * migrations this code does not know was written by a newer version: refuse.
 */
export async function migrate(db: Db, log: (msg: string) => void = () => {}, folder = MIGRATIONS_DIR): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: folder, import: (p: string) => import(p) }),
  });
  const known = new Set((await migrator.getMigrations()).map((m) => m.name));
  const applied = await db
    .selectFrom('kysely_migration' as never)
    .select('name' as never)
    .execute()
    .then((rows) => rows.map((r) => (r as { name: string }).name))
    .catch(() => [] as string[]);
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new MigrationError(
      `The database was migrated by a newer version of the application (unknown migration ${unknown[0]}). Upgrade the application or use another database.`,
    );
  }
  const done: string[] = [];
  for (;;) {
    const { error, results } = await migrator.migrateUp();
    const result = results?.[0];
    if (error) {
      const name = result?.migrationName ?? 'unknown';
      throw new MigrationError(`Migration ${name} failed: ${(error as Error).message}`);
    }
    if (!result) return done;
    done.push(result.migrationName);
    log(`migrated ${result.migrationName}`);
  }
}
