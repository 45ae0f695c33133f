import { TASK_MAIL_EVENTS, type TaskMailEvent } from '../../../../../core/workflow/protocol.js';
import type { ApiErrorDetail } from '../../../lib/api.js';

/** The settings of a protocol that the server may name in a 400 or 422. */
export const SETTING_FIELDS = [
  'code',
  'name',
  'nameEn',
  'description',
  'caseType',
  'public',
  'mainFormId',
  'publicPage.titleEn',
  'publicPage.titleEs',
  'publicPage.descriptionEn',
  'publicPage.descriptionEs',
  'publicPage.eligibilityEn',
  'publicPage.eligibilityEs',
] as const;
export type SettingField = (typeof SETTING_FIELDS)[number];

/**
 * Where in a task template a problem is: a field of the task dialog, or the
 * task as a whole (''). 'mailTemplates' and 'escalation' alone: the block of
 * messages and escalation as a whole.
 */
export type TaskPart =
  | ''
  | 'code'
  | 'name'
  | 'name_en'
  | 'formId'
  | 'responsible'
  | 'expirationDays'
  | 'expirationUnit'
  | 'join'
  | 'onReject'
  | `onAccept.${number}`
  | 'mailTemplates'
  | `mailTemplates.${TaskMailEvent}`
  | 'escalation'
  | 'escalation.role'
  | 'escalation.afterDays'
  | 'award'
  | 'waitsForParty';

export interface TaskProblem {
  part: TaskPart;
  message: string;
}

/** The problems of a save, sorted by where the editor shows them. */
export interface SortedProblems {
  settings: Partial<Record<SettingField, string>>;
  start: string[];
  /** By task code. */
  tasks: Map<string, TaskProblem[]>;
  pendingColumns: string[];
  /** The party roles' settings (`parties.*`) and the award caps (`awardCaps.*`). */
  parties: string[];
  awards: string[];
  /** What has no better place ('tasks', 'definition', unknown paths). */
  general: string[];
}

export const NO_PROBLEMS: SortedProblems = { settings: {}, start: [], tasks: new Map(), pendingColumns: [], parties: [], awards: [], general: [] };

function taskPart(rest: string[]): TaskPart {
  const [head, index] = rest;
  if (!head) return '';
  if (head === 'onAccept') return /^\d+$/.test(index ?? '') ? `onAccept.${Number(index)}` : '';
  if (head === 'mailTemplates') return (TASK_MAIL_EVENTS as readonly string[]).includes(index ?? '') ? `mailTemplates.${index as TaskMailEvent}` : 'mailTemplates';
  if (head === 'escalation') return index === 'role' || index === 'afterDays' ? `escalation.${index}` : 'escalation';
  if (['code', 'name', 'name_en', 'formId', 'responsible', 'expirationDays', 'expirationUnit', 'join', 'onReject', 'award', 'waitsForParty'].includes(head)) return head as TaskPart;
  return '';
}

/**
 * Sorts the server's details by place: `tasks.<code>.onAccept.0.when` (the
 * semantic checks name tasks by code) and `tasks.<index>.name` (the schema
 * names them by position) both land on that task, under the part of the
 * task dialog they concern.
 */
export function sortProblems(details: readonly ApiErrorDetail[], taskCodes: readonly string[]): SortedProblems {
  const sorted: SortedProblems = { settings: {}, start: [], tasks: new Map(), pendingColumns: [], parties: [], awards: [], general: [] };
  for (const { path, message } of details) {
    const parts = path.replace(/^definition\./, '').split('.');
    const [head, second] = parts;
    if ((SETTING_FIELDS as readonly string[]).includes(path)) {
      sorted.settings[path as SettingField] ??= message;
    } else if (head === 'start') {
      sorted.start.push(message);
    } else if (head === 'pendingColumns') {
      sorted.pendingColumns.push(message);
    } else if (head === 'parties') {
      sorted.parties.push(message);
    } else if (head === 'awardCaps') {
      sorted.awards.push(message);
    } else if (head === 'tasks' && second !== undefined) {
      const code = /^\d+$/.test(second) ? taskCodes[Number(second)] : second;
      if (code === undefined) {
        sorted.general.push(message);
        continue;
      }
      const list = sorted.tasks.get(code) ?? [];
      list.push({ part: taskPart(parts.slice(2)), message });
      sorted.tasks.set(code, list);
    } else {
      sorted.general.push(message);
    }
  }
  return sorted;
}

/** How many problems there are in all. */
export function countProblems(problems: SortedProblems): number {
  let n = Object.keys(problems.settings).length + problems.start.length + problems.pendingColumns.length + problems.parties.length + problems.awards.length + problems.general.length;
  for (const list of problems.tasks.values()) n += list.length;
  return n;
}
