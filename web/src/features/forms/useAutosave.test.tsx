// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ApiError } from '../../lib/api.js';
import { AutosaveStatus } from './AutosaveStatus.js';
import { useAutosave } from './useAutosave.js';

describe('useAutosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(seconds = 300) {
    let values: Record<string, unknown> = { name: 'Ana' };
    const save = vi.fn(async (_values: Record<string, unknown>) => {});
    const hook = renderHook(() => useAutosave(() => values, save, seconds));
    return { hook, save, change: (next: Record<string, unknown>) => (values = next) };
  }

  test('saves every N seconds only when the values changed since the last save', async () => {
    const { hook, save, change } = setup(300);
    await act(() => vi.advanceTimersByTimeAsync(300_000));
    expect(save).not.toHaveBeenCalled();
    expect(hook.result.current.status).toBe('idle');

    change({ name: 'Ana María' });
    await act(() => vi.advanceTimersByTimeAsync(299_000));
    expect(save).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith({ name: 'Ana María' });
    expect(hook.result.current.status).toBe('saved');

    await act(() => vi.advanceTimersByTimeAsync(900_000));
    expect(save).toHaveBeenCalledTimes(1);
    change({ name: 'Ana María', age: 34 });
    await act(() => vi.advanceTimersByTimeAsync(300_000));
    expect(save).toHaveBeenCalledTimes(2);
  });

  test("shows 'Saving...' during a save and the error when it fails, then tries again at the next tick", async () => {
    const { hook, save, change } = setup(10);
    let finish: (() => void) | undefined;
    save.mockImplementationOnce(() => new Promise<void>((resolve) => (finish = resolve)));
    save.mockRejectedValueOnce(new ApiError(0, 'NETWORK', 'Check your internet connection.'));
    const status = render(<AutosaveStatus state={hook.result.current.state} />);

    change({ name: 'B' });
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(hook.result.current.status).toBe('saving');
    status.rerender(<AutosaveStatus state={hook.result.current.state} />);
    expect(screen.getByRole('status')).toHaveTextContent('Saving...');
    await act(async () => finish?.());
    expect(hook.result.current.status).toBe('saved');
    status.rerender(<AutosaveStatus state={hook.result.current.state} />);
    expect(screen.getByRole('status')).toHaveTextContent('Saved');

    change({ name: 'C' });
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(hook.result.current.status).toBe('error');
    status.rerender(<AutosaveStatus state={hook.result.current.state} />);
    expect(screen.getByRole('status')).toHaveTextContent('Not saved: Check your internet connection.');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(save).toHaveBeenCalledTimes(3);
    expect(save).toHaveBeenLastCalledWith({ name: 'C' });
    expect(hook.result.current.status).toBe('saved');
  });

  test('saves at once when the page is hidden or left, and on flush()', async () => {
    const { hook, save, change } = setup(300);
    change({ name: 'hidden' });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(save).toHaveBeenLastCalledWith({ name: 'hidden' });
    Reflect.deleteProperty(document, 'visibilityState');

    change({ name: 'left' });
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(save).toHaveBeenLastCalledWith({ name: 'left' });

    change({ name: 'flushed' });
    await act(() => hook.result.current.flush());
    expect(save).toHaveBeenLastCalledWith({ name: 'flushed' });
    // Nothing new: another flush saves nothing.
    await act(() => hook.result.current.flush());
    expect(save).toHaveBeenCalledTimes(3);

    hook.unmount();
    change({ name: 'after' });
    window.dispatchEvent(new Event('pagehide'));
    await act(() => vi.advanceTimersByTimeAsync(600_000));
    expect(save).toHaveBeenCalledTimes(3);
  });
});
