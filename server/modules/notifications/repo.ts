/**
 * In-app notifications: written by the commands that cause them (through
 * commands.ts `notify`), read by their recipient; the recipients' contact
 * and choices, the facts a message is filled with, and the digest's rows.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../../core/api/comments.js';
import { ownNotifications } from './policy.js';
import { localNameSql } from '../../lib/localName.js';

type Trx = Transaction<Database>;

/** How many of the newest notifications the list shows. */
export const NOTIFICATIONS_SHOWN = 50;

export interface NewNotification {
  entityId: number;
  userId: number;
  kind: NotificationKind;
  caseId: number | null;
  taskId?: number | null;
  commentId: number | null;
  byUserId: number | null;
  detail?: string | null;
  importId?: number | null;
  count?: number | null;
}

/** Writes notifications in the caller's transaction. */
export async function insertNotifications(trx: Trx, items: NewNotification[]): Promise<void> {
  if (items.length === 0) return;
  await trx
    .insertInto('notifications')
    .values(
      items.map((n) => ({
        entity_id: n.entityId,
        user_id: n.userId,
        kind: n.kind,
        case_id: n.caseId,
        task_id: n.taskId ?? null,
        comment_id: n.commentId,
        by_user_id: n.byUserId,
        detail: n.detail ? n.detail.slice(0, 500) : null,
        import_id: n.importId ?? null,
        count: n.count ?? null,
      })),
    )
    .execute();
}

// ---------------------------------------------------------------- recipients and facts

export interface NoticeRecipient {
  id: number;
  email: string;
  name: string;
  language: 'en' | 'es';
  timeZone: string;
  emailEvents: string[];
  digest: boolean;
}

/** The active users among `ids` in the tenant, with what a message to them needs. */
export async function recipientsOf(trx: Trx, entityId: number, ids: number[]): Promise<NoticeRecipient[]> {
  const rows = await trx
    .selectFrom('users')
    .where('entity_id', '=', entityId)
    .where('id', 'in', ids)
    .where('active', '=', true)
    .select(['id', 'email', 'name', 'language', 'time_zone', 'email_events', 'digest'])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, email: r.email, name: r.name, language: r.language, timeZone: r.time_zone, emailEvents: r.email_events, digest: r.digest }));
}

/** The programme a tenant's messages sign with (its first project). */
export async function programmeFacts(trx: Trx, entityId: number): Promise<{ title: string; supportPhone: string }> {
  const p = await trx.selectFrom('projects').where('entity_id', '=', entityId).select(['title', 'support_phone']).orderBy('is_default', 'desc').orderBy('id').executeTakeFirst();
  return { title: p?.title ?? '', supportPhone: p?.support_phone ?? '' };
}

/** A case's facts for a message: its number and state, the applicant's names and email, the programme. */
export async function caseNoticeFacts(trx: Trx, entityId: number, caseId: number) {
  const c = await trx
    .selectFrom('cases as c')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .leftJoin('users as o', 'o.id', 'c.owner_id')
    .where('c.entity_id', '=', entityId)
    .where('c.id', '=', caseId)
    .select([
      'c.id', 'c.serial', 'c.state', 'c.owner_id',
      sql<string>`coalesce(c.data->>'firstName', '')`.as('first_name'),
      sql<string>`coalesce(c.data->>'lastName', '')`.as('last_name'),
      sql<string>`coalesce(c.data->>'email', o.email, '')`.as('email'),
      'p.title', 'p.support_phone',
    ])
    .executeTakeFirstOrThrow();
  return { id: c.id, serial: c.serial, state: c.state, ownerId: c.owner_id, firstName: c.first_name, lastName: c.last_name, email: c.email, title: c.title, supportPhone: c.support_phone };
}

/** A task's facts for a message: its name, due date, responsible and team. */
export async function taskNoticeFacts(trx: Trx, entityId: number, taskId: number) {
  return trx
    .selectFrom('tasks as k')
    .leftJoin('users as u', 'u.id', 'k.responsible_user_id')
    .leftJoin('teams as tm', 'tm.id', 'k.responsible_team_id')
    .where('k.entity_id', '=', entityId)
    .where('k.id', '=', taskId)
    .select(['k.id', 'k.name', 'k.name_en as nameEn', 'k.due_at as dueAt', 'u.name as responsible', 'tm.name as team'])
    .executeTakeFirstOrThrow();
}

/** The active leaders of a team (escalation's first step). */
export async function teamLeaders(trx: Trx, entityId: number, teamId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.entity_id', '=', entityId)
    .where('m.team_id', '=', teamId)
    .where('m.role', '=', 'leader')
    .where('m.active', '=', true)
    .where('u.active', '=', true)
    .select('u.id')
    .execute();
  return rows.map((r) => r.id);
}

/** The active users of the tenant holding the role `code` (escalation's second step). */
export async function usersWithRole(trx: Trx, entityId: number, code: string): Promise<number[]> {
  const rows = await trx
    .selectFrom('users as u')
    .innerJoin('acl_roles as r', 'r.id', 'u.role_id')
    .where('u.entity_id', '=', entityId)
    .where('r.entity_id', '=', entityId)
    .where('r.code', '=', code)
    .where('u.active', '=', true)
    .select('u.id')
    .orderBy('u.id')
    .limit(200)
    .execute();
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------- preferences

export async function preferencesOf(db: Db, actor: Actor) {
  const row = await db.selectFrom('users').where('id', '=', actor.userId).where('entity_id', '=', actor.entityId).select(['email_events', 'digest']).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  const known = new Set<string>(NOTIFICATION_KINDS);
  return { emailEvents: row.email_events.filter((e): e is NotificationKind => known.has(e)), digest: row.digest };
}

export async function savePreferences(db: Db, actor: Actor, prefs: { emailEvents: string[]; digest: boolean }): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_events: sql<string[]>`${prefs.emailEvents}::text[]`, digest: prefs.digest, updated_at: new Date() })
    .where('id', '=', actor.userId)
    .where('entity_id', '=', actor.entityId)
    .execute();
}

// ---------------------------------------------------------------- digest

/** How far back a first digest looks for mentions. */
const FIRST_DIGEST_DAYS = 1;

/** People who chose the digest, whose local clock is past `hour` on a day they have had none. */
export async function digestCandidates(db: Db, now: Date, hour: number, limit: number) {
  return db
    .selectFrom('users as u')
    .where('u.digest', '=', true)
    .where('u.active', '=', true)
    .where(sql<boolean>`extract(hour from ${now}::timestamptz at time zone u.time_zone) >= ${hour}`)
    .where(sql<boolean>`(u.digest_sent_at is null or (u.digest_sent_at at time zone u.time_zone)::date < (${now}::timestamptz at time zone u.time_zone)::date)`)
    .select(['u.id', 'u.entity_id as entityId'])
    .orderBy('u.id')
    .limit(limit)
    .execute();
}

/**
 * One person's digest, their row locked (null when another instance holds
 * it or it went out today): their open tasks due by the end of tomorrow or
 * overdue, and the mentions since their last digest.
 */
export async function digestContents(trx: Trx, candidate: { id: number; entityId: number }, now: Date) {
  const u = await trx
    .selectFrom('users')
    .where('id', '=', candidate.id)
    .where('entity_id', '=', candidate.entityId)
    .where('digest', '=', true)
    .where(sql<boolean>`(digest_sent_at is null or (digest_sent_at at time zone time_zone)::date < (${now}::timestamptz at time zone time_zone)::date)`)
    .select(['id', 'email', 'name', 'language', 'time_zone', 'digest_sent_at'])
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (!u) return null;
  const since = u.digest_sent_at ?? new Date(now.getTime() - FIRST_DIGEST_DAYS * 86_400_000);
  const [tasks, mentions, project] = await Promise.all([
    trx
      .selectFrom('tasks as k')
      .innerJoin('cases as c', 'c.id', 'k.case_id')
      .where('k.entity_id', '=', candidate.entityId)
      .where('k.responsible_user_id', '=', u.id)
      .where('k.state', '=', 'PENDING')
      .where('k.due_at', '<', sql<Date>`${now}::timestamptz + interval '2 days'`)
      .select(['k.id', 'k.name', 'k.name_en as nameEn', 'k.due_at as dueAt', 'k.overdue', 'k.case_id as caseId', 'c.serial'])
      .orderBy('k.due_at')
      .limit(50)
      .execute(),
    trx
      .selectFrom('notifications as n')
      .leftJoin('users as b', 'b.id', 'n.by_user_id')
      .leftJoin('cases as c', 'c.id', 'n.case_id')
      .where('n.entity_id', '=', candidate.entityId)
      .where('n.user_id', '=', u.id)
      .where('n.kind', '=', 'mention')
      .where('n.created_at', '>=', since)
      .select(['n.id', 'b.name as byName', 'n.case_id as caseId', 'c.serial'])
      .orderBy('n.id')
      .limit(50)
      .execute(),
    trx.selectFrom('projects').where('entity_id', '=', candidate.entityId).select(['title', 'support_phone']).orderBy('id').executeTakeFirst(),
  ]);
  return {
    recipient: { email: u.email, name: u.name, language: u.language, timeZone: u.time_zone },
    tasks,
    mentions,
    programTitle: project?.title ?? '',
    supportPhone: project?.support_phone ?? '',
  };
}

export async function markDigestSent(trx: Trx, userId: number, at: Date): Promise<void> {
  await trx.updateTable('users').set({ digest_sent_at: at }).where('id', '=', userId).execute();
}

/** The actor's newest notifications and how many are unread. */
export async function listNotifications(db: Db, actor: Actor) {
  const [rows, unread] = await Promise.all([
    db
      .selectFrom('notifications as n')
      .leftJoin('cases as c', 'c.id', 'n.case_id')
      .leftJoin('users as b', 'b.id', 'n.by_user_id')
      .where(ownNotifications(actor) as never)
      .leftJoin('tasks as k', 'k.id', 'n.task_id')
      .select(['n.id', 'n.kind', 'n.case_id', 'c.serial', 'n.task_id', localNameSql<string | null>('k', actor.language).as('task_name'), 'n.detail', 'n.comment_id', 'n.import_id', 'n.count', 'b.name as by_name', 'n.created_at', 'n.read_at'])
      .orderBy('n.id', 'desc')
      .limit(NOTIFICATIONS_SHOWN)
      .execute(),
    unreadCount(db, actor),
  ]);
  return {
    items: rows.map((r) => ({ id: r.id, kind: r.kind, caseId: r.case_id, caseNumber: r.serial, taskId: r.task_id, taskName: r.task_name, detail: r.detail, commentId: r.comment_id, importId: r.import_id, count: r.count, byName: r.by_name, createdAt: r.created_at, readAt: r.read_at })),
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
