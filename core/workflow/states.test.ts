import { describe, expect, it } from 'vitest';
import {
  CASE_ACTIONS, CASE_STATES, CASE_TRANSITIONS, type CaseAction, type CaseState, nextCaseState, nextTaskState, STATE_COLORS,
  TASK_ACTIONS, TASK_STATES, TASK_TRANSITIONS, type TaskAction, type TaskState, taskSubstate,
} from './states.js';

/** Every pair written out: a change to the table must change this list on purpose. */
const TASK_ALLOWED: Array<[TaskState, TaskAction, TaskState]> = [
  ['UNASSIGNED', 'assign', 'PENDING'], ['UNASSIGNED', 'block', 'BLOCKED'], ['UNASSIGNED', 'flag', 'INCONSISTENCY'], ['UNASSIGNED', 'close', 'CLOSED'],
  ['PENDING', 'assign', 'PENDING'], ['PENDING', 'accept', 'ACCEPTED'], ['PENDING', 'reject', 'REJECTED'], ['PENDING', 'block', 'BLOCKED'],
  ['PENDING', 'flag', 'INCONSISTENCY'], ['PENDING', 'close', 'CLOSED'],
  ['BLOCKED', 'unblock', 'PENDING'], ['BLOCKED', 'flag', 'INCONSISTENCY'], ['BLOCKED', 'close', 'CLOSED'],
  ['ACCEPTED', 'restart', 'PENDING'], ['ACCEPTED', 'close', 'CLOSED'],
  ['REJECTED', 'restart', 'PENDING'], ['REJECTED', 'close', 'CLOSED'],
  ['SUCCESS', 'close', 'CLOSED'],
  ['INCONSISTENCY', 'restart', 'PENDING'], ['INCONSISTENCY', 'assign', 'PENDING'], ['INCONSISTENCY', 'close', 'CLOSED'],
];

const CASE_ALLOWED: Array<[CaseState, CaseAction, CaseState]> = [
  ['DRAFT', 'submit', 'PENDING'],
  ['PENDING', 'complete', 'SUCCESS'], ['PENDING', 'close', 'CLOSED'], ['PENDING', 'reject', 'REJECTED'], ['PENDING', 'flag', 'INCONSISTENCY'],
  ['SUCCESS', 'activate', 'PENDING'], ['REJECTED', 'activate', 'PENDING'],
  ['INCONSISTENCY', 'activate', 'PENDING'], ['INCONSISTENCY', 'close', 'CLOSED'],
  ['CLOSED', 'activate', 'PENDING'],
];

describe('task transitions', () => {
  for (const state of TASK_STATES) {
    for (const action of TASK_ACTIONS) {
      const expected = TASK_ALLOWED.find(([s, a]) => s === state && a === action)?.[2];
      it(`${state} --${action}--> ${expected ?? 'refused'}`, () => {
        expect(nextTaskState(state, action)).toBe(expected);
      });
    }
  }

  it('lists every state once and nothing leaves CLOSED', () => {
    expect(Object.keys(TASK_TRANSITIONS).sort()).toEqual([...TASK_STATES].sort());
    expect(TASK_TRANSITIONS.CLOSED).toEqual({});
  });

  it('gives each state its substate and the spec colour', () => {
    expect(taskSubstate('UNASSIGNED')).toBe('NOT_INITIALIZED');
    expect(taskSubstate('PENDING')).toBe('IN_PROGRESS');
    expect(taskSubstate('ACCEPTED')).toBe('COMPLETED');
    expect(taskSubstate('CLOSED')).toBe('CLOSED');
    expect(STATE_COLORS.ACCEPTED).toBe(STATE_COLORS.SUCCESS);
    expect(new Set([STATE_COLORS.BLOCKED, STATE_COLORS.INCONSISTENCY, STATE_COLORS.CLOSED]).size).toBe(1);
  });
});

describe('case transitions', () => {
  for (const state of CASE_STATES) {
    for (const action of CASE_ACTIONS) {
      const expected = CASE_ALLOWED.find(([s, a]) => s === state && a === action)?.[2];
      it(`${state} --${action}--> ${expected ?? 'refused'}`, () => {
        expect(nextCaseState(state, action)).toBe(expected);
      });
    }
  }

  it('lists every case state', () => {
    expect(Object.keys(CASE_TRANSITIONS).sort()).toEqual([...CASE_STATES].sort());
  });
});
