/**
 * In-app notifications: written by the commands that cause them (a mention
 * in a comment today; the email issue adds kinds), read by their recipient.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { ownNotifications } from './policy.js';

type Trx = Transaction<Database>;

/** How many of the newest notifications the list shows. */
export const NOTIFICATIONS_SHOWN = 50;

export interface NewNotification {
  entityId: number;
  userId: number;
  kind: 'mention';
  caseId: number | null;
  commentId: number | null;
  byUserId: number | null;
}

/** Writes notifications in the caller's transaction. */
export async function insertNotifications(trx: Trx, items: NewNotification[]): Promise<void> {
  if (items.length === 0) return;
  await trx
    .insertInto('notifications')
    .values(items.map((n) => ({ entity_id: n.entityId, user_id: n.userId, kind: n.kind, case_id: n.caseId, comment_id: n.commentId, by_user_id: n.byUserId })))
    .execute();
}

/** The actor's newest notifications and how many are unread. */
export async function listNotifications(db: Db, actor: Actor) {
  const [rows, unread] = await Promise.all([
    db
      .selectFrom('notifications as n')
      .leftJoin('cases as c', 'c.id', 'n.case_id')
      .leftJoin('users as b', 'b.id', 'n.by_user_id')
      .where(ownNotifications(actor) as never)
      .select(['n.id', 'n.kind', 'n.case_id', 'c.serial', 'n.comment_id', 'b.name as by_name', 'n.created_at', 'n.read_at'])
      .orderBy('n.id', 'desc')
      .limit(NOTIFICATIONS_SHOWN)
      .execute(),
    unreadCount(db, actor),
  ]);
  return {
    items: rows.map((r) => ({ id: r.id, kind: r.kind, caseId: r.case_id, caseNumber: r.serial, commentId: r.comment_id, byName: r.by_name, createdAt: r.created_at, readAt: r.read_at })),
    unread,
  };
}

async function unreadCount(db: Db, actor: Actor): Promise<number> {
  const row = await db.selectFrom('notifications as n').where(ownNotifications(actor) as never).where('n.read_at', 'is', null).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/** Marks one of the actor's notifications read (NOT_FOUND for anyone else's). */
export async function markRead(db: Db, actor: Actor, id: number): Promise<void> {
  const found = await db.selectFrom('notifications as n').where('n.id', '=', id).where(ownNotifications(actor) as never).select('n.id').executeTakeFirst();
  if (!found) throw new AppError('NOT_FOUND');
  await db.updateTable('notifications').set({ read_at: sql`coalesce(read_at, now())` }).where('id', '=', found.id).execute();
}

/** Marks every notification of the actor read; answers how many remain unread (none). */
export async function markAllRead(db: Db, actor: Actor): Promise<number> {
  await db.updateTable('notifications').set({ read_at: new Date() }).where('entity_id', '=', actor.entityId).where('user_id', '=', actor.userId).where('read_at', 'is', null).execute();
  return unreadCount(db, actor);
}
