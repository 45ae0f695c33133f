/**
 * The outbox's SQL for the outbox page. Every finder takes the actor and
 * reads its tenant's messages only: another tenant's answers NOT_FOUND.
 * Rows are mapped to the API's shapes here.
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import type { MailState, OutboxListQuery } from '../../../core/api/mail.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { containsPattern, paginate } from '../../lib/list.js';
import type { Actor } from '../acl/policy.js';
import { tenantTimeZone } from '../cases/filters.js';
import { mailActions } from './policy.js';

function messages(db: Db, actor: Actor) {
  return db
    .selectFrom('mail_outbox as m')
    .leftJoin('cases as c', (j) => j.onRef('c.id', '=', 'm.case_id').on('c.entity_id', '=', actor.entityId))
    .where('m.entity_id', '=', actor.entityId);
}

const COLUMNS = ['m.id', 'm.to_address', 'm.subject', 'm.status', 'm.attempts', 'm.last_error', 'm.event', 'm.case_id', 'c.serial', 'm.created_at', 'm.sent_at'] as const;

type Row = {
  id: number;
  to_address: string;
  subject: string;
  status: MailState;
  attempts: number;
  last_error: string | null;
  event: string | null;
  case_id: number | null;
  serial: string | null;
  created_at: Date;
  sent_at: Date | null;
};

function present(actor: Actor, r: Row, smtpConfigured: boolean) {
  return {
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    state: r.status,
    attempts: r.attempts,
    lastError: r.last_error,
    event: r.event,
    caseId: r.case_id,
    caseNumber: r.serial,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    actions: mailActions(actor, { state: r.status }, smtpConfigured),
  };
}

export async function listOutbox(db: Db, actor: Actor, f: OutboxListQuery, smtpConfigured: boolean) {
  let q = messages(db, actor).select([...COLUMNS]);
  q = q.where((eb) => {
    const conditions: Array<Expression<SqlBool>> = [];
    if (f.state) conditions.push(eb('m.status', '=', f.state));
    if (f.recipient) conditions.push(eb('m.to_address', 'ilike', containsPattern(f.recipient)));
    if (f.search) {
      const p = containsPattern(f.search);
      conditions.push(eb.or([eb('m.to_address', 'ilike', p), eb('m.subject', 'ilike', p)]));
    }
    if (f.case) {
      const byNumber = eb('c.serial', '=', f.case);
      conditions.push(/^\d{1,15}$/.test(f.case) ? eb.or([byNumber, eb('m.case_id', '=', Number(f.case))]) : byNumber);
    }
    // Days of the tenant's calendar: from its midnight to the midnight after `to`.
    if (f.from) conditions.push(sql<boolean>`m.created_at >= (${f.from}::date)::timestamp at time zone ${tenantTimeZone(actor)}`);
    if (f.to) conditions.push(sql<boolean>`m.created_at < (${f.to}::date + 1)::timestamp at time zone ${tenantTimeZone(actor)}`);
    return eb.and(conditions);
  });
  // Newest first unless another order is asked for.
  const descending = f.descending ?? !f.sortBy;
  q = q.orderBy(`m.${f.sortBy ?? 'created_at'}`, descending ? 'desc' : 'asc').orderBy('m.id', descending ? 'desc' : 'asc');
  const { rows, total } = await paginate(q, f);
  return { items: rows.map((r) => present(actor, r as Row, smtpConfigured)), total };
}

export async function findMessage(db: Db, actor: Actor, id: number, smtpConfigured: boolean) {
  const r = await messages(db, actor).select([...COLUMNS, 'm.body_text']).where('m.id', '=', id).executeTakeFirst();
  if (!r) throw new AppError('NOT_FOUND');
  return { ...present(actor, r as Row, smtpConfigured), bodyText: r.body_text };
}

/** The message's state; NOT_FOUND when it is not the tenant's. */
export async function messageState(db: Db, actor: Actor, id: number): Promise<MailState> {
  const r = await db.selectFrom('mail_outbox').select('status').where('id', '=', id).where('entity_id', '=', actor.entityId).executeTakeFirst();
  if (!r) throw new AppError('NOT_FOUND');
  return r.status;
}
