import { zodResolver } from '@hookform/resolvers/zod';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormDialog } from '../../components/page/FormDialog.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { showServerError } from '../../lib/forms.js';
import { type Master, useParentMasterOptions, useSaveMaster } from './api.js';

/** The server's rules for a master (server/modules/masters/routes.ts); messages are i18n keys. */
const masterSchema = z.object({
  code: z.string().trim().min(1, { error: 'validation.required' }).regex(/^[a-z][a-z0-9_-]{0,62}$/, { error: 'masters.badCode' }),
  name: z.string().trim().min(1, { error: 'validation.required' }).max(300, { error: 'validation.tooLong' }),
  description: z.string().trim().max(1000, { error: 'validation.tooLong' }),
  public: z.boolean(),
  parentCode: z.string(),
});
type MasterValues = z.input<typeof masterSchema>;
const FIELDS = ['code', 'name', 'description', 'parentCode'] as const;

/** Create or edit a master: code, name, description, public, parent master. A system master keeps its code. */
export function MasterDialog({ master, onClose }: { master: Master | null; onClose: () => void }) {
  const { t } = useTranslation();
  const parents = useParentMasterOptions();
  const { control, handleSubmit, setError } = useForm<MasterValues>({
    resolver: zodResolver(masterSchema),
    defaultValues: {
      code: master?.code ?? '',
      name: master?.name ?? '',
      description: master?.description ?? '',
      public: master?.public ?? false,
      parentCode: master?.parentCode ?? '',
    },
  });
  const save = useSaveMaster(master, {
    onSuccess: () => showToast(t('common.saved'), 'success'),
    onRefreshed: onClose,
    onError: (error) => showServerError(error, setError, FIELDS, { byCode: { DUPLICATE: 'code', SYSTEM_RECORD: 'code', IN_USE: 'parentCode' } }),
  });

  const parentOptions = [
    { value: '', label: t('masters.list.noParent') },
    ...(parents.data?.items ?? []).filter((m) => m.code !== master?.code).map((m) => ({ value: m.code, label: `${m.name} (${m.code})` })),
  ];
  if (master?.parentCode && !parentOptions.some((o) => o.value === master.parentCode)) parentOptions.push({ value: master.parentCode, label: master.parentCode });

  const submit = handleSubmit((values) => save.mutate({ ...values, code: values.code.trim(), parentCode: values.parentCode || null }));

  return (
    <FormDialog title={t(master ? 'masters.list.edit' : 'masters.list.new')} onClose={onClose} onSubmit={submit} pending={save.isPending}>
      <FormTextField control={control} name="code" label={t('masters.list.code')} required autoFocus={!master} disabled={master?.system} helperText={master?.system ? t('catalog.systemCode') : undefined} />
      <FormTextField control={control} name="name" label={t('masters.list.name')} required autoFocus={!!master} />
      <FormTextField control={control} name="description" label={t('masters.list.description')} multiline minRows={2} />
      <FormSelectField control={control} name="parentCode" label={t('masters.list.parent')} options={parentOptions} disabled={!parents.data} />
      <Controller
        control={control}
        name="public"
        render={({ field }) => (
          <>
            <FormControlLabel
              sx={{ mt: 1 }}
              control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} slotProps={{ input: { ref: field.ref } }} />}
              label={t('masters.list.public')}
            />
            <FormHelperText sx={{ mt: 0 }}>{t('masters.list.publicHelp')}</FormHelperText>
          </>
        )}
      />
    </FormDialog>
  );
}
