/**
 * Payees' bank details sealed at rest: AES-256-GCM (node:crypto) under the
 * key of PAYMENTS_KEY, or, in the embedded mode without one, a key generated
 * once into DATA_DIR/payments.key (mode 0600) so that `npm start` works.
 * Each ciphertext is stored with the id of the key that sealed it
 * (`key_id`), so a later key rotation can tell which rows to re-seal.
 *
 * The key is process-wide (`configurePaymentsKey`, called when the app is
 * built) because the commands that seal are called from other modules'
 * transactions (the parties' submission) with no app at hand.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import { type Config, parsePaymentsKey, paymentsKeyId } from '../../config.js';
import { AppError } from '../../errors.js';

interface Key {
  key: Buffer;
  id: string;
}

let current: Key | undefined;

/** Reads (or, embedded without PAYMENTS_KEY, makes) the key; called by buildApp through the payments routes. */
export function configurePaymentsKey(config: Pick<Config, 'payments' | 'database' | 'data'>): void {
  if (config.payments.key && config.payments.keyId) {
    current = { key: config.payments.key, id: config.payments.keyId };
    return;
  }
  current = config.database.embedded ? embeddedKey(config.data.dir) : undefined;
}

function embeddedKey(dir: string): Key {
  const file = path.join(dir, 'payments.key');
  try {
    const parsed = parsePaymentsKey(readFileSync(file, 'utf8'));
    if (parsed.key && parsed.keyId) return { key: parsed.key, id: parsed.keyId };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32);
  try {
    // 'wx': created once; a second process starting at the same moment reads the first one's.
    const fd = openSync(file, 'wx', 0o600);
    writeSync(fd, `${key.toString('base64')}\n`);
    closeSync(fd);
    return { key, id: paymentsKeyId(key) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return embeddedKey(dir);
  }
}

function keyOrRefuse(): Key {
  if (!current) throw new AppError('PAYMENTS_KEY_MISSING');
  return current;
}

/** Whether bank details can be sealed now. */
export function paymentsKeyPresent(): boolean {
  return current !== undefined;
}

/** `iv.tag.ciphertext` (base64 each) of the JSON of `value`, and the key's id. */
export function seal(value: unknown): { secret: string; keyId: string } {
  const k = keyOrRefuse();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', k.key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { secret: [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join('.'), keyId: k.id };
}

export function unseal<T>(secret: string, keyId: string | null): T {
  const k = keyOrRefuse();
  // A row sealed under another key (a rotated one) cannot be read with this one: say so rather than fail obscurely.
  if (keyId !== null && keyId !== k.id) throw new AppError('PAYMENTS_KEY_MISSING', { keyId });
  const [iv, tag, body] = secret.split('.').map((p) => Buffer.from(p, 'base64'));
  const decipher = createDecipheriv('aes-256-gcm', k.key, iv);
  decipher.setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')) as T;
}

/** A keyed digest of a tax id: the same tax id gives the same digest under one key, and nothing about it without the key. */
export function taxIdDigest(taxId: string): string {
  const k = keyOrRefuse();
  return createHmac('sha256', k.key).update(`tax-id:${taxId}`).digest('hex');
}
