import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { dismissToast, useToastQueue } from './toastStore.js';

const AUTO_HIDE_MS = 6000;

/** Shows queued toasts one at a time, oldest first. */
export function Toaster() {
  const [current] = useToastQueue();
  if (!current) return null;
  const close = () => dismissToast(current.id);
  return (
    <Snackbar
      key={current.id}
      open
      autoHideDuration={AUTO_HIDE_MS}
      onClose={(_event, reason) => {
        // A click elsewhere on the page should not hide an error before it is read.
        if (reason !== 'clickaway') close();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity={current.severity} variant="filled" onClose={close} sx={{ width: '100%' }}>
        {current.message}
      </Alert>
    </Snackbar>
  );
}
