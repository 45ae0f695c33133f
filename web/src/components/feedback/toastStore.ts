import type { AlertColor } from '@mui/material/Alert';
import { useSyncExternalStore } from 'react';

export interface Toast {
  id: number;
  message: string;
  severity: AlertColor;
}

/**
 * Toasts live outside React so that code with no component around it (the
 * query client's global error handler) can raise them.
 */
let queue: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]): void {
  queue = next;
  for (const listener of listeners) listener();
}

export function showToast(message: string, severity: AlertColor = 'error'): void {
  publish([...queue, { id: nextId++, message, severity }]);
}

export function dismissToast(id: number): void {
  publish(queue.filter((toast) => toast.id !== id));
}

/** Drops every toast (a new page session, or between tests). */
export function clearToasts(): void {
  publish([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToastQueue(): readonly Toast[] {
  return useSyncExternalStore(subscribe, () => queue);
}
