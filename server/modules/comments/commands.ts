/**
 * What changes comments, as named verbs: add a comment (with its document
 * marks, mentions and their notifications), edit it, delete it, and accept a
 * document of the checklist (the document review's `accept_doc`). Each is
 * one transaction, checked by policy.ts, and recorded in the case history
 * (cases/history.ts) with who, when, and before and after; REST and the
 * realtime rooms call these same functions.
 */
import type { Transaction } from 'kysely';
import type { EditComment, NewComment } from '../../../core/api/comments.js';
import type { CaseState } from '../../../core/workflow/states.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { recordEvent } from '../cases/history.js';
import { lockCase } from '../cases/repo.js';
import { notify, type NotifyEnv } from '../notifications/commands.js';
import { assertCommentAction, assertStaffTools, isStaff } from './policy.js';
import {
  checklistCodesAmong,
  fileOfTenant,
  insertComment,
  insertMarks,
  insertMentions,
  lockComment,
  mentionableAmong,
  nextCommentNumber,
  softDeleteComment,
  taskOfCase,
  updateComment,
} from './repo.js';

type Trx = Transaction<Database>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new comment as the route parsed it (defaults applied). */
export type NewCommentInput = Required<Pick<NewComment, 'body' | 'visibleToApplicant' | 'documents' | 'mentions'>> & { taskId?: number };

/** A case of the actor's, locked: a draft takes no comments (NOT_FOUND, as the thread answers). */
async function lockCommentableCase(trx: Trx, actor: Actor, caseId: number) {
  const c = await lockCase(trx, actor, caseId);
  if (c.state === 'DRAFT') throw new AppError('NOT_FOUND');
  return c;
}

/**
 * Adds a comment to a case the actor sees. The case's row lock numbers it
 * (two at once queue, never share a number). Someone who is not staff writes
 * a comment visible to the applicant, without marks or mentions. The task
 * must be the case's, the documents the checklist's, the mentioned people
 * active staff of the tenant: anything else is refused, nothing stored.
 */
/** How much of a comment a notification email quotes. */
const COMMENT_EXCERPT = 500;

export async function addComment(db: Db, env: NotifyEnv, actor: Actor, caseId: number, input: NewCommentInput): Promise<number> {
  assertStaffTools(actor, input);
  const documents = dedupe(input.documents, (d) => d.code);
  const mentions = [...new Set(input.mentions)];
  return db.transaction().execute(async (trx) => {
    const c = await lockCommentableCase(trx, actor, caseId);
    if (input.taskId !== undefined && !(await taskOfCase(trx, c.id, input.taskId))) throw new AppError('TASK_NOT_OF_CASE');
    const known = await checklistCodesAmong(trx, actor, documents.map((d) => d.code));
    const unknown = documents.find((d) => !known.includes(d.code));
    if (unknown) throw new AppError('UNKNOWN_DOCUMENT', { code: unknown.code });
    const staff = await mentionableAmong(trx, actor, mentions);
    if (staff.length !== mentions.length) throw new AppError('INVALID_MENTION');

    const number = await nextCommentNumber(trx, c.entity_id, c.id);
    const visibleToApplicant = isStaff(actor) ? input.visibleToApplicant : true;
    const id = await insertComment(trx, {
      entityId: c.entity_id, caseId: c.id, taskId: input.taskId ?? null, number, body: input.body, visibleToApplicant, caseState: c.state as CaseState, authorId: actor.userId,
    });
    await insertMarks(trx, { entityId: c.entity_id, caseId: c.id, commentId: id, userId: actor.userId }, documents);
    await insertMentions(trx, c.entity_id, id, mentions);
    const excerpt = input.body.length > COMMENT_EXCERPT ? `${input.body.slice(0, COMMENT_EXCERPT)}…` : input.body;
    const told = { entityId: c.entity_id, caseId: c.id, commentId: id, byUserId: actor.userId, comment: excerpt, mentionedBy: actor.name };
    await notify(trx, env, { ...told, event: 'mention', to: mentions, taskId: input.taskId ?? null });
    // The applicant hears of what staff write for them (not of their own comments).
    if (visibleToApplicant && c.owner_id !== actor.userId) await notify(trx, env, { ...told, event: 'comment_visible', to: [c.owner_id] });
    await recordEvent(trx, {
      entityId: c.entity_id, caseId: c.id, taskId: input.taskId ?? null, doer: actor, number: c.serial, action: 'comment_added', type: 'comment',
      detail: { commentId: id, number, body: input.body, visibleToApplicant, documents, mentions },
    });
    return id;
  });
}

/** Edits a comment (its author, or the dashboard's editors); a stale version is CONFLICT. The history keeps before and after. */
export async function editComment(db: Db, actor: Actor, id: number, input: EditComment): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const cm = await lockComment(trx, actor, id);
    assertCommentAction(actor, { authorId: cm.author_id }, 'edit');
    if (cm.version !== input.version) throw new AppError('CONFLICT');
    // Only staff decide who reads a comment.
    const visibleToApplicant = isStaff(actor) ? (input.visibleToApplicant ?? cm.visible_to_applicant) : cm.visible_to_applicant;
    await updateComment(trx, cm.id, { body: input.body, visibleToApplicant });
    await recordEvent(trx, {
      entityId: cm.entity_id, caseId: cm.case_id, taskId: cm.task_id, doer: actor, number: cm.serial, action: 'comment_edited', type: 'comment',
      detail: { commentId: cm.id, number: cm.number, from: { body: cm.body, visibleToApplicant: cm.visible_to_applicant }, to: { body: input.body, visibleToApplicant } },
    });
  });
}

/** Deletes a comment (softly: its number and the history stay; its marks stop counting). */
export async function deleteComment(db: Db, actor: Actor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const cm = await lockComment(trx, actor, id);
    assertCommentAction(actor, { authorId: cm.author_id }, 'delete');
    await softDeleteComment(trx, cm.id);
    await recordEvent(trx, {
      entityId: cm.entity_id, caseId: cm.case_id, taskId: cm.task_id, doer: actor, number: cm.serial, action: 'comment_deleted', type: 'comment',
      detail: { commentId: cm.id, number: cm.number, from: { body: cm.body, visibleToApplicant: cm.visible_to_applicant }, to: null },
    });
  });
}

/**
 * Marks a document of a case's checklist accepted (staff who see the case),
 * optionally naming the file reviewed: the REST route and the review room's
 * `accept_doc`. Refusals are thrown (NOT_FOUND, FORBIDDEN, UNKNOWN_DOCUMENT,
 * UNKNOWN_FILE); done, it answers true.
 */
export async function acceptChecklistDocument(db: Db, actor: Actor, caseId: number, code: string, fileId?: string | null): Promise<true> {
  if (!isStaff(actor)) throw new AppError('FORBIDDEN');
  return db.transaction().execute(async (trx) => {
    const c = await lockCommentableCase(trx, actor, caseId);
    if ((await checklistCodesAmong(trx, actor, [code])).length === 0) throw new AppError('UNKNOWN_DOCUMENT', { code });
    if (fileId != null && !(UUID.test(fileId) && (await fileOfTenant(trx, actor, fileId)))) throw new AppError('UNKNOWN_FILE');
    await insertMarks(trx, { entityId: c.entity_id, caseId: c.id, commentId: null, userId: actor.userId, fileId: fileId ?? null }, [{ code, mark: 'accepted' }]);
    await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'document_accepted', type: 'document', detail: { code, fileId: fileId ?? null } });
    return true as const;
  });
}

function dedupe<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) seen.set(key(item), item);
  return [...seen.values()];
}
