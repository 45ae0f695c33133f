/**
 * The database a command-line tool (`npm run migrate`, `npm run files:move`)
 * works on: DATABASE_URL when set, otherwise the embedded PostgreSQL in
 * DATA_DIR, started under the data directory's lock (so never beside a running
 * server) and stopped again when the tool is done, whatever happened.
 */
import type { Config } from '../config.js';
import { dataLocation } from './data-dir.js';
import { ensureDatabase } from './database.js';
import { EmbeddedPostgres } from './embedded.js';
import { DataDirLock } from './lock.js';
import { type DbHandle, openDb } from './pool.js';

export interface CliDatabase {
  handle: DbHandle;
  /** The configuration with the data directory resolved (where DATA_DIR's files live). */
  config: Config;
}

export async function withCliDatabase<T>(
  config: Config,
  fn: (db: CliDatabase) => Promise<T>,
  options: { log?: (line: string) => void; max?: number } = {},
): Promise<T> {
  let pg: EmbeddedPostgres | undefined;
  let lock: DataDirLock | undefined;
  let url = config.database.url;
  try {
    if (!url) {
      const { dir } = dataLocation(config.data);
      config = { ...config, data: { ...config.data, dir } };
      lock = DataDirLock.acquire(dir);
      pg = await EmbeddedPostgres.start({ dataDir: dir, log: options.log ?? (() => {}) });
      url = await ensureDatabase(pg.url, 'casebook');
    }
    const handle = openDb(url, { max: options.max });
    try {
      return await fn({ handle, config });
    } finally {
      await handle.close();
    }
  } finally {
    await pg?.stop();
    lock?.release();
  }
}
