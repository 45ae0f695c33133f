import type { ColumnType, Generated } from 'kysely';

/** Table types for Kysely. One interface per table, named after it. */

export interface EntitiesTable {
  id: Generated<number>;
  docnumber: string;
  name: string;
  active: Generated<boolean>;
  plan: Generated<number>;
  account_limit: Generated<number>;
  disk_quota_mb: Generated<number>;
  /** Moved by triggers on every change to the tenant's roles, modules, actions and rules (migration 0010). */
  acl_version: ColumnType<string, never, never>;
  created_at: ColumnType<Date, never, never>;
}

export interface ProjectsTable {
  id: Generated<number>;
  uid: string;
  entity_id: number;
  title: string;
  description: Generated<string>;
  color_primary: Generated<string>;
  color_secondary: Generated<string>;
  color_accent: Generated<string>;
  color_text: Generated<string>;
  favicon: string | null;
  logo: string | null;
  support_phone: Generated<string>;
  time_zone: Generated<string>;
  language: Generated<'en' | 'es'>;
  idle_timeout_seconds: Generated<number>;
  autosave_seconds: Generated<number>;
  new_applications_deadline: string | null;
  allow_new_applications: Generated<boolean>;
  maintenance: Generated<boolean>;
  is_default: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
}

interface CatalogRow {
  id: Generated<number>;
  entity_id: number;
  code: string;
  name: string;
  description: Generated<string>;
  system: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
}

export type AclActionsTable = CatalogRow;
export type AclModulesTable = CatalogRow;
export interface AclRolesTable extends CatalogRow {
  super_admin: Generated<boolean>;
}

export interface AclRulesTable {
  id: Generated<number>;
  entity_id: number;
  role_id: number;
  module_id: number;
  action_id: number;
}

export interface UsersTable {
  id: Generated<number>;
  entity_id: number;
  email: string;
  name: string;
  docnumber: string | null;
  role_id: number;
  active: Generated<boolean>;
  language: Generated<'en' | 'es'>;
  time_zone: Generated<string>;
  password_hash: string;
  failed_logins: Generated<number>;
  locked: Generated<boolean>;
  locked_at: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  project_id: number | null;
  created_at: ColumnType<Date, never, never>;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
  expires_at: Date;
  idle_seconds: number;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  expires_at: Date;
  used_at: Date | null;
  created_at: ColumnType<Date, never, never>;
}

export interface MailOutboxTable {
  id: Generated<number>;
  entity_id: number | null;
  to_address: string;
  subject: string;
  body_text: string;
  status: Generated<'queued' | 'sent' | 'failed' | 'kept'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: ColumnType<Date, never, never>;
  sent_at: Date | null;
}

export interface AuthThrottleTable {
  key: string;
  failures: Generated<number>;
  window_start: Generated<Date>;
}

export interface CaptchaUsedTable {
  signature: string;
  expires_at: Date;
}

export interface MastersTable {
  id: Generated<number>;
  entity_id: number;
  code: string;
  name: string;
  description: Generated<string>;
  public: Generated<boolean>;
  parent_id: number | null;
  system: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
}

export interface MasterItemsTable {
  id: Generated<number>;
  entity_id: number;
  master_id: number;
  code: string;
  name: string;
  parent_item_id: number | null;
  active: Generated<boolean>;
  extra: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: ColumnType<Date, never, never>;
}

export interface FormsTable {
  id: Generated<number>;
  entity_id: number;
  code: string;
  name: string;
  description: Generated<string>;
  current_version: Generated<number>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface FormVersionsTable {
  id: Generated<number>;
  entity_id: number;
  form_id: number;
  version: number;
  definition: ColumnType<unknown, string, string>;
  in_use: Generated<boolean>;
  created_by: number | null;
  created_at: ColumnType<Date, never, never>;
}

export interface FilesTable {
  id: string;
  entity_id: number;
  name: string;
  extension: string;
  mime: string;
  size: number;
  sha256: string;
  public: Generated<boolean>;
  created_by: number | null;
  created_at: ColumnType<Date, never, never>;
}

export interface ExternalHostsTable {
  id: Generated<number>;
  entity_id: number;
  host: string;
  created_at: ColumnType<Date, never, never>;
}

export interface TeamsTable {
  id: Generated<number>;
  entity_id: number;
  name: string;
  description: Generated<string>;
  assignment: Generated<'round_robin' | 'least_loaded'>;
  active: Generated<boolean>;
  last_assigned_user_id: number | null;
  created_at: ColumnType<Date, never, never>;
}

export interface TeamMembersTable {
  id: Generated<number>;
  entity_id: number;
  team_id: number;
  user_id: number;
  role: Generated<'leader' | 'member'>;
  active: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
}

export interface ProtocolsTable {
  id: Generated<number>;
  entity_id: number;
  code: string;
  name: string;
  description: Generated<string>;
  case_type: 'RADICACION_INTERNA' | 'RADICACION_PUBLICA' | 'RADICACION_AUTOMATICA';
  public: Generated<boolean>;
  main_form_id: number;
  draft: ColumnType<unknown, string, string>;
  published_version: number | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ProtocolVersionsTable {
  id: Generated<number>;
  entity_id: number;
  protocol_id: number;
  version: number;
  definition: ColumnType<unknown, string, string>;
  published_by: number | null;
  published_at: ColumnType<Date, never, never>;
}

export interface CaseCountersTable {
  project_id: number;
  month: string;
  last: Generated<number>;
}

export interface CasesTable {
  id: Generated<number>;
  entity_id: number;
  project_id: number;
  protocol_id: number;
  protocol_version_id: number | null;
  form_version_id: number;
  owner_id: number;
  case_type: string;
  serial: string | null;
  serial_month: string | null;
  serial_seq: number | null;
  doc_date: Date | null;
  state: Generated<string>;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  possible_duplicated: Generated<boolean>;
  external_ref: string | null;
  version: Generated<number>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  closed_at: Date | null;
}

export interface TasksTable {
  id: Generated<number>;
  entity_id: number;
  case_id: number;
  code: string;
  name: string;
  form_version_id: number | null;
  state: string;
  responsible_user_id: number | null;
  responsible_team_id: number | null;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  expiration_days: number | null;
  due_at: Date | null;
  overdue: Generated<boolean>;
  waiting_for: Generated<number>;
  reason: string | null;
  instructions: Generated<string | null>;
  decided_by: number | null;
  decided_at: Date | null;
  version: Generated<number>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface CaseEventsTable {
  id: Generated<number>;
  entity_id: number;
  case_id: number;
  task_id: number | null;
  user_id: number | null;
  application_number: string | null;
  action: string;
  type: 'case' | 'task' | 'field';
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: ColumnType<Date, never, never>;
}

export interface CaseParticipantsTable {
  case_id: number;
  user_id: number;
  entity_id: number;
  created_at: ColumnType<Date, never, never>;
}

export interface SavedSearchesTable {
  id: Generated<number>;
  entity_id: number;
  user_id: number;
  name: string;
  query: ColumnType<unknown, string, string>;
  created_at: ColumnType<Date, never, never>;
}

export interface CaseImportsTable {
  id: Generated<number>;
  entity_id: number;
  user_id: number;
  protocol_id: number;
  file_name: string;
  content: string;
  header: ColumnType<string[], string, string>;
  total: number;
  mapping: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  ref_column: string | null;
  status: Generated<'uploaded' | 'running' | 'done' | 'interrupted'>;
  processed: Generated<number>;
  created: Generated<number>;
  skipped: Generated<number>;
  failed: Generated<number>;
  errors: ColumnType<Array<{ line: number; field: string | null; message: string }>, string | undefined, string>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface CaseExportsTable {
  id: string;
  entity_id: number;
  user_id: number;
  format: 'csv' | 'xlsx';
  state: Generated<'running' | 'done' | 'failed'>;
  done: Generated<number>;
  total: Generated<number>;
  filename: string | null;
  content: Buffer | null;
  error: string | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface AppSecretsTable {
  name: string;
  value: string;
}

export interface Database {
  app_secrets: AppSecretsTable;
  masters: MastersTable;
  master_items: MasterItemsTable;
  forms: FormsTable;
  form_versions: FormVersionsTable;
  files: FilesTable;
  external_hosts: ExternalHostsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  protocols: ProtocolsTable;
  protocol_versions: ProtocolVersionsTable;
  case_counters: CaseCountersTable;
  cases: CasesTable;
  tasks: TasksTable;
  case_events: CaseEventsTable;
  case_participants: CaseParticipantsTable;
  saved_searches: SavedSearchesTable;
  case_imports: CaseImportsTable;
  case_exports: CaseExportsTable;
  entities: EntitiesTable;
  projects: ProjectsTable;
  acl_actions: AclActionsTable;
  acl_modules: AclModulesTable;
  acl_roles: AclRolesTable;
  acl_rules: AclRulesTable;
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  mail_outbox: MailOutboxTable;
  auth_throttle: AuthThrottleTable;
  captcha_used: CaptchaUsedTable;
}
