import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Db } from './db/pool.js';
import { AppError } from './errors.js';
import { projectRoutes } from './modules/projects/routes.js';
import { systemRoutes } from './modules/system/routes.js';
import { type Metrics, registerMetrics } from './modules/system/metrics.js';
import { declareAccessRegistry, type RouteAccess } from './plugins/access.js';
import { answerFrameworkError, registerErrorHandling, sendError } from './plugins/errors.js';
import { registerAccountLimits } from './plugins/account-limit.js';
import { pgRateLimitStore, sweepRateLimits } from './plugins/rate-limit-store.js';
import { registerInputGuard } from './plugins/input-guard.js';
import { OneLinePerRequest } from './logger.js';
import { registerRequestContext } from './plugins/request-context.js';
import { registerSession } from './plugins/session.js';
import { registerReads } from './plugins/reads.js';
import { authRoutes } from './modules/auth/routes.js';
import { aclRoutes } from './modules/acl/routes.js';
import { sweepEndedSessions } from './modules/auth/sessions.js';
import { tokenRoutes } from './modules/tokens/routes.js';
import { userRoutes } from './modules/users/routes.js';
import { masterRoutes } from './modules/masters/routes.js';
import { formRoutes } from './modules/forms/routes.js';
import { fileRoutes } from './modules/files/routes.js';
import { type FileStores, fileStores } from './modules/files/stores.js';
import { teamRoutes } from './modules/teams/routes.js';
import { taskRoutes } from './modules/tasks/routes.js';
import { protocolRoutes } from './modules/protocols/routes.js';
import { caseRoutes } from './modules/cases/routes.js';
import { commentRoutes } from './modules/comments/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { templateRoutes } from './modules/templates/routes.js';
import { settingsRoutes } from './modules/settings/routes.js';
import { landingRoutes } from './modules/landing/routes.js';
import { mailRoutes } from './modules/mail/routes.js';
import { publicRoutes } from './modules/public/routes.js';
import { reportRoutes } from './modules/reports/routes.js';
import { printingRoutes } from './modules/printing/routes.js';
import { printAttachment } from './modules/printing/commands.js';
import { agencyRoutes } from './modules/agencies/routes.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { partyRoutes } from './modules/parties/routes.js';
import { sweepParties } from './modules/parties/commands.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { sendDueDeliveries, secondsToNextRetry, WebhookKicker } from './modules/webhooks/deliver.js';
import { poolOf } from './db/pool.js';
import { type Jobs, type JobsOptions, QUEUES, startJobs } from './jobs/boss.js';
import { MailDelivery } from './modules/mail/outbox.js';
import { attachRealtime, type Realtime } from './modules/realtime/server.js';
import { type EngineEnv, sweepDeadlines } from './modules/workflow/engine.js';
import { sendDigests } from './modules/notifications/commands.js';
import { exportJob, giveUpExport } from './modules/cases/export.js';
import { giveUpImport, importJob } from './modules/cases/import.js';
import { giveUpTapeExport, tapeExportJob } from './modules/datatape/export.js';
import { dataTapeRoutes } from './modules/datatape/routes.js';
import { galleryRoutes } from './modules/gallery/routes.js';
import { APP_VERSION } from './version.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    routeAccess: RouteAccess[];
    mailer: Mailer;
    engine: EngineEnv;
    realtime: Realtime | null;
    jobs: Jobs | null;
    /** Set from SIGTERM (main.ts) and by close: `/api/ready` answers 503 so the balancer sends traffic elsewhere. */
    draining: boolean;
    /** The Prometheus registry when METRICS is on. */
    metrics: Metrics | null;
    /** Where uploaded files' bytes are read from (each row's store) and written to (FILES_URL): modules/files/stores.ts. */
    files: FileStores;
  }
}

/** Mail written to the outbox is delivered by SMTP when configured; `kick` starts a delivery round. */
export interface Mailer {
  smtpConfigured: boolean;
  kick(): void;
}

export interface AppOptions {
  config: Config;
  db: Db;
  /** A streaming replica of `db` (DATABASE_READ_URL) for the report and list reads; unset, they read `db`. */
  readDb?: Db;
  /** pino options, or false for silence (tests). */
  logger?: FastifyServerOptions['logger'];
  /** A logger made by the process (server/logger.ts); wins over `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** The built web app to serve; omitted or missing -> API only. */
  webDir?: string;
  /**
   * Background jobs on pg-boss: mail delivery (with SMTP_URL), the minute
   * schedules, and the CSV import and export of cases. The server runs all
   * (`true`); tests that deliver mail run `mail` only and call the sweeps
   * themselves; tests of import and export run `cases`.
   */
  jobs?: boolean | Partial<JobsOptions>;
  /** Serve Socket.IO on the same port (the server does; realtime tests do). */
  realtime?: boolean;
}

/** JSON bodies larger than this are refused with 413 (uploads have their own limits). */
export const BODY_LIMIT = 1024 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? false }),
    logController: new OneLinePerRequest(options.config.logFormat === 'pretty' ? 'debug' : 'info'),
    bodyLimit: BODY_LIMIT,
    genReqId: () => randomUUID(),
    // request.ip is the X-Forwarded-For client only behind a listed proxy (TRUST_PROXY); rate limits, the
    // sign-in throttle and the access log count it.
    trustProxy: options.config.http.trustProxy.length ? options.config.http.trustProxy : false,
    // Requests in flight finish on close; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: answerFrameworkError,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', options.db);
  app.decorate('config', options.config);
  app.decorate('routeAccess', declareAccessRegistry(app));
  app.decorate('jobs', null);
  app.decorate('draining', false);
  // Where report and list reads go (a replica with DATABASE_READ_URL): before the jobs (the data tape reads
  // through it) and the metrics (which count its reads).
  registerReads(app, options.readDb);
  app.decorate('files', fileStores(options.config));
  app.addHook('onClose', async () => app.files.close());
  app.decorate('mailer', await createMailer(app, options));
  app.decorate('engine', { publicUrl: options.config.http.publicUrl, smtpConfigured: app.mailer.smtpConfigured, afterMail: () => app.mailer.kick() });

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'upgrade-insecure-requests': null,
      },
    },
  });
  // The counters live in PostgreSQL (`rate_limits`), so that every instance counts against one limit.
  await app.register(rateLimit, { global: false, store: pgRateLimitStore(options.db) });
  registerRequestContext(app);
  registerSession(app);
  registerInputGuard(app);
  registerAccountLimits(app);
  // While closing, answers to requests in flight end their keep-alive
  // connection, so the server stops as soon as they are done.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    app.draining = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  registerErrorHandling(app);
  // Before the routes, so that its timing hook sees every one.
  app.decorate('metrics', options.config.metrics.enabled ? registerMetrics(app) : null);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Casebook API', version: APP_VERSION },
      components: {
        securitySchemes: {
          // A personal or service account's token (/profile, /acl/service-accounts): `Authorization: Bearer cbk_...`.
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'cbk_ token', description: 'An API token made on your profile page (or a service account\'s): the rights of its user and role; read-only tokens may only GET.' },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'The session of a signed-in person (the web app).' },
        },
      },
      security: [{ bearerAuth: [] }, { cookieAuth: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // "Authorize" with a token, then "Try it out" on any route.
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiConfig: { persistAuthorization: true } });
  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  await app.register(systemRoutes);
  await app.register(projectRoutes);
  await app.register(authRoutes);
  await app.register(aclRoutes);
  await app.register(userRoutes);
  await app.register(tokenRoutes);
  await app.register(masterRoutes);
  await app.register(formRoutes);
  await app.register(fileRoutes);
  await app.register(teamRoutes);
  await app.register(taskRoutes);
  await app.register(protocolRoutes);
  await app.register(caseRoutes);
  await app.register(commentRoutes);
  await app.register(notificationRoutes);
  await app.register(templateRoutes);
  await app.register(settingsRoutes);
  await app.register(landingRoutes);
  await app.register(mailRoutes);
  await app.register(publicRoutes);
  await app.register(dataTapeRoutes);
  await app.register(reportRoutes);
  await app.register(printingRoutes);
  await app.register(galleryRoutes);
  await app.register(agencyRoutes);
  await app.register(webhookRoutes);
  await app.register(partyRoutes);
  await app.register(paymentRoutes);

  const webDir = options.webDir && existsSync(path.join(options.webDir, 'index.html')) ? options.webDir : undefined;
  if (webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      setHeaders(res, file) {
        // Hashed assets never change; index.html must always be revalidated.
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.decorate('realtime', options.realtime ? attachRealtime(app) : null);
  // Sockets are closed before the server stops listening, or their connections would hold it open.
  app.addHook('preClose', async () => app.realtime?.close());

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/archivos/');
    // A missing script or style of the build is a 404, not the page: a tab of an older build then
    // sees a failed chunk (and reloads, web/src/lib/lazyPage.ts) instead of HTML served as JavaScript.
    const isAsset = request.url.startsWith('/assets/');
    if (!isApi && !isAsset && webDir && (request.method === 'GET' || request.method === 'HEAD')) {
      // The SPA owns every other path in history mode; it shows its own 404.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, new AppError('ROUTE_NOT_FOUND'));
  });

  return app;
}

/**
 * Mail, the minute schedules and the case import and export, on pg-boss
 * (server/jobs/boss.ts). Mail written to the outbox is given a job right
 * after its commit (`kick`) and, should the process stop before that, by the
 * minute sweep; the overdue sweep runs once a minute however many instances
 * are up; an import or export started by a request runs on whichever
 * instance takes its job.
 */
async function createMailer(app: FastifyInstance, options: AppOptions): Promise<Mailer> {
  const smtpUrl = options.config.mail.smtpUrl;
  const wanted = options.jobs === true ? { mail: true, schedules: true, cases: true, webhooks: true } : options.jobs || {};
  const jobsOptions: JobsOptions = { mail: Boolean(smtpUrl) && wanted.mail === true, schedules: wanted.schedules === true, cases: wanted.cases === true, webhooks: wanted.webhooks === true, mailRetry: wanted.mailRetry };
  if (!jobsOptions.mail && !jobsOptions.schedules && !jobsOptions.cases && !jobsOptions.webhooks) {
    if (smtpUrl) app.log.warn('SMTP_URL is set but jobs are off: mail stays queued in the outbox');
    return { smtpConfigured: Boolean(smtpUrl), kick: () => {} };
  }
  const host = new URL(options.config.http.publicUrl).hostname;
  const delivery = smtpUrl
    ? new MailDelivery(options.db, smtpUrl, `Casebook <no-reply@${host}>`, host, (msg, err) => app.log.warn({ err }, msg), (m) =>
        printAttachment(options.db, m, { files: app.files, publicUrl: options.config.http.publicUrl }),
      )
    : null;
  let jobs: Jobs | null = null;
  /** `recheck`: the minute sweep's round, which also finds messages whose job went missing. */
  const enqueue = async (recheck = false) => {
    if (!delivery || !jobs) return;
    const j = jobs;
    await delivery.enqueuePending(
      (batch) => j.boss.insert(QUEUES.mailSend, batch),
      async (jobId) => {
        const job = await j.boss.getJobById(QUEUES.mailSend, jobId);
        return job !== null && ['created', 'retry', 'active'].includes(job.state);
      },
      { recheck },
    );
  };
  // Commits that queue mail call kick(); calls made while a round runs start one more round.
  let running: Promise<void> | null = null;
  let again = false;
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    // `running` is cleared in the same step that last read `again` (not in a later .finally): a kick
    // arriving between the two would otherwise be lost until the minute sweep.
    running = (async () => {
      try {
        do {
          again = false;
          await enqueue().catch((e) => app.log.warn({ err: e }, 'mail: could not enqueue'));
        } while (again);
      } finally {
        running = null;
      }
    })();
  };
  // Webhook deliveries: a sender round after each commit that made some (the kicker hears the NOTIFY), and each minute.
  const kickWebhooks = () => void jobs?.send(QUEUES.webhookSend, {}).catch((e) => app.log.warn({ err: e }, 'webhooks: could not start a sender'));
  const webhookSender = { allowHosts: options.config.webhooks.allowHosts, log: app.log, notify: { publicUrl: options.config.http.publicUrl, smtpConfigured: Boolean(smtpUrl), afterMail: () => kick() } };
  jobs = await startJobs(
    options.db,
    jobsOptions,
    {
      [QUEUES.mailSend]: async (data) => void (await delivery?.deliver(Number(data.id))),
      [QUEUES.mailFailed]: async (data) => delivery?.markFailed(Number(data.id)),
      [QUEUES.mailSweep]: () => enqueue(true),
      [QUEUES.overdueSweep]: async () => {
        const n = await sweepDeadlines(app.db, app.engine);
        if (n.reminded + n.overdue + n.escalated) app.log.info(n, 'deadlines: reminded, flagged overdue and escalated tasks');
      },
      [QUEUES.partySweep]: async () => {
        const n = await sweepParties(app.db, app.engine);
        if (n.reminded + n.expired) app.log.info(n, 'parties: reminded and expired');
      },
      [QUEUES.sessionSweep]: async () => {
        const n = await sweepEndedSessions(app.db);
        if (n) app.log.debug(`ended ${n} idle or expired session(s)`);
      },
      [QUEUES.rateLimitSweep]: async () => {
        const n = await sweepRateLimits(app.db);
        if (n) app.log.debug(`deleted ${n} ended request-limit window(s)`);
      },
      [QUEUES.digest]: async () => {
        const n = await sendDigests(app.db, app.engine);
        if (n) app.log.info(`queued ${n} daily digest(s)`);
        kick();
      },
      [QUEUES.caseImport]: async (data, attempt) => importJob(app.db, app.engine, app.log, data, attempt),
      [QUEUES.caseImportFailed]: async (data) => giveUpImport(app.db, Number(data.id)),
      // The case export and the data tape read where the lists read (a replica when there is one).
      [QUEUES.caseExport]: async (data, attempt) => exportJob(app.db, app.log, data, attempt, app.reads),
      [QUEUES.caseExportFailed]: async (data) => giveUpExport(app.db, String(data.id)),
      [QUEUES.dataTape]: async (data, attempt) => tapeExportJob(app.db, app.log, data, attempt, app.reads),
      [QUEUES.dataTapeFailed]: async (data) => giveUpTapeExport(app.db, String(data.id)),
      [QUEUES.webhookSend]: async (_data, attempt) => {
        const round = await sendDueDeliveries(app.db, webhookSender, { signal: attempt.signal });
        if (round.more) return kickWebhooks();
        // A retry due within the minute gets a sender of its own at that time (one per ten seconds at most: the key).
        const wait = round.failed ? await secondsToNextRetry(app.db) : null;
        if (wait != null) await jobs?.send(QUEUES.webhookSend, {}, { startAfter: wait, singletonKey: `retry-${Math.ceil((Date.now() / 1000 + wait) / 10)}` });
      },
      [QUEUES.webhookSweep]: async () => kickWebhooks(),
    },
    app.log,
  );
  const kicker = jobsOptions.webhooks ? new WebhookKicker(poolOf(options.db), kickWebhooks, app.log) : null;
  if (kicker) app.addHook('onReady', async () => kickWebhooks());
  app.jobs = jobs;
  app.addHook('onReady', async () => kick());
  app.addHook('onClose', async () => {
    await kicker?.close();
    await running;
    await jobs?.stop();
    delivery?.close();
  });
  return { smtpConfigured: Boolean(smtpUrl), kick };
}
