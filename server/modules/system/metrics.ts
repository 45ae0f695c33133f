/**
 * Metrics in the Prometheus text format (prom-client), for `/api/metrics`
 * when METRICS is on: request latency by route pattern, the database pool,
 * the report and list reads by database and the replica's fallbacks and lag,
 * the job queues' depth, the realtime sockets, and the process's own
 * (prom-client's default metrics). Each app has its own registry, so apps
 * built side by side (tests) never mix their series.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { poolOf } from '../../db/pool.js';
import { QUEUES } from '../../jobs/boss.js';
import { countQueuedJobs, type QueueDepth, replicaLagSeconds } from './repo.js';

/** Queue depth is counted in the database at most this often, however often Prometheus scrapes. */
const QUEUE_DEPTH_CACHE_MS = 5_000;

/** The label of a request that matched no route: its raw URL would make a series per address tried. */
const UNMATCHED = 'unmatched';

export interface Metrics {
  registry: Registry;
}

export function registerMetrics(app: FastifyInstance): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'casebook_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern (never the raw URL), method and status class',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    requests.observe({ route, method: request.method, status: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
  });

  const pool = poolOf(app.db);
  new Gauge({
    name: 'casebook_db_pool_clients',
    help: 'Clients of the PostgreSQL pool: total (open connections), idle, and waiting (requests queued for a connection)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });

  // Report and list reads (db/read-replica.ts): where each was answered and why, and the replica's failures.
  const reads = new Counter({
    name: 'casebook_db_reads_total',
    help: 'Report and list reads answered, by database (primary or replica) and why there: replica, no_replica, recent_write (read-after-write), replica_down, fallback',
    labelNames: ['target', 'reason'] as const,
    registers: [registry],
  });
  const fallbacks = new Counter({
    name: 'casebook_db_replica_fallbacks_total',
    help: 'Reads that failed on the read replica and were run again on the primary, by cause: unavailable, conflict (with recovery), behind (schema not yet replayed)',
    labelNames: ['cause'] as const,
    registers: [registry],
  });
  app.reads.observe((event) => {
    if (event.kind === 'read') reads.inc({ target: event.target, reason: event.reason });
    else fallbacks.inc({ cause: event.cause });
  });
  const replica = app.reads.replica;
  if (replica) {
    const replicaPool = poolOf(replica);
    new Gauge({
      name: 'casebook_db_read_pool_clients',
      help: 'Clients of the read replica\'s pool: total, idle, and waiting',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, replicaPool.totalCount);
        this.set({ state: 'idle' }, replicaPool.idleCount);
        this.set({ state: 'waiting' }, replicaPool.waitingCount);
      },
    });
    let lag: { at: number; reading: Promise<number | null> } | undefined;
    new Gauge({
      name: 'casebook_db_replica_lag_seconds',
      help: `How far the read replica's replay is behind the primary, in seconds (0 when it has replayed all it received), read at most every ${QUEUE_DEPTH_CACHE_MS / 1000} s; absent when it cannot be read`,
      registers: [registry],
      async collect() {
        const now = Date.now();
        if (!lag || now - lag.at > QUEUE_DEPTH_CACHE_MS) lag = { at: now, reading: replicaLagSeconds(replica).catch(() => null) };
        const seconds = await lag.reading;
        this.reset();
        if (seconds !== null) this.set(seconds);
      },
    });
  }

  let depth: { at: number; reading: Promise<QueueDepth[] | null> } | undefined;
  const readDepth = () => {
    const now = Date.now();
    // One count in flight or fresh at a time: scrapes arriving together share it.
    if (!depth || now - depth.at > QUEUE_DEPTH_CACHE_MS) {
      depth = {
        at: now,
        reading: countQueuedJobs(app.db).catch((err) => {
          app.log.warn({ err }, 'metrics: could not count the job queues');
          return null;
        }),
      };
    }
    return depth.reading;
  };
  new Gauge({
    name: 'casebook_job_queue_depth',
    help: `Jobs of each pg-boss queue waiting to run (created or retry) and running (active), counted at most every ${QUEUE_DEPTH_CACHE_MS / 1000} s`,
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const rows = await readDepth();
      this.reset();
      // The queue table does not exist until pg-boss first started on this database: no series then.
      if (!rows) return;
      const byQueue = new Map(rows.map((r) => [r.queue, r]));
      for (const queue of new Set([...Object.values(QUEUES), ...byQueue.keys()])) {
        const row = byQueue.get(queue);
        this.set({ queue, state: 'waiting' }, row?.waiting ?? 0);
        this.set({ queue, state: 'active' }, row?.active ?? 0);
      }
    },
  });

  new Gauge({
    name: 'casebook_realtime_sockets',
    help: 'Realtime (Socket.IO) sockets connected to this instance',
    registers: [registry],
    collect() {
      this.set(app.realtime?.io.of('/').sockets.size ?? 0);
    },
  });

  return { registry };
}
