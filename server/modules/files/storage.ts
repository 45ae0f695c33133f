/**
 * Where the bytes of uploaded files live. Each `files` row names its store
 * (`files.store`, migration 0033): reads go to the row's store, new uploads
 * to the configured one (config.files, FILES_URL), and `npm run files:move`
 * moves rows between them (move.ts).
 *
 * - disk: per entity under DATA_DIR/files (`<entity>/[public/]<id>.<ext>`,
 *   the spec's archivos/{entity}/[public/]{file}); one instance, or a folder
 *   every instance mounts (store-disk.ts);
 * - database: the `file_blobs` table beside `files` (store-database.ts);
 * - s3: an S3-compatible bucket (store-s3.ts).
 *
 * An upload is written in three steps so that nothing is ever half-written:
 * `stage` before the transaction that inserts the `files` row, `commit`
 * inside it, `discard` when it failed (stores.ts `storeNewFile`).
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';

export const MAX_UPLOAD_MB = 20;
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;

export const STORE_KINDS = ['disk', 'database', 's3'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** What a store needs to find one file's bytes (the row's id, tenant and name parts). */
export interface FileKey {
  id: string;
  entityId: number;
  /** The tenant's folder name (entityFolder), for the disk layout. */
  folder: string;
  public: boolean;
  extension: string;
}

export interface FileStore {
  readonly kind: StoreKind;
  /** Before the transaction: the bytes where the store can make them final (disk: `<target>.part`; s3: the object; database: nothing). */
  stage(key: FileKey, bytes: Buffer): Promise<void>;
  /** Inside the transaction that writes the `files` row (disk: rename the part; database: insert the blob; s3: nothing). */
  commit(trx: Transaction<Database>, key: FileKey, bytes: Buffer): Promise<void>;
  /** The transaction failed: remove whatever stage and commit left (the database's rollback did its part). */
  discard(key: FileKey): Promise<void>;
  /** The bytes, as a stream where the store streams. Throws FileMissing when the store has none for the key. */
  open(db: Db, key: FileKey): Promise<Readable | Buffer>;
  /** The bytes whole (a logo to print, a file to move). Throws FileMissing when the store has none for the key. */
  read(db: Db, key: FileKey): Promise<Buffer>;
  /** The bytes are no longer wanted (their row is gone or moved). Nothing when there were none. */
  remove(db: Db, key: FileKey): Promise<void>;
}

/** The store holds no bytes for the key: its row moved meanwhile, or the bytes were lost. */
export class FileMissing extends Error {
  constructor(kind: StoreKind, key: FileKey) {
    super(`the ${kind} store has no bytes for file ${key.id}`);
    this.name = 'FileMissing';
  }
}

/** 503 FILE_STORE_UNAVAILABLE, carrying what went wrong for the log (never for the client). */
export function storeUnavailable(kind: StoreKind, cause: unknown): AppError {
  const error = new AppError('FILE_STORE_UNAVAILABLE');
  const reason = cause instanceof Error ? cause.message || cause.name : String(cause);
  return Object.assign(error, { cause: new Error(`the ${kind} file store: ${reason}`, { cause }) });
}

/** A folder name from the entity's name, made unique by its document number. */
export function entityFolder(entity: { name: string; docnumber: string }): string {
  const slug = entity.name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${slug || 'entity'}-${entity.docnumber.replace(/[^A-Za-z0-9]/g, '')}`;
}

/** The file's place under the disk store's root. */
export const diskPath = (root: string, key: FileKey) => path.join(root, key.folder, ...(key.public ? ['public'] : []), `${key.id}.${key.extension}`);
