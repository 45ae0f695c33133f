import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormDialog } from '../../components/page/FormDialog.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { showServerError } from '../../lib/forms.js';
import { type CatalogItem, useSaveCatalogItem } from './api.js';
import type { CatalogConfig } from './catalogs.js';

/** The same rules as the server's (server/modules/acl/routes.ts); messages are i18n keys. */
const catalogSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, { error: 'validation.required' })
    .max(60, { error: 'validation.tooLong' })
    .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { error: 'acl.codeRule' }),
  name: z.string().trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  description: z.string().trim().max(500, { error: 'validation.tooLong' }),
});
type CatalogValues = z.input<typeof catalogSchema>;
const FIELDS = ['code', 'name', 'description'] as const;

interface CatalogDialogProps {
  config: CatalogConfig;
  /** The record to edit, or null to create one. */
  item: CatalogItem | null;
  onClose: () => void;
}

/** Create or edit one action, module or role. A system record keeps its code. */
export function CatalogDialog({ config, item, onClose }: CatalogDialogProps) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError } = useForm<CatalogValues>({
    resolver: zodResolver(catalogSchema),
    defaultValues: { code: item?.code ?? '', name: item?.name ?? '', description: item?.description ?? '' },
  });
  const save = useSaveCatalogItem(config.kind, item, {
    onSuccess: () => showToast(t('common.saved'), 'success'),
    onRefreshed: onClose,
    onError: (error) => showServerError(error, setError, FIELDS, { byCode: { DUPLICATE: 'code', SYSTEM_RECORD: 'code' } }),
  });
  const kindKey = `aclAdmin.${config.kind}`;
  // The server says whether the code may change (acl/policy.ts): a system record keeps its code.
  const codeLocked = !!item && !item.actions.includes('changeCode');
  return (
    <FormDialog title={t(item ? `${kindKey}.edit` : `${kindKey}.new`)} onClose={onClose} onSubmit={handleSubmit((values) => save.mutate(values))} pending={save.isPending}>
      <FormTextField
        control={control}
        name="code"
        label={t('catalog.code')}
        required
        autoFocus={!codeLocked}
        disabled={codeLocked}
        helperText={codeLocked ? t('catalog.systemCode') : t('acl.codeRule')}
      />
      <FormTextField control={control} name="name" label={t('catalog.name')} required autoFocus={codeLocked} />
      <FormTextField control={control} name="description" label={t('catalog.description')} multiline minRows={2} />
    </FormDialog>
  );
}
