import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/feedback/toastStore.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { type Master, useImportMasterItems } from './api.js';

/** The message of a refused file: the server names what is wrong with it (encoding, columns...). */
const fileProblem = (error: unknown) => (error instanceof ApiError && error.details[0]?.message) || errorMessage(error);

/**
 * CSV import in two steps: a dry run shows what would change and every row
 * the server refuses (line, column, message); then 'Import N rows' writes
 * the good rows.
 */
export function ImportDialog({ master, onClose }: { master: Master; onClose: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const input = useRef<HTMLInputElement | null>(null);
  const [file, setFile] = useState<File | null>(null);

  const dryRun = useImportMasterItems(master, true);
  const run = useImportMasterItems(master, false, {
    onSuccess: (result) => showToast(t('masters.import.done', { created: result.created, updated: result.updated }), 'success'),
    onRefreshed: onClose,
  });
  const result = dryRun.data;
  const rows = result ? result.created + result.updated : 0;

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    setFile(chosen);
    run.reset();
    dryRun.mutate(chosen);
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md" fullScreen={phone}>
      <DialogTitle id={titleId}>{t('masters.import.title', { name: master.name })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('masters.import.help')}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}>
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv"
            hidden
            aria-label={t('masters.import.choose')}
            onChange={(event) => {
              choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <Button variant="outlined" startIcon={<UploadFile />} onClick={() => input.current?.click()}>
            {t('masters.import.choose')}
          </Button>
          {file && <Typography sx={{ overflowWrap: 'anywhere' }}>{file.name}</Typography>}
        </Box>
        {(dryRun.isPending || run.isPending) && (
          <Box sx={{ mt: 2 }}>
            <Typography variant="body2">{t('masters.import.checking')}</Typography>
            <LinearProgress aria-label={t('masters.import.checking')} />
          </Box>
        )}
        {dryRun.isError && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {fileProblem(dryRun.error)}
          </Alert>
        )}
        {run.isError && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {fileProblem(run.error)}
          </Alert>
        )}
        {result && (
          <>
            <Alert severity={rows > 0 ? 'info' : 'warning'} sx={{ mt: 2 }}>
              {rows > 0 ? t('masters.import.summary', { created: result.created, updated: result.updated }) : t('masters.import.nothing')}
            </Alert>
            {result.errors.length > 0 && (
              <Box sx={{ mt: 2 }}>
                <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                  {t('masters.import.errorsTitle', { count: result.errors.length })}
                </Typography>
                <TableContainer sx={{ maxHeight: 320, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
                  <Table size="small" stickyHeader aria-label={t('masters.import.errorsTitle', { count: result.errors.length })}>
                    <TableHead>
                      <TableRow>
                        <TableCell sx={{ fontWeight: 600 }}>{t('masters.import.line')}</TableCell>
                        <TableCell sx={{ fontWeight: 600 }}>{t('masters.import.column')}</TableCell>
                        <TableCell sx={{ fontWeight: 600 }}>{t('masters.import.message')}</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {result.errors.map((error) => (
                        <TableRow key={`${error.line}:${error.column}:${error.message}`}>
                          <TableCell>{error.line}</TableCell>
                          <TableCell>
                            <code>{error.column ?? ''}</code>
                          </TableCell>
                          <TableCell sx={{ overflowWrap: 'anywhere' }}>{error.message}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
              </Box>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" disabled={!file || !result || rows === 0 || dryRun.isPending} loading={run.isPending} onClick={() => file && run.mutate(file)}>
          {t('masters.import.run', { count: rows })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
