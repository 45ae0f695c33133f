import { type Kysely, sql } from 'kysely';

/**
 * Realtime: every change to cases, tasks, comments, checklist marks and
 * notifications is announced on the `casebook_rt` channel by the database
 * itself, so no writer (a route, the engine, an import, a seed, a hand-written
 * statement) can forget to. NOTIFY is delivered only when the transaction
 * commits, and to every instance listening. One notification per statement and
 * tenant, carrying ids only; past 100 ids it says "many".
 *
 * Also announced: an ended session, a user whose access changed, and a
 * tenant whose rules changed, so that their sockets are closed at once.
 *
 * `socket_io_attachments` is the table @socket.io/postgres-adapter needs for
 * payloads too large for NOTIFY.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function rt_notify(kind text, entity bigint, ids bigint[], cases bigint[], users bigint[]) returns void language plpgsql as $$
    begin
      if coalesce(array_length(ids, 1), 0) > 100 or coalesce(array_length(cases, 1), 0) > 100 or coalesce(array_length(users, 1), 0) > 100 then
        perform pg_notify('casebook_rt', json_build_object('k', kind, 'e', entity, 'many', true)::text);
      else
        perform pg_notify('casebook_rt', json_build_object('k', kind, 'e', entity,
          'ids', coalesce(ids, '{}'), 'c', coalesce(cases, '{}'), 'u', coalesce(users, '{}'))::text);
      end if;
    end $$`.execute(db);

  // cases: the owner hears of their own case (the applicant is not in the staff room).
  await statementTriggers(db, 'cases', 'case', `select entity_id, array_agg(distinct id) ids, array_agg(distinct id) cases, array_agg(distinct owner_id) users
    from rt_all group by entity_id`);
  // A participant gains or loses a case.
  await statementTriggers(db, 'case_participants', 'case', `select c.entity_id, array_agg(distinct p.case_id) ids, array_agg(distinct p.case_id) cases,
    array_agg(distinct p.user_id) users from rt_all p join cases c on c.id = p.case_id group by c.entity_id`);
  await statementTriggers(db, 'tasks', 'task', `select entity_id, array_agg(distinct id) ids, array_agg(distinct case_id) cases,
    array_remove(array_agg(distinct responsible_user_id), null) users from rt_all group by entity_id`);

  // Comments (the thread and the dashboard), checklist marks, and a person's notifications.
  await statementTriggers(db, 'comments', 'comment', `select entity_id, array_agg(distinct id) ids, array_agg(distinct case_id) cases,
    '{}'::bigint[] users from rt_all group by entity_id`);
  await statementTriggers(db, 'case_document_marks', 'checklist', `select entity_id, array_agg(distinct id) ids, array_agg(distinct case_id) cases,
    '{}'::bigint[] users from rt_all group by entity_id`);
  await statementTriggers(db, 'notifications', 'notification', `select entity_id, array_agg(distinct id) ids, '{}'::bigint[] cases,
    array_agg(distinct user_id) users from rt_all group by entity_id`);

  await sql`
    create function rt_session_ended() returns trigger language plpgsql as $$
    begin
      perform pg_notify('casebook_rt', json_build_object('k', 'session-ended', 'ids', array[old.id], 'u', array[old.user_id])::text);
      return null;
    end $$`.execute(db);
  await sql`create trigger sessions_rt after delete on sessions for each row execute function rt_session_ended()`.execute(db);
  await sql`
    create function rt_user_access() returns trigger language plpgsql as $$
    begin
      perform pg_notify('casebook_rt', json_build_object('k', 'user-access', 'e', coalesce(new.entity_id, old.entity_id), 'ids', array[coalesce(new.id, old.id)])::text);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger users_rt after update of active, locked, role_id, entity_id on users for each row
    when (old.active is distinct from new.active or old.locked is distinct from new.locked
          or old.role_id is distinct from new.role_id or old.entity_id is distinct from new.entity_id)
    execute function rt_user_access()`.execute(db);
  await sql`create trigger users_rt_delete after delete on users for each row execute function rt_user_access()`.execute(db);
  await sql`
    create function rt_tenant_rules() returns trigger language plpgsql as $$
    begin
      perform pg_notify('casebook_rt', json_build_object('k', 'acl', 'e', new.id)::text);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger entities_rt after update of acl_version, active on entities for each row
    when (old.acl_version is distinct from new.acl_version or old.active is distinct from new.active)
    execute function rt_tenant_rules()`.execute(db);

  await sql`
    create table socket_io_attachments (
      id bigserial unique,
      created_at timestamptz default now(),
      payload bytea
    )`.execute(db);
}

/**
 * Three statement-level triggers on `table` (insert, update, delete: a trigger
 * with transition tables serves one event only) announcing `kind` for the rows
 * the statement touched. `select` reads them as `rt_all` (for an update, the
 * old rows and the new) and returns (entity_id, ids, cases, users) per tenant.
 */
export async function statementTriggers(db: Kysely<unknown>, table: string, kind: string, select: string): Promise<void> {
  const fn = `rt_${table}`;
  const loop = (rows: string) =>
    `for r in with rt_all as (${rows}) ${select} loop
        perform rt_notify('${kind}', r.entity_id, r.ids, r.cases, r.users);
      end loop;`;
  await sql.raw(`
    create function ${fn}() returns trigger language plpgsql as $$
    declare r record;
    begin
      if tg_op = 'INSERT' then
        ${loop('select * from rt_new')}
      elsif tg_op = 'UPDATE' then
        ${loop('select * from rt_new union all select * from rt_old')}
      else
        ${loop('select * from rt_old')}
      end if;
      return null;
    end $$`).execute(db);
  for (const [op, ref] of [
    ['insert', 'new table as rt_new'],
    ['update', 'old table as rt_old new table as rt_new'],
    ['delete', 'old table as rt_old'],
  ] as const) {
    await sql.raw(`create trigger ${table}_rt_${op} after ${op} on ${table} referencing ${ref} for each statement execute function ${fn}()`).execute(db);
  }
}
