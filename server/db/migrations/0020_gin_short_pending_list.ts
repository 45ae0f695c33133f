import { type Kysely, sql } from 'kysely';

/**
 * The two GIN indexes of cases (the form data, 0011; the names' trigrams,
 * 0012) get a pending list again, a short one: 256 kB instead of the default
 * 4 MB. Without a pending list every case written put each of its entries
 * (some thirty for the demo's form) into the index one by one: a 100,000-row
 * import spent 10 of its 32 s there (bench/case-import.ts, embedded
 * PostgreSQL). With the list, entries are appended and merged into the index
 * in sorted runs whenever it passes 256 kB: the same import took 24 s. A
 * search reads the list whole, as 0011 measured: at 4 MB that cost 0.3 to
 * 0.45 ms per lookup; 256 kB is a sixteenth of it, some 0.03 ms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of ['cases_data_gin', 'cases_search_name_trgm']) {
    await sql`alter index ${sql.id(index)} set (fastupdate = on, gin_pending_list_limit = 256)`.execute(db);
  }
}
