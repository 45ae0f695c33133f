/**
 * The webhooks API's contract (`/configuracion/webhooks`, target
 * menu_configuracion: `show` to read, `update` to change), shared by the
 * server's routes and the browser.
 *
 * A subscription of a tenant names a URL, the events it takes, optionally
 * the protocols whose cases it hears of, and a secret in the Standard
 * Webhooks format (`whsec_<base64>`), made by the server. Every event it
 * takes becomes one delivery: a POST of `{ type, timestamp, data }` signed
 * with the secret (headers `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`), retried with backoff until a 2xx, and listed with
 * the last answer. `data` carries ids and a small summary, never form data.
 */
import { z } from 'zod';
import { listQuery, listResponse } from './list.js';

/** What a subscription may take, in the order the page lists them. */
export const WEBHOOK_EVENTS = [
  'case.created',
  'case.state_changed',
  'task.created',
  'task.accepted',
  'task.rejected',
  'task.reassigned',
  'comment.added',
  'file.uploaded',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event "Send a test event" delivers (no subscription takes it otherwise). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOK_EVENT_TYPES = [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT] as const;

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Why a subscription is off: turned off by an admin, or by the server after a day without a 2xx answer. */
export const DISABLED_REASONS = ['manual', 'failing'] as const;

/** What an actor may do on a subscription or a delivery (webhooks/policy.ts decides; the web shows buttons from it). */
export const WEBHOOK_ACTIONS = ['edit', 'delete', 'test', 'rotate', 'revealSecret'] as const;
export type WebhookActionName = (typeof WEBHOOK_ACTIONS)[number];
export const DELIVERY_ACTIONS = ['redeliver'] as const;

/** Longest URL accepted, and the most subscriptions a tenant keeps. */
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_MAX_PER_TENANT = 20;
export const WEBHOOK_MAX_PROTOCOLS = 50;

/** Where a subscriber listens: http(s), no credentials in it, not too long. Addresses are checked by the server. */
export const webhookUrl = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(WEBHOOK_URL_MAX, { error: 'webhooks.errors.urlTooLong' })
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'webhooks.errors.urlInvalid' });
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: 'webhooks.errors.urlProtocol' });
    else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'webhooks.errors.urlCredentials' });
    else if (!url.hostname) ctx.addIssue({ code: 'custom', message: 'webhooks.errors.urlInvalid' });
  });

const id = z.number({ error: 'validation.chooseOption' }).int().positive().max(Number.MAX_SAFE_INTEGER);

/** What the page saves. */
export const webhookBody = z.strictObject({
  url: webhookUrl,
  description: z.string().trim().max(200, { error: 'validation.tooLong' }).default(''),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: 'webhooks.errors.unknownEvent' }), { error: 'webhooks.errors.noEvents' })
    .min(1, { error: 'webhooks.errors.noEvents' })
    .max(WEBHOOK_EVENTS.length * 2)
    .transform((events) => WEBHOOK_EVENTS.filter((e) => events.includes(e))),
  /** Only cases of these protocols; empty: every protocol. */
  protocolIds: z
    .array(id)
    .max(WEBHOOK_MAX_PROTOCOLS, { error: 'validation.tooLong' })
    .default([])
    .transform((ids) => [...new Set(ids)]),
  enabled: z.boolean().default(true),
});
export type WebhookBody = z.input<typeof webhookBody>;

/** A change also carries the version it was made on (a stale one is 409 CONFLICT). */
export const webhookUpdateBody = webhookBody.extend({ version: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const webhookListQuery = listQuery(['created_at', 'url']);
export const webhookParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const deliveryParams = webhookParams.extend({ deliveryId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const deliveryListQuery = listQuery(['created_at']).extend({ state: z.enum(DELIVERY_STATES).optional() });

export const webhookProtocolSchema = z.object({ id: z.number(), code: z.string(), name: z.string() });

/** The last try of a subscription's newest delivery, for the list. */
const lastDelivery = z.object({ state: z.enum(DELIVERY_STATES), status: z.number().nullable(), at: z.date() }).nullable();

export const webhookSchema = z.object({
  id: z.number(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  protocols: z.array(webhookProtocolSchema),
  enabled: z.boolean(),
  disabledReason: z.enum(DISABLED_REASONS).nullable(),
  disabledAt: z.date().nullable(),
  /** The first failed try since the last 2xx: a day of that and the subscription is turned off. */
  failingSince: z.date().nullable(),
  /** The secret's first characters, to tell secrets apart; the whole one is shown on creation, rotation, or asked for. */
  secretHint: z.string(),
  /** Until then the previous secret signs too (a rotation gives receivers a day to switch). */
  previousSecretUntil: z.date().nullable(),
  lastDelivery,
  createdAt: z.date(),
  updatedAt: z.date(),
  version: z.number(),
  actions: z.array(z.enum(WEBHOOK_ACTIONS)),
});
export const webhookListSchema = listResponse(webhookSchema);

/** A subscription just made, or its secret just rotated: the whole secret, once. */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export const webhookSecretSchema = z.object({ secret: z.string() });

export const deliverySchema = z.object({
  id: z.number(),
  /** The `webhook-id` header: the same for every try and redelivery of one event. */
  messageId: z.string(),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  caseId: z.number().nullable(),
  caseNumber: z.string().nullable(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number(),
  lastStatus: z.number().nullable(),
  /** The start of the subscriber's last answer (a few hundred characters). */
  lastResponse: z.string().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.date().nullable(),
  nextAttemptAt: z.date().nullable(),
  deliveredAt: z.date().nullable(),
  createdAt: z.date(),
  /** The body that was (or will be) sent. */
  payload: z.unknown(),
  actions: z.array(z.enum(DELIVERY_ACTIONS)),
});
export const deliveryListSchema = listResponse(deliverySchema);
