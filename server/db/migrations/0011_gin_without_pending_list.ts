import { type Kysely, sql } from 'kysely';

/**
 * The form-data index without its pending list. With `fastupdate` on (the
 * default), new entries wait in an unsorted list of up to 4 MB that every
 * search reads whole until a vacuum merges it: on 1M cases a search by
 * document number spent 0.3 to 0.45 ms per lookup reading it, against
 * 0.016 ms without (bench/case-list.ts). Cases are searched far more often
 * than written, so each insert pays for its own entries instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter index cases_data_gin set (fastupdate = off)`.execute(db);
  // Turning it off does not merge what is already waiting.
  await sql`select gin_clean_pending_list('cases_data_gin'::regclass)`.execute(db);
}
