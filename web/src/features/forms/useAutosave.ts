import { useCallback, useEffect, useRef, useState } from 'react';

export type AutosaveState =
  | { status: 'idle' }
  | { status: 'saving' }
  | { status: 'saved'; at: Date }
  | { status: 'error'; error: unknown };

/**
 * Saves a draft every `seconds` while the values keep changing: a tick whose
 * values equal the last saved ones does nothing. The values are read through
 * `getValues` only when a tick comes (no re-render per keystroke), compared
 * as JSON, and saved one at a time. A page that is hidden or left (tab
 * closed, phone locked, another page opened) saves at once, and so does
 * `flush()`. The values when the hook starts count as saved.
 */
export function useAutosave<T>(getValues: () => T, save: (values: T) => Promise<unknown> | unknown, seconds: number) {
  const [state, setState] = useState<AutosaveState>({ status: 'idle' });
  const getRef = useRef(getValues);
  getRef.current = getValues;
  const saveRef = useRef(save);
  saveRef.current = save;
  const lastSaved = useRef<string | null>(null);
  const running = useRef<Promise<void> | null>(null);
  const mounted = useRef(true);

  const snapshot = useCallback((): { values: T; text: string } => {
    const values = getRef.current();
    return { values, text: JSON.stringify(values) ?? '' };
  }, []);

  const flush = useCallback(async (): Promise<void> => {
    // One save at a time; a flush during a save waits for it, then looks again.
    if (running.current) await running.current;
    const { values, text } = snapshot();
    if (text === lastSaved.current) return;
    const work = (async () => {
      if (mounted.current) setState({ status: 'saving' });
      try {
        await saveRef.current(values);
        lastSaved.current = text;
        if (mounted.current) setState({ status: 'saved', at: new Date() });
      } catch (error) {
        if (mounted.current) setState({ status: 'error', error });
      }
    })();
    running.current = work;
    try {
      await work;
    } finally {
      if (running.current === work) running.current = null;
    }
  }, [snapshot]);

  useEffect(() => {
    mounted.current = true;
    if (lastSaved.current === null) lastSaved.current = snapshot().text;
    return () => {
      mounted.current = false;
    };
  }, [snapshot]);

  useEffect(() => {
    if (!(seconds > 0)) return;
    const timer = setInterval(() => void flush(), seconds * 1000);
    return () => clearInterval(timer);
  }, [flush, seconds]);

  useEffect(() => {
    const onHide = () => void flush();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') void flush();
    };
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [flush]);

  return { ...state, state, flush };
}
