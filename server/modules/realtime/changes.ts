/**
 * Changes announced by the database (migration 0014: triggers NOTIFY on
 * `casebook_rt` at commit) turned into socket events. Every instance listens
 * and tells its own sockets (`io.local`): the database already reached every
 * instance, so nothing is sent twice.
 *
 * The listening connection is the database's: when it drops (a restart, a
 * failover) it is opened again with backoff, and every socket of this
 * instance is told to refetch (`resync`), since what changed meanwhile was
 * not heard.
 */
import type pg from 'pg';
import type { Server } from 'socket.io';
import { z } from 'zod';
import type { ChangedEvent, ChangeKind } from '../../../core/realtime.js';

export const CHANNEL = 'casebook_rt';

const ids = z.array(z.number()).default([]);
const notification = z.object({
  k: z.enum(['case', 'task', 'comment', 'checklist', 'notification', 'import', 'project', 'party', 'payment', 'session-ended', 'user-access', 'acl']),
  e: z.number().nullable().optional(),
  ids,
  c: ids,
  u: ids,
  many: z.boolean().optional(),
});
export type Notification = z.infer<typeof notification>;

/** Which rooms hear of a change, and what they are sent. Exported for the unit test. */
export function routeChange(n: Notification): { rooms: string[]; event: ChangedEvent; reviewCases: number[] } | { disconnect: string[] } | null {
  switch (n.k) {
    case 'session-ended':
      return { disconnect: n.ids.map((id) => `session:${id}`) };
    case 'user-access':
      return { disconnect: n.ids.map((id) => `user:${id}`) };
    case 'acl':
      // Rights may have narrowed: every socket of the tenant reconnects and is authorised again.
      return n.e ? { disconnect: [`tenant:${n.e}`] } : null;
  }
  if (!n.e) return null;
  // A project's settings (public anyway): every page of the tenant, staff and applicants, refetches them.
  if (n.k === 'project') return { rooms: [`tenant:${n.e}`], event: { kind: 'project', ids: n.many ? [] : n.ids, caseIds: [], ...(n.many ? { many: true } : {}) }, reviewCases: [] };
  const kind: ChangeKind = n.k;
  if (n.many) return { rooms: [`tenant:${n.e}`], event: { kind, ids: [], caseIds: [], many: true }, reviewCases: [] };
  const rooms = new Set<string>();
  // Staff see every case of their tenant; an applicant hears through their user room and the rooms they joined.
  if (kind !== 'notification') rooms.add(`staff:${n.e}`);
  for (const u of n.u) rooms.add(`user:${u}`);
  for (const c of n.c) rooms.add(`case:${c}`);
  if (kind === 'task') for (const t of n.ids) rooms.add(`task:${t}`);
  return { rooms: [...rooms], event: { kind, ids: n.ids, caseIds: n.c }, reviewCases: kind === 'case' ? n.c : [] };
}

export class ChangeListener {
  private client: pg.PoolClient | null = null;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private attempt = 0;
  /** Resolves once the first LISTEN is in place. */
  readonly ready: Promise<void>;
  private markReady!: () => void;

  constructor(
    private readonly pool: pg.Pool,
    private readonly io: Server,
    private readonly log: { warn(obj: object, msg: string): void; info(msg: string): void },
  ) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.pool.connect();
      client.on('notification', (m) => m.channel === CHANNEL && m.payload && this.handle(m.payload));
      client.on('error', (err) => this.lost(client, err));
      client.on('end', () => this.lost(client));
      await client.query(`LISTEN ${CHANNEL}`);
      if (this.closed) return client.release();
      this.client = client;
      if (this.attempt > 0) {
        this.log.info('realtime: listening again; telling every socket to refetch');
        this.io.local.emit('resync');
      }
      this.attempt = 0;
      this.markReady();
    } catch (err) {
      this.retry(err);
    }
  }

  private lost(client: pg.PoolClient, err?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    try {
      client.release(err instanceof Error ? err : true);
    } catch {
      // already released
    }
    this.retry(err);
  }

  private retry(err: unknown): void {
    if (this.closed) return;
    this.attempt++;
    const delay = Math.min(10_000, 250 * 2 ** Math.min(this.attempt, 6)) * (0.5 + Math.random());
    this.log.warn({ err }, `realtime: the change listener lost the database; retrying in ${Math.round(delay)} ms`);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref();
  }

  private handle(payload: string): void {
    let parsed: Notification;
    try {
      parsed = notification.parse(JSON.parse(payload));
    } catch (err) {
      this.log.warn({ err }, 'realtime: unreadable change notification');
      return;
    }
    const route = routeChange(parsed);
    if (!route) return;
    if ('disconnect' in route) {
      this.io.local.in(route.disconnect).disconnectSockets(true);
      return;
    }
    this.io.local.to(route.rooms).emit('changed', route.event);
    for (const caseId of route.reviewCases) this.io.local.to(`review:${caseId}`).emit('available_docs', { caseId });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query(`UNLISTEN ${CHANNEL}`).catch(() => {});
      client.release();
    }
  }
}
