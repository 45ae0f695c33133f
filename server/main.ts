/**
 * Process entry: configuration, the embedded database (unless DATABASE_URL),
 * migrations, demo data, the web build, then listen. SIGINT/SIGTERM stop
 * accepting requests, let those in flight finish, and stop the database.
 */
import './heap.js';
import { buildApp } from './app.js';
import { ConfigError, type Config, loadConfig } from './config.js';
import { dataLocation } from './db/data-dir.js';
import { ensureDatabase } from './db/database.js';
import { EmbeddedPostgres } from './db/embedded.js';
import { DataDirLock } from './db/lock.js';
import { MigrationError, migrate } from './db/migrate.js';
import { openDb } from './db/pool.js';
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from './db/seed/demo.js';
import { seedDemoHistory } from './db/seed/history.js';
import { seedDemoPayments } from './db/seed/payments.js';
import { DEMO_STAFF, seedDemoWorkflow } from './db/seed/workflow.js';
import { createLogger } from './logger.js';
import { StartupError } from './startup-error.js';
import { APP_VERSION } from './version.js';
import { ensureWebBuild, WEB_DIST } from './web-build.js';

const started = performance.now();
let config: Config;
try {
  config = loadConfig();
} catch (e) {
  fail(e);
}

const log = createLogger(config);
const cleanup: Array<() => Promise<void> | void> = [];
let stopping = false;
/** From the signal on, `/api/ready` answers 503 (the app's `draining`). */
let drain = () => {};

async function run(): Promise<void> {
  let url: string;
  const building = ensureWebBuild((m) => log.info(m));
  building.catch(() => {}); // awaited below; do not crash as unhandled meanwhile

  let movedBecause: string | undefined;
  if (config.database.embedded) {
    const location = dataLocation(config.data);
    movedBecause = location.movedBecause;
    config = { ...config, data: { ...config.data, dir: location.dir } };
    const lock = DataDirLock.acquire(config.data.dir);
    cleanup.push(() => lock.release());
    let pg = await EmbeddedPostgres.start({ dataDir: config.data.dir, log: (m) => log.info(m) });
    cleanup.unshift(() => pg.stop());
    // The database dies (killed, out of memory): start it again on the same
    // port (crash recovery replays its WAL) and keep serving; requests answer
    // 503 meanwhile. Exit only when three restarts in a row fail.
    const supervise = (current: EmbeddedPostgres) =>
      current.onUnexpectedExit(async (code) => {
        if (stopping) return;
        log.error(`the embedded database stopped unexpectedly (code ${code}); restarting it (see ${config.data.dir}/postgres.log)`);
        for (let attempt = 1; attempt <= 3 && !stopping; attempt++) {
          await new Promise((r) => setTimeout(r, 500 * attempt));
          try {
            pg = await EmbeddedPostgres.start({ dataDir: config.data.dir, port: current.port, log: (m) => log.info(m) });
            log.warn(`the embedded database is running again (restart ${attempt} of 3)`);
            supervise(pg);
            return;
          } catch (e) {
            log.error(`restarting the embedded database failed (${attempt} of 3): ${(e as Error).message}`);
          }
        }
        if (stopping) return;
        process.stderr.write(`Error: the embedded database stopped and could not be restarted three times in a row; see ${config.data.dir}/postgres.log\n`);
        void shutdown(1);
      });
    supervise(pg);
    url = await ensureDatabase(pg.url, 'casebook');
  } else {
    url = config.database.url as string;
  }

  // Connections end when we stop the database ourselves: only an unexpected loss is worth a line.
  const handle = openDb(url, { onError: (e) => !stopping && log.warn(`a database connection was lost: ${e.message}`) });
  cleanup.unshift(() => handle.close());
  try {
    await migrate(handle.db, (m) => log.info(m));
  } catch (e) {
    if (e instanceof MigrationError) throw new StartupError(e.message);
    throw new StartupError(`Could not reach the database: ${(e as Error).message}`);
  }
  const seeded = config.demoData ? await seedDemo(handle.db, (m) => log.info(m)) : false;
  // The replica's pool (DATABASE_READ_URL): opened without a query, so a replica that is down does not stop the
  // start; its reads fall back to the primary until it answers. Closed after the app, like the primary's.
  const readHandle = config.database.readUrl
    ? openDb(config.database.readUrl, { connectTimeoutMs: 2_000, onError: (e) => !stopping && log.warn(`a read replica connection was lost: ${e.message}`) })
    : undefined;
  if (readHandle) cleanup.unshift(() => readHandle.close());

  try {
    await building;
  } catch (e) {
    throw new StartupError(`The web app could not be built: ${(e as Error).message}`);
  }

  const app = await buildApp({
    config,
    db: handle.db,
    readDb: readHandle?.db,
    webDir: WEB_DIST,
    loggerInstance: log,
    jobs: true,
    realtime: true,
  });
  cleanup.unshift(() => app.close());
  drain = () => {
    app.draining = true;
  };
  // Demo cases are made through the engine, so they need the app's mail and links; behind them, once, six months of
  // history for the reports and the dashboard.
  if (config.demoData && (await seedDemoWorkflow(handle.db, app.engine, (m) => log.info(m))) && config.demoHistory) {
    await seedDemoHistory(handle.db, app.engine, (m) => log.info(m));
    await seedDemoPayments(handle.db, (m) => log.info(m));
  }
  try {
    await app.listen({ port: config.http.port, host: config.http.host });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new StartupError(`Port ${config.http.port} is already in use; set PORT to a free port.`);
    if (code === 'EACCES') throw new StartupError(`Port ${config.http.port} needs privileges this user lacks; set PORT above 1023.`);
    throw e;
  }

  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const demo = await handle.db
    .selectFrom('users')
    .where('email', 'in', [...DEMO_USERS, ...DEMO_STAFF].map((u) => u.email))
    .select('email')
    .execute()
    .then((rows) => new Set(rows.map((r) => r.email)));
  const logins = [...DEMO_USERS, ...DEMO_STAFF].filter((u) => demo.has(u.email)).map((u) => `    ${u.email.padEnd(24)} ${'operator' in u && u.operator ? 'platform operator' : u.role}`);
  const lines = [
    '',
    `  Casebook ${APP_VERSION} is running at ${config.http.publicUrl}  (started in ${seconds} s)`,
    `  Database: ${config.database.embedded ? `embedded PostgreSQL; data in ${config.data.dir}` : 'DATABASE_URL'}${config.database.readUrl ? ', reports and lists from DATABASE_READ_URL' : ''}${seeded ? ' (demo data seeded)' : ''}`,
    ...(movedBecause ? [`  (not in the checkout's data/: ${movedBecause})`] : []),
    ...(logins.length ? [`  Demo logins (password ${DEMO_PASSWORD}):`, ...logins] : []),
    '  Stop with Ctrl-C.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  drain();
  if (config.http.drainSeconds > 0) {
    log.info(`shutting down: /api/ready answers 503 for ${config.http.drainSeconds} s before the listener closes`);
    await new Promise((resolve) => setTimeout(resolve, config.http.drainSeconds * 1000));
  }
  log.info('shutting down: finishing requests in flight');
  for (const step of cleanup) {
    try {
      await step();
    } catch (e) {
      log.error({ err: e }, 'shutdown step failed');
    }
  }
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      log.warn(`${signal} again: stopping at once`);
      process.exit(1);
    }
    void shutdown(0);
  });
}

run().catch(async (e) => {
  if (e instanceof StartupError) process.stderr.write(`Error: ${e.message}\n`);
  else log.fatal({ err: e }, 'start failed');
  await shutdown(1);
});

function fail(e: unknown): never {
  if (e instanceof ConfigError || e instanceof StartupError) {
    process.stderr.write(`Error: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
