/**
 * Storing an upload: checked by its content (not the name the browser gave),
 * counted against the tenant's disk quota, written to the configured store
 * and recorded in one transaction (stores.ts `storeNewFile`). Nothing stays
 * in any store for a refused or failed upload.
 */
import { createHash, randomUUID } from 'node:crypto';
import { fileExtension } from '../../../core/forms/validator.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { insertFile, lockDiskUse, tenantFolder } from './repo.js';
import { sniff } from './sniff.js';
import { type FileStores, storeNewFile } from './stores.js';

export interface Upload {
  /** The base name the browser gave. */
  name: string;
  bytes: Buffer;
  public: boolean;
}

/** Stores one file of the actor; answers it as the API shows it. */
export async function uploadFile(db: Db, actor: Actor, files: FileStores, upload: Upload) {
  const { name, bytes } = upload;
  // The name is stored as text, which cannot hold a NUL (the input guard cannot see inside a multipart body).
  if (name.includes('\u0000')) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.nul' }]);
  const ext = fileExtension(name);
  const kind = sniff(bytes, ext);
  if (!kind) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.fileExtension' }]);
  const id = randomUUID();
  const key = { id, entityId: actor.entityId, folder: await tenantFolder(db, actor), public: upload.public, extension: ext };
  return storeNewFile(db, files, key, bytes, async (trx, store) => {
    const { usedBytes, quotaBytes } = await lockDiskUse(trx, actor);
    if (usedBytes + bytes.length > quotaBytes) throw new AppError('QUOTA_FULL');
    return insertFile(trx, actor, {
      id, name, extension: ext, mime: kind.mime, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), public: upload.public, store,
    });
  });
}
