/** `npm run migrate`: apply pending migrations to DATABASE_URL or the embedded database, then stop. */
import { loadConfig } from '../config.js';
import { StartupError } from '../startup-error.js';
import { dataLocation } from './data-dir.js';
import { ensureDatabase } from './database.js';
import { EmbeddedPostgres } from './embedded.js';
import { DataDirLock } from './lock.js';
import { migrate } from './migrate.js';
import { openDb } from './pool.js';

async function main(): Promise<void> {
  const config = loadConfig();
  let pg: EmbeddedPostgres | undefined;
  let lock: DataDirLock | undefined;
  let url = config.database.url;
  try {
    if (!url) {
      const { dir } = dataLocation(config.data);
      lock = DataDirLock.acquire(dir);
      pg = await EmbeddedPostgres.start({ dataDir: dir, log: console.log });
      url = await ensureDatabase(pg.url, 'casebook');
    }
    const handle = openDb(url);
    try {
      const done = await migrate(handle.db, console.log);
      console.log(done.length ? `applied ${done.length} migration(s)` : 'the database is up to date');
    } finally {
      await handle.close();
    }
  } finally {
    await pg?.stop();
    lock?.release();
  }
}

main().catch((e) => {
  console.error(`Error: ${e instanceof StartupError || e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
