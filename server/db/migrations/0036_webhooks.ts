import { type Kysely, sql } from 'kysely';
import { seedEntityMailTemplates } from '../seed/templates.js';

/**
 * Issue 22: signed webhooks. A tenant's subscriptions (`webhook_subscriptions`:
 * a URL, the events, an optional protocol filter, a Standard Webhooks secret),
 * the events that happened (`webhook_events`: the body sent, once per event)
 * and one delivery per subscription and event (`webhook_deliveries`: its
 * state, tries, next try, last answer).
 *
 * Events are recorded by the database in the transaction of the change that
 * causes them, so none is lost when a process dies after its commit and none
 * is recorded twice, however many instances run:
 * - one statement-level trigger on `case_events` (every writer of the case
 *   history: cases/history.ts, the engine's audit, the bulk import) maps
 *   `case_submit` to case.created, the state changes (`case_complete`,
 *   `case_close`, `case_activate`, `case_reject`, `case_flag`) to
 *   case.state_changed, `task_created`/`task_accepted`/`task_rejected`/
 *   `task_assigned` to task.created/accepted/rejected/reassigned and
 *   `comment_added` to comment.added;
 * - file uploads have no history row: a file becomes a case's when an open
 *   (submitted) case's data or one of its tasks' data comes to hold a
 *   reference to it (`{ id: <file id> }` at any depth, the shape
 *   files/repo.ts `holds` reads), so row triggers on `cases` and `tasks`
 *   compare the new data with the old (WHEN clauses: only a change of data
 *   runs them). A draft's files are part of the application its submission
 *   creates (case.created), not uploads of their own.
 * A tenant without an enabled subscription pays one indexed lookup per
 * statement (per changed row for the data triggers). The body holds ids and a
 * small summary (case id, number, protocol code, state; task id, name, state;
 * comment id; file id and name), never form data or a comment's text.
 *
 * Each new delivery NOTIFYs `casebook_webhooks` (delivered at commit, once
 * per transaction); the instances that send webhooks hear it and start the
 * sender (webhooks/deliver.ts), which claims due deliveries with SKIP LOCKED.
 * `webhook_deliveries_due_idx` is the sender's and the minute sweep's index
 * over every tenant (listed in server/db/tenant-layout.api.test.ts).
 *
 * Also: the notification and mail event `webhook_disabled` (the tenant's
 * admins are told when a subscription is turned off after a day of failed
 * tries), with its default templates for every tenant.
 */
const WEBHOOK_EVENTS_SQL = `array['case.created', 'case.state_changed', 'task.created', 'task.accepted', 'task.rejected', 'task.reassigned', 'comment.added', 'file.uploaded']::text[]`;

const NOTIFICATION_EVENTS = [
  'mention', 'application_submitted', 'task_assigned', 'task_due_soon', 'task_overdue', 'case_returned', 'case_completed', 'case_closed', 'comment_visible',
  'tasks_imported', 'import_done', 'case_resubmitted', 'correction_cancelled', 'webhook_disabled',
];
const list = sql.raw(NOTIFICATION_EVENTS.map((e) => `'${e}'`).join(', '));
const mailList = sql.raw([...NOTIFICATION_EVENTS, 'digest'].map((e) => `'${e}'`).join(', '));

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_subscriptions (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      url text not null check (length(url) <= 2000),
      description text not null default '',
      events text[] not null check (cardinality(events) > 0 and events <@ ${sql.raw(WEBHOOK_EVENTS_SQL)}),
      protocol_ids bigint[] not null default '{}',
      secret text not null,
      previous_secret text,
      previous_secret_until timestamptz,
      enabled boolean not null default true,
      disabled_reason text check (disabled_reason in ('manual', 'failing')),
      disabled_at timestamptz,
      failing_since timestamptz,
      created_by bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version integer not null default 1,
      -- Tenant-led: the page's list, the triggers' lookup, and the deliveries' foreign key.
      constraint webhook_subscriptions_entity_id_key unique (entity_id, id)
    )`.execute(db);

  await sql`
    create table webhook_events (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      -- The webhook-id header: the same for every try and redelivery, unguessable across tenants.
      message_id text not null default ('msg_' || replace(gen_random_uuid()::text, '-', '')),
      type text not null,
      case_id bigint,
      payload jsonb not null,
      created_at timestamptz not null default now(),
      constraint webhook_events_entity_id_key unique (entity_id, id)
    )`.execute(db);

  await sql`
    create table webhook_deliveries (
      id bigserial primary key,
      entity_id bigint not null references entities(id) on delete cascade,
      subscription_id bigint not null,
      event_id bigint not null,
      state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      -- Null once delivered or failed.
      next_attempt_at timestamptz default now(),
      last_attempt_at timestamptz,
      last_status integer,
      last_response text,
      last_error text,
      delivered_at timestamptz,
      created_at timestamptz not null default now(),
      foreign key (entity_id, subscription_id) references webhook_subscriptions (entity_id, id) on delete cascade,
      foreign key (entity_id, event_id) references webhook_events (entity_id, id) on delete cascade
    )`.execute(db);
  await sql`create index webhook_deliveries_subscription_idx on webhook_deliveries (entity_id, subscription_id, id)`.execute(db);
  await sql`create index webhook_deliveries_event_idx on webhook_deliveries (entity_id, event_id)`.execute(db);
  // Across tenants on purpose: the sender and the sweep look for what is due anywhere.
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);

  // One event: its body (from the case and task as they are now) and a delivery for each enabled subscription that takes it.
  await sql`
    create function webhook_emit(p_entity bigint, p_type text, p_case bigint, p_task bigint, p_extra jsonb, p_at timestamptz) returns void
    language plpgsql as $$
    declare
      c record;
      task_part jsonb := '{}';
      ev bigint;
    begin
      select k.id, k.serial, k.state, k.protocol_id, p.code as protocol_code into c
        from cases k join protocols p on p.entity_id = k.entity_id and p.id = k.protocol_id
       where k.entity_id = p_entity and k.id = p_case;
      if not found then
        return;
      end if;
      if not exists (
        select 1 from webhook_subscriptions s
         where s.entity_id = p_entity and s.enabled and p_type = any(s.events)
           and (cardinality(s.protocol_ids) = 0 or c.protocol_id = any(s.protocol_ids))) then
        return;
      end if;
      if p_task is not null then
        select jsonb_build_object('task', jsonb_build_object('id', t.id, 'name', t.name, 'state', t.state)) into task_part
          from tasks t where t.entity_id = p_entity and t.id = p_task;
      end if;
      insert into webhook_events (entity_id, type, case_id, payload, created_at)
      values (p_entity, p_type, p_case, jsonb_build_object(
          'type', p_type,
          'timestamp', to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'data', jsonb_build_object('case', jsonb_build_object('id', c.id, 'number', c.serial, 'protocol', c.protocol_code, 'state', c.state))
                  || coalesce(task_part, '{}') || coalesce(p_extra, '{}')),
        p_at)
      returning id into ev;
      insert into webhook_deliveries (entity_id, subscription_id, event_id)
      select p_entity, s.id, ev from webhook_subscriptions s
       where s.entity_id = p_entity and s.enabled and p_type = any(s.events)
         and (cardinality(s.protocol_ids) = 0 or c.protocol_id = any(s.protocol_ids));
      perform pg_notify('casebook_webhooks', '');
    end $$`.execute(db);

  await sql`
    create function webhook_case_events() returns trigger language plpgsql as $$
    declare r record;
    begin
      -- A tenant without an enabled subscription pays this one lookup per statement.
      if not exists (select 1 from webhook_subscriptions s where s.enabled and s.entity_id in (select distinct n.entity_id from wh_new n)) then
        return null;
      end if;
      for r in
        select n.entity_id, n.case_id, n.task_id, n.detail, n.created_at,
               case
                 when n.action = 'case_submit' then 'case.created'
                 when n.action in ('case_complete', 'case_close', 'case_activate', 'case_reject', 'case_flag') then 'case.state_changed'
                 when n.action = 'task_created' then 'task.created'
                 when n.action = 'task_accepted' then 'task.accepted'
                 when n.action = 'task_rejected' then 'task.rejected'
                 when n.action = 'task_assigned' then 'task.reassigned'
                 when n.action = 'comment_added' then 'comment.added'
               end as wh_type
          from wh_new n order by n.id
      loop
        continue when r.wh_type is null;
        perform webhook_emit(r.entity_id, r.wh_type, r.case_id, r.task_id,
          case r.wh_type
            when 'case.state_changed' then jsonb_build_object('previousState', r.detail->>'from')
            when 'comment.added' then jsonb_build_object('comment', jsonb_build_object('id', (r.detail->>'commentId')::bigint))
          end,
          r.created_at);
      end loop;
      return null;
    end $$`.execute(db);
  await sql`create trigger case_events_webhooks after insert on case_events referencing new table as wh_new for each statement execute function webhook_case_events()`.execute(db);

  // The files a record's data names (`{ id: <uuid> }` at any depth) that it did not name before, as rows of the tenant's files.
  await sql`
    create function webhook_new_files(p_entity bigint, p_new jsonb, p_old jsonb) returns table (id uuid, name text) language sql stable as $$
      with named as (
        select v #>> '{}' as ref, true as now_held from jsonb_path_query(coalesce(p_new, '{}'), '$.**.id') v where jsonb_typeof(v) = 'string'
        union all
        select v #>> '{}', false from jsonb_path_query(coalesce(p_old, '{}'), '$.**.id') v where jsonb_typeof(v) = 'string'
      ), added as (
        select ref from named where ref ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
         group by ref having bool_and(now_held)
      )
      select f.id, f.name from files f join added a on f.id = a.ref::uuid where f.entity_id = p_entity order by f.name, f.id
    $$`.execute(db);
  // Two functions, not one: a trigger function names the columns of its own table only.
  await sql`
    create function webhook_case_files() returns trigger language plpgsql as $$
    declare f record;
    begin
      if not exists (select 1 from webhook_subscriptions s where s.entity_id = new.entity_id and s.enabled and 'file.uploaded' = any(s.events)) then
        return null;
      end if;
      for f in select * from webhook_new_files(new.entity_id, new.data, old.data) loop
        perform webhook_emit(new.entity_id, 'file.uploaded', new.id, null, jsonb_build_object('file', jsonb_build_object('id', f.id, 'name', f.name)), now());
      end loop;
      return null;
    end $$`.execute(db);
  await sql`
    create function webhook_task_files() returns trigger language plpgsql as $$
    declare f record;
    begin
      if not exists (select 1 from webhook_subscriptions s where s.entity_id = new.entity_id and s.enabled and 'file.uploaded' = any(s.events)) then
        return null;
      end if;
      for f in select * from webhook_new_files(new.entity_id, new.data, old.data) loop
        perform webhook_emit(new.entity_id, 'file.uploaded', new.case_id, new.id, jsonb_build_object('file', jsonb_build_object('id', f.id, 'name', f.name)), now());
      end loop;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger cases_webhook_files after update of data on cases for each row
    when (old.state <> 'DRAFT' and new.state <> 'DRAFT' and old.data is distinct from new.data)
    execute function webhook_case_files()`.execute(db);
  await sql`
    create trigger tasks_webhook_files after update of data on tasks for each row
    when (old.data is distinct from new.data)
    execute function webhook_task_files()`.execute(db);

  // The admins' notice and email when a subscription is turned off.
  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${list}))`.execute(db);
  await sql`alter table mail_templates drop constraint if exists mail_templates_event_check`.execute(db);
  await sql`alter table mail_templates add constraint mail_templates_event_check check (event in (${mailList}))`.execute(db);
  const entities = await sql<{ id: number }>`select id from entities`.execute(db);
  for (const e of entities.rows) await seedEntityMailTemplates(db as never, Number(e.id), ['webhook_disabled']);
  await sql`alter table users alter column email_events set default array[${list}]::text[]`.execute(db);
  // Only a tenant's administrators are ever told; those who take mail at all take this one.
  await sql`update users set email_events = email_events || array['webhook_disabled']::text[] where cardinality(email_events) > 0 and not 'webhook_disabled' = any(email_events)`.execute(db);
}
