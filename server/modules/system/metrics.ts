/**
 * Metrics in the Prometheus text format (prom-client), for `/api/metrics`
 * when METRICS is on: request latency by route pattern, the database pool,
 * the job queues' depth, the realtime sockets, and the process's own
 * (prom-client's default metrics). Each app has its own registry, so apps
 * built side by side (tests) never mix their series.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { poolOf } from '../../db/pool.js';
import { QUEUES } from '../../jobs/boss.js';
import { countQueuedJobs, type QueueDepth } from './repo.js';

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
