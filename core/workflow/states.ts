/**
 * Task and case states (spec section 4) and the one table of allowed
 * transitions. The engine on the server refuses any change this table does
 * not list; the browser shows buttons from it.
 */

export const TASK_STATES = ['UNASSIGNED', 'PENDING', 'BLOCKED', 'ACCEPTED', 'REJECTED', 'SUCCESS', 'INCONSISTENCY', 'CLOSED'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const CASE_STATES = ['DRAFT', 'PENDING', 'SUCCESS', 'REJECTED', 'INCONSISTENCY', 'CLOSED'] as const;
export type CaseState = (typeof CASE_STATES)[number];

export const SUBSTATES = ['NOT_INITIALIZED', 'IN_PROGRESS', 'COMPLETED', 'CLOSED'] as const;
export type Substate = (typeof SUBSTATES)[number];

/** Spec colours: UNASSIGNED blue, PENDING orange, SUCCESS and ACCEPTED green, REJECTED brown (shown as cancelled), BLOCKED, INCONSISTENCY and CLOSED red. */
export const STATE_COLORS: Record<TaskState | CaseState, string> = {
  DRAFT: '#757575',
  UNASSIGNED: '#1976D2',
  PENDING: '#EF6C00',
  SUCCESS: '#2E7D32',
  ACCEPTED: '#2E7D32',
  REJECTED: '#6D4C41',
  BLOCKED: '#C62828',
  INCONSISTENCY: '#C62828',
  CLOSED: '#C62828',
};

/** The i18n key a state is shown with (REJECTED reads "cancelled"). */
export const stateLabelKey = (state: TaskState | CaseState) => `states.${state}`;

export const TASK_ACTIONS = ['assign', 'accept', 'reject', 'restart', 'block', 'unblock', 'flag', 'close'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

/**
 * state -> action -> next state. `assign` from UNASSIGNED or PENDING sets a
 * responsible; `block` holds a task until all its predecessors are done and
 * `unblock` releases it; `flag` marks an inconsistency (the engine could not
 * continue: no next task matched, no responsible could be found); `restart`
 * gives a decided or flagged task back to work; `close` ends it with its case.
 */
export const TASK_TRANSITIONS: Readonly<Record<TaskState, Readonly<Partial<Record<TaskAction, TaskState>>>>> = {
  UNASSIGNED: { assign: 'PENDING', block: 'BLOCKED', flag: 'INCONSISTENCY', close: 'CLOSED' },
  PENDING: { assign: 'PENDING', accept: 'ACCEPTED', reject: 'REJECTED', block: 'BLOCKED', flag: 'INCONSISTENCY', close: 'CLOSED' },
  BLOCKED: { unblock: 'PENDING', flag: 'INCONSISTENCY', close: 'CLOSED' },
  ACCEPTED: { restart: 'PENDING', close: 'CLOSED' },
  REJECTED: { restart: 'PENDING', close: 'CLOSED' },
  SUCCESS: { close: 'CLOSED' },
  INCONSISTENCY: { restart: 'PENDING', assign: 'PENDING', close: 'CLOSED' },
  CLOSED: {},
};

export function nextTaskState(state: TaskState, action: TaskAction): TaskState | undefined {
  return TASK_TRANSITIONS[state][action];
}

/** The substate that goes with a task state. */
export function taskSubstate(state: TaskState): Substate {
  switch (state) {
    case 'UNASSIGNED':
    case 'BLOCKED':
      return 'NOT_INITIALIZED';
    case 'PENDING':
    case 'INCONSISTENCY':
      return 'IN_PROGRESS';
    case 'ACCEPTED':
    case 'REJECTED':
    case 'SUCCESS':
      return 'COMPLETED';
    case 'CLOSED':
      return 'CLOSED';
  }
}

/** Open tasks still need someone; the others are decided or ended. */
export const OPEN_TASK_STATES: readonly TaskState[] = ['UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY'];

export const CASE_ACTIONS = ['submit', 'complete', 'close', 'activate', 'reject', 'flag'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];

/**
 * Cases: a draft is submitted (opened); an open case is completed or closed
 * (both cannot be undone, spec: 'Once done it can't be changed') unless an
 * authorised user enables it again (`activate`, target wf_activar_caso).
 * `reject` ends it as not eligible; `flag` marks an inconsistency.
 */
export const CASE_TRANSITIONS: Readonly<Record<CaseState, Readonly<Partial<Record<CaseAction, CaseState>>>>> = {
  DRAFT: { submit: 'PENDING' },
  PENDING: { complete: 'SUCCESS', close: 'CLOSED', reject: 'REJECTED', flag: 'INCONSISTENCY' },
  SUCCESS: { activate: 'PENDING' },
  REJECTED: { activate: 'PENDING' },
  INCONSISTENCY: { activate: 'PENDING', close: 'CLOSED' },
  CLOSED: { activate: 'PENDING' },
};

export function nextCaseState(state: CaseState, action: CaseAction): CaseState | undefined {
  return CASE_TRANSITIONS[state][action];
}

/** Spec: the value stored under `tarea_retorno` when a reject ends the case as not eligible. */
export const NOT_ELIGIBLE = -1;
export const RETURN_KEY = 'tarea_retorno';
