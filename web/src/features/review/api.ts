import { useQuery, useQueryClient } from '@tanstack/react-query';
import { caseKeys } from '../cases/api/keys.js';
import { commentKeys } from '../comments/api.js';
import { fileLink } from '../tasks/api.js';

/** The review's own queries: the short-lived link of the document being shown. */
export const reviewKeys = {
  all: ['review'] as const,
  link: (fileId: string) => [...reviewKeys.all, 'link', fileId] as const,
};

/** A link lives five minutes: one older than four is asked for again. */
const LINK_FRESH_MS = 4 * 60_000;

/** The short-lived link (GET /api/files/:id/link) of the file being shown; each member asks for their own, so each is checked. */
export function useFileLink(fileId: string | null) {
  return useQuery({
    queryKey: reviewKeys.link(fileId ?? ''),
    queryFn: () => fileLink(fileId ?? ''),
    enabled: fileId !== null,
    staleTime: LINK_FRESH_MS,
    gcTime: LINK_FRESH_MS,
    retry: false,
    meta: { silentError: true },
  });
}

export { fileLink };

/** After `refresh_page` or `available_docs`: the case (its documents) and its checklist load again. */
export function useRefreshReviewedCase(caseId: number) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: caseKeys.detail(caseId) }),
      client.invalidateQueries({ queryKey: commentKeys.checklist(caseId) }),
    ]);
}

/** After `accept_doc`: the checklist shows the new mark. */
export function useRefreshChecklist(caseId: number) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: commentKeys.checklist(caseId) });
}
