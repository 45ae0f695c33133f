import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskDetail } from './api.js';
import { useShownTask } from './useShownTask.js';

const task = (version: number, actions: TaskDetail['actions'] = ['save', 'accept']) => ({ id: 7, version, actions, data: { v: version } }) as unknown as TaskDetail;

describe('the task a page shows when a newer version arrives', () => {
  it('takes it at once when nothing was typed', () => {
    const { result, rerender } = renderHook(({ live }) => useShownTask(live, () => false), { initialProps: { live: task(1) } });
    rerender({ live: task(2) });
    expect(result.current.task?.version).toBe(2);
    expect(result.current.newer).toBe(false);
  });

  it('keeps what the user typed against, says a newer version exists, and loads it on demand', () => {
    const { result, rerender } = renderHook(({ live }) => useShownTask(live, () => true), { initialProps: { live: task(1) } });
    rerender({ live: task(2) });
    expect(result.current.task?.version).toBe(1);
    expect(result.current.newer).toBe(true);
    act(() => result.current.takeNewer());
    expect(result.current.task?.version).toBe(2);
    expect(result.current.newer).toBe(false);
  });

  it('takes a refetch of the same version (other parts may differ), and a task no longer editable', () => {
    const { result, rerender } = renderHook(({ live }) => useShownTask(live, () => true), { initialProps: { live: task(1, []) } });
    rerender({ live: task(2, []) });
    expect(result.current.task?.version).toBe(2);
  });
});
