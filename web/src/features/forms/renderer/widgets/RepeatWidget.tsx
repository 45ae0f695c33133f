import { zodResolver } from '@hookform/resolvers/zod';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useId, useMemo, useState } from 'react';
import { type FieldValues, FormProvider, type Resolver, useForm, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '../../../../../../core/forms/definition.js';
import { formValuesSchema } from '../../../../../../core/forms/validator.js';
import { useDialogs } from '../../../../components/feedback/FeedbackProvider.js';
import { FormDialog } from '../../../../components/page/FormDialog.js';
import type { FieldRendererProps } from '../../registry.js';
import { CellValue } from '../cells.js';
import { condition, initialValues, scopeValueFields } from '../conditions.js';
import { ScopeContext, type ScopeValue, useRenderer, useScope } from '../context.js';
import { FieldList } from '../FieldList.js';
import { errorText, useConditionValues, useErrorsUnder, useFieldBinding, useRetranslateErrors } from '../hooks.js';

type Row = Record<string, unknown>;

/** The messages of each row of a repeat group, in the order of its columns. */
function rowMessages(errors: unknown, fields: FieldDef[], label: (f: FieldDef) => string): Array<{ row: number; text: string }> {
  if (!errors || typeof errors !== 'object') return [];
  const out: Array<{ row: number; text: string }> = [];
  for (const [key, rowErrors] of Object.entries(errors as Record<string, unknown>)) {
    if (!/^\d+$/.test(key) || !rowErrors || typeof rowErrors !== 'object') continue;
    for (const field of fields) {
      const message = errorText((rowErrors as Record<string, unknown>)[field.name]);
      if (message) out.push({ row: Number(key), text: `${label(field)}: ${message}` });
    }
  }
  return out.sort((a, b) => a.row - b.row);
}

/**
 * A repeat group: its rows as a table whose columns follow `headers` (false
 * hides a column) and `showWhenTable` (a condition that may use the role).
 * Add and Edit open the row's fields in a dialog checked by the same
 * validator; Remove asks first.
 */
export function RepeatWidget({ field, name }: FieldRendererProps) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const renderer = useRenderer();
  const { trigger } = useFormContext();
  const { binding, error, label, help, required, disabled, text } = useFieldBinding(field, name);
  const errors = useErrorsUnder(name);
  const values = useConditionValues();
  const [editing, setEditing] = useState<{ index: number | null } | null>(null);
  const labelId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const rows: Row[] = Array.isArray(binding.value) ? (binding.value as Row[]) : [];
  const children = field.children ?? [];
  const valueFields = useMemo(() => scopeValueFields(children), [children]);
  const columns = valueFields.filter((c) => c.headers !== false && condition(c.showWhenTable)({ values, role: renderer.role }));
  const problems = rowMessages(errors, valueFields, text.label);
  const groupError = error ?? errorText(errors);
  const full = field.maxRows !== undefined && rows.length >= field.maxRows;

  const store = (next: Row[]) => {
    binding.onChange(next);
    binding.onBlur();
    if (errors) void trigger(name);
  };
  const save = (row: Row, index: number | null) => {
    store(index === null ? [...rows, row] : rows.map((r, i) => (i === index ? row : r)));
    setEditing(null);
  };
  const remove = async (index: number) => {
    const confirmed = await dialogs.confirm({
      title: t('forms.renderer.removeRowTitle'),
      message: t('forms.renderer.removeRowMessage', { row: index + 1, group: label }),
      confirmText: t('common.delete'),
    });
    if (confirmed) store(rows.filter((_, i) => i !== index));
  };

  const rowProblem = (index: number) => problems.some((p) => p.row === index);
  const rowActions = (index: number) => (
    <>
      <Tooltip title={t('common.edit')} describeChild>
        <IconButton size="small" onClick={() => setEditing({ index })} aria-label={t('forms.renderer.editRow', { row: index + 1 })}>
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('common.delete')} describeChild>
        <IconButton size="small" onClick={() => void remove(index)} aria-label={t('forms.renderer.removeRow', { row: index + 1 })}>
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
  return (
    <Box role="group" aria-labelledby={labelId} sx={{ my: 1, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography id={labelId} variant="subtitle1" sx={{ fontWeight: 600, flexGrow: 1 }}>
          {label}
          {required || (field.minRows ?? 0) > 0 ? ' *' : ''}
        </Typography>
        {!disabled && (
          <Button startIcon={<Add />} variant="outlined" size="small" onClick={() => setEditing({ index: null })} disabled={full} ref={binding.ref}>
            {t('forms.renderer.addRow')}
          </Button>
        )}
      </Box>
      {help && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {help}
        </Typography>
      )}
      {phone ? (
        <Box component="ul" aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {rows.length === 0 && (
            <Typography component="li" color="text.secondary" sx={{ py: 1 }}>
              {t('forms.renderer.noRows')}
            </Typography>
          )}
          {rows.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own.
            <Box component="li" key={index} sx={{ border: 1, borderColor: rowProblem(index) ? 'error.main' : 'divider', borderRadius: 1, p: 1.5 }}>
              <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(80px, auto) 1fr', columnGap: 1.5, rowGap: 0.5 }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  #
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                  {index + 1}
                </Typography>
                {columns.map((column) => (
                  <Box key={column.name} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {text.label(column)}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere', minWidth: 0 }}>
                      <CellValue field={column} value={row[column.name]} row={row} />
                    </Typography>
                  </Box>
                ))}
              </Box>
              {!disabled && <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>{rowActions(index)}</Box>}
            </Box>
          ))}
        </Box>
      ) : (
        <TableContainer sx={{ overflowX: 'auto', border: 1, borderColor: groupError || problems.length ? 'error.main' : 'divider', borderRadius: 1 }}>
          <Table size="small" aria-label={label}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 40, fontWeight: 600 }}>#</TableCell>
                {columns.map((column) => (
                  <TableCell key={column.name} sx={{ fontWeight: 600 }}>
                    {text.label(column)}
                  </TableCell>
                ))}
                {!disabled && (
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {t('dataTable.actions')}
                  </TableCell>
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={columns.length + 2} sx={{ color: 'text.secondary', textAlign: 'center' }}>
                    {t('forms.renderer.noRows')}
                  </TableCell>
                </TableRow>
              )}
              {rows.map((row, index) => (
                // Rows have no identity of their own; their position is what the user sees.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                <TableRow key={index} sx={rowProblem(index) ? { '& td:first-of-type': { boxShadow: (th) => `inset 4px 0 0 ${th.palette.error.main}`, color: 'error.main', fontWeight: 600 } } : undefined}>
                  <TableCell>{index + 1}</TableCell>
                  {columns.map((column) => (
                    <TableCell key={column.name} sx={{ overflowWrap: 'anywhere' }}>
                      <CellValue field={column} value={row[column.name]} row={row} />
                    </TableCell>
                  ))}
                  {!disabled && (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {rowActions(index)}
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {groupError && <FormHelperText error>{groupError}</FormHelperText>}
      {problems.map((problem) => (
        <FormHelperText error key={`${problem.row}:${problem.text}`}>
          {t('forms.renderer.rowProblem', { row: problem.row + 1, message: problem.text })}
        </FormHelperText>
      ))}
      {editing && (
        <RowDialog
          field={field}
          group={label}
          index={editing.index}
          initial={editing.index === null ? undefined : rows[editing.index]}
          onSave={(row) => save(row, editing.index)}
          onClose={() => setEditing(null)}
        />
      )}
    </Box>
  );
}

interface RowDialogProps {
  field: FieldDef;
  group: string;
  /** The row being edited, or null for a new one. */
  index: number | null;
  initial: Row | undefined;
  onSave: (row: Row) => void;
  onClose: () => void;
}

/**
 * The fields of one row, in a form of their own checked by the shared
 * validator with the row's names over the form's values. Leaving with typed
 * values that were not added asks first (the spec's warning).
 */
function RowDialog({ field, group, index, initial, onSave, onClose }: RowDialogProps) {
  const { t } = useTranslation();
  const pendingId = useId();
  const renderer = useRenderer();
  const outer = useScope();
  const children = field.children ?? [];
  const fields = useMemo(() => new Map(scopeValueFields(children).map((f) => [f.name, f])), [children]);

  const resolver = useMemo<Resolver<FieldValues>>(
    () => (values, context, options) => {
      // Inside a row, names resolve in the row first, then in the form (as the validator does for rows).
      const shadow = Object.fromEntries([...fields.keys()].map((n) => [n, undefined]));
      const merged = { ...renderer.getRootValues(), ...shadow, ...values };
      const schema = formValuesSchema({ fields: children }, renderer.validatorContext(merged));
      return zodResolver(schema)(merged, context, options) as ReturnType<Resolver<FieldValues>>;
    },
    [children, fields, renderer],
  );
  const form = useForm<FieldValues>({ defaultValues: initialValues(children, initial), resolver, mode: 'onTouched' });
  useRetranslateErrors(form);
  const dirty = form.formState.isDirty;
  const scope = useMemo<ScopeValue>(() => ({ control: form.control, fields, parent: outer }), [form.control, fields, outer]);

  const { registerPending } = renderer;
  useEffect(() => {
    registerPending(pendingId, dirty ? { group, editing: index !== null, discard: onClose } : null);
    return () => registerPending(pendingId, null);
  }, [dirty, group, index, onClose, pendingId, registerPending]);

  const tryClose = async () => {
    if (await renderer.confirmPending()) onClose();
  };

  return (
    <FormDialog
      title={index === null ? t('forms.renderer.addRowTitle', { group }) : t('forms.renderer.editRowTitle', { row: index + 1, group })}
      onClose={() => void tryClose()}
      onSubmit={(event) => {
        // The dialog sits in a portal, but React would still bubble its submit to the form around it.
        event.stopPropagation();
        void form.handleSubmit(() => onSave(form.getValues()))(event);
      }}
      maxWidth="md"
      submitLabel={index === null ? t('forms.renderer.addRowConfirm') : t('forms.renderer.saveRow')}
    >
      <FormProvider {...form}>
        <ScopeContext value={scope}>
          <FieldList fields={children} />
        </ScopeContext>
      </FormProvider>
    </FormDialog>
  );
}
