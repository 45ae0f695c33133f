/**
 * The comments API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which takes its types from them
 * through `Wire`).
 *
 * A comment belongs to a case and optionally to one of its tasks. It is plain
 * text (never HTML), numbered per case (the spec's `nrocomentario`), with its
 * author, date and the case's state when it was written. It is internal unless
 * `visibleToApplicant`. It may tick documents of the checklist (the
 * `definiciones` master) as missing or received, and mention staff of the
 * tenant (who are notified in the app).
 */
import { z } from 'zod';
import { CASE_STATES } from '../workflow/states.js';
import { dayText, listQuery, listResponse } from './list.js';

/** Longest comment accepted (characters, after trimming). */
export const COMMENT_MAX = 5000;
/** Most documents one comment may tick, and most people one comment may mention. */
export const COMMENT_MAX_DOCUMENTS = 30;
export const COMMENT_MAX_MENTIONS = 20;

/** A document of the checklist as a comment or a review marks it. */
export const DOCUMENT_MARKS = ['missing', 'received', 'accepted'] as const;
export type DocumentMark = (typeof DOCUMENT_MARKS)[number];

const dateText = dayText;
const documentCode = z.string().trim().min(1).max(100);

/** What an actor may do on one comment (comments/policy.ts decides; the web shows buttons from it). */
export const COMMENT_ACTIONS = ['edit', 'delete'] as const;
export type CommentActionName = (typeof COMMENT_ACTIONS)[number];

export const commentSchema = z.object({
  id: z.number(),
  caseId: z.number(),
  caseNumber: z.string().nullable(),
  taskId: z.number().nullable(),
  taskName: z.string().nullable(),
  /** Per case, from 1 (`nrocomentario`). */
  number: z.number(),
  body: z.string(),
  visibleToApplicant: z.boolean(),
  /** The case's state when the comment was written. */
  caseState: z.enum(CASE_STATES),
  authorId: z.number().nullable(),
  authorName: z.string(),
  /** Documents this comment ticked, with the mark it gave them (codes of the `definiciones` master, with their names). */
  documents: z.array(z.object({ code: z.string(), name: z.string(), mark: z.enum(DOCUMENT_MARKS) })),
  mentions: z.array(z.object({ id: z.number(), name: z.string() })),
  createdAt: z.date(),
  editedAt: z.date().nullable(),
  /** Optimistic concurrency: send it back when editing. */
  version: z.number(),
  actions: z.array(z.enum(COMMENT_ACTIONS)),
});
export type Comment = z.infer<typeof commentSchema>;

/** GET /api/cases/:id/comments (?taskId= narrows to one task's comments): the thread, oldest first. */
export const commentThreadQuerySchema = z.strictObject({
  taskId: z.coerce.number().int().positive().optional(),
});
export const commentThreadSchema = z.object({
  items: z.array(commentSchema),
  /** May this actor add a comment here (and tick documents / mention / make it internal)? */
  canComment: z.boolean(),
  canUseStaffTools: z.boolean(),
});

/** POST /api/cases/:id/comments. An applicant's own comment is always visible to them and may not tick documents or mention. */
export const newCommentSchema = z.strictObject({
  body: z.string().trim().min(1, 'validation.required').max(COMMENT_MAX, 'validation.tooLong'),
  taskId: z.number().int().positive().optional(),
  visibleToApplicant: z.boolean().default(false),
  documents: z.array(z.strictObject({ code: documentCode, mark: z.enum(['missing', 'received']) })).max(COMMENT_MAX_DOCUMENTS).default([]),
  /** Ids of staff users of the tenant named with @ in the body. */
  mentions: z.array(z.number().int().positive()).max(COMMENT_MAX_MENTIONS).default([]),
});
export type NewComment = z.input<typeof newCommentSchema>;

/** PATCH /api/comments/:id (the author, or the comments dashboard's editors). */
export const editCommentSchema = z.strictObject({
  version: z.number().int().min(1),
  body: z.string().trim().min(1, 'validation.required').max(COMMENT_MAX, 'validation.tooLong'),
  visibleToApplicant: z.boolean().optional(),
});
export type EditComment = z.infer<typeof editCommentSchema>;

/** One row of the document checklist of a case: its latest mark, from a comment or a review. */
export const checklistItemSchema = z.object({
  code: z.string(),
  name: z.string(),
  mark: z.enum(DOCUMENT_MARKS).nullable(),
  /** The comment that gave the latest mark (null when a review accepted it, or no mark yet). */
  commentNumber: z.number().nullable(),
  fileId: z.string().nullable(),
  byName: z.string().nullable(),
  at: z.date().nullable(),
});
/** GET /api/cases/:id/checklist. */
export const checklistSchema = z.object({ items: z.array(checklistItemSchema) });

/** POST /api/cases/:id/checklist/:code/accept: the document review's `accept_doc`. */
export const acceptDocumentSchema = z.strictObject({ fileId: z.string().min(1).max(100).optional() });

/** Quick comments: predefined texts per tenant, in the user's language (GET /api/comments/quick). */
export const quickCommentSchema = z.object({ code: z.string(), text: z.string() });
export const quickCommentsSchema = z.object({ items: z.array(quickCommentSchema) });

/** GET /api/comments/mentionable?search=: staff of the tenant that may be mentioned. */
export const mentionQuerySchema = z.strictObject({ search: z.string().trim().max(100).optional() });
export const mentionablesSchema = z.object({ items: z.array(z.object({ id: z.number(), name: z.string(), email: z.string() })) });

/** GET /api/comments: the comments dashboard (target `dashboard_comments`). */
export const commentFiltersSchema = listQuery(['created_at', 'case_number', 'author']).extend({
  from: dateText.optional(),
  to: dateText.optional(),
  authorId: z.coerce.number().int().positive().optional(),
  caseNumber: z.string().trim().max(100).optional(),
});
export type CommentFilters = z.infer<typeof commentFiltersSchema>;
export const commentListSchema = listResponse(commentSchema);

/**
 * In-app notifications, one kind per event of issue 16 (the email events but
 * the digest). GET /api/notifications. `taskId`/`taskName` name the task of
 * a task event; `detail` is the reason of a returned application, or the
 * file's name of an import. A bulk import tells each assignee once
 * (`tasks_imported`, `count` tasks of import `importId`) and its importer
 * when it ends (`import_done`, `count` cases created). `case_resubmitted`
 * tells the staff member who returned an application that its applicant
 * corrected and sent it back; `correction_cancelled` tells the applicant
 * that staff withdrew their request for correction; `webhook_disabled` tells
 * a tenant's administrators that a webhook subscription was turned off after
 * a day of failed deliveries (`detail`: its URL; no case).
 */
export const NOTIFICATION_KINDS = [
  'mention',
  'application_submitted',
  'task_assigned',
  'task_due_soon',
  'task_overdue',
  'case_returned',
  'case_completed',
  'case_closed',
  'comment_visible',
  'tasks_imported',
  'import_done',
  'case_resubmitted',
  'correction_cancelled',
  'webhook_disabled',
  // Issue 23: a case's party submitted their side (told to the staff working the case).
  'party_submitted',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const notificationSchema = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  caseId: z.number().nullable(),
  caseNumber: z.string().nullable(),
  taskId: z.number().nullable(),
  taskName: z.string().nullable(),
  detail: z.string().nullable(),
  commentId: z.number().nullable(),
  importId: z.number().nullable(),
  count: z.number().nullable(),
  byName: z.string().nullable(),
  createdAt: z.date(),
  readAt: z.date().nullable(),
});
export const notificationListSchema = z.object({ items: z.array(notificationSchema), unread: z.number() });

/** The events whose notification may also come by email, and those a daily digest gathers instead. */
export const DIGESTED_KINDS: readonly NotificationKind[] = ['task_assigned', 'task_due_soon', 'task_overdue', 'mention', 'tasks_imported'];

/** A person's choice (GET and PUT /api/notifications/preferences): which events also reach them by email, and the daily digest. */
export const notificationPreferencesSchema = z.strictObject({
  emailEvents: z.array(z.enum(NOTIFICATION_KINDS, { error: 'validation.chooseOption' })).max(NOTIFICATION_KINDS.length),
  /** One email a day (at 7:00 in the person's time zone) with their due and overdue tasks and new mentions, instead of one email per such event. */
  digest: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
