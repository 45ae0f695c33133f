import { zodResolver } from '@hookform/resolvers/zod';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormDialog } from '../../components/page/FormDialog.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { fieldErrorText, showServerError } from '../../lib/forms.js';
import { type Master, type MasterItem, useSaveMasterItem } from './api.js';
import { ParentItemPicker } from './ParentItemPicker.js';

/** The server's rules for an item (server/modules/masters/routes.ts); messages are i18n keys. */
const itemSchema = z.object({
  code: z.string().trim().min(1, { error: 'validation.required' }).max(60, { error: 'validation.tooLong' }),
  name: z.string().trim().min(1, { error: 'validation.required' }).max(300, { error: 'validation.tooLong' }),
  nameEn: z.string().trim().max(500, { error: 'validation.tooLong' }),
  parentCode: z.string(),
  active: z.boolean(),
  extra: z.array(z.object({ key: z.string().trim().max(60, { error: 'validation.tooLong' }), value: z.string().max(1000, { error: 'validation.tooLong' }) })).max(30),
});
type ItemValues = z.input<typeof itemSchema>;
/** An item of a child master (municipios) needs its parent item (a departamento). */
const childItemSchema = itemSchema.refine((values) => values.parentCode !== '', { path: ['parentCode'], error: 'validation.chooseOption' });
const FIELDS = ['code', 'name', 'nameEn', 'parentCode'] as const;

const extraText = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Create or edit an item of a master: code, name (Spanish) and English name, parent item (for a child master), active, extra attributes. */
export function ItemDialog({ master, item, onClose }: { master: Master; item: MasterItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError } = useForm<ItemValues>({
    resolver: zodResolver(master.parentCode ? childItemSchema : itemSchema),
    defaultValues: {
      code: item?.code ?? '',
      name: item?.name ?? '',
      nameEn: item?.nameEn ?? '',
      parentCode: item?.parentCode ?? '',
      active: item?.active ?? true,
      extra: Object.entries(item?.extra ?? {}).map(([key, value]) => ({ key, value: extraText(value) })),
    },
  });
  const extra = useFieldArray({ control, name: 'extra' });
  const save = useSaveMasterItem(master, item, {
    onSuccess: () => showToast(t('common.saved'), 'success'),
    onRefreshed: onClose,
    onError: (error) => showServerError(error, setError, FIELDS, { byCode: { DUPLICATE: 'code' } }),
  });

  const submit = handleSubmit((values: ItemValues) =>
    save.mutate({
      code: values.code.trim(),
      name: values.name.trim(),
      nameEn: values.nameEn.trim(),
      parentCode: values.parentCode || null,
      active: values.active,
      extra: Object.fromEntries(values.extra.filter((e) => e.key.trim()).map((e) => [e.key.trim(), e.value])),
    }),
  );

  return (
    <FormDialog title={t(item ? 'masters.items.edit' : 'masters.items.new')} onClose={onClose} onSubmit={submit} pending={save.isPending}>
      <FormTextField control={control} name="code" label={t('masters.items.code')} required autoFocus />
      <FormTextField control={control} name="name" label={t('masters.items.name')} required />
      <FormTextField control={control} name="nameEn" label={t('masters.items.nameEn')} helperText={t('masters.items.nameEnHint')} />
      {master.parentCode && (
        <Controller
          control={control}
          name="parentCode"
          render={({ field, fieldState }) => (
            <ParentItemPicker
              master={master.parentCode as string}
              label={t('masters.items.parent')}
              value={field.value}
              valueLabel={item?.parentName}
              onChange={field.onChange}
              inputRef={field.ref}
              required
              error={fieldErrorText(t, fieldState.error)}
            />
          )}
        />
      )}
      <Controller
        control={control}
        name="active"
        render={({ field }) => (
          <FormControlLabel
            sx={{ mt: 1, display: 'flex' }}
            control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} slotProps={{ input: { ref: field.ref } }} />}
            label={t('masters.items.active')}
          />
        )}
      />
      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2 }}>
        <FormLabel component="legend">{t('masters.items.extra')}</FormLabel>
        {extra.fields.map((row, index) => (
          <Box key={row.id} sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1.5fr) auto', gap: 1, alignItems: 'start', mt: 1 }}>
            <Controller
              control={control}
              name={`extra.${index}.key`}
              render={({ field, fieldState }) => (
                <TextField {...field} size="small" label={t('masters.items.extraKey')} error={!!fieldState.error} helperText={fieldErrorText(t, fieldState.error)} />
              )}
            />
            <Controller
              control={control}
              name={`extra.${index}.value`}
              render={({ field, fieldState }) => (
                <TextField {...field} size="small" label={t('masters.items.extraValue')} error={!!fieldState.error} helperText={fieldErrorText(t, fieldState.error)} />
              )}
            />
            <IconButton aria-label={t('masters.items.removeExtra', { n: index + 1 })} onClick={() => extra.remove(index)}>
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </Box>
        ))}
        <Button size="small" startIcon={<Add />} sx={{ mt: 1 }} onClick={() => extra.append({ key: '', value: '' })} disabled={extra.fields.length >= 30}>
          {t('masters.items.addExtra')}
        </Button>
      </Box>
    </FormDialog>
  );
}
