import { type Kysely, sql } from 'kysely';
import { seedEntityMailTemplates } from '../seed/templates.js';
import { statementTriggers } from './0014_realtime.js';

/**
 * Issue 23: the parties of a case besides its applicant (`case_parties`): a
 * landlord, property manager, utility, co-signer or other third party named
 * in a "party" field of the application, invited by email when it is
 * submitted.
 *
 * - The invitation link's token is kept only as its SHA-256 (`token_hash`,
 *   unique platform-wide: the public link names no tenant); a resend
 *   replaces it, so the old link is dead. `link_expires_at` ends the link,
 *   `link_used_at` marks it spent (single use).
 * - `deadline_at` is the party's deadline to submit (their role's
 *   `deadlineDays` from the first invitation); the parties sweep reminds
 *   (`reminded_at`) and expires them past it (`expired_at`);
 *   `case_parties_sweep_idx` is its index over every tenant.
 * - `form_version_id` is their role's form frozen with the protocol's
 *   version, `data` their answers (a draft until `submitted_at`), then the
 *   attestation: the name typed, the date written, the text signed, when.
 * - `payee_id` is the payee their payment details made (migration 0037's
 *   `payees`; `payees.party_id` points back here).
 *
 * Realtime: a change to a party reaches the tenant's staff, the case's room
 * and the party's own user room (kind `party`, ids only).
 *
 * Also: the mail events `party_invited` and `party_reminder` (to an address,
 * not a user) and the notification `party_submitted` (the case's staff),
 * with default templates for every tenant. The events' check constraints
 * are extended from what the database holds, so that whatever an earlier
 * migration of the same release added stays.
 */
const ROLES = ['landlord', 'property_manager', 'utility', 'co_signer', 'third_party'];
const STATES = ['named', 'invited', 'joined', 'submitted', 'expired'];
const inList = (values: string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

const NOTICE_KINDS = ['party_submitted'];
const MAIL_EVENTS = ['party_invited', 'party_reminder', 'party_submitted'];

/** The quoted words of a check constraint `x in ('a', 'b')`, as the database holds it now. */
async function checkValues(db: Kysely<unknown>, constraint: string): Promise<string[]> {
  const row = await sql<{ def: string }>`select pg_get_constraintdef(oid) as def from pg_constraint where conname = ${constraint}`.execute(db);
  const def = row.rows[0]?.def ?? '';
  return [...def.matchAll(/'([a-z0-9_]+)'/g)].map((m) => m[1]);
}

async function extendCheck(db: Kysely<unknown>, table: string, column: string, constraint: string, add: string[]): Promise<void> {
  const values = [...new Set([...(await checkValues(db, constraint)), ...add])];
  await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.ref(constraint)}`.execute(db);
  await sql`alter table ${sql.table(table)} add constraint ${sql.ref(constraint)} check (${sql.ref(column)} in (${inList(values)}))`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table case_parties (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      case_id bigint not null,
      role text not null check (role in (${inList(ROLES)})),
      name text not null check (length(name) between 1 and 200),
      email text not null check (length(email) between 3 and 254),
      phone text check (length(phone) <= 40),
      -- The main form's field the applicant named them in.
      field text check (length(field) <= 63),
      state text not null default 'named' check (state in (${inList(STATES)})),
      language text not null default 'en' check (language in ('en', 'es')),
      user_id bigint references users(id) on delete set null,
      token_hash bytea unique check (octet_length(token_hash) = 32),
      invited_at timestamptz,
      link_expires_at timestamptz,
      link_used_at timestamptz,
      deadline_at timestamptz,
      joined_at timestamptz,
      submitted_at timestamptz,
      reminded_at timestamptz,
      expired_at timestamptz,
      form_version_id bigint references form_versions(id),
      data jsonb not null default '{}',
      attestation_name text,
      attestation_date date,
      attestation_text text,
      attested_at timestamptz,
      payee_id bigint,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version integer not null default 1,
      constraint case_parties_case_fkey foreign key (entity_id, case_id) references cases (entity_id, id) on delete cascade,
      constraint case_parties_entity_id_id_key unique (entity_id, id)
    )`.execute(db);
  await sql`create index case_parties_case_idx on case_parties (entity_id, case_id, role)`.execute(db);
  await sql`create unique index case_parties_field_idx on case_parties (entity_id, case_id, field) where field is not null`.execute(db);
  await sql`create index case_parties_user_idx on case_parties (entity_id, user_id, deadline_at) where user_id is not null`.execute(db);
  // The parties sweep, over every tenant: those still to act.
  await sql`create index case_parties_sweep_idx on case_parties (deadline_at) where state in ('invited', 'joined')`.execute(db);

  // Payees (0037) and parties name each other.
  await sql`
    do $$ begin
      if to_regclass('payees') is not null then
        alter table case_parties add constraint case_parties_payee_fkey foreign key (entity_id, payee_id) references payees (entity_id, id) on delete set null (payee_id);
        alter table payees add constraint payees_party_fkey foreign key (entity_id, party_id) references case_parties (entity_id, id) on delete set null (party_id);
      end if;
    end $$`.execute(db);

  await statementTriggers(db, 'case_parties', 'party', `select entity_id, array_agg(distinct id) ids, array_agg(distinct case_id) cases,
    array_remove(array_agg(distinct user_id), null) users from rt_all group by entity_id`);

  await extendCheck(db, 'notifications', 'kind', 'notifications_kind_check', NOTICE_KINDS);
  await extendCheck(db, 'mail_templates', 'event', 'mail_templates_event_check', MAIL_EVENTS);
  const entities = await sql<{ id: number }>`select id from entities`.execute(db);
  for (const e of entities.rows) await seedEntityMailTemplates(db as never, Number(e.id), MAIL_EVENTS as never);
  // Staff who take the case's mail at all take this one.
  const kinds = await checkValues(db, 'notifications_kind_check');
  await sql`alter table users alter column email_events set default array[${inList(kinds)}]::text[]`.execute(db);
  await sql`update users set email_events = email_events || array['party_submitted']::text[] where 'task_assigned' = any(email_events) and not 'party_submitted' = any(email_events)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table if exists payees drop constraint if exists payees_party_fkey`.execute(db);
  await sql`drop table case_parties`.execute(db);
  await sql`drop function rt_case_parties()`.execute(db);
}
