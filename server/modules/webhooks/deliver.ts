/**
 * Sending deliveries (the `webhook-send` job, server/jobs/boss.ts).
 *
 * A delivery is claimed with `FOR UPDATE SKIP LOCKED` in a transaction that
 * stays open while it is sent: however many senders run on however many
 * instances, each delivery is in one sender's hands at a time, and a sender
 * whose process dies mid-try leaves nothing half-done (its transaction rolls
 * back, the row is still pending and due, the next sender sends it; there is
 * no "sending" state to be stuck in). The try's outcome is written in the
 * same transaction: delivered (a 2xx), or the status, a snippet of the
 * answer and the error kept, and the next try set with exponential backoff
 * (jittered, capped), or failed for good a day after the event.
 *
 * The body is signed with the `standardwebhooks` package (the Standard
 * Webhooks scheme: HMAC-SHA256 of `id.timestamp.body`, headers `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`), with the current secret and,
 * for a day after a rotation, the previous one too (space-separated), so
 * existing verifiers accept it. It goes out through server/lib/safe-fetch.ts
 * `safePost`: public addresses only (private ones for the operator's
 * WEBHOOK_ALLOW_HOSTS), no redirect followed, a timeout and a size cap.
 *
 * The subscription's health is kept in a second, short transaction (a
 * sender never waits for a subscription's lock while holding a delivery's):
 * a 2xx clears `failing_since`; a failure sets it, and a subscription
 * failing for a day is turned off, its waiting deliveries dropped, and the
 * tenant's administrators told (a notification, and an email as they chose).
 *
 * `WebhookKicker` listens for the NOTIFY the database sends when deliveries
 * are made (migration 0036) and starts a sender at once; the minute sweep
 * starts one too, for retries falling due and anything a lost NOTIFY missed.
 */
import { sql, type Transaction } from 'kysely';
import type pg from 'pg';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { BlockedUrlError, safePost } from '../../lib/safe-fetch.js';
import { APP_VERSION } from '../../version.js';
import { type NotifyEnv, notifyTenant } from '../notifications/commands.js';
import { abandonPending } from './repo.js';

type Trx = Transaction<Database>;

export const KICK_CHANNEL = 'casebook_webhooks';

export interface SenderOptions {
  /** Private or loopback hosts deliveries may go to (WEBHOOK_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  /** The whole exchange with a subscriber, in ms (10 s). */
  timeoutMs?: number;
  /** The most of an answer read (64 KB); a longer one is a failed try. */
  maxBytes?: number;
  /** Seconds before the next try after `attempts` failed ones (from 1). */
  backoff?: (attempts: number) => number;
  /** A delivery still failing this long after its event gives up (24 h). */
  giveUpAfterMs?: number;
  /** A subscription without a 2xx for this long is turned off (24 h). */
  disableAfterMs?: number;
  /** What telling the administrators needs; without it they are not told (tests of the sender alone). */
  notify?: NotifyEnv & { afterMail?: () => void };
  /** For tests: how names resolve. */
  resolve?: (host: string) => Promise<string[]>;
  log?: { warn(obj: object, msg: string): void };
}

/** 10 s, 20 s, 40 s ... doubled each time up to an hour, give or take a fifth: some thirty tries in a day. */
export function defaultBackoff(attempts: number): number {
  const seconds = Math.min(3600, 10 * 2 ** Math.max(0, attempts - 1));
  return seconds * (0.8 + Math.random() * 0.4);
}

const DAY_MS = 24 * 3600_000;
/** What is kept of an answer's body and of an error. */
const SNIPPET = 500;

interface Claimed {
  id: number;
  entity_id: number;
  subscription_id: number;
  attempts: number;
  created_at: Date;
  url: string;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  message_id: string;
  payload: { type?: unknown; timestamp?: unknown; data?: unknown };
}

/** The signature header: the current secret's, and the previous one's while it still signs. */
export function signatures(c: Pick<Claimed, 'secret' | 'previous_secret' | 'previous_secret_until'>, messageId: string, at: Date, body: string): string {
  const secrets = [c.secret, ...(c.previous_secret && c.previous_secret_until && c.previous_secret_until > at ? [c.previous_secret] : [])];
  return secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' ');
}

/** The body as sent: type, timestamp, data, in that order, the same for every try and redelivery. */
export const bodyOf = (payload: Claimed['payload']) => JSON.stringify({ type: payload.type, timestamp: payload.timestamp, data: payload.data });

export type TryOutcome = { ok: true; status: number; answer: string } | { ok: false; status: number | null; answer: string | null; error: string };

/** One try of one delivery: the signed POST and how it went. Never throws. */
export async function tryDelivery(c: Claimed, options: SenderOptions, at: Date): Promise<TryOutcome> {
  const body = bodyOf(c.payload);
  try {
    const answer = await safePost(c.url, body, {
      privateHosts: new Set(options.allowHosts),
      resolve: options.resolve,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxBytes: options.maxBytes ?? 64 * 1024,
      headers: {
        'content-type': 'application/json',
        'user-agent': `Casebook-Webhooks/${APP_VERSION}`,
        'webhook-id': c.message_id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatures(c, c.message_id, at, body),
      },
    });
    const snippet = answer.body.slice(0, SNIPPET);
    if (answer.status >= 200 && answer.status < 300) return { ok: true, status: answer.status, answer: snippet };
    return { ok: false, status: answer.status, answer: snippet, error: `HTTP ${answer.status}` };
  } catch (e) {
    let error: string;
    if (!(e instanceof BlockedUrlError)) error = String((e as Error)?.message ?? e);
    else if (e.reason === 'connect') error = e.message.replace(/^outbound fetch failed: /, 'could not connect: ');
    else error = REASONS[e.reason] ?? e.message;
    return { ok: false, status: null, answer: null, error: error.slice(0, SNIPPET) };
  }
}

/** Why a try failed, as kept on the delivery (the page shows it as is). */
const REASONS: Partial<Record<BlockedUrlError['reason'], string>> = {
  timeout: 'timeout: no complete answer in time',
  size: 'answer too large',
  redirect: 'redirect refused',
  address: 'address refused (private, loopback, link-local or unresolved)',
  credentials: 'credentials in the URL refused',
  protocol: 'only http and https are sent to',
  url: 'not a URL',
  body: 'the answer was cut off',
};

/**
 * Claims the next due delivery (SKIP LOCKED), sends it, records the try, in
 * one transaction. Answers what happened, or null when nothing is due.
 */
export async function sendNext(db: Db, options: SenderOptions): Promise<{ id: number; subscriptionId: number; entityId: number; ok: boolean; at: Date; gaveUp: boolean } | null> {
  const done = await db.transaction().execute(async (trx) => {
    const claimed = await sql<Claimed>`
      select d.id, d.entity_id, d.subscription_id, d.attempts, d.created_at, s.url, s.enabled, s.secret, s.previous_secret, s.previous_secret_until,
             e.message_id, e.payload
        from webhook_deliveries d
        join webhook_subscriptions s on s.entity_id = d.entity_id and s.id = d.subscription_id
        join webhook_events e on e.entity_id = d.entity_id and e.id = d.event_id
       where d.state = 'pending' and d.next_attempt_at <= now()
       order by d.next_attempt_at
       limit 1
       for update of d skip locked`.execute(trx);
    const c = claimed.rows[0];
    if (!c) return null;
    const at = new Date();
    const outcome = await tryDelivery(c, options, at);
    const attempts = c.attempts + 1;
    if (outcome.ok) {
      await trx
        .updateTable('webhook_deliveries')
        .set({ state: 'delivered', attempts, last_attempt_at: at, last_status: outcome.status, last_response: outcome.answer, last_error: null, delivered_at: new Date(), next_attempt_at: null })
        .where('id', '=', c.id)
        .execute();
      return { id: c.id, subscriptionId: c.subscription_id, entityId: c.entity_id, ok: true, at, gaveUp: false };
    }
    // A subscription turned off meanwhile gets no more tries of this delivery; an event a day old neither.
    const gaveUp = !c.enabled || at.getTime() - new Date(c.created_at).getTime() >= (options.giveUpAfterMs ?? DAY_MS);
    const next = new Date(at.getTime() + (options.backoff ?? defaultBackoff)(attempts) * 1000);
    await trx
      .updateTable('webhook_deliveries')
      .set({
        state: gaveUp ? 'failed' : 'pending', attempts, last_attempt_at: at, last_status: outcome.status, last_response: outcome.answer, last_error: outcome.error,
        next_attempt_at: gaveUp ? null : next,
      })
      .where('id', '=', c.id)
      .execute();
    return { id: c.id, subscriptionId: c.subscription_id, entityId: c.entity_id, ok: false, at, gaveUp };
  });
  if (done) await recordHealth(db, options, done);
  return done;
}

/**
 * The subscription's health after a try: a 2xx clears its failing streak; a
 * failure starts one, and a streak a day long turns it off and tells the
 * administrators (once: only the sender whose update turned it off does).
 */
async function recordHealth(db: Db, options: SenderOptions, t: { subscriptionId: number; entityId: number; ok: boolean; at: Date }): Promise<void> {
  let told = false;
  await db.transaction().execute(async (trx) => {
    if (t.ok) {
      await trx
        .updateTable('webhook_subscriptions')
        .set({ failing_since: null })
        .where('entity_id', '=', t.entityId)
        .where('id', '=', t.subscriptionId)
        .where('failing_since', 'is not', null)
        .execute();
      return;
    }
    const s = await trx
      .updateTable('webhook_subscriptions')
      .set({ failing_since: sql`coalesce(failing_since, ${t.at})` })
      .where('entity_id', '=', t.entityId)
      .where('id', '=', t.subscriptionId)
      .returning(['failing_since', 'enabled'])
      .executeTakeFirst();
    if (!s?.enabled || !s.failing_since || t.at.getTime() - s.failing_since.getTime() < (options.disableAfterMs ?? DAY_MS)) return;
    const off = await trx
      .updateTable('webhook_subscriptions')
      .set({ enabled: false, disabled_reason: 'failing', disabled_at: t.at, updated_at: t.at, version: sql`version + 1` })
      .where('entity_id', '=', t.entityId)
      .where('id', '=', t.subscriptionId)
      .where('enabled', '=', true)
      .returning('url')
      .executeTakeFirst();
    if (!off) return;
    await abandonPending(trx, t.entityId, t.subscriptionId, 'subscription turned off after a day of failed tries');
    if (options.notify) told = (await tellAdministrators(trx, options.notify, t.entityId, off.url)) > 0;
  });
  if (told) options.notify?.afterMail?.();
}

/** The tenant's administrators: active people (not service accounts) whose role may change the settings. */
export async function administratorsOf(trx: Trx, entityId: number): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    select u.id from users u join acl_roles r on r.id = u.role_id and r.entity_id = u.entity_id
     where u.entity_id = ${entityId} and u.active and not u.service_account
       and (r.super_admin or exists (
         select 1 from acl_rules x
           join acl_modules m on m.id = x.module_id and m.entity_id = x.entity_id
           join acl_actions a on a.id = x.action_id and a.entity_id = x.entity_id
          where x.entity_id = u.entity_id and x.role_id = r.id and m.code = 'menu_configuracion' and a.code = 'update'))
     order by u.id`.execute(trx);
  return rows.rows.map((r) => Number(r.id));
}

async function tellAdministrators(trx: Trx, env: NotifyEnv, entityId: number, url: string): Promise<number> {
  const to = await administratorsOf(trx, entityId);
  return notifyTenant(trx, env, { event: 'webhook_disabled', entityId, to, detail: url, link: '/configuracion/webhooks' });
}

export interface SendRound {
  delivered: number;
  failed: number;
  /** Stopped by the time budget with deliveries still due: another round should follow. */
  more: boolean;
}

/**
 * Seconds until the earliest retry falls due, when that is sooner than the
 * minute sweep would take it up (so a backoff of ten seconds is ten
 * seconds); null when nothing waits that soon. Across tenants: the sender is
 * the system's.
 */
export async function secondsToNextRetry(db: Db, withinSeconds = 60): Promise<number | null> {
  const { rows } = await sql<{ seconds: number | null }>`
    select extract(epoch from min(next_attempt_at) - now())::float8 as seconds
      from webhook_deliveries
     where state = 'pending' and next_attempt_at > now() and next_attempt_at < now() + make_interval(secs => ${withinSeconds})`.execute(db);
  const seconds = rows[0]?.seconds;
  return seconds == null ? null : Math.max(1, Math.ceil(seconds));
}

/**
 * Sends due deliveries until none is due or `budgetMs` has passed, with
 * `concurrency` tries in flight (3 by default: each holds one of the app's
 * pooled connections while it waits for its subscriber, at most the timeout).
 */
export async function sendDueDeliveries(db: Db, options: SenderOptions, round: { concurrency?: number; budgetMs?: number; signal?: AbortSignal } = {}): Promise<SendRound> {
  const started = Date.now();
  const result: SendRound = { delivered: 0, failed: 0, more: false };
  const worker = async () => {
    for (;;) {
      if (round.signal?.aborted) return;
      if (Date.now() - started > (round.budgetMs ?? 50_000)) {
        result.more = true;
        return;
      }
      let sent: Awaited<ReturnType<typeof sendNext>>;
      try {
        sent = await sendNext(db, options);
      } catch (err) {
        // A lost connection or a deadlock victim: the delivery stays pending and due; the next round takes it.
        options.log?.warn({ err }, 'webhooks: a try could not be recorded; it will be made again');
        result.more = true;
        return;
      }
      if (!sent) return;
      if (sent.ok) result.delivered++;
      else result.failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, round.concurrency ?? 3) }, worker));
  return result;
}

/**
 * Listens on `casebook_webhooks` (a dedicated pooled connection, opened
 * again with backoff when it drops) and calls `kick` for each notification:
 * the deliveries just committed go out within a second or two. A kick after
 * the connection came back covers what was missed meanwhile.
 */
export class WebhookKicker {
  private client: pg.PoolClient | null = null;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private attempt = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly kick: () => void,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.pool.connect();
      client.on('notification', (m) => m.channel === KICK_CHANNEL && this.kick());
      client.on('error', (err) => this.lost(client, err));
      client.on('end', () => this.lost(client));
      await client.query(`LISTEN ${KICK_CHANNEL}`);
      if (this.closed) return client.release();
      this.client = client;
      if (this.attempt > 0) this.kick();
      this.attempt = 0;
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
    this.log.warn({ err }, `webhooks: the delivery listener lost the database; retrying in ${Math.round(delay)} ms`);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query(`UNLISTEN ${KICK_CHANNEL}`).catch(() => {});
      client.release();
    }
  }
}
