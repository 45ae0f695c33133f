import { type Kysely, sql } from 'kysely';

/**
 * Issue 23: awards, payees, payment batches.
 * - payees: whom an award pays (landlord, tenant, another party). The
 *   account number and tax id are kept only as AES-256-GCM ciphertext
 *   (`secret`, with the id of the key that sealed it) and their last four
 *   digits for masked display; `tax_id_digest` (an HMAC of the tax id) lets
 *   the yearly report total one tax id across payee records without
 *   decrypting. `party_id` names the case party (the parties migration adds
 *   its foreign key).
 * - payee_events: a payee's own history (full details read, changed) when
 *   it belongs to no case; with a case the case history holds it.
 * - awards: what a case's approval task granted. One live award per case
 *   (a partial unique index); a new decision cancels the earlier one, which
 *   stays. `property_key` (address and unit, normalised) and `tenant_key` /
 *   `landlord_key` are what the overlap check compares, with `months`.
 * - payment_batches: numbered per tenant; the NACHA file and the check
 *   register are kept once exported, so a second export is the same bytes.
 * - payments: one per award; unique (entity_id, award_id), so no award is
 *   paid twice whatever the code above it does.
 * - ach_settings: the tenant's ACH origin (file and batch headers).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payees (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      kind text not null check (kind in ('landlord', 'tenant', 'other')),
      case_id bigint,
      party_id bigint,
      user_id bigint references users(id) on delete set null,
      name text not null,
      email text,
      language text not null default 'en' check (language in ('en', 'es')),
      method text not null check (method in ('ach', 'check')),
      routing_number text,
      account_type text check (account_type in ('checking', 'savings')),
      account_last4 text,
      tax_id_last4 text,
      tax_id_digest text,
      secret text,
      key_id text,
      address jsonb,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint payees_case_fkey foreign key (entity_id, case_id) references cases (entity_id, id) on delete set null (case_id),
      constraint payees_entity_id_id_key unique (entity_id, id)
    )`.execute(db);
  await sql`create index payees_entity_case_idx on payees (entity_id, case_id, kind)`.execute(db);
  await sql`create index payees_entity_name_idx on payees (entity_id, name, id)`.execute(db);
  await sql`create index payees_entity_user_idx on payees (entity_id, user_id)`.execute(db);
  await sql`create index payees_entity_party_idx on payees (entity_id, party_id)`.execute(db);

  await sql`
    create table payee_events (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      payee_id bigint not null,
      user_id bigint references users(id) on delete set null,
      action text not null,
      detail jsonb not null default '{}',
      created_at timestamptz not null default now(),
      constraint payee_events_payee_fkey foreign key (entity_id, payee_id) references payees (entity_id, id) on delete cascade
    )`.execute(db);
  await sql`create index payee_events_payee_idx on payee_events (entity_id, payee_id, id)`.execute(db);

  await sql`
    create table awards (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      case_id bigint not null,
      task_id bigint references tasks(id) on delete set null,
      payee_id bigint,
      payee_kind text not null check (payee_kind in ('landlord', 'tenant', 'other')),
      arrears_months text[] not null default '{}',
      ahead_months integer not null default 0 check (ahead_months >= 0),
      months text[] not null default '{}',
      monthly_rent bigint not null check (monthly_rent >= 0),
      utilities bigint not null default 0 check (utilities >= 0),
      total bigint not null check (total >= 0),
      property_address text not null,
      unit text,
      property_key text not null,
      tenant_key text not null,
      landlord_key text,
      state text not null default 'approved' check (state in ('approved', 'batched', 'paid', 'cancelled')),
      approved_by bigint references users(id) on delete set null,
      approved_at timestamptz not null default now(),
      paid_at timestamptz,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint awards_case_fkey foreign key (entity_id, case_id) references cases (entity_id, id) on delete cascade,
      constraint awards_payee_fkey foreign key (entity_id, payee_id) references payees (entity_id, id),
      constraint awards_entity_id_id_key unique (entity_id, id)
    )`.execute(db);
  // One live award per case: a second decision cancels the first.
  await sql`create unique index awards_live_case_key on awards (entity_id, case_id) where state <> 'cancelled'`.execute(db);
  // The overlap check: the same unit, or the same landlord for the same tenant (months compared on the few rows found).
  await sql`create index awards_property_idx on awards (entity_id, property_key) where state <> 'cancelled'`.execute(db);
  await sql`create index awards_tenant_idx on awards (entity_id, tenant_key, landlord_key) where state <> 'cancelled'`.execute(db);
  // Building a batch: the approved awards of the tenant by approval time.
  await sql`create index awards_approved_idx on awards (entity_id, approved_at) where state = 'approved'`.execute(db);

  await sql`
    create table payment_batches (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      number integer not null,
      pay_date date not null,
      method text check (method in ('ach', 'check')),
      state text not null default 'open' check (state in ('open', 'exported', 'paid')),
      total bigint not null default 0,
      payment_count integer not null default 0,
      nacha_file bytea,
      check_register bytea,
      created_by bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      exported_by bigint references users(id) on delete set null,
      exported_at timestamptz,
      paid_by bigint references users(id) on delete set null,
      paid_at timestamptz,
      version integer not null default 1,
      constraint payment_batches_number_key unique (entity_id, number),
      constraint payment_batches_entity_id_id_key unique (entity_id, id)
    )`.execute(db);
  await sql`create index payment_batches_entity_created_idx on payment_batches (entity_id, created_at desc, id desc)`.execute(db);

  await sql`
    create table payments (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      batch_id bigint not null,
      award_id bigint not null,
      payee_id bigint not null,
      case_id bigint not null,
      amount bigint not null check (amount > 0),
      method text not null check (method in ('ach', 'check')),
      trace_number text,
      paid_at timestamptz,
      created_at timestamptz not null default now(),
      constraint payments_batch_fkey foreign key (entity_id, batch_id) references payment_batches (entity_id, id) on delete cascade,
      constraint payments_award_fkey foreign key (entity_id, award_id) references awards (entity_id, id),
      constraint payments_payee_fkey foreign key (entity_id, payee_id) references payees (entity_id, id),
      constraint payments_case_fkey foreign key (entity_id, case_id) references cases (entity_id, id) on delete cascade,
      constraint payments_award_key unique (entity_id, award_id)
    )`.execute(db);
  await sql`create index payments_batch_idx on payments (entity_id, batch_id, payee_id)`.execute(db);
  // The yearly payee report: a tenant's payments by the moment they were paid.
  await sql`create index payments_paid_idx on payments (entity_id, paid_at) where paid_at is not null`.execute(db);

  await sql`
    create table ach_settings (
      entity_id bigint primary key references entities(id) on delete cascade,
      originator_name text not null,
      company_id text not null,
      odfi_routing text not null,
      immediate_destination text not null,
      immediate_destination_name text not null,
      immediate_origin text not null,
      immediate_origin_name text not null,
      entry_description text not null,
      updated_by bigint references users(id) on delete set null,
      updated_at timestamptz not null default now()
    )`.execute(db);

  // The new permission targets, for every tenant that exists (new tenants get them from seedEntityAcl).
  await sql`
    insert into acl_modules (entity_id, code, name, system)
    select e.id, t.code, t.code, true from entities e cross join (values ('pagos'), ('pagos_cuentas'), ('reporte_beneficiarios')) t(code)
    on conflict (entity_id, code) do nothing`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from acl_modules where code in ('pagos', 'pagos_cuentas', 'reporte_beneficiarios')`.execute(db);
  for (const t of ['ach_settings', 'payments', 'payment_batches', 'awards', 'payee_events', 'payees']) await sql`drop table if exists ${sql.table(t)}`.execute(db);
}
