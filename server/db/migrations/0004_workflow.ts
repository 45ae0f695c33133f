import { type Kysely, sql } from 'kysely';

/**
 * The workflow: teams and their members, protocols (workflow definitions)
 * with frozen published versions, cases (applications) numbered per project
 * and month, the tasks a protocol spawns for them, and the audit trail of
 * every transition and field change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('assignment', 'text', (c) => c.notNull().defaultTo('least_loaded').check(sql`assignment in ('round_robin', 'least_loaded')`))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    // Round-robin remembers whom it gave the last task to.
    .addColumn('last_assigned_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('teams_name', ['entity_id', 'name'])
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member').check(sql`role in ('leader', 'member')`))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('team_members_unique', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user_idx').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('protocols')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull().check(sql`code ~ '^[a-z][a-z0-9_-]{0,62}$'`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('case_type', 'text', (c) => c.notNull().check(sql`case_type in ('RADICACION_INTERNA', 'RADICACION_PUBLICA', 'RADICACION_AUTOMATICA')`))
    .addColumn('public', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('main_form_id', 'bigint', (c) => c.notNull().references('forms.id'))
    // The definition being edited; published versions are frozen copies in protocol_versions.
    .addColumn('draft', 'jsonb', (c) => c.notNull())
    .addColumn('published_version', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('protocols_code', ['entity_id', 'code'])
    .execute();

  await db.schema
    .createTable('protocol_versions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('protocol_id', 'bigint', (c) => c.notNull().references('protocols.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('published_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('published_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('protocol_versions_unique', ['protocol_id', 'version'])
    .execute();

  // Application numbers: one counter per project and month, taken under a row lock.
  await db.schema
    .createTable('case_counters')
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('last', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('case_counters_pk', ['project_id', 'month'])
    .execute();

  await db.schema
    .createTable('cases')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id'))
    .addColumn('protocol_id', 'bigint', (c) => c.notNull().references('protocols.id'))
    .addColumn('protocol_version_id', 'bigint', (c) => c.references('protocol_versions.id'))
    .addColumn('form_version_id', 'bigint', (c) => c.notNull().references('form_versions.id'))
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('case_type', 'text', (c) => c.notNull())
    // serialByMonth: YYYY-MM-NNNNNN, unique per project and month; null while a draft.
    .addColumn('serial', 'text')
    .addColumn('serial_month', 'text')
    .addColumn('serial_seq', 'integer')
    .addColumn('doc_date', 'timestamptz')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('DRAFT'))
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('possible_duplicated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('external_ref', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('closed_at', 'timestamptz')
    .execute();
  await sql`create unique index cases_serial_unique on cases (project_id, serial_month, serial_seq) where serial is not null`.execute(db);
  await sql`create unique index cases_external_ref_unique on cases (entity_id, protocol_id, external_ref) where external_ref is not null`.execute(db);
  await db.schema.createIndex('cases_entity_state_idx').on('cases').columns(['entity_id', 'state', 'id']).execute();
  await db.schema.createIndex('cases_owner_idx').on('cases').columns(['owner_id', 'state']).execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('case_id', 'bigint', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('form_version_id', 'bigint', (c) => c.references('form_versions.id'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('responsible_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('responsible_team_id', 'bigint', (c) => c.references('teams.id').onDelete('set null'))
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('expiration_days', 'integer')
    .addColumn('due_at', 'timestamptz')
    .addColumn('overdue', 'boolean', (c) => c.notNull().defaultTo(false))
    // A task that waits for all its predecessors counts how many are still open.
    .addColumn('waiting_for', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'text')
    .addColumn('decided_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('tasks_case_idx').on('tasks').columns(['case_id', 'id']).execute();
  await sql`create index tasks_open_user_idx on tasks (responsible_user_id, due_at) where state in ('UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY')`.execute(db);
  await sql`create index tasks_open_team_idx on tasks (responsible_team_id, due_at) where state in ('UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY')`.execute(db);
  await sql`create index tasks_entity_state_idx on tasks (entity_id, state, id)`.execute(db);
  await sql`create index tasks_due_idx on tasks (due_at) where state = 'PENDING' and not overdue`.execute(db);

  // The audit trail: who did what, to which application, when (spec: user, application number, action, type, time).
  await db.schema
    .createTable('case_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('case_id', 'bigint', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('task_id', 'bigint', (c) => c.references('tasks.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('application_number', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('case', 'task', 'field')`))
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('case_events_case_idx').on('case_events').columns(['case_id', 'id']).execute();
  await db.schema.createIndex('case_events_user_idx').on('case_events').columns(['entity_id', 'user_id', 'created_at']).execute();
}
