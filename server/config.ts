import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * Environment -> one typed, validated configuration object, read once at boot.
 * A wrong value throws ConfigError naming the variable; main.ts prints that one
 * line and exits non-zero.
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

const onOff = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'].includes(v), 'must be on or off')
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);

/** The names proxy-addr (Fastify's `trustProxy`) knows for address ranges. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * The proxies whose X-Forwarded-For is believed: off (the default), or a
 * comma-separated list of addresses, CIDRs and proxy-addr's range names.
 * "on" is refused: trusting every address would let any client pick the
 * address that rate limits and the sign-in throttle count.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v) => (['0', 'false', 'off', 'no'].includes(v.toLowerCase()) ? [] : v.split(',').map((p) => p.trim().toLowerCase()).filter(Boolean)))
  .refine((list) => list.every(isProxyEntry), 'must be off or a comma-separated list of the proxies\' addresses or CIDRs (or loopback, linklocal, uniquelocal)');

/**
 * Hosts on a private network or loopback that webhooks may call (a receiver
 * beside the server, a test's): a comma-separated list of host names or
 * addresses, as written in the subscriptions' URLs. Off by default; an
 * operator's choice, never a tenant's. Link-local addresses (the cloud
 * metadata service) stay refused whatever is listed.
 */
const webhookHosts = z
  .string()
  .trim()
  .transform((v) => v.split(',').map((h) => h.trim().toLowerCase().replace(/^\[|\]$/g, '')).filter(Boolean))
  .refine((list) => list.every((h) => /^[a-z0-9.:-]{1,253}$/.test(h)), 'must be a comma-separated list of host names or addresses');

const envSchema = z.object({
  PORT: z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 65535, 'must be between 1 and 65535')
    .default(3000),
  DATA_DIR: z.string().trim().min(1, 'must not be empty').optional(),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  DATABASE_READ_URL: url(['postgres:', 'postgresql:']).optional(),
  READ_AFTER_WRITE_SECONDS: z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number of seconds')
    .transform(Number)
    .refine((n) => n <= 600, 'must be at most 600')
    .optional(),
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  DEMO_DATA: onOff.optional(),
  DEMO_HISTORY: onOff.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  TRUST_PROXY: trustProxy.optional(),
  METRICS: onOff.optional(),
  METRICS_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  SHUTDOWN_DRAIN_SECONDS: z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number of seconds')
    .transform(Number)
    .refine((n) => n <= 120, 'must be at most 120')
    .optional(),
  WEBHOOK_ALLOW_HOSTS: webhookHosts.optional(),
});

export interface Config {
  /**
   * `trustProxy`: the proxies (addresses, CIDRs, range names) whose
   * X-Forwarded-For gives `request.ip`; empty when off. `secureCookies` when
   * PUBLIC_URL is https.
   */
  http: { port: number; host: string; publicUrl: string; trustProxy: string[]; secureCookies: boolean; drainSeconds: number };
  /**
   * `dir` is where the embedded database and the files live. `explicit` when
   * DATA_DIR was set: then it is used as given, and a problem with it is an
   * error; the default (`data/` of the checkout) may be replaced by a place the
   * database's user can reach (see db/data-dir.ts).
   */
  data: { dir: string; explicit: boolean };
  /**
   * `url`: when set, an external PostgreSQL; otherwise the embedded one under
   * data.dir. `readUrl`: a streaming replica of it for the report and list
   * reads (db/read-replica.ts); `readAfterWriteSeconds`: how long after a
   * write a session's reads stay on the primary.
   */
  database: { url: string | undefined; embedded: boolean; readUrl: string | undefined; readAfterWriteSeconds: number };
  mail: { smtpUrl: string | undefined };
  demoData: boolean;
  /** With the demo, six months of applications behind it for the reports (db/seed/history.ts): some 10 s of the first start. */
  demoHistory: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** JSON lines for production and pipes; short lines for a person at a terminal. */
  logFormat: 'json' | 'pretty';
  /** `/api/metrics` (Prometheus): off -> 404; with a token, Bearer only; without one, loopback callers only. */
  metrics: { enabled: boolean; token: string | undefined };
  /**
   * Where new uploads' bytes go (FILES_URL): `database` by default with
   * DATABASE_URL (every instance reaches it), `disk` (data.dir/files) when
   * embedded, or `s3` with the bucket in `s3`. Reads follow each file's row.
   */
  files: { store: 'disk' | 'database' | 's3'; s3: S3Location | undefined };
  /** Webhooks: `allowHosts`, the private or loopback hosts deliveries may go to (WEBHOOK_ALLOW_HOSTS; empty: none). */
  webhooks: { allowHosts: string[] };
  /**
   * Payees' bank details are sealed with AES-256-GCM under `key` (PAYMENTS_KEY,
   * 32 bytes as base64 or hex); `keyId` names it in each ciphertext. Unset:
   * the embedded mode keeps a generated key in DATA_DIR; with DATABASE_URL,
   * saving bank details answers 503 PAYMENTS_KEY_MISSING.
   */
  payments: { key: Buffer | undefined; keyId: string | undefined };
}

/** PAYMENTS_KEY -> 32 bytes: 64 hex digits or base64 of 32 bytes. The message never quotes the value (a secret). */
export function parsePaymentsKey(raw: string | undefined): Config['payments'] {
  const value = raw?.trim();
  if (!value) return { key: undefined, keyId: undefined };
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(value)) key = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!key || key.length !== 32) throw new ConfigError('PAYMENTS_KEY', 'must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)');
  return { key, keyId: paymentsKeyId(key) };
}

/** A key's id: the first 8 hex digits of the SHA-256 of the key, so a ciphertext names the key that sealed it without revealing it. */
export function paymentsKeyId(key: Buffer): string {
  return createHash('sha256').update('casebook-payments-key-id').update(key).digest('hex').slice(0, 8);
}

/** An S3-compatible bucket (FILES_URL `s3://` or `s3+http://`). */
export interface S3Location {
  /** `https://host[:port]`, or `http://` for `s3+http://`. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const FILES_URL_FORMS = 'must be disk, database, or s3://ACCESS_KEY:SECRET@host[:port]/bucket[?region=...] (s3+http:// for a server without TLS)';

/** FILES_URL as a message may show it: the secret never. */
const redactFilesUrl = (value: string) => value.replace(/^([a-z0-9+.-]+:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');

/** FILES_URL -> the store for new uploads (the default depends on the mode). */
export function parseFilesUrl(raw: string | undefined, embedded: boolean): Config['files'] {
  const value = raw?.trim() ?? '';
  if (!value) return { store: embedded ? 'disk' : 'database', s3: undefined };
  const word = value.toLowerCase();
  if (word === 'disk' || word === 'database') return { store: word, s3: undefined };
  const fail = (reason: string) => new ConfigError('FILES_URL', `${reason} (got ${JSON.stringify(redactFilesUrl(value))})`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail(FILES_URL_FORMS);
  }
  if (url.protocol !== 's3:' && url.protocol !== 's3+http:') throw fail(FILES_URL_FORMS);
  if (!url.hostname) throw fail('needs a host: s3://ACCESS_KEY:SECRET@host[:port]/bucket');
  if (!url.username || !url.password) throw fail('needs the access key and the secret: s3://ACCESS_KEY:SECRET@host/bucket (percent-encode / : @ in them)');
  const bucket = /^\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/?$/.exec(url.pathname)?.[1];
  if (!bucket) throw fail('needs one bucket name after the host (3 to 63 lowercase letters, digits, dots and hyphens): s3://ACCESS_KEY:SECRET@host/bucket');
  const unknown = [...url.searchParams.keys()].filter((k) => k !== 'region');
  if (unknown.length) throw fail(`takes only ?region=, not ${unknown.join(', ')}`);
  const region = url.searchParams.get('region')?.trim() || 'us-east-1';
  let accessKeyId: string;
  let secretAccessKey: string;
  try {
    accessKeyId = decodeURIComponent(url.username);
    secretAccessKey = decodeURIComponent(url.password);
  } catch {
    throw fail('has a broken %-escape in the access key or the secret');
  }
  return {
    store: 's3',
    s3: { endpoint: `${url.protocol === 's3:' ? 'https' : 'http'}://${url.host}`, bucket, region, accessKeyId, secretAccessKey },
  };
}

/** The checkout's own data directory, whatever the working directory. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../data', import.meta.url));

export function loadConfig(env: NodeJS.ProcessEnv = process.env, terminal = Boolean(process.stdout.isTTY)): Config {
  // Empty strings count as unset, as shells and .env files often leave them.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue.path[0]);
    throw new ConfigError(variable, `${issue.message} (got ${JSON.stringify(env[variable])})`);
  }
  const e = parsed.data;
  const embedded = !e.DATABASE_URL;
  // A replica is of an external primary: the embedded database has none, and reads sent elsewhere would see other data.
  if (e.DATABASE_READ_URL && embedded) throw new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL: a read replica is of an external PostgreSQL, never of the embedded one');
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    http: {
      port: e.PORT,
      host: e.HOST,
      publicUrl,
      trustProxy: e.TRUST_PROXY ?? [],
      secureCookies: publicUrl.startsWith('https:'),
      // After SIGTERM, /api/ready answers 503 this long before the listener closes, so the balancer's checks see it.
      drainSeconds: e.SHUTDOWN_DRAIN_SECONDS ?? 0,
    },
    data: { dir: e.DATA_DIR ? path.resolve(e.DATA_DIR) : DEFAULT_DATA_DIR, explicit: Boolean(e.DATA_DIR) },
    database: { url: e.DATABASE_URL, embedded, readUrl: e.DATABASE_READ_URL, readAfterWriteSeconds: e.READ_AFTER_WRITE_SECONDS ?? 5 },
    mail: { smtpUrl: e.SMTP_URL },
    demoData: e.DEMO_DATA ?? embedded,
    demoHistory: e.DEMO_HISTORY ?? true,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (terminal ? 'pretty' : 'json'),
    metrics: { enabled: e.METRICS ?? false, token: e.METRICS_TOKEN },
    // Read apart from the schema above, whose messages quote the value: this one carries a secret.
    files: parseFilesUrl(present.FILES_URL, embedded),
    webhooks: { allowHosts: e.WEBHOOK_ALLOW_HOSTS ?? [] },
    payments: parsePaymentsKey(present.PAYMENTS_KEY),
  };
}
