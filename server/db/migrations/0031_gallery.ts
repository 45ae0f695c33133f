import { type Kysely, sql } from 'kysely';

/**
 * Issue 20: which protocols make up a project's application. Protocols
 * belong to the tenant; an install from the gallery or an import links the
 * protocols it creates to the new project, so the project exports as one
 * file. A protocol linked to no project is its tenant's first project's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_protocols')
    .addColumn('protocol_id', 'bigint', (c) => c.primaryKey().references('protocols.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('entity_id', 'bigint', (c) => c.notNull().references('entities.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('project_protocols_project_idx').on('project_protocols').column('project_id').execute();
}
