/**
 * Storing an upload: checked by its content (not the name the browser gave),
 * counted against the tenant's disk quota, written to disk and recorded in
 * one transaction. Nothing stays on disk for a refused or failed upload.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileExtension } from '../../../core/forms/validator.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { insertFile, lockDiskUse, tenantFolder } from './repo.js';
import { sniff } from './sniff.js';
import { diskPath } from './storage.js';

export interface Upload {
  /** The base name the browser gave. */
  name: string;
  bytes: Buffer;
  public: boolean;
}

/** Stores one file of the actor under the files root; answers it as the API shows it. */
export async function uploadFile(db: Db, actor: Actor, root: string, upload: Upload) {
  const { name, bytes } = upload;
  // The name is stored as text, which cannot hold a NUL (the input guard cannot see inside a multipart body).
  if (name.includes('\u0000')) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.nul' }]);
  const ext = fileExtension(name);
  const kind = sniff(bytes, ext);
  if (!kind) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.fileExtension' }]);
  const id = randomUUID();
  const target = diskPath(root, await tenantFolder(db, actor), upload.public, id, ext);
  await mkdir(path.dirname(target), { recursive: true });
  // Written beside, then renamed: a crash never leaves half a file under the final name.
  await writeFile(`${target}.part`, bytes, { mode: 0o600 });
  try {
    return await db.transaction().execute(async (trx) => {
      const { usedBytes, quotaBytes } = await lockDiskUse(trx, actor);
      if (usedBytes + bytes.length > quotaBytes) throw new AppError('QUOTA_FULL');
      const file = await insertFile(trx, actor, {
        id, name, extension: ext, mime: kind.mime, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), public: upload.public,
      });
      await rename(`${target}.part`, target);
      return file;
    });
  } catch (e) {
    // Neither the part nor the file renamed just before a commit that failed.
    await Promise.all([rm(`${target}.part`, { force: true }), rm(target, { force: true })]);
    throw e;
  }
}
