import { useQueryClient } from '@tanstack/react-query';
import type { FormDefinition } from '../../../../core/forms/definition.js';
import type { TaskState } from '../../../../core/workflow/states.js';

/** One task of a list (GET /api/tasks). Dates arrive as ISO strings. */
export interface TaskItem {
  id: number;
  code: string;
  name: string;
  state: TaskState;
  caseId: number;
  caseNumber: string | null;
  protocolName: string;
  responsibleId: number | null;
  responsibleName: string | null;
  teamId: number | null;
  teamName: string | null;
  dueAt: string | null;
  overdue: boolean;
  createdAt: string;
}

/** One of my pending tasks with the spec's columns (GET /api/tasks/pending). */
export interface PendingItem extends TaskItem {
  possibleDuplicated: boolean;
  requireIncome: boolean;
  section8: boolean;
  thirdParty: boolean;
  /** What this user may do from the list: 'accept', 'reject'. */
  actions: string[];
}

export type TaskAction = 'accept' | 'reject' | 'restart' | 'assign' | 'save';

/** Everything the task page shows (GET /api/tasks/:id). */
export interface TaskDetail extends TaskItem {
  version: number;
  data: Record<string, unknown>;
  /** Why the task came back (a reject of a later task), or why it was rejected. */
  reason: string | null;
  /** What an ad-hoc task asks for (null for protocol tasks). */
  instructions: string | null;
  form: { versionId: number; definition: FormDefinition } | null;
  case: {
    id: number;
    number: string | null;
    state: string;
    ownerName: string;
    data: Record<string, unknown>;
    mainForm: FormDefinition | null;
    possibleDuplicated: boolean;
    docDate: string | null;
    /** Names of the master items the case data holds, by field and code. */
    optionLabels: Record<string, Record<string, string>>;
  };
  next: Array<{ code: string; name: string; when: string | null }>;
  onReject: { to: string; name: string } | { notEligible: true } | null;
  actions: TaskAction[];
}

/** The tasks of one case, oldest first (GET /api/cases/:id/timeline). */
export interface CaseTimeline {
  caseId: number;
  number: string | null;
  state: string;
  tasks: Array<TaskItem & { reason: string | null; decidedAt: string | null; decidedBy: string | null }>;
}

/** The answer of a bulk action: who moved, and why the others did not. */
export interface BulkResult {
  done: number[];
  failed: Array<{ id: number; message: string }>;
}

export const TASKS_PATH = '/api/tasks';
export const PENDING_PATH = '/api/tasks/pending';

/** After any decision: every task list, page and timeline may have changed. */
export function useInvalidateTasks() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [TASKS_PATH] }),
      queryClient.invalidateQueries({ queryKey: [PENDING_PATH] }),
      queryClient.invalidateQueries({ queryKey: ['task'] }),
      queryClient.invalidateQueries({ queryKey: ['timeline'] }),
      queryClient.invalidateQueries({ queryKey: ['/api/protocols'] }),
    ]);
}
