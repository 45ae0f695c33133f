/**
 * The database store: the bytes in `file_blobs` (migration 0033), beside the
 * `files` row, in the same transaction. The default with DATABASE_URL: every
 * instance reaches it, and one backup of the database holds the files too.
 * Nothing to stage or discard: the transaction's rollback undoes the insert.
 */
import { type FileKey, FileMissing, type FileStore } from './storage.js';

export function databaseStore(): FileStore {
  const read = async (db: Parameters<FileStore['read']>[0], key: FileKey) => {
    const row = await db.selectFrom('file_blobs').where('id', '=', key.id).select('bytes').executeTakeFirst();
    if (!row) throw new FileMissing('database', key);
    return row.bytes;
  };
  return {
    kind: 'database',
    async stage() {},
    async commit(trx, key, bytes) {
      // A blob left by a move that was cut is replaced by these bytes.
      await trx
        .insertInto('file_blobs')
        .values({ id: key.id, entity_id: key.entityId, bytes })
        .onConflict((oc) => oc.column('id').doUpdateSet({ bytes }))
        .execute();
    },
    async discard() {},
    open: read,
    read,
    async remove(db, key) {
      await db.deleteFrom('file_blobs').where('id', '=', key.id).execute();
    },
  };
}
