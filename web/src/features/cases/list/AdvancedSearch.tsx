import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { encodeSearch, type SearchOperator, type SearchRow, searchRowSchema } from '../../../../../core/cases/search.js';
import { stateLabelKey } from '../../../../../core/workflow/states.js';
import { LISTED_STATES, readRows } from './caseUrl.js';
import { type ColumnChoice, draftOf, emptyRow, type RowDraft, rowOf } from './searchColumns.js';

interface AdvancedSearchProps {
  /** The `filters` parameter of the address: the rows in force. */
  filters: string;
  columns: ColumnChoice[];
  /** Called with the new `filters` parameter ('' for none). */
  onApply: (filters: string) => void;
}

type RowErrors = Partial<Record<'column' | 'op' | 'value', string>>;

/**
 * The spec's advanced search: rows of column, operator and value over case
 * columns and the main form's fields. Rows are edited here and take effect
 * (into the address) with "Search"; each is checked first with the schema
 * the server uses, so a bad row is named here rather than refused there.
 */
export function AdvancedSearch({ filters, columns, onApply }: AdvancedSearchProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const fromAddress = () => {
    const rows = readRows(filters).map(draftOf);
    return rows.length ? rows : [emptyRow()];
  };
  const [rows, setRows] = useState<RowDraft[]>(fromAddress);
  const [errors, setErrors] = useState<Record<number, RowErrors>>({});
  // A saved search, Back or a shared link changes the address: show its rows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new address resets the rows being edited.
  useEffect(() => {
    setRows(fromAddress());
    setErrors({});
  }, [filters]);

  const known = new Map(columns.map((c) => [c.id, c]));
  // A column in the address that this page does not list (another protocol's field) still shows.
  const extra = rows.filter((r) => r.column && !known.has(r.column)).map((r): ColumnChoice => ({ id: r.column, label: r.column.replace(/^data\./, ''), group: 'form', ops: ['eq', 'ne', 'contains', 'startsWith', 'gt', 'lt', 'between', 'in', 'empty'], kind: 'text' }));
  const all = [...columns, ...extra];
  const columnOf = (id: string) => all.find((c) => c.id === id);

  const change = (key: number, patch: Partial<RowDraft>) => {
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setErrors((current) => ({ ...current, [key]: {} }));
  };

  const check = (draft: RowDraft): { row?: SearchRow; errors: RowErrors } => {
    const required = t('validation.required');
    if (!draft.column) return { errors: { column: t('validation.chooseOption') } };
    if (!draft.op) return { errors: { op: t('validation.chooseOption') } };
    if (draft.op === 'between' && (!draft.value.trim() || !draft.value2.trim())) return { errors: { value: required } };
    const parsed = searchRowSchema.safeParse(rowOf(draft, columnOf(draft.column)));
    if (parsed.success) return { row: parsed.data, errors: {} };
    const out: RowErrors = {};
    for (const issue of parsed.error.issues) {
      const at = issue.path[0];
      const key = at === 'column' || at === 'op' ? at : 'value';
      out[key] ??= t(issue.message);
    }
    return { errors: out };
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    // A row left blank is no condition.
    const used = rows.filter((r) => r.column || r.op || r.value || r.values.length);
    const checked = used.map((r) => ({ key: r.key, ...check(r) }));
    const found = Object.fromEntries(checked.filter((c) => Object.keys(c.errors).length).map((c) => [c.key, c.errors]));
    setErrors(found);
    if (Object.keys(found).length) return;
    const valid = checked.map((c) => c.row as SearchRow);
    onApply(valid.length ? encodeSearch(valid) : '');
  };

  const clear = () => {
    setRows([emptyRow()]);
    setErrors({});
    onApply('');
  };

  return (
    <Box component="form" noValidate onSubmit={apply} aria-labelledby={headingId} sx={{ mt: 2, p: { xs: 1, sm: 2 }, border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Typography id={headingId} component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('caseList.advanced.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('caseList.advanced.help')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {rows.map((row, index) => (
          <ConditionRow
            key={row.key}
            index={index}
            row={row}
            columns={all}
            errors={errors[row.key] ?? {}}
            onChange={(patch) => change(row.key, patch)}
            onRemove={() => {
              setRows((current) => (current.length > 1 ? current.filter((r) => r.key !== row.key) : [emptyRow()]));
            }}
          />
        ))}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
        <Button startIcon={<AddOutlined />} onClick={() => setRows((current) => [...current, emptyRow()])} disabled={rows.length >= 20}>
          {t('caseList.advanced.add')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <Button onClick={clear}>{t('caseList.advanced.clear')}</Button>
        <Button type="submit" variant="contained" startIcon={<SearchOutlined />}>
          {t('caseList.advanced.apply')}
        </Button>
      </Box>
    </Box>
  );
}

interface ConditionRowProps {
  index: number;
  row: RowDraft;
  columns: ColumnChoice[];
  errors: RowErrors;
  onChange: (patch: Partial<RowDraft>) => void;
  onRemove: () => void;
}

function ConditionRow({ index, row, columns, errors, onChange, onRemove }: ConditionRowProps) {
  const { t } = useTranslation();
  const column = columns.find((c) => c.id === row.column);
  const ops = column?.ops ?? [];
  const caseCols = columns.filter((c) => c.group === 'case');
  const formCols = columns.filter((c) => c.group === 'form');
  const number = index + 1;

  const chooseColumn = (id: string) => {
    const next = columns.find((c) => c.id === id);
    // Keep the operator when the new column takes it; values start afresh.
    const op = next && row.op && next.ops.includes(row.op as SearchOperator) ? row.op : (next?.ops[0] ?? '');
    onChange({ column: id, op, value: '', value2: '', values: [] });
  };

  return (
    <Box
      role="group"
      aria-label={t('caseList.advanced.row', { number })}
      sx={{ display: 'grid', gap: 1, alignItems: 'start', pb: { xs: 1.5, sm: 0 }, borderBottom: { xs: 1, sm: 0 }, borderColor: 'divider', gridTemplateColumns: { xs: '1fr auto', sm: 'minmax(160px, 1.2fr) minmax(140px, 0.8fr) minmax(160px, 1.5fr) auto' } }}
    >
      <TextField
        select
        size="small"
        label={t('caseList.advanced.column')}
        value={row.column}
        onChange={(event) => chooseColumn(event.target.value)}
        error={!!errors.column}
        helperText={errors.column}
        sx={{ gridColumn: { xs: '1 / 2', sm: 'auto' } }}
      >
        <ListSubheader>{t('caseList.advanced.caseColumns')}</ListSubheader>
        {caseCols.map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.label}
          </MenuItem>
        ))}
        {formCols.length > 0 && <ListSubheader>{t('caseList.advanced.formFields')}</ListSubheader>}
        {formCols.map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('caseList.advanced.operator')}
        value={row.op}
        onChange={(event) => onChange({ op: event.target.value as SearchOperator, value2: '' })}
        disabled={!column}
        error={!!errors.op}
        helperText={errors.op}
        sx={{ gridColumn: { xs: '1 / 3', sm: '2 / 3' }, gridRow: { sm: '1' } }}
      >
        {ops.map((op) => (
          <MenuItem key={op} value={op}>
            {t(`caseList.operators.${op}`)}
          </MenuItem>
        ))}
      </TextField>
      <Box sx={{ gridColumn: { xs: '1 / 3', sm: '3 / 4' }, gridRow: { sm: '1' }, minWidth: 0 }}>
        {column && row.op && row.op !== 'empty' && <ValueInput column={column} row={row} error={errors.value} onChange={onChange} />}
      </Box>
      <IconButton onClick={onRemove} aria-label={t('caseList.advanced.remove', { number })} sx={{ gridColumn: { xs: '2 / 3', sm: '4 / 5' }, gridRow: { xs: '1', sm: '1' } }}>
        <DeleteOutline />
      </IconButton>
    </Box>
  );
}

function ValueInput({ column, row, error, onChange }: { column: ColumnChoice; row: RowDraft; error?: string; onChange: (patch: Partial<RowDraft>) => void }) {
  const { t } = useTranslation();
  const label = t('caseList.advanced.value');
  const common = { size: 'small' as const, fullWidth: true, error: !!error };
  const options =
    column.kind === 'state'
      ? LISTED_STATES.map((s) => ({ value: s as string, label: t(stateLabelKey(s)) }))
      : column.kind === 'boolean'
        ? [
            { value: 'true', label: t('caseList.yes') },
            { value: 'false', label: t('caseList.no') },
          ]
        : (column.options ?? []);
  const hasOptions = column.kind === 'state' || column.kind === 'boolean' || column.kind === 'choice';
  const inputType = column.kind === 'date' ? 'date' : column.kind === 'number' ? 'number' : 'text';
  const shrink = column.kind === 'date' ? { inputLabel: { shrink: true } } : {};

  if (row.op === 'between') {
    return (
      <Box sx={{ display: 'flex', gap: 1 }}>
        <TextField {...common} type={inputType} label={t('caseList.advanced.from')} value={row.value} onChange={(e) => onChange({ value: e.target.value })} helperText={error} slotProps={shrink} />
        <TextField {...common} type={inputType} label={t('caseList.advanced.to')} value={row.value2} onChange={(e) => onChange({ value2: e.target.value })} slotProps={shrink} />
      </Box>
    );
  }
  if (row.op === 'in' && hasOptions) {
    return (
      <TextField
        {...common}
        select
        label={label}
        value={row.values}
        helperText={error}
        onChange={(event) => {
          const value = event.target.value as unknown as string[] | string;
          onChange({ values: typeof value === 'string' ? value.split(',') : value });
        }}
        slotProps={{ select: { multiple: true, renderValue: (selected) => options.filter((o) => (selected as string[]).includes(o.value)).map((o) => o.label).join(', ') } }}
      >
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value} dense>
            <Checkbox size="small" checked={row.values.includes(o.value)} sx={{ py: 0 }} />
            <ListItemText primary={o.label} />
          </MenuItem>
        ))}
      </TextField>
    );
  }
  if (row.op === 'in') {
    return <TextField {...common} label={label} value={row.value} onChange={(e) => onChange({ value: e.target.value })} helperText={error ?? t('caseList.advanced.inHint')} />;
  }
  if (hasOptions) {
    return (
      <TextField {...common} select label={label} value={row.value} onChange={(e) => onChange({ value: e.target.value })} helperText={error}>
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  return <TextField {...common} type={inputType} label={label} value={row.value} onChange={(e) => onChange({ value: e.target.value })} helperText={error} slotProps={shrink} />;
}
