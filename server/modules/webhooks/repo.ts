/**
 * The webhooks' SQL for the page. Every finder takes the actor and reads
 * its tenant's subscriptions and deliveries only: another tenant's answer
 * NOT_FOUND. Rows are mapped to the API's shapes here. The sender's SQL
 * (claiming due deliveries across tenants) is deliver.ts's.
 */
import { sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import { type DeliveryState, WEBHOOK_TEST_EVENT, type WebhookEvent, type deliveryListQuery, type webhookListQuery } from '../../../core/api/webhooks.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { paginate } from '../../lib/list.js';
import { localNameSql } from '../../lib/localName.js';
import type { Actor } from '../acl/policy.js';
import { deliveryActions, webhookActions } from './policy.js';

type Executor = Db | Transaction<Database>;
type Trx = Transaction<Database>;

/** The secret's first characters: enough to tell two apart, too few to sign with. */
export const secretHint = (secret: string) => `${secret.slice(0, 10)}…`;

function subscriptions(db: Executor, actor: Actor) {
  return db.selectFrom('webhook_subscriptions as s').where('s.entity_id', '=', actor.entityId);
}

const COLUMNS = [
  's.id', 's.url', 's.description', 's.events', 's.protocol_ids', 's.enabled', 's.disabled_reason', 's.disabled_at', 's.failing_since', 's.secret',
  's.previous_secret_until', 's.created_at', 's.updated_at', 's.version',
] as const;

interface SubscriptionRow {
  id: number;
  url: string;
  description: string;
  events: WebhookEvent[];
  protocol_ids: number[];
  enabled: boolean;
  disabled_reason: 'manual' | 'failing' | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  secret: string;
  previous_secret_until: Date | null;
  created_at: Date;
  updated_at: Date;
  version: number;
  last_state: DeliveryState | null;
  last_status: number | null;
  last_at: Date | null;
}

/** The newest delivery of each subscription, for the list. */
const withLastDelivery = <Q extends ReturnType<typeof subscriptions>>(q: Q) =>
  q
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('webhook_deliveries as d')
          .whereRef('d.entity_id', '=', 's.entity_id')
          .whereRef('d.subscription_id', '=', 's.id')
          .select(['d.state as last_state', 'd.last_status', sql<Date>`coalesce(d.last_attempt_at, d.created_at)`.as('last_at')])
          .orderBy('d.id', 'desc')
          .limit(1)
          .as('last'),
      (join) => join.onTrue(),
    )
    .select([...COLUMNS, 'last.last_state', 'last.last_status', 'last.last_at']);

async function protocolsById(db: Executor, actor: Actor, ids: number[]) {
  if (ids.length === 0) return new Map<number, { id: number; code: string; name: string }>();
  const rows = await db
    .selectFrom('protocols as p')
    .where('p.entity_id', '=', actor.entityId)
    .where('p.id', 'in', ids)
    .select(['p.id', 'p.code', localNameSql('p', actor.language).as('name')])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

function present(actor: Actor, r: SubscriptionRow, protocols: Map<number, { id: number; code: string; name: string }>, now = new Date()) {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events,
    // A protocol deleted since is left out.
    protocols: r.protocol_ids.flatMap((id) => protocols.get(id) ?? []),
    enabled: r.enabled,
    disabledReason: r.enabled ? null : r.disabled_reason,
    disabledAt: r.enabled ? null : r.disabled_at,
    failingSince: r.failing_since,
    secretHint: secretHint(r.secret),
    previousSecretUntil: r.previous_secret_until && r.previous_secret_until > now ? r.previous_secret_until : null,
    lastDelivery: r.last_state && r.last_at ? { state: r.last_state, status: r.last_status, at: r.last_at } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
    actions: webhookActions(actor),
  };
}

export async function listWebhooks(db: Db, actor: Actor, f: z.infer<typeof webhookListQuery>) {
  let q = withLastDelivery(subscriptions(db, actor));
  if (f.search) q = q.where('s.url', 'ilike', `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const descending = f.descending ?? !f.sortBy;
  q = q.orderBy(`s.${f.sortBy ?? 'created_at'}`, descending ? 'desc' : 'asc').orderBy('s.id', descending ? 'desc' : 'asc');
  const { rows, total } = await paginate(q, f);
  const protocols = await protocolsById(db, actor, [...new Set(rows.flatMap((r) => r.protocol_ids))]);
  return { items: rows.map((r) => present(actor, r as SubscriptionRow, protocols)), total };
}

export async function findWebhook(db: Executor, actor: Actor, id: number) {
  const row = await withLastDelivery(subscriptions(db, actor)).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return present(actor, row as SubscriptionRow, await protocolsById(db, actor, row.protocol_ids));
}

/** The tenant's protocols a subscription may be narrowed to. */
export async function protocolOptions(db: Db, actor: Actor) {
  return db
    .selectFrom('protocols as p')
    .where('p.entity_id', '=', actor.entityId)
    .select(['p.id', 'p.code', localNameSql('p', actor.language).as('name')])
    .orderBy('p.code')
    .limit(500)
    .execute();
}

/** Which of `ids` are protocols of the actor's tenant. */
export async function tenantProtocols(trx: Executor, actor: Actor, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await trx.selectFrom('protocols').where('entity_id', '=', actor.entityId).where('id', 'in', ids).select('id').execute();
  return new Set(rows.map((r) => r.id));
}

/** The tenant's subscriptions counted with the tenant locked: two creations at once cannot both take the last place. */
export async function lockedCount(trx: Trx, actor: Actor): Promise<number> {
  await trx.selectFrom('entities').where('id', '=', actor.entityId).select('id').forUpdate().executeTakeFirstOrThrow();
  const { n } = await subscriptions(trx, actor).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(n);
}

export interface SubscriptionValues {
  url: string;
  description: string;
  events: WebhookEvent[];
  protocolIds: number[];
  enabled: boolean;
}

export async function insertWebhook(trx: Trx, actor: Actor, v: SubscriptionValues, secret: string): Promise<number> {
  const row = await trx
    .insertInto('webhook_subscriptions')
    .values({
      entity_id: actor.entityId, url: v.url, description: v.description, events: v.events, protocol_ids: v.protocolIds, enabled: v.enabled,
      disabled_reason: v.enabled ? null : 'manual', disabled_at: v.enabled ? null : new Date(), secret, created_by: actor.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The subscription, locked until the transaction ends; another tenant's is NOT_FOUND. */
export async function lockWebhook(trx: Trx, actor: Actor, id: number) {
  const row = await subscriptions(trx, actor).where('s.id', '=', id).selectAll('s').forUpdate().executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function updateWebhook(trx: Trx, id: number, v: SubscriptionValues, was: { enabled: boolean }): Promise<void> {
  const turnedOff = was.enabled && !v.enabled;
  const turnedOn = !was.enabled && v.enabled;
  await trx
    .updateTable('webhook_subscriptions')
    .set({
      url: v.url, description: v.description, events: v.events, protocol_ids: v.protocolIds, enabled: v.enabled,
      ...(turnedOff ? { disabled_reason: 'manual', disabled_at: new Date() } : {}),
      // Turned on again: its failures start afresh.
      ...(turnedOn ? { disabled_reason: null, disabled_at: null, failing_since: null } : {}),
      updated_at: new Date(), version: sql`version + 1`,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteWebhookRow(trx: Trx, actor: Actor, id: number): Promise<void> {
  await trx.deleteFrom('webhook_subscriptions').where('entity_id', '=', actor.entityId).where('id', '=', id).execute();
}

/** A new secret; the old one keeps signing (beside it) until `previousUntil`. */
export async function replaceSecret(trx: Trx, id: number, secret: string, previous: string, previousUntil: Date): Promise<void> {
  await trx
    .updateTable('webhook_subscriptions')
    .set({ secret, previous_secret: previous, previous_secret_until: previousUntil, updated_at: new Date(), version: sql`version + 1` })
    .where('id', '=', id)
    .execute();
}

/**
 * Deliveries still waiting of a subscription turned off: they will not go out
 * (redeliver sends one again). One in a sender's hands right now (locked) is
 * skipped, never waited for: that sender sees the subscription off and gives
 * its delivery up after this try.
 */
export async function abandonPending(trx: Trx, entityId: number, subscriptionId: number, reason: string): Promise<void> {
  await sql`
    update webhook_deliveries set state = 'failed', next_attempt_at = null, last_error = ${reason}
     where id in (select id from webhook_deliveries
                   where entity_id = ${entityId} and subscription_id = ${subscriptionId} and state = 'pending'
                   for update skip locked)`.execute(trx);
}

/** NOTIFY at commit: the instances that send webhooks start the sender (deliver.ts WebhookKicker). */
export async function announceDeliveries(trx: Trx): Promise<void> {
  await sql`select pg_notify('casebook_webhooks', '')`.execute(trx);
}

/** The test event of a subscription: a body like a real event's, about no case, delivered to this subscription only. */
export async function insertTestDelivery(trx: Trx, actor: Actor, subscriptionId: number, now: Date): Promise<number> {
  const payload = {
    type: WEBHOOK_TEST_EVENT,
    timestamp: now.toISOString(),
    data: { subscription: { id: subscriptionId }, message: 'This is a test event sent from Casebook.' },
  };
  const event = await trx
    .insertInto('webhook_events')
    .values({ entity_id: actor.entityId, type: WEBHOOK_TEST_EVENT, case_id: null, payload: JSON.stringify(payload), created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const delivery = await trx
    .insertInto('webhook_deliveries')
    .values({ entity_id: actor.entityId, subscription_id: subscriptionId, event_id: event.id, next_attempt_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await announceDeliveries(trx);
  return delivery.id;
}

/** A delivery of the subscription, locked; another subscription's or tenant's is NOT_FOUND. */
export async function lockDelivery(trx: Trx, actor: Actor, subscriptionId: number, deliveryId: number) {
  const row = await trx
    .selectFrom('webhook_deliveries')
    .where('entity_id', '=', actor.entityId)
    .where('subscription_id', '=', subscriptionId)
    .where('id', '=', deliveryId)
    .selectAll()
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** A pending delivery made due now (its next try at once). */
export async function dueNow(trx: Trx, deliveryId: number, now: Date): Promise<void> {
  await trx.updateTable('webhook_deliveries').set({ next_attempt_at: now }).where('id', '=', deliveryId).execute();
  await announceDeliveries(trx);
}

/** A new delivery of a done delivery's event (the same body and webhook-id), due now. */
export async function insertRedelivery(trx: Trx, actor: Actor, subscriptionId: number, eventId: number, now: Date): Promise<number> {
  const row = await trx
    .insertInto('webhook_deliveries')
    .values({ entity_id: actor.entityId, subscription_id: subscriptionId, event_id: eventId, next_attempt_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await announceDeliveries(trx);
  return row.id;
}

const DELIVERY_COLUMNS = [
  'd.id', 'd.state', 'd.attempts', 'd.last_status', 'd.last_response', 'd.last_error', 'd.last_attempt_at', 'd.next_attempt_at', 'd.delivered_at', 'd.created_at',
  'e.message_id', 'e.type', 'e.case_id', 'e.payload', 'c.serial',
] as const;

function deliveries(db: Executor, actor: Actor, subscriptionId: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (j) => j.onRef('e.entity_id', '=', 'd.entity_id').onRef('e.id', '=', 'd.event_id'))
    .leftJoin('cases as c', (j) => j.onRef('c.entity_id', '=', 'e.entity_id').onRef('c.id', '=', 'e.case_id'))
    .where('d.entity_id', '=', actor.entityId)
    .where('d.subscription_id', '=', subscriptionId);
}

type DeliveryRow = {
  id: number;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_response: string | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
  message_id: string;
  type: string;
  case_id: number | null;
  payload: Record<string, unknown>;
  serial: string | null;
};

function presentDelivery(actor: Actor, r: DeliveryRow) {
  return {
    id: r.id,
    messageId: r.message_id,
    eventType: r.type as WebhookEvent | typeof WEBHOOK_TEST_EVENT,
    caseId: r.case_id,
    caseNumber: r.serial,
    state: r.state,
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastResponse: r.last_response,
    lastError: r.last_error,
    lastAttemptAt: r.last_attempt_at,
    nextAttemptAt: r.state === 'pending' ? r.next_attempt_at : null,
    deliveredAt: r.delivered_at,
    createdAt: r.created_at,
    payload: r.payload,
    actions: deliveryActions(actor),
  };
}

/** A subscription's deliveries, newest first (the subscription must be the tenant's: NOT_FOUND otherwise). */
export async function listDeliveries(db: Db, actor: Actor, subscriptionId: number, f: z.infer<typeof deliveryListQuery>) {
  const exists = await subscriptions(db, actor).where('s.id', '=', subscriptionId).select('s.id').executeTakeFirst();
  if (!exists) throw new AppError('NOT_FOUND');
  let q = deliveries(db, actor, subscriptionId).select([...DELIVERY_COLUMNS]);
  if (f.state) q = q.where('d.state', '=', f.state);
  const descending = f.descending ?? true;
  q = q.orderBy('d.created_at', descending ? 'desc' : 'asc').orderBy('d.id', descending ? 'desc' : 'asc');
  const { rows, total } = await paginate(q, f);
  return { items: rows.map((r) => presentDelivery(actor, r as DeliveryRow)), total };
}

export async function findDelivery(db: Executor, actor: Actor, subscriptionId: number, deliveryId: number) {
  const row = await deliveries(db, actor, subscriptionId).where('d.id', '=', deliveryId).select([...DELIVERY_COLUMNS]).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return presentDelivery(actor, row as DeliveryRow);
}

export async function secretOf(db: Db, actor: Actor, id: number): Promise<string> {
  const row = await subscriptions(db, actor).where('s.id', '=', id).select('s.secret').executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row.secret;
}
