/**
 * What to refetch when the server says records changed. Events carry ids
 * only; the queries refetch through the normal API, which checks access.
 * Events arriving together are gathered for a moment so that a burst (an
 * import, a bulk close) refetches each list once. Only queries on screen
 * refetch; the others are marked stale and load fresh when next shown.
 * A form being typed into is never reset by this: forms take their starting
 * values once (react-hook-form `defaultValues`).
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { ChangedEvent } from '../../../../core/realtime.js';
import { caseKeys } from '../../features/cases/api/keys.js';
import { commentKeys } from '../../features/comments/api.js';
import { taskKeys } from '../../features/tasks/api.js';
import { paymentKeys } from '../../features/payments/api.js';
import { applicationSettingsKeys } from '../../features/settings/api.js';
import { PROJECT_SETTINGS_KEY } from '../project/projectSettings.js';

/** The query-key prefixes a change makes stale. */
export function keysFor(e: ChangedEvent): QueryKey[] {
  switch (e.kind) {
    case 'case':
      if (e.many) return [caseKeys.all, taskKeys.all];
      return [caseKeys.lists(), caseKeys.counts(), caseKeys.drafts(), ...e.ids.map((id) => caseKeys.detail(id)), ...e.ids.map((id) => taskKeys.timeline(String(id)))];
    case 'task':
      // A decided task may have set its case's award (issue 23).
      if (e.many) return [taskKeys.all, caseKeys.lists(), caseKeys.details(), paymentKeys.awards()];
      return [
        taskKeys.lists(), taskKeys.pendingLists(), ...e.ids.map((id) => taskKeys.detail(String(id))),
        ...e.caseIds.map((id) => taskKeys.timeline(String(id))), ...e.caseIds.map((id) => caseKeys.detail(id)), caseKeys.lists(),
        ...e.caseIds.map((id) => paymentKeys.award(id)),
      ];
    case 'comment':
      if (e.many) return [commentKeys.cases(), commentKeys.lists()];
      return [...e.caseIds.map((id) => commentKeys.case(id)), commentKeys.lists()];
    case 'checklist':
      if (e.many) return [commentKeys.checklists()];
      return e.caseIds.map((id) => commentKeys.checklist(id));
    case 'notification':
      return [commentKeys.notifications()];
    case 'import':
      // The imports page and an import dialog's progress.
      return [caseKeys.imports()];
    case 'project':
      // A project's settings were saved: the shell's settings (title, colours, favicon, logo) and the settings page.
      return [PROJECT_SETTINGS_KEY, applicationSettingsKeys.all];
    case 'party':
      // A case's parties (issue 23): the staff case page's list and the party's own pages, all under ['parties'].
      return [['parties']];
    case 'payment':
      // A batch built, exported or paid, or an award changed (issue 23): batches, awards and the payee report.
      return [paymentKeys.all];
  }
}

export function createInvalidator(queryClient: QueryClient, waitMs = 150) {
  let pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const keys = [...pending.values()];
    pending = new Map();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  return {
    changed(e: ChangedEvent) {
      for (const key of keysFor(e)) pending.set(JSON.stringify(key), key);
      timer ??= setTimeout(flush, waitMs);
    },
    /** Everything on screen may be stale. */
    everything() {
      void queryClient.invalidateQueries();
    },
  };
}
