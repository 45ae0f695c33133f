/**
 * The stores this process reaches and the one new uploads go to
 * (config.files): `app.files`, made once by buildApp, also by the move
 * command. Reads follow the row's `store`; a row that `npm run files:move`
 * moves while it is read is looked up again, so downloads keep working while
 * the move runs.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type FileLocation, fileLocation } from './repo.js';
import { type FileKey, FileMissing, type FileStore, type StoreKind, storeUnavailable } from './storage.js';
import { databaseStore } from './store-database.js';
import { diskStore } from './store-disk.js';
import { type S3Timeouts, s3Store } from './store-s3.js';

export class FileStores {
  constructor(
    /** Where new uploads go. */
    readonly writeKind: StoreKind,
    private readonly stores: Partial<Record<StoreKind, FileStore & { close?(): void }>>,
  ) {}

  /** The store of that kind; 503 when this process has none configured (an S3 row without FILES_URL's bucket). */
  get(kind: StoreKind): FileStore {
    const store = this.stores[kind];
    if (!store) throw storeUnavailable(kind, new Error(`no ${kind} store is configured here (FILES_URL)`));
    return store;
  }

  /** The store new uploads go to. */
  get writer(): FileStore {
    return this.get(this.writeKind);
  }

  /**
   * A file's bytes by its id, from the store its row names (a stream where the
   * store streams). 404 when the row or its bytes are gone. `at`: where the
   * caller already read the row to say the file is (saves reading it again).
   */
  open(db: Db, fileId: string, at?: FileLocation): Promise<Readable | Buffer> {
    return this.follow(db, fileId, (store, key) => store.open(db, key), at);
  }

  /** A file's bytes whole. */
  read(db: Db, fileId: string): Promise<Buffer> {
    return this.follow(db, fileId, (store, key) => store.read(db, key));
  }

  /** Reads through the row's store; when the bytes are missing because the row moved meanwhile, once more from where it is now. */
  private async follow<T>(db: Db, fileId: string, read: (store: FileStore, key: FileKey) => Promise<T>, known?: FileLocation): Promise<T> {
    let seen: StoreKind | undefined;
    for (;;) {
      const at = known ?? (await fileLocation(db, fileId));
      known = undefined;
      if (!at || at.store === seen) throw new AppError('NOT_FOUND');
      try {
        return await read(this.get(at.store), at.key);
      } catch (e) {
        if (!(e instanceof FileMissing)) throw e;
        seen = at.store;
      }
    }
  }

  close(): void {
    for (const store of Object.values(this.stores)) store?.close?.();
  }
}

/**
 * The stores a process with this configuration reaches: the disk and the
 * database always (rows may still name them after a move away), S3 when
 * FILES_URL names a bucket.
 */
export function fileStores(config: Pick<Config, 'files' | 'data'>, s3Timeouts?: S3Timeouts): FileStores {
  const { s3 } = config.files;
  return new FileStores(config.files.store, {
    disk: diskStore(path.join(config.data.dir, 'files')),
    database: databaseStore(),
    ...(s3 ? { s3: s3Store(s3, s3Timeouts) } : {}),
  });
}

/**
 * Stores a new file's bytes and records it, all or nothing: the bytes are
 * staged in the write store, `record` writes the rows (the `files` row with
 * `store` = the store's kind) and the store commits in the same transaction;
 * when anything fails, what was staged is discarded. An unreachable store is
 * 503 FILE_STORE_UNAVAILABLE before any row is written.
 */
export async function storeNewFile<T>(db: Db, files: FileStores, key: FileKey, bytes: Buffer, record: (trx: Transaction<Database>, store: StoreKind) => Promise<T>): Promise<T> {
  const store = files.writer;
  await store.stage(key, bytes);
  try {
    return await db.transaction().execute(async (trx) => {
      const result = await record(trx, store.kind);
      await store.commit(trx, key, bytes);
      return result;
    });
  } catch (e) {
    // A failed cleanup (the store went away meanwhile) leaves bytes no row names; the first error is the one to tell.
    await store.discard(key).catch(() => {});
    throw e;
  }
}

/** Bytes whose row is gone (a replaced logo): removed from their store; a store out of reach leaves them, unnamed, rather than fail what already committed. */
export async function removeStoredBytes(db: Db, files: FileStores, store: StoreKind, key: FileKey): Promise<void> {
  try {
    await files.get(store).remove(db, key);
  } catch {
    // Nothing names them any more; see docs/operations.md "Files".
  }
}
