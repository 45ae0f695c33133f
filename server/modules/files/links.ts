/**
 * Download links: each names exactly one file and expires in minutes. The
 * link is signed (HMAC with a secret kept in the database), so the download
 * route needs no session: whoever was given the link may use it until it
 * expires. Links are given only through `findReadableFile` (repo.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/pool.js';
import { appSecret } from '../../db/secrets.js';
import type { ReadableFile } from './repo.js';
import { entityFolder } from './storage.js';

const LINK_SECONDS = 5 * 60;

const sign = async (db: Db, id: string, exp: number) =>
  createHmac('sha256', await appSecret(db, 'files.links'))
    .update(`${id}.${exp}`)
    .digest('base64url');

/** A link to the file, valid for five minutes. */
export async function linkFor(db: Db, file: ReadableFile, now = Date.now()): Promise<{ url: string; expiresAt: Date }> {
  const exp = Math.floor(now / 1000) + LINK_SECONDS;
  const folder = entityFolder({ name: file.name, docnumber: file.docnumber });
  const url = `/archivos/${folder}/${file.public ? 'public/' : ''}${file.id}.${file.extension}?exp=${exp}&token=${await sign(db, file.id, exp)}`;
  return { url, expiresAt: new Date(exp * 1000) };
}

/** Whether a link's token was signed here for this file and has not expired. */
export async function validLink(db: Db, id: string, exp: number, token: string): Promise<boolean> {
  const expected = Buffer.from(await sign(db, id, exp));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given) && exp * 1000 > Date.now();
}
