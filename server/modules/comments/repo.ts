/**
 * The comments' SQL. Every finder takes the actor and applies the tenant,
 * the case's visibility (cases/policy.ts `visibleCases`) and the comment's
 * (policy.ts `visibleComments`): a handler cannot reach a comment its caller
 * may not read. Rows become the API's shapes here.
 */
import { type Expression, type ExpressionBuilder, sql, type SqlBool, type Transaction } from 'kysely';
import type { Comment, CommentFilters, DocumentMark } from '../../../core/api/comments.js';
import type { CaseState } from '../../../core/workflow/states.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Lang } from '../../i18n.js';
import { containsPattern, paginate } from '../../lib/list.js';
import type { Actor } from '../acl/policy.js';
import { tenantTimeZone } from '../cases/filters.js';
import { visibleCases } from '../cases/policy.js';
import { commentActions, isStaff, staffUsers, visibleComments } from './policy.js';
import { localNameSql } from '../../lib/localName.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

/** The master whose items are the document checklist, and the one of quick comments. */
export const CHECKLIST_MASTER = 'definiciones';
export const QUICK_COMMENTS_MASTER = 'comentarios_rapidos';

// ---------------------------------------------------------------- cases

/** A case as comments need it, when the actor may see it; NOT_FOUND otherwise (as GET /api/cases/:id answers). */
export async function findCommentableCase(db: Executor, actor: Actor, caseId: number) {
  const c = await db
    .selectFrom('cases as c')
    .where('c.id', '=', caseId)
    .where('c.entity_id', '=', actor.entityId)
    .where('c.state', '<>', 'DRAFT')
    .where(visibleCases(actor) as never)
    .select(['c.id', 'c.entity_id', 'c.serial', 'c.state', 'c.owner_id'])
    .executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  return c;
}

/** The task, when it belongs to this case. */
export function taskOfCase(db: Executor, caseId: number, taskId: number) {
  return db.selectFrom('tasks').where('id', '=', taskId).where('case_id', '=', caseId).select(['id', 'name']).executeTakeFirst();
}

// ---------------------------------------------------------------- comments as the API shows them

/** Comments the actor may read, on cases it may see, in its tenant, with what the shape needs. */
function readable(db: Executor, actor: Actor) {
  return db
    .selectFrom('comments as cm')
    .innerJoin('cases as c', 'c.id', 'cm.case_id')
    .leftJoin('tasks as t', 't.id', 'cm.task_id')
    .leftJoin('users as a', 'a.id', 'cm.author_id')
    .where('cm.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .where(visibleComments(actor) as never)
    .select([
      'cm.id', 'cm.case_id', 'c.serial', 'cm.task_id', localNameSql<string | null>('t', actor.language).as('task_name'), 'cm.number', 'cm.body', 'cm.visible_to_applicant', 'cm.case_state',
      'cm.author_id', 'a.name as author_name', 'cm.created_at', 'cm.edited_at', 'cm.version',
    ]);
}
type CommentRow = Awaited<ReturnType<ReturnType<typeof readable>['executeTakeFirstOrThrow']>>;

/** The rows with their documents and mentions, as the API's shape. */
async function present(db: Executor, actor: Actor, rows: CommentRow[]): Promise<Comment[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [marks, mentions] = await Promise.all([
    db
      .selectFrom('case_document_marks as m')
      .innerJoin('master_items as i', (j) => j.onRef('i.code', '=', 'm.code').onRef('i.entity_id', '=', 'm.entity_id'))
      .innerJoin('masters as ms', (j) => j.onRef('ms.id', '=', 'i.master_id').on('ms.code', '=', CHECKLIST_MASTER))
      .where('m.entity_id', '=', actor.entityId)
      .where('m.comment_id', 'in', ids)
      .select(['m.comment_id', 'm.code', 'i.name', 'm.mark'])
      .orderBy('m.id')
      .execute(),
    db
      .selectFrom('comment_mentions as cmm')
      .innerJoin('users as u', 'u.id', 'cmm.user_id')
      .where('cmm.entity_id', '=', actor.entityId)
      .where('cmm.comment_id', 'in', ids)
      .select(['cmm.comment_id', 'u.id', 'u.name'])
      .orderBy('u.name')
      .execute(),
  ]);
  return rows.map((r) => ({
    id: r.id,
    caseId: r.case_id,
    caseNumber: r.serial,
    taskId: r.task_id,
    taskName: r.task_name,
    number: r.number,
    body: r.body,
    visibleToApplicant: r.visible_to_applicant,
    caseState: r.case_state,
    authorId: r.author_id,
    authorName: r.author_name ?? '',
    documents: marks.filter((m) => m.comment_id === r.id).map((m) => ({ code: m.code, name: m.name, mark: m.mark })),
    mentions: mentions.filter((m) => m.comment_id === r.id).map((m) => ({ id: m.id, name: m.name })),
    createdAt: r.created_at,
    editedAt: r.edited_at,
    version: r.version,
    actions: commentActions(actor, { authorId: r.author_id }),
  }));
}

/** The thread of a case (or of one of its tasks), oldest first, as the actor may read it. */
export async function listThread(db: Db, actor: Actor, caseId: number, taskId?: number) {
  const c = await findCommentableCase(db, actor, caseId);
  let q = readable(db, actor).where('cm.case_id', '=', c.id);
  if (taskId !== undefined) q = q.where('cm.task_id', '=', taskId);
  const rows = await q.orderBy('cm.number').execute();
  return { items: await present(db, actor, rows), canComment: true, canUseStaffTools: isStaff(actor) };
}

/** One comment the actor may read. */
export async function findComment(db: Executor, actor: Actor, id: number): Promise<Comment> {
  const row = await readable(db, actor).where('cm.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return (await present(db, actor, [row]))[0];
}

/** The comments dashboard: every comment of the tenant the actor may read, with the filters; days in the tenant's zone. */
export async function listComments(db: Db, actor: Actor, f: CommentFilters) {
  const zone = tenantTimeZone(actor);
  let q = readable(db, actor);
  if (f.from) q = q.where(sql<boolean>`cm.created_at >= (${f.from}::date)::timestamp at time zone ${zone}`);
  if (f.to) q = q.where(sql<boolean>`cm.created_at < (${f.to}::date + 1)::timestamp at time zone ${zone}`);
  if (f.authorId) q = q.where('cm.author_id', '=', f.authorId);
  if (f.caseNumber) q = q.where('c.serial', 'ilike', containsPattern(f.caseNumber));
  if (f.search) q = q.where('cm.body', 'ilike', containsPattern(f.search));
  const direction = f.descending === false ? 'asc' : 'desc';
  const sort = f.sortBy ?? 'created_at';
  const ordered =
    sort === 'case_number'
      ? q.orderBy('c.serial', direction).orderBy('cm.number', direction)
      : sort === 'author'
        ? q.orderBy('a.name', direction).orderBy('cm.id', direction)
        : q.orderBy('cm.created_at', direction).orderBy('cm.id', direction);
  const { rows, total } = await paginate(ordered, f);
  return { items: await present(db, actor, rows), total };
}

// ---------------------------------------------------------------- writing comments

/** A comment about to change, locked, when the actor may read it; NOT_FOUND otherwise. */
export async function lockComment(trx: Trx, actor: Actor, id: number) {
  const row = await trx
    .selectFrom('comments as cm')
    .innerJoin('cases as c', 'c.id', 'cm.case_id')
    .where('cm.id', '=', id)
    .where('cm.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .where(visibleComments(actor) as never)
    .select(['cm.id', 'cm.entity_id', 'cm.case_id', 'c.serial', 'cm.task_id', 'cm.number', 'cm.body', 'cm.visible_to_applicant', 'cm.author_id', 'cm.version'])
    .forUpdate('cm')
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** The next number of a case's comments. The caller holds the case's row lock, so two comments never get the same. */
export async function nextCommentNumber(trx: Trx, entityId: number, caseId: number): Promise<number> {
  const row = await trx.selectFrom('comments').where('entity_id', '=', entityId).where('case_id', '=', caseId).select(sql<number>`coalesce(max(number), 0)::int + 1`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}

export async function insertComment(
  trx: Trx,
  v: { entityId: number; caseId: number; taskId: number | null; number: number; body: string; visibleToApplicant: boolean; caseState: CaseState; authorId: number },
): Promise<number> {
  const row = await trx
    .insertInto('comments')
    .values({ entity_id: v.entityId, case_id: v.caseId, task_id: v.taskId, number: v.number, body: v.body, visible_to_applicant: v.visibleToApplicant, case_state: v.caseState, author_id: v.authorId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateComment(trx: Trx, id: number, v: { body: string; visibleToApplicant: boolean }): Promise<void> {
  await trx.updateTable('comments').set({ body: v.body, visible_to_applicant: v.visibleToApplicant, edited_at: new Date(), version: sql`version + 1` }).where('id', '=', id).execute();
}

export async function softDeleteComment(trx: Trx, id: number): Promise<void> {
  await trx.updateTable('comments').set({ deleted_at: new Date(), version: sql`version + 1` }).where('id', '=', id).execute();
}

export async function insertMentions(trx: Trx, entityId: number, commentId: number, userIds: number[]): Promise<void> {
  if (userIds.length) await trx.insertInto('comment_mentions').values(userIds.map((user_id) => ({ entity_id: entityId, comment_id: commentId, user_id }))).execute();
}

/** Of these ids, the active staff of the actor's tenant (the people a comment may mention). */
export async function mentionableAmong(db: Executor, actor: Actor, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users as u')
    .where('u.id', 'in', ids)
    .where('u.entity_id', '=', actor.entityId)
    .where('u.active', '=', true)
    .where(staffUsers() as never)
    .select('u.id')
    .execute();
  return rows.map((r) => r.id);
}

/** GET /api/comments/mentionable: active staff of the tenant whose name or email holds the search. */
export async function listMentionable(db: Db, actor: Actor, search: string | undefined) {
  // Staff names and addresses are for staff: mentioning is a staff tool.
  if (!isStaff(actor)) throw new AppError('FORBIDDEN');
  let q = db
    .selectFrom('users as u')
    .where('u.entity_id', '=', actor.entityId)
    .where('u.active', '=', true)
    .where(staffUsers() as never)
    .select(['u.id', 'u.name', 'u.email'])
    .orderBy('u.name')
    .limit(20);
  if (search) q = q.where((eb) => eb.or([eb('u.name', 'ilike', containsPattern(search)), eb('u.email', 'ilike', containsPattern(search))]));
  return { items: await q.execute() };
}

// ---------------------------------------------------------------- the document checklist

/** Of these codes, the active items of the tenant's checklist master. */
export async function checklistCodesAmong(db: Executor, actor: Actor, codes: string[]): Promise<string[]> {
  if (codes.length === 0) return [];
  const rows = await db
    .selectFrom('master_items as i')
    .innerJoin('masters as ms', 'ms.id', 'i.master_id')
    .where('ms.entity_id', '=', actor.entityId)
    .where('i.entity_id', '=', actor.entityId)
    .where('ms.code', '=', CHECKLIST_MASTER)
    .where('i.active', '=', true)
    .where('i.code', 'in', codes)
    .select('i.code')
    .execute();
  return rows.map((r) => r.code);
}

export async function insertMarks(
  trx: Trx,
  v: { entityId: number; caseId: number; commentId: number | null; userId: number; fileId?: string | null },
  marks: Array<{ code: string; mark: DocumentMark }>,
): Promise<void> {
  if (marks.length === 0) return;
  await trx
    .insertInto('case_document_marks')
    .values(marks.map((m) => ({ entity_id: v.entityId, case_id: v.caseId, code: m.code, mark: m.mark, comment_id: v.commentId, file_id: v.fileId ?? null, user_id: v.userId })))
    .execute();
}

/** A file of the actor's tenant, or undefined. */
export function fileOfTenant(db: Executor, actor: Actor, fileId: string) {
  return db.selectFrom('files').where('id', '=', fileId).where('entity_id', '=', actor.entityId).select('id').executeTakeFirst();
}

/**
 * The checklist of a case: every active document of the master (and any
 * other that was marked), each with its latest mark. A deleted comment's
 * marks no longer count; someone who is not staff sees only the marks of
 * comments visible to them and those of the review.
 */
export async function caseChecklist(db: Db, actor: Actor, caseId: number) {
  const c = await findCommentableCase(db, actor, caseId);
  const staff = isStaff(actor);
  const latest = await db
    .selectFrom('case_document_marks as m')
    .leftJoin('comments as cm', 'cm.id', 'm.comment_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .where('m.entity_id', '=', actor.entityId)
    .where('m.case_id', '=', c.id)
    .where((eb: ExpressionBuilder<Database & { cm: Database['comments'] }, 'cm'>) => {
      const counts: Array<Expression<SqlBool>> = [eb('cm.deleted_at', 'is', null)];
      if (!staff) counts.push(eb('cm.visible_to_applicant', '=', true));
      return eb.or([eb('m.comment_id' as never, 'is', null), eb.and(counts)]);
    })
    .distinctOn('m.code')
    .select(['m.code', 'm.mark', 'cm.number', 'm.file_id', 'u.name as by_name', 'm.created_at'])
    .orderBy('m.code')
    .orderBy('m.id', 'desc')
    .execute();
  const marked = new Map(latest.map((m) => [m.code, m]));
  const items = await db
    .selectFrom('master_items as i')
    .innerJoin('masters as ms', 'ms.id', 'i.master_id')
    .where('ms.entity_id', '=', actor.entityId)
    .where('i.entity_id', '=', actor.entityId)
    .where('ms.code', '=', CHECKLIST_MASTER)
    .where((eb) => (marked.size ? eb.or([eb('i.active', '=', true), eb('i.code', 'in', [...marked.keys()])]) : eb('i.active', '=', true)))
    .select(['i.code', localNameSql('i', actor.language).as('name')])
    .orderBy('i.id')
    .execute();
  return {
    items: items.map((i) => {
      const m = marked.get(i.code);
      return { code: i.code, name: i.name, mark: m?.mark ?? null, commentNumber: m?.number ?? null, fileId: m?.file_id ?? null, byName: m?.by_name ?? null, at: m?.created_at ?? null };
    }),
  };
}

// ---------------------------------------------------------------- quick comments

/** The tenant's quick comments in the reader's language (the item's `name` Spanish, `name_en` English, each the other's fallback; 0024). */
export async function quickComments(db: Db, actor: Actor, lang: Lang) {
  const rows = await db
    .selectFrom('master_items as i')
    .innerJoin('masters as ms', 'ms.id', 'i.master_id')
    .where('ms.entity_id', '=', actor.entityId)
    .where('i.entity_id', '=', actor.entityId)
    .where('ms.code', '=', QUICK_COMMENTS_MASTER)
    .where('i.active', '=', true)
    .select(['i.code', localNameSql('i', lang).as('text')])
    .orderBy('i.id')
    .execute();
  return { items: rows.map((r) => ({ code: r.code, text: r.text })) };
}
