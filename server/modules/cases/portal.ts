/**
 * The applicant's view of an application (issue 18): where it stands in
 * plain words and its public steps, built from the history (`case_events`)
 * and the checklist marks of comments the applicant sees. Only kinds of
 * step, times and document names leave: never a task's name, who did it, a
 * reason or a note (the open correction's reason is on the case itself).
 */
import type { z } from 'zod';
import type { publicTimelineSchema } from '../../../core/api/cases.js';
import { type PublicEvent, publicStatus, REVIEW_ACTIONS, TRANSITION_EVENTS } from '../../../core/cases/portal.js';
import type { CaseState } from '../../../core/workflow/states.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { visibleCases } from './policy.js';
import { checklistNames, openCorrectionOf } from './repo.js';

type PublicTimeline = z.infer<typeof publicTimelineSchema>;
type Step = PublicTimeline['events'][number];

const ACTIONS = [...Object.keys(TRANSITION_EVENTS), ...REVIEW_ACTIONS, 'correction_requested', 'correction_resubmitted', 'correction_cancelled'];

/** GET /api/cases/:id/public-timeline, for whoever may read the case (its owner, a participant, staff): 404 otherwise. */
export async function publicTimeline(db: Db, actor: Actor, id: number): Promise<PublicTimeline> {
  const c = await db
    .selectFrom('cases as c')
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .where('c.id', '=', id)
    .select(['c.id', 'c.state', 'c.owner_id', 'c.updated_at'])
    .executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  return timelineOf(db, actor.entityId, c);
}

/** The public view of a case already found and allowed: the applicant's own, and its landing page (server/modules/landing). */
export async function timelineOf(db: Db, entityId: number, c: { id: number; state: string; owner_id: number; updated_at: Date }): Promise<PublicTimeline> {
  const [events, marks, correction] = await Promise.all([
    db
      .selectFrom('case_events as e')
      .where('e.case_id', '=', c.id)
      .where('e.entity_id', '=', entityId)
      .where('e.action', 'in', ACTIONS)
      .select(['e.action', 'e.user_id', 'e.detail', 'e.created_at'])
      .orderBy('e.id')
      .execute(),
    // Marks the applicant sees, as the checklist shows them: a visible, undeleted comment's, or the review's.
    db
      .selectFrom('case_document_marks as m')
      .leftJoin('comments as cm', 'cm.id', 'm.comment_id')
      .where('m.case_id', '=', c.id)
      .where('m.entity_id', '=', entityId)
      .where((eb) => eb.or([eb('m.comment_id', 'is', null), eb.and([eb('cm.visible_to_applicant', '=', true), eb('cm.deleted_at', 'is', null)])]))
      .select(['m.id', 'm.code', 'm.mark', 'm.comment_id', 'cm.created_at as comment_at'])
      .orderBy('m.id')
      .execute(),
    openCorrectionOf(db, { id: c.id, entityId }),
  ]);

  const names = await checklistNames(db, entityId, [...new Set(marks.map((m) => m.code))]);
  const steps: Step[] = [];
  let submittedAt: Date | null = null;
  let reviewStarted = false;
  for (const e of events) {
    const detail = (e.detail ?? {}) as Record<string, unknown>;
    const transition = TRANSITION_EVENTS[e.action];
    let kind: PublicEvent | null = null;
    let documents: string[] = [];
    if (transition) {
      kind = transition;
      if (kind === 'submitted') submittedAt ??= e.created_at;
      if (kind === 'submitted' || kind === 'reopened') reviewStarted = false;
    } else if (REVIEW_ACTIONS.includes(e.action)) {
      // The review starts with staff's first decision after a submission (the applicant's own task does not count).
      if (!reviewStarted && submittedAt && e.user_id !== null && e.user_id !== c.owner_id) kind = 'in_review';
      if (e.user_id !== c.owner_id) reviewStarted = true;
    } else if (e.action === 'correction_requested') {
      kind = 'returned';
      documents = Array.isArray(detail.documentNames) ? detail.documentNames.filter((n): n is string => typeof n === 'string') : [];
    } else if (e.action === 'correction_resubmitted') {
      kind = 'resubmitted';
      reviewStarted = false;
    } else if (e.action === 'correction_cancelled' && detail.because === undefined) {
      // Ended by a completion or a close: that step says it already.
      kind = 'request_withdrawn';
    }
    if (kind) steps.push({ kind, at: e.created_at, documents });
  }

  // Each visible comment that marked documents missing is a request for them.
  const asked = new Map<number, Step>();
  for (const m of marks) {
    if (m.mark !== 'missing' || m.comment_id === null || !m.comment_at) continue;
    const step = asked.get(m.comment_id) ?? { kind: 'documents_requested' as const, at: m.comment_at, documents: [] };
    step.documents.push(names.get(m.code) ?? m.code);
    asked.set(m.comment_id, step);
  }
  steps.push(...asked.values());
  steps.sort((a, b) => a.at.getTime() - b.at.getTime());

  // What is asked now: the open correction's documents, then those whose latest visible mark is 'missing'.
  const latest = new Map<string, string>();
  for (const m of marks) latest.set(m.code, m.mark);
  const requested: PublicTimeline['requestedDocuments'] = (correction?.documents ?? []).map((d) => ({ code: d.code, name: d.name, source: 'correction' as const }));
  for (const [code, mark] of latest) {
    if (mark === 'missing' && !requested.some((d) => d.code === code)) requested.push({ code, name: names.get(code) ?? code, source: 'checklist' });
  }
  const open = c.state === 'PENDING';
  return {
    status: publicStatus({
      state: c.state as CaseState,
      correctionOpen: correction !== null,
      documentsMissing: requested.some((d) => d.source === 'checklist'),
      reviewStarted,
    }),
    submittedAt,
    updatedAt: c.updated_at,
    events: steps,
    requestedDocuments: open ? requested : [],
  };
}

/**
 * GET /api/cases/public-statuses: the plain-words status of each named case
 * the actor may read, by the same rule as its timeline (others are left
 * out, as a 404 would be). Meant for a page of the applicant's list.
 */
export async function publicStatuses(db: Db, actor: Actor, ids: readonly number[]): Promise<{ items: { id: number; status: PublicTimeline['status'] }[] }> {
  const items: { id: number; status: PublicTimeline['status'] }[] = [];
  for (const id of ids) {
    try {
      items.push({ id, status: (await publicTimeline(db, actor, id)).status });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
    }
  }
  return { items };
}
