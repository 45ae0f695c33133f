/**
 * The webhooks' verbs, one transaction each, the actor first: make, change
 * and delete a subscription, rotate its secret, send it a test event,
 * redeliver one of its deliveries. A subscriber's URL is checked here as the
 * sender will check it (server/lib/safe-fetch.ts): http(s), no credentials,
 * a host that resolves to public addresses only (private or loopback ones
 * for the hosts the operator listed in WEBHOOK_ALLOW_HOSTS; link-local
 * never). What a refusal leaves is nothing: the checks come before any write.
 * New deliveries NOTIFY at commit, so the sender starts within a second or two.
 */
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { WEBHOOK_MAX_PER_TENANT, type WebhookBody } from '../../../core/api/webhooks.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { BlockedUrlError, checkPostTarget } from '../../lib/safe-fetch.js';
import type { Actor } from '../acl/policy.js';
import { assertWebhookChange } from './policy.js';
import {
  abandonPending, deleteWebhookRow, dueNow, insertRedelivery, insertTestDelivery, insertWebhook, lockDelivery, lockedCount, lockWebhook, replaceSecret,
  secretOf, type SubscriptionValues, tenantProtocols, updateWebhook,
} from './repo.js';

/** What the commands need from the application: the operator's private hosts, and (for tests) how names resolve. */
export interface WebhookEnv {
  allowHosts: readonly string[];
  resolve?: (host: string) => Promise<string[]>;
}

/** How long the previous secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_HOURS = 24;

/** A new secret in the Standard Webhooks format: `whsec_` and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const refuse = (message: string, params?: Record<string, unknown>, path = 'url') => new AppError('VALIDATION', {}, [{ path, message, ...(params ? { params } : {}) }]);

/** A name's addresses, or none when it does not resolve within a few seconds. */
async function addressesOf(host: string, env: WebhookEnv): Promise<string[]> {
  if (env.resolve) return env.resolve(host).catch(() => []);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), 3_000);
  });
  try {
    return await Promise.race([lookup(host, { all: true, verbatim: true }).then((a) => a.map((x) => x.address)).catch(() => []), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Refuses a URL the sender would refuse, with the reason in the caller's language. */
export async function checkSubscriberUrl(raw: string, env: WebhookEnv): Promise<void> {
  let host: string;
  try {
    host = new URL(raw).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    throw refuse('webhooks.errors.urlInvalid');
  }
  const addresses = isIP(host) ? [host] : await addressesOf(host, env);
  if (addresses.length === 0) throw refuse('webhooks.errors.urlUnresolved', { host });
  try {
    await checkPostTarget(raw, { privateHosts: new Set(env.allowHosts), resolve: async () => addresses });
  } catch (e) {
    if (!(e instanceof BlockedUrlError)) throw e;
    const key = { protocol: 'urlProtocol', credentials: 'urlCredentials', address: 'urlPrivate' }[e.reason as string] ?? 'urlInvalid';
    throw refuse(`webhooks.errors.${key}`, { host });
  }
}

type Input = WebhookBody & { events: SubscriptionValues['events']; protocolIds: number[]; description: string; enabled: boolean };

async function checked(db: Db, actor: Actor, env: WebhookEnv, input: Input): Promise<SubscriptionValues> {
  await checkSubscriberUrl(input.url, env);
  const known = await tenantProtocols(db, actor, input.protocolIds);
  const unknown = input.protocolIds.find((id) => !known.has(id));
  if (unknown !== undefined) throw refuse('webhooks.errors.unknownProtocol', { id: unknown }, 'protocolIds');
  return { url: input.url, description: input.description, events: input.events, protocolIds: input.protocolIds, enabled: input.enabled };
}

/** Makes a subscription with a new secret; returns its id and the secret (shown once). */
export async function createWebhook(db: Db, actor: Actor, env: WebhookEnv, input: Input): Promise<{ id: number; secret: string }> {
  assertWebhookChange(actor);
  const values = await checked(db, actor, env, input);
  const secret = newSecret();
  const id = await db.transaction().execute(async (trx) => {
    if ((await lockedCount(trx, actor)) >= WEBHOOK_MAX_PER_TENANT) throw refuse('webhooks.errors.limit', { max: WEBHOOK_MAX_PER_TENANT }, '');
    return insertWebhook(trx, actor, values, secret);
  });
  return { id, secret };
}

/** Changes a subscription made on `version` (a stale one is CONFLICT). Turning it off drops its waiting deliveries. */
export async function changeWebhook(db: Db, actor: Actor, env: WebhookEnv, id: number, input: Input & { version: number }): Promise<void> {
  assertWebhookChange(actor);
  const values = await checked(db, actor, env, input);
  await db.transaction().execute(async (trx) => {
    const row = await lockWebhook(trx, actor, id);
    if (row.version !== input.version) throw new AppError('CONFLICT');
    await updateWebhook(trx, id, values, row);
    if (row.enabled && !values.enabled) await abandonPending(trx, actor.entityId, id, 'subscription turned off');
  });
}

export async function deleteWebhook(db: Db, actor: Actor, id: number): Promise<void> {
  assertWebhookChange(actor);
  await db.transaction().execute(async (trx) => {
    await lockWebhook(trx, actor, id);
    await deleteWebhookRow(trx, actor, id);
  });
}

/**
 * The subscription's whole secret, for someone who may change it. Not for a
 * read-only API token, although this is a read: whoever holds the secret can
 * sign deliveries the receiver will trust.
 */
export async function revealSecret(db: Db, actor: Actor, id: number): Promise<string> {
  assertWebhookChange(actor);
  if (actor.apiToken?.readOnly) throw new AppError('TOKEN_READ_ONLY');
  return secretOf(db, actor, id);
}

/** A new secret for the subscription; the old one signs beside it for a day, so receivers can switch. Returns the new one. */
export async function rotateSecret(db: Db, actor: Actor, id: number, now = new Date()): Promise<string> {
  assertWebhookChange(actor);
  const secret = newSecret();
  await db.transaction().execute(async (trx) => {
    const row = await lockWebhook(trx, actor, id);
    await replaceSecret(trx, id, secret, row.secret, new Date(now.getTime() + PREVIOUS_SECRET_HOURS * 3600_000));
  });
  return secret;
}

/** Queues a `webhook.test` event for the subscription (on or off: trying a receiver before turning it on is the point). Returns the delivery's id. */
export async function sendTestEvent(db: Db, actor: Actor, id: number, now = new Date()): Promise<number> {
  assertWebhookChange(actor);
  return db.transaction().execute(async (trx) => {
    await lockWebhook(trx, actor, id);
    return insertTestDelivery(trx, actor, id, now);
  });
}

/**
 * Sends a delivery again: a pending one at once, a done one (delivered or
 * failed) as a new delivery of the same event, with the same body and
 * webhook-id (receivers that keep ids take it once). Returns the id of the
 * delivery that will go.
 */
export async function redeliver(db: Db, actor: Actor, subscriptionId: number, deliveryId: number, now = new Date()): Promise<number> {
  assertWebhookChange(actor);
  return db.transaction().execute(async (trx) => {
    await lockWebhook(trx, actor, subscriptionId);
    const d = await lockDelivery(trx, actor, subscriptionId, deliveryId);
    if (d.state === 'pending') {
      await dueNow(trx, d.id, now);
      return d.id;
    }
    return insertRedelivery(trx, actor, subscriptionId, d.event_id, now);
  });
}
