import RestartAlt from '@mui/icons-material/RestartAlt';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import UndoOutlined from '@mui/icons-material/UndoOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { ErrorSummary } from '../../components/feedback/ErrorSummary.js';
import type { AvailableColumn, TapeColumn, TapeConfig } from './api.js';
import { AddColumn } from './AddColumn.js';
import { ColumnRow, type RowControl } from './ColumnRow.js';
import { addColumn, type ColumnProblem, type HeaderField, headerIn, type Lang, moveColumn, removeColumn, setHeader } from './columnsDraft.js';

interface ColumnsEditorProps {
  config: TapeConfig;
  /** The draft, in order. */
  columns: TapeColumn[];
  onChange: (columns: TapeColumn[]) => void;
  /** The reader holds `update`: fields and buttons; otherwise the list is read. */
  editable: boolean;
  dirty: boolean;
  problems: ColumnProblem[];
  /** Why the server refused the last save, when it named no row. */
  refusal: string | null;
  /** Show the list of problems above the columns (after a refused Save). */
  summary: boolean;
  saving: boolean;
  resetting: boolean;
  onSave: () => void;
  onUndo: () => void;
  onReset: () => void;
}

/**
 * The tape's columns in order, each with its Spanish and English header;
 * moved with Up and Down, removed, added from the form's columns not in the
 * tape yet. Moves and removals are announced and keep the focus on the
 * column's buttons, so the list can be ordered with the keyboard alone.
 * Save and Undo sit in a bar that stays in view while the list scrolls.
 */
export function ColumnsEditor(props: ColumnsEditorProps) {
  const { config, columns, onChange, editable, dirty, problems, refusal, summary, saving, resetting, onSave, onUndo, onReset } = props;
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.resolvedLanguage === 'es' ? 'es' : 'en';
  const tz = useSession().user.timeZone;
  const headingId = useId();
  const baseId = useId();
  const idOf = (source: string, control: RowControl | HeaderField) => `${baseId}-${source}-${control}`;
  const byAvailable = useMemo(() => new Map<string, AvailableColumn>(config.available.map((a) => [a.source, a])), [config.available]);
  const nameOf = (column: TapeColumn) => headerIn(column, lang) || column.source;

  // The focus follows a moved column, and lands on a neighbour when one goes; a live region says what happened.
  const [announcement, setAnnouncement] = useState('');
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    const target = document.getElementById(focusNext.current);
    focusNext.current = null;
    target?.focus();
  });

  const move = (index: number, delta: -1 | 1) => {
    const column = columns[index] as TapeColumn;
    const next = moveColumn(columns, index, delta);
    const to = next.indexOf(column);
    const atEdge = (delta < 0 && to === 0) || (delta > 0 && to === next.length - 1);
    focusNext.current = idOf(column.source, atEdge ? (delta < 0 ? 'down' : 'up') : delta < 0 ? 'up' : 'down');
    onChange(next);
    setAnnouncement(t('dataTape.columns.moved', { name: nameOf(column), position: to + 1, total: next.length }));
  };
  const remove = (index: number) => {
    const column = columns[index] as TapeColumn;
    const next = removeColumn(columns, index);
    const neighbour = next[Math.min(index, next.length - 1)];
    focusNext.current = neighbour ? idOf(neighbour.source, 'remove') : `${baseId}-add`;
    onChange(next);
    setAnnouncement(t('dataTape.columns.removed', { name: nameOf(column) }));
  };
  const add = (column: AvailableColumn) => {
    onChange(addColumn(columns, column));
    setAnnouncement(t('dataTape.columns.added', { name: headerIn(column, lang), position: columns.length + 1 }));
  };

  const fieldLabel = (field: HeaderField) => t(field === 'header' ? 'dataTape.columns.spanish' : 'dataTape.columns.english');
  const messageOf = (p: ColumnProblem) => (p.translated ? p.message : t(p.message));
  const summaryItems = summary
    ? problems.map((p) => {
        const index = columns.findIndex((c) => c.source === p.source);
        const column = columns[index];
        return {
          key: `${p.source}-${p.field}`,
          message: t('dataTape.columns.problem', { position: index + 1, name: column ? nameOf(column) : p.source, field: fieldLabel(p.field), message: messageOf(p) }),
          onSelect: () => document.getElementById(idOf(p.source, p.field))?.focus(),
        };
      })
    : [];

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography id={headingId} component="h2" variant="h6" sx={{ flexGrow: 1 }}>
          {t('dataTape.columns.title')}{' '}
          <Typography component="span" color="text.secondary">
            ({t('dataTape.columns.count', { count: columns.length })})
          </Typography>
        </Typography>
        {editable && config.saved && (
          <Button startIcon={<RestartAlt />} onClick={onReset} loading={resetting} loadingPosition="start" disabled={saving}>
            {t('dataTape.columns.reset')}
          </Button>
        )}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {config.saved && config.updatedAt
          ? config.updatedBy
            ? t('dataTape.columns.savedBy', { name: config.updatedBy, at: formatDateTime(config.updatedAt, tz) })
            : t('dataTape.columns.savedAt', { at: formatDateTime(config.updatedAt, tz) })
          : t('dataTape.columns.notSaved')}
      </Typography>
      {!editable && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('dataTape.columns.readOnly')}
        </Alert>
      )}
      {refusal && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {t('dataTape.columns.saveFailed', { reason: refusal })}
        </Alert>
      )}
      <ErrorSummary items={summaryItems} focus />
      <Box sx={visuallyHidden} aria-live="polite" role="status">
        {announcement}
      </Box>

      {columns.length === 0 ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('dataTape.columns.empty')}
        </Alert>
      ) : (
        <Box component="ol" aria-labelledby={headingId} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: { xs: 1, md: 0 } }}>
          {columns.map((column, index) => (
            <ColumnRow
              key={column.source}
              column={column}
              index={index}
              total={columns.length}
              available={byAvailable.get(column.source)}
              lang={lang}
              editable={editable}
              problems={problems.filter((p) => p.source === column.source).map((p) => ({ field: p.field, message: messageOf(p) }))}
              idOf={(control) => idOf(column.source, control)}
              onHeader={(field, value) => onChange(setHeader(columns, index, field, value))}
              onMove={(delta) => move(index, delta)}
              onRemove={() => remove(index)}
            />
          ))}
        </Box>
      )}

      {editable && (
        <>
          <AddColumn inputId={`${baseId}-add`} columns={columns} available={config.available} lang={lang} onAdd={add} />
          <Box
            // While something is unsaved the bar stays in view at the bottom of the window.
            sx={{
              position: dirty ? 'sticky' : 'static',
              bottom: 0,
              zIndex: 1,
              mt: 2,
              mx: { xs: -1.5, sm: -2 },
              px: { xs: 1.5, sm: 2 },
              py: 1,
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              gap: 1,
              bgcolor: 'background.paper',
              borderTop: 1,
              borderColor: 'divider',
            }}
          >
            {dirty && <Chip color="warning" size="small" label={t('dataTape.columns.unsaved')} />}
            <Button startIcon={<UndoOutlined />} onClick={onUndo} disabled={!dirty || saving} sx={{ ml: 'auto' }}>
              {t('dataTape.columns.undo')}
            </Button>
            <Button variant="contained" startIcon={<SaveOutlined />} onClick={onSave} disabled={!dirty} loading={saving} loadingPosition="start">
              {t('dataTape.columns.save')}
            </Button>
          </Box>
        </>
      )}
    </Paper>
  );
}
