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

export interface Database {
  entities: EntitiesTable;
  projects: ProjectsTable;
}
