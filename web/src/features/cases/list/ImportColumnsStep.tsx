import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.js';
import type { ImportJob } from '../api.js';

interface ImportColumnsStepProps {
  job: ImportJob;
  refColumn: string;
  /** The user asked for the check without naming the reference column. */
  refMissing: boolean;
  onRefColumn: (column: string) => void;
  /** Column -> field name ('' ignores the column). */
  mapping: Record<string, string>;
  onMap: (column: string, field: string) => void;
  /** The server's message about a column (or 'refColumn'), from the last check. */
  mappingErrors: Map<string, string>;
  labelOf: (name: string | null) => string;
  /** Why the last check was refused; null when it was not. */
  checkError: unknown;
  checking: boolean;
}

/** The import's second step: the reference column, and each column of the file mapped to a field or ignored. */
export function ImportColumnsStep({ job, refColumn, refMissing, onRefColumn, mapping, onMap, mappingErrors, labelOf, checkError, checking }: ImportColumnsStepProps) {
  const { t } = useTranslation();
  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('caseList.import.fileSummary', { name: job.fileName, count: job.total })}
      </Typography>
      <Alert severity="info" role="note" sx={{ mb: 2 }}>
        {t('caseList.import.refHelp')}
      </Alert>
      <TextField
        select
        fullWidth
        label={t('caseList.import.refColumn')}
        value={refColumn}
        onChange={(event) => onRefColumn(event.target.value)}
        required
        error={refMissing || mappingErrors.has('refColumn')}
        helperText={refMissing ? t('validation.chooseOption') : undefined}
        sx={{ mb: 2 }}
      >
        {job.header.map((column) => (
          <MenuItem key={column} value={column}>
            {column}
          </MenuItem>
        ))}
      </TextField>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('caseList.import.mappingTitle')}
      </Typography>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table
          size="small"
          aria-label={t('caseList.import.mappingTitle')}
          // Phones: each column is a block with its field under it (nothing scrolls sideways).
          sx={{
            '& thead': { display: { xs: 'none', sm: 'table-header-group' } },
            '& tbody tr': { display: { xs: 'block', sm: 'table-row' }, borderBottom: { xs: 1, sm: 0 }, borderColor: 'divider', py: { xs: 1, sm: 0 } },
            '& tbody td': { display: { xs: 'block', sm: 'table-cell' }, borderBottom: { xs: 0, sm: 1 }, borderColor: 'divider', py: { xs: 0.5, sm: 1 } },
            '& tbody td.sample': { display: { xs: 'none', sm: 'table-cell' } },
          }}
        >
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{t('caseList.import.column')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('caseList.import.sample')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('caseList.import.field')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {job.header.map((column) => {
              const problem = mappingErrors.get(column);
              return (
                <TableRow key={column}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <code>{column}</code>
                    {column === refColumn && (
                      <Typography variant="caption" component="div" color="text.secondary">
                        {t('caseList.import.isRef')}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell className="sample" sx={{ overflowWrap: 'anywhere', color: 'text.secondary' }}>
                    {job.sample[0]?.[column] ?? ''}
                  </TableCell>
                  <TableCell sx={{ minWidth: { sm: 160 } }}>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      value={mapping[column] ?? ''}
                      onChange={(event) => onMap(column, event.target.value)}
                      error={!!problem}
                      helperText={problem}
                      slotProps={{ select: { displayEmpty: true }, htmlInput: { 'aria-label': t('caseList.import.fieldFor', { column }) } }}
                    >
                      <MenuItem value="">
                        <em>{t('caseList.import.ignore')}</em>
                      </MenuItem>
                      {job.fields.map((f) => (
                        <MenuItem key={f.name} value={f.name}>
                          {f.required ? t('caseList.import.requiredField', { label: labelOf(f.name) }) : labelOf(f.name)}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {checkError !== null && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {checkError instanceof ApiError && checkError.details.length ? (
            <List dense disablePadding>
              {checkError.details.map((d) => (
                <ListItem key={`${d.path}:${d.message}`} disableGutters sx={{ py: 0 }}>
                  {d.message}
                </ListItem>
              ))}
            </List>
          ) : (
            errorMessage(checkError)
          )}
        </Alert>
      )}
      {checking && <LinearProgress sx={{ mt: 2 }} aria-label={t('caseList.import.checking')} />}
    </Box>
  );
}
