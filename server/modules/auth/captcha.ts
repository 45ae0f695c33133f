/**
 * Self-hosted proof-of-work captcha (ALTCHA v2, PBKDF2): no outside service.
 * A solution is accepted once: used challenges are remembered until they expire.
 */
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { sql } from 'kysely';
import type { Db } from '../../db/pool.js';
import { appSecret } from '../../db/secrets.js';
import { AppError } from '../../errors.js';

const EXPIRES_SECONDS = 10 * 60;
// About a second of work in a browser; enough to make mass sign-up costly.
const COST = 1_000;

async function secrets(db: Db) {
  return { hmacSignatureSecret: await appSecret(db, 'captcha.signature'), hmacKeySignatureSecret: await appSecret(db, 'captcha.key') };
}

export async function newChallenge(db: Db): Promise<Challenge> {
  return createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: COST,
    counter: randomInt(1_000, 3_000),
    deriveKey,
    expiresAt: new Date(Date.now() + EXPIRES_SECONDS * 1000),
    ...(await secrets(db)),
  });
}

/** Verifies the widget's base64 payload; refuses a bad, expired or reused one with 'Please complete captcha'. */
export async function assertCaptcha(db: Db, payload: string): Promise<void> {
  let decoded: { challenge?: Challenge; solution?: { counter: number; derivedKey: string } };
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
  } catch {
    throw new AppError('CAPTCHA_REQUIRED');
  }
  const { challenge, solution } = decoded ?? {};
  if (!challenge?.parameters || typeof challenge.signature !== 'string' || typeof solution?.counter !== 'number' || typeof solution.derivedKey !== 'string') {
    throw new AppError('CAPTCHA_REQUIRED');
  }
  const result = await verifySolution({ challenge, solution, deriveKey, ...(await secrets(db)) }).catch(() => undefined);
  if (!result?.verified || result.expired) throw new AppError('CAPTCHA_REQUIRED');
  const fresh = await db
    .insertInto('captcha_used')
    .values({ signature: challenge.signature, expires_at: new Date(Date.now() + EXPIRES_SECONDS * 1000) })
    .onConflict((oc) => oc.column('signature').doNothing())
    .returning('signature')
    .executeTakeFirst();
  if (!fresh) throw new AppError('CAPTCHA_REQUIRED');
  await db.deleteFrom('captcha_used').where('expires_at', '<', sql<Date>`now()`).execute();
}
