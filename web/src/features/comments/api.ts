import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  checklistSchema,
  commentSchema,
  commentThreadSchema,
  EditComment,
  mentionablesSchema,
  NewComment,
  notificationListSchema,
  quickCommentsSchema,
} from '../../../../core/api/comments.js';
import type { Wire } from '../../../../core/api/wire.js';
import { type ListParams, useListPage } from '../../components/table/listParams.js';
import { apiFetch } from '../../lib/api.js';
import { type MutationCallbacks, refreshAfter } from '../../lib/mutation.js';
import { caseKeys } from '../cases/api.js';

/** One comment as the browser receives it (dates as ISO strings). */
export type Comment = Wire<z.infer<typeof commentSchema>>;
/** GET /api/cases/:id/comments: the thread, oldest first, and what the actor may do on it. */
export type CommentThreadData = Wire<z.infer<typeof commentThreadSchema>>;
/** GET /api/cases/:id/checklist. */
export type Checklist = Wire<z.infer<typeof checklistSchema>>;
export type ChecklistItem = Checklist['items'][number];
export type QuickComment = Wire<z.infer<typeof quickCommentsSchema>>['items'][number];
export type Mentionable = Wire<z.infer<typeof mentionablesSchema>>['items'][number];
export type NotificationList = Wire<z.infer<typeof notificationListSchema>>;
export type AppNotification = NotificationList['items'][number];
export type { EditComment, NewComment };

/** The dashboard's filters besides paging, sorting and the text search. */
export interface CommentListFilters {
  from?: string;
  to?: string;
  authorId?: number;
  caseNumber?: string;
}

const COMMENTS_PATH = '/api/comments';
const NOTIFICATIONS_PATH = '/api/notifications';
const caseCommentsPath = (caseId: number) => `/api/cases/${caseId}/comments`;
const commentPath = (id: number) => `${COMMENTS_PATH}/${id}`;

/**
 * Every comments query sits under `all`; the notifications under their own
 * root (the realtime client invalidates these on "comment on case 42" and
 * "notification" events). `case(caseId)` is the prefix of every thread of a
 * case, the whole case's and each task's.
 */
export const commentKeys = {
  all: ['comments'] as const,
  cases: () => [...commentKeys.all, 'case'] as const,
  case: (caseId: number, taskId?: number) =>
    (taskId === undefined ? [...commentKeys.cases(), caseId] : [...commentKeys.cases(), caseId, taskId]) as readonly unknown[],
  checklists: () => [...commentKeys.all, 'checklist'] as const,
  checklist: (caseId: number) => [...commentKeys.checklists(), caseId] as const,
  lists: () => [...commentKeys.all, 'list'] as const,
  list: (filters: CommentListFilters) => [...commentKeys.lists(), filters] as const,
  quick: () => [...commentKeys.all, 'quick'] as const,
  mentionable: (search: string) => [...commentKeys.all, 'mentionable', search] as const,
  notifications: () => ['notifications'] as const,
};

export function useCommentThread(caseId: number, taskId?: number) {
  return useQuery({
    queryKey: commentKeys.case(caseId, taskId),
    queryFn: ({ signal }) =>
      apiFetch<CommentThreadData>(`${caseCommentsPath(caseId)}${taskId === undefined ? '' : `?taskId=${taskId}`}`, { signal }),
    // The thread shows its own 'Error loading comments'.
    meta: { silentError: true },
  });
}

/** The checklist of a case; also the documents a comment may tick. */
export function useChecklist(caseId: number, enabled = true) {
  return useQuery({
    queryKey: commentKeys.checklist(caseId),
    queryFn: ({ signal }) => apiFetch<Checklist>(`/api/cases/${caseId}/checklist`, { signal }),
    enabled,
    meta: { silentError: true },
  });
}

export function useQuickComments(enabled: boolean) {
  return useQuery({
    queryKey: commentKeys.quick(),
    queryFn: ({ signal }) => apiFetch<{ items: QuickComment[] }>(`${COMMENTS_PATH}/quick`, { signal }),
    enabled,
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

/** Staff of the tenant whose name or email matches `search`, for @mentions and the dashboard's user filter. */
export function useMentionables(search: string, enabled: boolean) {
  return useQuery({
    queryKey: commentKeys.mentionable(search),
    queryFn: ({ signal }) =>
      apiFetch<{ items: Mentionable[] }>(`${COMMENTS_PATH}/mentionable${search ? `?${new URLSearchParams({ search })}` : ''}`, { signal }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { silentError: true },
  });
}

/** The comments dashboard: one page of the tenant's comments. */
export function useCommentList(params: ListParams, filters: CommentListFilters) {
  return useListPage<Comment>(commentKeys.list(filters), COMMENTS_PATH, params, {
    from: filters.from || undefined,
    to: filters.to || undefined,
    authorId: filters.authorId === undefined ? undefined : String(filters.authorId),
    caseNumber: filters.caseNumber?.trim() || undefined,
  });
}

/** After a change to comments of a case: every thread, checklist and dashboard list, and the case's history. */
export function useInvalidateComments() {
  const client = useQueryClient();
  return (caseId?: number) =>
    Promise.all([
      client.invalidateQueries({ queryKey: commentKeys.all }),
      client.invalidateQueries({ queryKey: caseId === undefined ? caseKeys.details() : caseKeys.history(caseId) }),
      client.invalidateQueries({ queryKey: commentKeys.notifications() }),
    ]);
}

/** Posts a comment on a case (or one of its tasks). Errors are the caller's to show (the composer keeps the text). */
export function useAddComment(caseId: number, callbacks: MutationCallbacks<Comment, NewComment> = {}) {
  const invalidate = useInvalidateComments();
  return useMutation({
    mutationFn: (body: NewComment) => apiFetch<Comment>(caseCommentsPath(caseId), { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, () => invalidate(caseId)),
    onError: callbacks.onError,
  });
}

export interface CommentEdit extends EditComment {
  id: number;
  caseId: number;
}

/** Edits a comment's text (with the version it was read at). Errors are the caller's to show. */
export function useEditComment(callbacks: MutationCallbacks<Comment, CommentEdit> = {}) {
  const invalidate = useInvalidateComments();
  return useMutation({
    mutationFn: ({ id, caseId: _caseId, ...body }: CommentEdit) => apiFetch<Comment>(commentPath(id), { method: 'PATCH', json: body }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, (_data, variables) => invalidate(variables.caseId)),
    onError: callbacks.onError,
  });
}

/** Deletes a comment. Errors are the caller's to show. */
export function useDeleteComment(callbacks: MutationCallbacks<void, Comment> = {}) {
  const invalidate = useInvalidateComments();
  return useMutation({
    mutationFn: (comment: Comment) => apiFetch<void>(commentPath(comment.id), { method: 'DELETE' }),
    meta: { silentError: true },
    onSuccess: refreshAfter(callbacks, (_data, comment) => invalidate(comment.caseId)),
    onError: callbacks.onError,
  });
}

/** My notifications (newest first) and how many are unread. Fails silently: the bell then hides. */
export function useNotifications() {
  return useQuery({
    queryKey: commentKeys.notifications(),
    queryFn: ({ signal }) => apiFetch<NotificationList>(NOTIFICATIONS_PATH, { signal }),
    retry: false,
    refetchInterval: 120_000,
    meta: { silentError: true },
  });
}

/** Marks one notification read, or all of them (`id` undefined). */
export function useMarkNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number | undefined) =>
      apiFetch<void>(id === undefined ? `${NOTIFICATIONS_PATH}/read-all` : `${NOTIFICATIONS_PATH}/${id}/read`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: commentKeys.notifications() }),
  });
}
