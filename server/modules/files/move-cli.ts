/**
 * `npm run files:move -- --to database|s3|disk`: moves every file whose row
 * names another store to that one (move.ts), with the server's environment
 * (DATABASE_URL or the embedded database in DATA_DIR, FILES_URL for the S3
 * bucket, DATA_DIR for the disk). Prints a line per file and a summary; exits
 * 1 naming the files it could not move, 2 on a wrong command or setting.
 * With DATABASE_URL it runs while the instances serve; the embedded database
 * is the server's own, so stop the server first.
 */
import { ConfigError, loadConfig } from '../../config.js';
import { withCliDatabase } from '../../db/cli-database.js';
import { migrate } from '../../db/migrate.js';
import { StartupError } from '../../startup-error.js';
import { moveFiles } from './move.js';
import { STORE_KINDS, type StoreKind } from './storage.js';
import { fileStores } from './stores.js';

const USAGE = 'usage: npm run files:move -- --to database|s3|disk';

function targetOf(args: string[]): StoreKind {
  const i = args.findIndex((a) => a === '--to' || a.startsWith('--to='));
  const value = i < 0 ? undefined : args[i].startsWith('--to=') ? args[i].slice(5) : args[i + 1];
  if (!value || !(STORE_KINDS as readonly string[]).includes(value)) throw new ConfigError('--to', `must be one of ${STORE_KINDS.join(', ')} (${USAGE})`);
  return value as StoreKind;
}

async function main(): Promise<number> {
  const to = targetOf(process.argv.slice(2));
  const config = loadConfig();
  if (to === 's3' && !config.files.s3) throw new ConfigError('FILES_URL', 'must name the S3 bucket (s3://ACCESS_KEY:SECRET@host/bucket) to move files to s3');
  return withCliDatabase(
    config,
    async ({ handle, config }) => {
      const files = fileStores(config);
      try {
        // Refuses a database of a newer version; brings an older one up to the `store` column.
        await migrate(handle.db);
        const report = await moveFiles(handle.db, files, to, (line) => console.log(line));
        console.log(
          `moved ${report.moved} of ${report.total} file(s) to ${to}; ${report.failed.length} not moved; ${report.alreadyThere} were there already` +
            (report.leftBehind.length ? `; ${report.leftBehind.length} old copies could not be removed` : ''),
        );
        for (const f of report.leftBehind) console.log(`  old copy left in ${f.store}: ${f.id} (${f.reason})`);
        if (report.failed.length) {
          console.error('Not moved (still read from where they are):');
          for (const f of report.failed) console.error(`  ${f.id} ${f.name} in ${f.store}: ${f.reason}`);
          return 1;
        }
        return 0;
      } finally {
        files.close();
      }
    },
    { max: 3 },
  );
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`Error: ${e instanceof StartupError || e instanceof Error ? e.message : String(e)}`);
    process.exit(e instanceof ConfigError ? 2 : 1);
  },
);
