import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/pool.js';
import { ReadRouter } from '../db/read-replica.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The handle for report and list reads: the replica of DATABASE_READ_URL, or `db` itself when unset. */
    readDb: Db;
    /** Chooses between `db` and `readDb` for each read, falls back, counts (db/read-replica.ts). */
    reads: ReadRouter;
    /**
     * A report or list read for this request: on the replica, or on the
     * primary when the session wrote in the last READ_AFTER_WRITE_SECONDS
     * (or the replica fails). Only for reads outside any transaction.
     */
    read<T>(request: FastifyRequest, read: (db: Db) => Promise<T>): Promise<T>;
  }
}

/**
 * The read-after-write cookie: the time (ms since the epoch) of the
 * session's last successful write. It only chooses which database a read
 * goes to, never what the reader may see (the repositories apply tenant and
 * visibility either way), so a forged or replayed one can do no more than
 * send that client's reads to the primary. Kept in the browser, not in an
 * instance's memory, so it holds whichever instance answers next.
 */
export const READ_AFTER_WRITE_COOKIE = 'rw';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session's last write by its cookie; null when absent or not a time. */
export function lastWriteOf(request: { cookies?: Record<string, string | undefined> }): number | null {
  const value = request.cookies?.[READ_AFTER_WRITE_COOKIE];
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

/**
 * Decorates `readDb`, `reads` and `read`, and, when a replica is set, marks
 * every `/api` write answered 2xx with the cookie for READ_AFTER_WRITE_SECONDS,
 * so that whoever creates a case and lands on the list sees it.
 */
export function registerReads(app: FastifyInstance, replica: Db | undefined): void {
  const { readAfterWriteSeconds } = app.config.database;
  const router = new ReadRouter(app.db, replica ?? null, {
    readAfterWriteMs: readAfterWriteSeconds * 1000,
    warn: (err, message) => app.log.warn({ err }, message),
  });
  app.decorate('reads', router);
  app.decorate('readDb', router.readDb);
  app.decorate('read', <T>(request: FastifyRequest, read: (db: Db) => Promise<T>) => router.read(lastWriteOf(request), read));

  if (!replica || readAfterWriteSeconds === 0) return;
  app.addHook('onSend', async (request, reply) => {
    if (READ_METHODS.has(request.method) || reply.statusCode < 200 || reply.statusCode >= 300) return;
    if (!request.url.startsWith('/api/')) return;
    reply.setCookie(READ_AFTER_WRITE_COOKIE, String(Date.now()), {
      path: '/api',
      httpOnly: true,
      sameSite: 'lax',
      secure: app.config.http.secureCookies,
      maxAge: readAfterWriteSeconds,
    });
  });
}
