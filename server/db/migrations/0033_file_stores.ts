import { type Kysely, sql } from 'kysely';

/**
 * Issue 21: uploaded files where every instance reaches them. Each `files`
 * row records the store that holds its bytes (`disk`: DATA_DIR/files, the
 * only store before; `database`: `file_blobs`; `s3`: a bucket), so reads
 * follow the row while new uploads go to the configured store, and
 * `npm run files:move` can move rows one at a time.
 *
 * `file_blobs` is a side table, not a column of `files`: the quota sums and
 * the finders that read `files` never drag the bytes along, and a row moves
 * out of the database by deleting its blob. Storage EXTERNAL: TOAST keeps the
 * bytes out of line without trying to compress them first; PDFs and images
 * are compressed already, so the try would only cost CPU on every write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('files')
    .addColumn('store', 'text', (c) => c.notNull().defaultTo('disk').check(sql`store in ('disk', 'database', 's3')`))
    .execute();
  await db.schema
    .createTable('file_blobs')
    .addColumn('id', 'uuid', (c) => c.primaryKey().references('files.id').onDelete('cascade'))
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .execute();
  await sql`alter table file_blobs alter column bytes set storage external`.execute(db);
}
