import { type Kysely, sql } from 'kysely';

/**
 * The tenant's business calendar (issue 16, deadlines): its working days and
 * hours and the time zone they are read in. A tenant without a row has the
 * defaults (Monday to Friday, 08:00 to 17:00, its default project's zone):
 * settings/repo.ts reads them. Holidays are the items of the tenant's system
 * master `festivos` (code: the date, YYYY-MM-DD; name: the holiday).
 *
 * A task keeps the unit of its `expiration_days` (calendar or business days),
 * so restarting or reassigning it computes its due date the same way again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('business_calendars')
    .addColumn('entity_id', 'bigint', (c) => c.primaryKey().references('entities.id').onDelete('cascade'))
    // ISO order is kept by the application; any non-empty subset of the week.
    .addColumn('work_days', sql`text[]`, (c) =>
      c.notNull().defaultTo(sql`'{mon,tue,wed,thu,fri}'`).check(sql`cardinality(work_days) between 1 and 7 and work_days <@ array['mon','tue','wed','thu','fri','sat','sun']`),
    )
    .addColumn('work_start', 'text', (c) => c.notNull().defaultTo('08:00').check(sql`work_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`))
    .addColumn('work_end', 'text', (c) => c.notNull().defaultTo('17:00').check(sql`work_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`))
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('business_calendars_hours', sql`work_start < work_end`)
    .execute();

  await db.schema
    .alterTable('tasks')
    .addColumn('expiration_unit', 'text', (c) => c.notNull().defaultTo('calendar').check(sql`expiration_unit in ('calendar', 'business')`))
    .execute();

  // Every tenant has the holidays master (new tenants get it from seed/masters.ts), with the demo's US federal holidays.
  await sql`
    insert into masters (entity_id, code, name, public, system)
    select id, 'festivos', 'Festivos', false, true from entities
    on conflict (entity_id, code) do nothing`.execute(db);
  const holidays = [
    ['2026-01-01', "New Year's Day"], ['2026-01-19', 'Martin Luther King Jr. Day'], ['2026-05-25', 'Memorial Day'],
    ['2026-06-19', 'Juneteenth'], ['2026-07-03', 'Independence Day (observed)'], ['2026-09-07', 'Labor Day'],
    ['2026-11-11', 'Veterans Day'], ['2026-11-26', 'Thanksgiving Day'], ['2026-12-25', 'Christmas Day'],
    ['2027-01-01', "New Year's Day"], ['2027-01-18', 'Martin Luther King Jr. Day'], ['2027-05-31', 'Memorial Day'],
    ['2027-06-18', 'Juneteenth (observed)'], ['2027-07-05', 'Independence Day (observed)'], ['2027-09-06', 'Labor Day'],
    ['2027-11-11', 'Veterans Day'], ['2027-11-25', 'Thanksgiving Day'], ['2027-12-24', 'Christmas Day (observed)'],
  ];
  for (const [code, name] of holidays) {
    await sql`
      insert into master_items (entity_id, master_id, code, name)
      select m.entity_id, m.id, ${code}, ${name} from masters m
      where m.code = 'festivos' and not exists (select 1 from master_items i where i.master_id = m.id and i.code = ${code})`.execute(db);
  }
}
