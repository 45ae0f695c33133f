/**
 * Who may read, write and change comments. A comment lives on a case, so
 * seeing it starts from seeing the case (cases/policy.ts `visibleCases`,
 * applied by every finder of repo.ts). Then:
 *
 * - staff (cases/policy.ts `isStaff`) read every comment of a case they see,
 *   and write with the staff tools: internal comments, the checklist,
 *   mentions;
 * - anyone else who sees the case (its owner, a participant) reads only the
 *   comments visible to the applicant, and writes only such comments, plain;
 * - a comment is edited or deleted by its author, or by a holder of the
 *   comments dashboard's `update` / `delete` on any comment they see.
 */
import { type ExpressionBuilder, sql, type SqlBool, type Expression } from 'kysely';
import type { CommentActionName } from '../../../core/api/comments.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';
import { isStaff } from '../cases/policy.js';

export { isStaff };

/** A condition on `cm` (comments) limiting it to those the actor may read, on a case it sees (applied by the finder). */
export function visibleComments(actor: Actor) {
  return (eb: ExpressionBuilder<Database & { cm: Database['comments'] }, 'cm'>): Expression<SqlBool> =>
    eb.and([eb('cm.deleted_at', 'is', null), ...(isStaff(actor) ? [] : [eb('cm.visible_to_applicant', '=', true)])]);
}

/**
 * A condition on `u` (users): people with staff rights (a super-admin role,
 * or a rule granting the task or case administration's `show`, as `isStaff`
 * reads them), the ones a comment may mention.
 */
export function staffUsers() {
  return (eb: ExpressionBuilder<Database & { u: Database['users'] }, 'u'>): Expression<SqlBool> =>
    eb.exists(
      sql`(select 1 from acl_roles r
        where r.id = u.role_id and (r.super_admin or exists (
          select 1 from acl_rules ru
          join acl_modules m on m.id = ru.module_id
          join acl_actions a on a.id = ru.action_id
          where ru.role_id = r.id and m.code in ('wf_tareas', 'admin_cases') and a.code = 'show')))`,
    );
}

/** What the staff tools of the thread allow this actor: an internal comment, the checklist, mentions. */
export const mayUseStaffTools = isStaff;

/** The actions the actor has on one comment it can read (it came through a finder of repo.ts). */
export function commentActions(actor: Actor, c: { authorId: number | null; deleted?: boolean }): CommentActionName[] {
  if (c.deleted) return [];
  const own = c.authorId !== null && c.authorId === actor.userId;
  const out: CommentActionName[] = [];
  if (own || can(actor, 'dashboard_comments', 'update')) out.push('edit');
  if (own || can(actor, 'dashboard_comments', 'delete')) out.push('delete');
  return out;
}

/** Refuses an action the actor does not have on this comment (FORBIDDEN). */
export function assertCommentAction(actor: Actor, c: { authorId: number | null; deleted?: boolean }, action: CommentActionName): void {
  if (!commentActions(actor, c).includes(action)) throw new AppError('FORBIDDEN');
}

/**
 * What someone who is not staff may not put in a comment: mentions and
 * document marks are staff tools (FORBIDDEN); visibility is forced (the
 * caller does it), as anything such a person writes is seen by the applicant.
 */
export function assertStaffTools(actor: Actor, input: { documents: unknown[]; mentions: unknown[] }): void {
  if (isStaff(actor)) return;
  if (input.documents.length > 0 || input.mentions.length > 0) throw new AppError('FORBIDDEN');
}
