/**
 * The files' SQL. A file belongs to its tenant, to whoever uploaded it, and
 * to the records whose data holds it (a case or draft, or a task of a case).
 * `findReadableFile` applies all of it: a handler cannot hand out a link to a
 * file of a record its caller may not read.
 */
import { type SqlBool, sql, type Transaction } from 'kysely';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import type { Actor } from '../acl/policy.js';
import { isStaff, visibleCases } from '../cases/policy.js';
import { entityFolder, type FileKey, type StoreKind } from './storage.js';

type Trx = Transaction<Database>;

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
 * by a task of such a case. Drafts are their owner's alone: staff see every
 * case of the tenant, so for them only another person's draft keeps a file
 * out of reach; a participant of a case does not read its owner's draft.
 * Anything else is not found.
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
    // A draft is its owner's alone, whoever else takes part in the case.
    .where((eb) => eb.or([eb('c.state', '!=', 'DRAFT'), eb('c.owner_id', '=', actor.userId)]))
    .where((eb) =>
      eb.or([
        holds('c.data', fileId),
        eb.exists(eb.selectFrom('tasks as t').whereRef('t.entity_id', '=', 'c.entity_id').whereRef('t.case_id', '=', 'c.id').where(holds('t.data', fileId)).select('t.id')),
      ]),
    )
    .select('c.id')
    .executeTakeFirst();
  return inCase ? readable : undefined;
}

/** Whether the case (one the actor may see) holds the file in its data or a task's: a document of that case for its review room. */
export async function caseHoldsFile(db: Db, actor: Actor, caseId: number, fileId: string): Promise<boolean> {
  const row = await db
    .selectFrom('cases as c')
    .where('c.id', '=', caseId)
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .where((eb) =>
      eb.or([
        holds('c.data', fileId),
        eb.exists(eb.selectFrom('tasks as t').whereRef('t.entity_id', '=', 'c.entity_id').whereRef('t.case_id', '=', 'c.id').where(holds('t.data', fileId)).select('t.id')),
      ]),
    )
    .select('c.id')
    .executeTakeFirst();
  return row !== undefined && (await findReadableFile(db, actor, fileId)) !== undefined;
}

// ---------------------------------------------------------------- uploads

/** The actor's tenant folder on disk. */
export async function tenantFolder(db: Db, actor: Actor): Promise<string> {
  const entity = await db.selectFrom('entities').where('id', '=', actor.entityId).select(['name', 'docnumber']).executeTakeFirstOrThrow();
  return entityFolder(entity);
}

/**
 * The tenant's disk quota and what its files use, with the tenant locked
 * until the transaction ends: two uploads cannot both take the last room.
 */
export async function lockDiskUse(trx: Trx, actor: Actor): Promise<{ usedBytes: number; quotaBytes: number }> {
  const entity = await trx.selectFrom('entities').where('id', '=', actor.entityId).select('disk_quota_mb').forUpdate().executeTakeFirstOrThrow();
  const used = await trx.selectFrom('files').where('entity_id', '=', actor.entityId).select(sql<string>`coalesce(sum(size), 0)`.as('n')).executeTakeFirstOrThrow();
  return { usedBytes: Number(used.n), quotaBytes: entity.disk_quota_mb * 1024 * 1024 };
}

export interface NewFile {
  id: string;
  name: string;
  extension: string;
  mime: string;
  size: number;
  sha256: string;
  public: boolean;
  /** The store that holds its bytes (stores.ts `storeNewFile` gives it). */
  store: StoreKind;
}

/** Records an upload of the actor in its tenant; answers the file as the API shows it. */
export async function insertFile(trx: Trx, actor: Actor, file: NewFile) {
  const row = await trx
    .insertInto('files')
    .values({ ...file, entity_id: actor.entityId, created_by: actor.userId })
    .returning(['id', 'name', 'extension', 'size', 'public', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, name: row.name, extension: row.extension, size: row.size, public: row.public, createdAt: row.created_at };
}

// ---------------------------------------------------------------- downloads

/**
 * The file a signed link names, with its tenant's folder. No actor: the
 * download route is reached by a link that `links.ts` signed for a reader
 * `findReadableFile` allowed, and is called only once the signature holds.
 */
export async function findLinkedFile(db: Db, fileId: string) {
  const file = await db
    .selectFrom('files as f')
    .innerJoin('entities as e', 'e.id', 'f.entity_id')
    .where('f.id', '=', fileId)
    .select(['f.id', 'f.entity_id', 'f.store', 'f.name', 'f.extension', 'f.mime', 'f.public', 'f.size', 'e.name as entity_name', 'e.docnumber'])
    .executeTakeFirst();
  if (!file) return undefined;
  const folder = entityFolder({ name: file.entity_name, docnumber: file.docnumber });
  const location: FileLocation = { store: file.store, key: { id: file.id, entityId: file.entity_id, folder, public: file.public, extension: file.extension } };
  return { name: file.name, extension: file.extension, mime: file.mime, public: file.public, size: file.size, folder, location };
}

/**
 * Where a file's bytes are: its row's store and key. By id alone: callers
 * found the file through a finder that applied the tenant and the reader's
 * rights (or a signed link), and the move command reads every row.
 */
export interface FileLocation {
  store: StoreKind;
  key: FileKey;
}

export async function fileLocation(db: Db, fileId: string): Promise<FileLocation | undefined> {
  const f = await db
    .selectFrom('files as f')
    .innerJoin('entities as e', 'e.id', 'f.entity_id')
    .where('f.id', '=', fileId)
    .select(['f.id', 'f.entity_id', 'f.store', 'f.public', 'f.extension', 'e.name', 'e.docnumber'])
    .executeTakeFirst();
  return f && { store: f.store, key: { id: f.id, entityId: f.entity_id, folder: entityFolder({ name: f.name, docnumber: f.docnumber }), public: f.public, extension: f.extension } };
}
