import type { AlertColor } from '@mui/material/Alert';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { ConfirmDialog, type ConfirmOptions } from './ConfirmDialog.js';
import { ErrorDialog } from './ErrorDialog.js';
import { LoadingDialog } from './LoadingDialog.js';
import { SuccessDialog } from './SuccessDialog.js';
import { Toaster } from './Toaster.js';
import { showToast } from './toastStore.js';
import { WarningDialog } from './WarningDialog.js';

export interface Dialogs {
  /** Blocks the page with 'Loading...' (or `text`) until hideLoading(). */
  showLoading: (text?: string) => void;
  hideLoading: () => void;
  /** Each message dialog resolves when the user closes it. */
  error: (message?: string) => Promise<void>;
  warning: (message: string) => Promise<void>;
  success: (message?: string) => Promise<void>;
  /** Resolves true on Confirm, false on Cancel, Escape or a click outside. */
  confirm: (options: ConfirmOptions) => Promise<boolean>;
}

type DialogRequest =
  | { kind: 'error' | 'warning' | 'success'; message?: string; resolve: () => void }
  | { kind: 'confirm'; options: ConfirmOptions; resolve: (confirmed: boolean) => void };

/** The id remounts the dialog for each request, so focus lands anew even when two of a kind follow. */
type QueuedDialog = DialogRequest & { id: number };

const DialogsContext = createContext<Dialogs | null>(null);

/** Dialogs queue up: a second request waits until the first is answered. */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<QueuedDialog[]>([]);
  const nextId = useRef(0);
  const [loadingText, setLoadingText] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);

  const enqueue = useCallback((request: DialogRequest) => {
    const id = nextId.current++;
    setQueue((q) => [...q, { ...request, id }]);
  }, []);

  const dialogs = useMemo<Dialogs>(() => {
    const message = (kind: 'error' | 'warning' | 'success', text?: string) =>
      new Promise<void>((resolve) => enqueue({ kind, message: text, resolve }));
    return {
      showLoading: (text) => {
        setLoadingText(text);
        setLoading(true);
      },
      hideLoading: () => setLoading(false),
      error: (text) => message('error', text),
      warning: (text) => message('warning', text),
      success: (text) => message('success', text),
      confirm: (options) => new Promise<boolean>((resolve) => enqueue({ kind: 'confirm', options, resolve })),
    };
  }, [enqueue]);

  const current = queue[0];
  const answer = (confirmed: boolean) => {
    if (!current) return;
    if (current.kind === 'confirm') current.resolve(confirmed);
    else current.resolve();
    setQueue((q) => q.slice(1));
  };
  const close = () => answer(false);

  return (
    <DialogsContext value={dialogs}>
      {children}
      <LoadingDialog open={loading} text={loadingText} />
      {current?.kind === 'confirm' && <ConfirmDialog key={current.id} open {...current.options} onAnswer={answer} />}
      {current?.kind === 'error' && <ErrorDialog key={current.id} open message={current.message} onClose={close} />}
      {current?.kind === 'warning' && (
        <WarningDialog key={current.id} open message={current.message ?? ''} onClose={close} />
      )}
      {current?.kind === 'success' && <SuccessDialog key={current.id} open message={current.message} onClose={close} />}
      <Toaster />
    </DialogsContext>
  );
}

export function useDialogs(): Dialogs {
  const dialogs = useContext(DialogsContext);
  if (!dialogs) throw new Error('useDialogs needs a FeedbackProvider above it');
  return dialogs;
}

export interface ToastApi {
  show: (message: string, severity?: AlertColor) => void;
  error: (message: string) => void;
  success: (message: string) => void;
}

const toastApi: ToastApi = {
  show: showToast,
  error: (message) => showToast(message, 'error'),
  success: (message) => showToast(message, 'success'),
};

export function useToast(): ToastApi {
  return toastApi;
}
