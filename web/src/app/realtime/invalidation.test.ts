import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { caseKeys } from '../../features/cases/api/keys.js';
import { commentKeys } from '../../features/comments/api.js';
import { taskKeys } from '../../features/tasks/api.js';
import { createInvalidator, keysFor } from './invalidation.js';

describe('what a change makes stale', () => {
  it('a case: the lists, counts, drafts, that case’s page and its timeline', () => {
    expect(keysFor({ kind: 'case', ids: [42], caseIds: [42] })).toEqual([
      caseKeys.lists(), caseKeys.counts(), caseKeys.drafts(), caseKeys.detail(42), taskKeys.timeline('42'),
    ]);
  });
  it('a task: task lists, pendings, the task, its case’s page and timeline', () => {
    const keys = keysFor({ kind: 'task', ids: [7], caseIds: [42] });
    for (const k of [taskKeys.lists(), taskKeys.pendingLists(), taskKeys.detail('7'), taskKeys.timeline('42'), caseKeys.detail(42), caseKeys.lists()]) expect(keys).toContainEqual(k);
  });
  it('a comment, a checklist mark, a notification', () => {
    expect(keysFor({ kind: 'comment', ids: [1], caseIds: [42] })).toEqual([commentKeys.case(42), commentKeys.lists()]);
    expect(keysFor({ kind: 'checklist', ids: [1], caseIds: [42] })).toEqual([commentKeys.checklist(42)]);
    expect(keysFor({ kind: 'notification', ids: [1], caseIds: [] })).toEqual([commentKeys.notifications()]);
  });
  it('an import: the imports page and the dialog’s progress', () => {
    expect(keysFor({ kind: 'import', ids: [3], caseIds: [] })).toEqual([caseKeys.imports()]);
  });
  it('a payment batch or award: every payments query (batches, awards, the payee report)', () => {
    expect(keysFor({ kind: 'payment', ids: [4], caseIds: [9] })).toEqual([['payments']]);
  });
  it('a project: every project settings query (the shell re-themes) and the settings page', () => {
    expect(keysFor({ kind: 'project', ids: [2], caseIds: [] })).toEqual([['project-settings'], ['settings', 'application']]);
  });
  it('"many": everything of that kind', () => {
    expect(keysFor({ kind: 'case', ids: [], caseIds: [], many: true })).toEqual([caseKeys.all, taskKeys.all]);
  });
});

describe('the invalidator', () => {
  afterEach(() => vi.useRealTimers());
  it('gathers a burst of events and refetches each key once', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const inv = createInvalidator(client, 150);
    for (let i = 0; i < 50; i++) inv.changed({ kind: 'case', ids: [42], caseIds: [42] });
    expect(spy).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    expect(spy).toHaveBeenCalledTimes(5);
    expect(spy).toHaveBeenCalledWith({ queryKey: caseKeys.detail(42) });
  });
});
