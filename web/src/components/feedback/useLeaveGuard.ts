import { useCallback, useEffect, useRef } from 'react';
import { type Location, useBlocker } from 'react-router';
import type { ConfirmOptions } from './ConfirmDialog.js';
import { useDialogs } from './FeedbackProvider.js';

interface LeaveGuardOptions {
  /** Whether going from one address to the other leaves what is edited: another page, unless said otherwise. */
  leaves?: (from: Location, to: Location) => boolean;
  /** Whether closing or reloading the tab asks too (the browser's own question). */
  onUnload?: boolean;
}

const toAnotherPage = (from: Location, to: Location) => from.pathname !== to.pathname;

/**
 * Leaving with unsaved changes asks first: a link inside the app opens a
 * confirmation with `texts`, and closing or reloading the page gets the
 * browser's own question. Returns `release`, for a save that navigates at
 * once: what it stored is no longer unsaved, before the page renders again.
 */
export function useLeaveGuard(dirty: boolean, texts: ConfirmOptions, { leaves = toAnotherPage, onUnload = true }: LeaveGuardOptions = {}): () => void {
  const dialogs = useDialogs();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  // Read when asked: new texts (another language) must not ask a second time.
  const textsRef = useRef(texts);
  textsRef.current = texts;

  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyRef.current && leaves(currentLocation, nextLocation));
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void dialogs.confirm(textsRef.current).then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker, dialogs]);

  useEffect(() => {
    if (!onUnload) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [onUnload]);

  return useCallback(() => {
    dirtyRef.current = false;
  }, []);
}
