/**
 * The files' SQL. A file belongs to its tenant, to whoever uploaded it, and
 * to the records whose data holds it (a case or draft, or a task of a case).
 * `findReadableFile` applies all of it: a handler cannot hand out a link to a
 * file of a record its caller may not read.
 */
import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Actor } from '../acl/policy.js';
import { isStaff, visibleCases } from '../cases/policy.js';

export interface ReadableFile {
  id: string;
  extension: string;
  public: boolean;
  name: string;
  docnumber: string;
}

/** Whether a jsonb column holds a file reference `{ id: <file id> }` at any depth (fields, repeat groups). */
const holds = (column: 'c.data' | 't.data', fileId: string) =>
  sql<SqlBool>`jsonb_path_exists(${sql.ref(column)}, '$.** ? (@.id == $fid)', jsonb_build_object('fid', ${fileId}::text))`;

/**
 * The file, when the actor may read it: a public file of the tenant; a file
 * the actor uploaded; a file held by a case (or draft) the actor may see, or
 * by a task of such a case. Staff see every case of the tenant, so for them
 * only another person's draft keeps a file out of reach (drafts are their
 * owner's alone). Anything else is not found.
 */
export async function findReadableFile(db: Db, actor: Actor, fileId: string): Promise<ReadableFile | undefined> {
  const file = await db
    .selectFrom('files as f')
    .innerJoin('entities as e', 'e.id', 'f.entity_id')
    .where('f.id', '=', fileId)
    .where('f.entity_id', '=', actor.entityId)
    .select(['f.id', 'f.extension', 'f.public', 'f.created_by', 'e.name', 'e.docnumber'])
    .executeTakeFirst();
  if (!file) return undefined;
  const { created_by, ...readable } = file;
  if (file.public || created_by === actor.userId) return readable;

  if (isStaff(actor)) {
    const inOthersDraft = await db
      .selectFrom('cases as c')
      .where('c.entity_id', '=', actor.entityId)
      .where('c.state', '=', 'DRAFT')
      .where('c.owner_id', '!=', actor.userId)
      .where(holds('c.data', fileId))
      .select('c.id')
      .executeTakeFirst();
    return inOthersDraft ? undefined : readable;
  }

  const inCase = await db
    .selectFrom('cases as c')
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .where((eb) =>
      eb.or([
        holds('c.data', fileId),
        eb.exists(eb.selectFrom('tasks as t').whereRef('t.case_id', '=', 'c.id').where(holds('t.data', fileId)).select('t.id')),
      ]),
    )
    .select('c.id')
    .executeTakeFirst();
  return inCase ? readable : undefined;
}
