/**
 * Moving files between stores (`npm run files:move -- --to <store>`,
 * move-cli.ts), one file at a time: read from the row's store, check the
 * bytes against `files.sha256` (taken at upload), write them to the target
 * (stage, then commit in the transaction that changes the row's `store`,
 * with the row locked and still where it was read), then remove the old copy.
 *
 * Safe while instances serve: they read each file from the store its row
 * names, and look again when the bytes moved under them (stores.ts). Safe to
 * cut and run again: a file is moved or not, by its row; what a cut left in
 * the target is overwritten by the next run. One run at a time (an advisory
 * lock). Files that cannot be moved (their bytes missing or not matching
 * their sha256, a store out of reach) are reported and stay where they are.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { entityFolder, type FileKey, FileMissing, type StoreKind } from './storage.js';
import type { FileStores } from './stores.js';

export interface MoveReport {
  /** Files whose row now names the target. */
  moved: number;
  /** Files already in the target when the run began (not counted in `total`). */
  alreadyThere: number;
  /** Files to move when the run began. */
  total: number;
  failed: Array<{ id: string; name: string; store: StoreKind; reason: string }>;
  /** Moved, but the old copy could not be removed (it is unused; remove it by hand). */
  leftBehind: Array<{ id: string; store: StoreKind; reason: string }>;
}

/** Two runs at once would stage the same keys: the second refuses. */
const MOVE_LOCK = 0x66696c65; // 'file'

/** Another run holds the lock. */
export class MoveRunning extends Error {}

class RowChanged extends Error {}

const BATCH = 100;

const reasonOf = (e: unknown): string => {
  if (e instanceof AppError) return (e.cause as Error | undefined)?.message ?? e.code;
  return e instanceof Error ? e.message : String(e);
};

const megabytes = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 1024 * 1024 ? 2 : 1)} MB`;

export async function moveFiles(db: Db, files: FileStores, to: StoreKind, say: (line: string) => void = () => {}): Promise<MoveReport> {
  files.get(to); // no S3 bucket configured: stop before anything
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${MOVE_LOCK}) as locked`.execute(conn);
    if (!rows[0].locked) throw new MoveRunning('another files:move is running against this database');
    try {
      const counts = await db.selectFrom('files').select(['store', sql<string>`count(*)`.as('n')]).groupBy('store').execute();
      const report: MoveReport = { moved: 0, alreadyThere: 0, total: 0, failed: [], leftBehind: [] };
      for (const c of counts) {
        if (c.store === to) report.alreadyThere = Number(c.n);
        else report.total += Number(c.n);
      }
      say(`${report.total} file(s) to move to ${to} (${report.alreadyThere} already there)`);
      let after = '00000000-0000-0000-0000-000000000000';
      let done = 0;
      for (;;) {
        const batch = await db
          .selectFrom('files as f')
          .innerJoin('entities as e', 'e.id', 'f.entity_id')
          .where('f.store', '!=', to)
          .where('f.id', '>', after)
          .orderBy('f.id')
          .limit(BATCH)
          .select(['f.id', 'f.entity_id', 'f.store', 'f.public', 'f.extension', 'f.sha256', 'f.size', 'f.name as file_name', 'e.name', 'e.docnumber'])
          .execute();
        if (!batch.length) break;
        for (const row of batch) {
          after = row.id;
          done += 1;
          const key: FileKey = { id: row.id, entityId: row.entity_id, folder: entityFolder({ name: row.name, docnumber: row.docnumber }), public: row.public, extension: row.extension };
          const label = `[${done}/${report.total}] ${row.id} ${row.file_name} (${megabytes(row.size)})`;
          try {
            const moved = await moveOne(db, files, to, row.store, key, row.sha256);
            if (!moved) {
              say(`${label}: gone or changed meanwhile, left as it is`);
              continue;
            }
            report.moved += 1;
            say(`${label}: ${row.store} -> ${to}`);
            if (row.store !== 'database') {
              try {
                await files.get(row.store).remove(db, key);
              } catch (e) {
                report.leftBehind.push({ id: row.id, store: row.store, reason: reasonOf(e) });
                say(`${label}: moved, but its old copy in ${row.store} stays: ${reasonOf(e)}`);
              }
            }
          } catch (e) {
            report.failed.push({ id: row.id, name: row.file_name, store: row.store, reason: reasonOf(e) });
            say(`${label}: NOT moved: ${reasonOf(e)}`);
          }
        }
      }
      return report;
    } finally {
      await sql`select pg_advisory_unlock(${MOVE_LOCK})`.execute(conn);
    }
  });
}

/** One file to the target; false when its row was deleted or moved by someone else meanwhile. */
async function moveOne(db: Db, files: FileStores, to: StoreKind, from: StoreKind, key: FileKey, sha256: string): Promise<boolean> {
  let bytes: Buffer;
  try {
    bytes = await files.get(from).read(db, key);
  } catch (e) {
    if (e instanceof FileMissing) throw new Error(`its bytes are missing from the ${from} store`);
    throw e;
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== sha256) throw new Error(`its bytes in the ${from} store do not match its sha256 (corrupt or replaced): expected ${sha256}, read ${actual}`);
  const target = files.get(to);
  await target.stage(key, bytes);
  try {
    await db.transaction().execute(async (trx) => {
      const now = await trx.selectFrom('files').where('id', '=', key.id).select('store').forUpdate().executeTakeFirst();
      if (!now || now.store !== from) throw new RowChanged();
      await target.commit(trx, key, bytes);
      await trx.updateTable('files').set({ store: to }).where('id', '=', key.id).execute();
      // Out of the database in the same transaction: no moment names two copies or none.
      if (from === 'database') await trx.deleteFrom('file_blobs').where('id', '=', key.id).execute();
    });
    return true;
  } catch (e) {
    await target.discard(key).catch(() => {});
    if (e instanceof RowChanged) return false;
    throw e;
  }
}
