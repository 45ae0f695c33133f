import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AvailableColumn, TapeColumn } from './api.js';
import { type HeaderField, headerIn, type Lang, numberedExample } from './columnsDraft.js';

/** The parts of a row with an id: its buttons, and its name (which describes its fields). */
export type RowControl = 'up' | 'down' | 'remove' | 'name';

interface ColumnRowProps {
  column: TapeColumn;
  index: number;
  total: number;
  /** What the form says of this column; undefined when the form no longer offers it. */
  available: AvailableColumn | undefined;
  lang: Lang;
  editable: boolean;
  problems: Array<{ field: HeaderField; message: string }>;
  /** The id of one of the row's controls (its fields and buttons), for focus and the error summary. */
  idOf: (control: RowControl | HeaderField) => string;
  onHeader: (field: HeaderField, value: string) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}

/**
 * One column of the tape: its place, where its values come from, its two
 * headers and its buttons. On a phone the parts stack (place, source and
 * buttons on one line, each header under them at full width); from 960 px
 * on, one line each.
 */
export function ColumnRow({ column, index, total, available, lang, editable, problems, idOf, onHeader, onMove, onRemove }: ColumnRowProps) {
  const { t } = useTranslation();
  const name = headerIn(column, lang) || column.source;
  const numbered = numberedExample(column.source, headerIn(column, lang));
  const problemOf = (field: HeaderField) => problems.find((p) => p.field === field)?.message;
  const key = column.source.replace(/^(case|field):/, '');
  // A case column says so; a field says its type (the key already says it is a field).
  const kind = available ? (available.kind === 'case' ? t('dataTape.columns.caseColumn') : t(`forms.types.${available.type}`, { defaultValue: available.type ?? '' })) : null;

  const header = (field: HeaderField) => {
    const label = t(field === 'header' ? 'dataTape.columns.spanish' : 'dataTape.columns.english');
    const problem = problemOf(field);
    if (!editable) {
      return (
        <Box sx={{ gridArea: field === 'header' ? 'es' : 'en', minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" component="p">
            {label}
          </Typography>
          <Typography sx={{ overflowWrap: 'anywhere' }}>{column[field]}</Typography>
        </Box>
      );
    }
    return (
      <TextField
        id={idOf(field)}
        size="small"
        label={label}
        value={column[field]}
        onChange={(event) => onHeader(field, event.target.value)}
        error={!!problem}
        helperText={problem}
        required
        fullWidth
        // The column's name describes each field (the label alone repeats on every row); MUI's helper text id follows it.
        slotProps={{ htmlInput: { maxLength: 200, 'aria-describedby': problem ? `${idOf('name')} ${idOf(field)}-helper-text` : idOf('name') } }}
        sx={{ gridArea: field === 'header' ? 'es' : 'en', minWidth: 0 }}
      />
    );
  };

  return (
    <Box
      component="li"
      sx={{
        display: 'grid',
        alignItems: 'center',
        columnGap: 1.5,
        rowGap: 1,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        gridTemplateColumns: { xs: '2rem minmax(0, 1fr) auto', md: editable ? '2rem minmax(0, 1fr) minmax(0, 1.2fr) minmax(0, 1.2fr) auto' : '2rem minmax(0, 1fr) minmax(0, 1.2fr) minmax(0, 1.2fr)' },
        gridTemplateAreas: {
          xs: editable ? '"pos src btn" "es es es" "en en en" "note note note"' : '"pos src src" "es es es" "en en en" "note note note"',
          md: editable ? '"pos src es en btn" ". note note note note"' : '"pos src es en" ". note note note"',
        },
      }}
    >
      {/* The ordered list tells screen readers the place; this is for the eye. */}
      <Typography sx={{ gridArea: 'pos', fontVariantNumeric: 'tabular-nums', color: 'text.secondary', textAlign: 'right' }} aria-hidden>
        {index + 1}
      </Typography>
      <Box sx={{ gridArea: 'src', minWidth: 0 }}>
        <Typography id={idOf('name')} variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {available ? headerIn(available, lang) : column.source}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
          <Box component="code" sx={{ fontFamily: 'monospace' }}>
            {key}
          </Box>
          {kind && ` · ${kind}`}
        </Typography>
      </Box>
      {header('header')}
      {header('header_en')}
      {editable && (
        <Box sx={{ gridArea: 'btn', display: 'flex', justifySelf: 'end' }}>
          <Tooltip describeChild title={t('dataTape.columns.up')}>
            <span>
              <IconButton id={idOf('up')} size="small" aria-label={t('dataTape.columns.moveUp', { name })} disabled={index === 0} onClick={() => onMove(-1)}>
                <ArrowUpward fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip describeChild title={t('dataTape.columns.down')}>
            <span>
              <IconButton id={idOf('down')} size="small" aria-label={t('dataTape.columns.moveDown', { name })} disabled={index === total - 1} onClick={() => onMove(1)}>
                <ArrowDownward fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip describeChild title={t('dataTape.columns.removeShort')}>
            <IconButton id={idOf('remove')} size="small" aria-label={t('dataTape.columns.remove', { name })} onClick={onRemove}>
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
      )}
      {(numbered || !available) && (
        <Typography variant="caption" component="p" color={available ? 'text.secondary' : 'error'} sx={{ gridArea: 'note', overflowWrap: 'anywhere' }}>
          {available ? t('dataTape.columns.numbered', { headers: numbered }) : t('dataTape.columns.notOffered')}
        </Typography>
      )}
    </Box>
  );
}
