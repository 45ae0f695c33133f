/**
 * Socket.IO on the API's port. A socket is a signed-in session: the session
 * cookie is read at the handshake (and the Origin checked, as for writes),
 * and read again every minute and on every join, so a blocked user, an ended
 * session or a narrowed role stops hearing at once (see changes.ts for the
 * database's announcements that close sockets).
 *
 * Rooms: tenant, user, session and (staff) the tenant's staff room from the
 * start; case, task and document review rooms on request, each authorised as
 * the REST read of that record (policy.ts). Presence and the document shown in
 * a review room are read from the sockets themselves (`fetchSockets`, across
 * instances through the adapter), so a late joiner sees the room's state.
 */
import { createAdapter } from '@socket.io/postgres-adapter';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { Server, type Socket } from 'socket.io';
import {
  type Ack, acceptDocSchema, caseOnlySchema, type JoinAck, type PresenceUser, REALTIME_PATH, type Room, roomName, roomSchema, showDocSchema,
  type ShownDocument,
} from '../../../core/realtime.js';
import { poolOf } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { actorForToken, SESSION_COOKIE } from '../auth/sessions.js';
import { ChangeListener } from './changes.js';
import { SocketBudget } from './limits.js';
import { mayJoin, personalRooms } from './policy.js';
import { acceptDocument, fileOfCase } from './review.js';

interface SocketData {
  token: string;
  user: PresenceUser;
  entityId: number;
  /** The document this socket shows in a review room, by case. */
  showing: Record<string, string>;
}
type AppSocket = Socket<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>;

export interface Realtime {
  io: Server;
  close(): Promise<void>;
}

export function attachRealtime(app: FastifyInstance): Realtime {
  const log = app.log.child({ module: 'realtime' });
  const dbPool = poolOf(app.db);
  // Its own small pool: the adapter and the change listener each hold a LISTEN connection.
  const pool = new pg.Pool({ ...dbPool.options, max: 4 });
  pool.on('error', (err) => log.warn({ err }, 'realtime: idle database connection lost'));
  pool.on('connect', (client) => {
    client.on('error', (err) => log.warn({ err }, 'realtime: database connection lost'));
    // @socket.io/postgres-adapter 0.5 opens a new LISTEN client when its connection ends (a database restart) but never
    // releases the dead one, which would keep its place in this pool of 4 for good: after a few restarts the change
    // listener could not get a connection. Released here (a client already released throws, and is left alone).
    client.on('end', () => {
      try {
        (client as pg.PoolClient).release(true);
      } catch {
        // already back in the pool or removed
      }
    });
  });

  const publicOrigin = new URL(app.config.http.publicUrl).origin;
  const io = new Server(app.server, {
    path: REALTIME_PATH,
    serveClient: false,
    // Browsers send Origin with WebSocket and cross-origin requests: a page of another site is refused.
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      if (!origin) return callback(null, true);
      let ok = false;
      try {
        const u = new URL(origin);
        ok = u.host === req.headers.host || u.origin === publicOrigin;
      } catch {
        ok = false;
      }
      if (!ok) log.warn({ origin }, 'realtime: refused a handshake from another origin');
      callback(ok ? null : 'origin', ok);
    },
    maxHttpBufferSize: 16 * 1024,
    adapter: createAdapter(pool, { errorHandler: (err) => log.warn({ err }, 'realtime: adapter error') }),
  });

  const actorOf = async (socket: AppSocket): Promise<Actor | undefined> => actorForToken(app.db, socket.data.token, { touch: false });

  io.use(async (socket: AppSocket, next) => {
    try {
      const cookies = app.parseCookie(socket.handshake.headers.cookie ?? '');
      const token = cookies[SESSION_COOKIE];
      const actor = token ? await actorForToken(app.db, token) : undefined;
      if (!token || !actor) return next(new Error('UNAUTHORIZED'));
      socket.data = { token, user: { id: actor.userId, name: actor.name }, entityId: actor.entityId, showing: {} };
      await socket.join(personalRooms(actor));
      next();
    } catch (err) {
      log.warn({ err }, 'realtime: handshake failed');
      next(new Error('UNAVAILABLE'));
    }
  });

  const presence = async (room: string): Promise<{ users: PresenceUser[]; shown: ShownDocument | null }> => {
    // Across instances through the adapter; an instance that died without a word (kill -9) leaves the others waiting
    // for its answer until the adapter's timeout, until its heartbeat is missed: then this instance's own sockets.
    const sockets = await io
      .in(room)
      .fetchSockets()
      .catch(async (err) => {
        log.warn({ err, room }, 'realtime: presence from this instance only (another instance did not answer)');
        return io.local.in(room).fetchSockets();
      });
    const users = new Map<number, PresenceUser>();
    let shown: ShownDocument | null = null;
    for (const s of sockets) {
      const data = s.data as SocketData;
      users.set(data.user.id, data.user);
      const fileId = room.startsWith('review:') ? data.showing?.[room] : undefined;
      if (fileId) shown = { fileId, by: data.user };
    }
    return { users: [...users.values()].sort((a, b) => a.name.localeCompare(b.name)), shown };
  };
  /** Fire and forget: never rejects (an unhandled rejection would stop the process). */
  const announcePresence = async (room: string) => {
    try {
      const { users } = await presence(room);
      io.to(room).emit('presence', { room, users });
    } catch (err) {
      log.warn({ err, room }, 'realtime: presence not announced');
    }
  };

  io.on('connection', (socket: AppSocket) => {
    const budget = new SocketBudget();

    /** Every event: within the budget, well formed, and from a session that still stands. */
    const guarded =
      <T>(name: string, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, handle: (input: T, actor: Actor) => Promise<Ack | JoinAck>) =>
      async (raw: unknown, ack?: unknown): Promise<void> => {
        const reply = typeof ack === 'function' ? (ack as (a: Ack | JoinAck) => void) : () => {};
        const verdict = budget.take();
        if (verdict === 'disconnect') {
          log.warn({ userId: socket.data.user.id }, 'realtime: socket flooding; disconnected');
          socket.disconnect(true);
          return;
        }
        if (verdict === 'refuse') return reply({ ok: false, code: 'RATE_LIMITED' });
        const parsed = schema.safeParse(raw);
        if (!parsed.success) {
          log.warn({ userId: socket.data.user.id, event: name }, 'realtime: malformed event refused');
          return reply({ ok: false, code: 'BAD_REQUEST' });
        }
        try {
          const actor = await actorOf(socket);
          if (!actor) {
            reply({ ok: false, code: 'FORBIDDEN' });
            socket.disconnect(true);
            return;
          }
          reply(await handle(parsed.data, actor));
        } catch (err) {
          const code = err instanceof AppError ? err.code : '';
          if (code === 'NOT_FOUND' || code === 'FORBIDDEN') return reply({ ok: false, code });
          log.warn({ err, event: name }, 'realtime: event failed');
          reply({ ok: false, code: 'BAD_REQUEST' });
        }
      };

    const inRoom = (room: string): boolean => socket.rooms.has(room);

    socket.on('join' as never, guarded('join', roomSchema, async (room: Room, actor): Promise<JoinAck> => {
      if (!(await mayJoin(app.db, actor, room))) {
        log.warn({ userId: actor.userId, room: roomName(room) }, 'realtime: join refused');
        return { ok: false, code: 'NOT_FOUND' };
      }
      const name = roomName(room);
      await socket.join(name);
      void announcePresence(name);
      return { ok: true, room: name, ...(await presence(name)) };
    }));

    socket.on('leave' as never, guarded('leave', roomSchema, async (room: Room): Promise<Ack> => {
      const name = roomName(room);
      if (inRoom(name)) {
        await socket.leave(name);
        delete socket.data.showing[name];
        void announcePresence(name);
      }
      return { ok: true };
    }));

    const reviewRoom = (caseId: number) => `review:${caseId}`;

    socket.on('show_doc' as never, guarded('show_doc', showDocSchema, async ({ caseId, fileId }, actor): Promise<Ack> => {
      const room = reviewRoom(caseId);
      if (!inRoom(room)) return { ok: false, code: 'FORBIDDEN' };
      if (!(await fileOfCase(app.db, actor, caseId, fileId))) return { ok: false, code: 'NOT_FOUND' };
      socket.data.showing = { ...socket.data.showing, [room]: fileId };
      io.to(room).emit('show_doc', { caseId, fileId, by: socket.data.user });
      return { ok: true };
    }));

    socket.on('cancel_show_doc' as never, guarded('cancel_show_doc', caseOnlySchema, async ({ caseId }): Promise<Ack> => {
      const room = reviewRoom(caseId);
      if (!inRoom(room)) return { ok: false, code: 'FORBIDDEN' };
      const { [room]: _, ...rest } = socket.data.showing;
      socket.data.showing = rest;
      io.to(room).emit('cancel_show_doc', { caseId, by: socket.data.user });
      return { ok: true };
    }));

    socket.on('accept_doc' as never, guarded('accept_doc', acceptDocSchema, async ({ caseId, code, fileId }, actor): Promise<Ack> => {
      const room = reviewRoom(caseId);
      if (!inRoom(room)) return { ok: false, code: 'FORBIDDEN' };
      if (fileId && !(await fileOfCase(app.db, actor, caseId, fileId))) return { ok: false, code: 'NOT_FOUND' };
      await acceptDocument(app.db, actor, caseId, code, fileId ?? null);
      io.to(room).emit('accept_doc', { caseId, code, fileId: fileId ?? null, by: socket.data.user });
      return { ok: true };
    }));

    socket.on('refresh_page' as never, guarded('refresh_page', caseOnlySchema, async ({ caseId }): Promise<Ack> => {
      const room = reviewRoom(caseId);
      if (!inRoom(room)) return { ok: false, code: 'FORBIDDEN' };
      socket.to(room).emit('refresh_page', { caseId, by: socket.data.user });
      return { ok: true };
    }));

    socket.on('disconnecting', () => {
      const rooms = [...socket.rooms].filter((r) => /^(case|task|review):/.test(r));
      // After the socket has left them.
      setImmediate(() => {
        for (const room of rooms) {
          void announcePresence(room).catch(() => {});
          if (room.startsWith('review:') && socket.data.showing?.[room]) {
            io.to(room).emit('cancel_show_doc', { caseId: Number(room.slice(7)), by: socket.data.user });
          }
        }
      });
    });
  });

  const listener = new ChangeListener(pool, io, log);
  return {
    io,
    async close() {
      // Not io.close(): that would close the HTTP server, which Fastify closes itself.
      await listener.close();
      // This instance's sockets only: through the adapter, io.disconnectSockets() would close every instance's.
      io.local.disconnectSockets(true);
      io.engine.close();
      await Promise.resolve(io.of('/').adapter.close());
      await pool.end().catch(() => {});
    },
  };
}
