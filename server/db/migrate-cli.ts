/** `npm run migrate`: apply pending migrations to DATABASE_URL or the embedded database, then stop. */
import { loadConfig } from '../config.js';
import { StartupError } from '../startup-error.js';
import { withCliDatabase } from './cli-database.js';
import { migrate } from './migrate.js';

withCliDatabase(
  loadConfig(),
  async ({ handle }) => {
    const done = await migrate(handle.db, console.log);
    console.log(done.length ? `applied ${done.length} migration(s)` : 'the database is up to date');
  },
  { log: console.log },
).catch((e) => {
  console.error(`Error: ${e instanceof StartupError || e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
