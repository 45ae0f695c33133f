import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PAYMENT_METHODS } from '../../../../core/api/payments.js';
import { dayText } from '../../../../core/api/list.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { FormDialog } from '../../components/page/FormDialog.js';
import { showServerError } from '../../lib/forms.js';
import { type BatchDetail, type NewBatch, useCreateBatch } from './api.js';
import { formatMoney, today } from './format.js';

/** The contract's `createBatchBody`, as the form holds it (empty texts for what is left out). */
const schema = z.object({
  payDate: dayText,
  upTo: z.union([z.literal(''), dayText]),
  method: z.union([z.literal(''), z.enum(PAYMENT_METHODS)]),
});
type Values = z.infer<typeof schema>;
const toBody = (v: Values): NewBatch => ({ payDate: v.payDate, upTo: v.upTo || undefined, method: v.method || undefined });
const FIELDS = ['payDate', 'upTo', 'method'] as const;

/**
 * "New batch": the day the payments go out, the last day of approvals it
 * takes (today unless changed) and the method (both, or one). The server
 * gathers every approved award not yet in a batch; the page then opens it.
 */
export function NewBatchDialog({ onClose, onMade }: { onClose: () => void; onMade: (batch: BatchDetail) => void }) {
  const { t, i18n } = useTranslation();
  const { control, handleSubmit, setError } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { payDate: today(), upTo: today(), method: '' },
  });
  const create = useCreateBatch({
    onSuccess: (batch) =>
      showToast(t('payments.batches.made', { number: batch.number, count: batch.paymentCount, total: formatMoney(batch.total, i18n.resolvedLanguage ?? 'en') }), 'success'),
    onRefreshed: (batch) => {
      onClose();
      onMade(batch);
    },
    onError: (error) => showServerError(error, setError, FIELDS),
  });
  return (
    <FormDialog
      title={t('payments.batches.newTitle')}
      description={t('payments.batches.newDescription')}
      onClose={onClose}
      onSubmit={handleSubmit((values) => create.mutate(toBody(values)))}
      submitLabel={t('payments.batches.create')}
      pending={create.isPending}
    >
      <FormTextField control={control} name="payDate" type="date" label={t('payments.batch.payDate')} required autoFocus helperText={t('payments.batches.payDateHelp')} />
      <FormTextField control={control} name="upTo" type="date" label={t('payments.batches.upTo')} helperText={t('payments.batches.upToHelp')} />
      <FormSelectField
        control={control}
        name="method"
        label={t('payments.batch.method')}
        options={[{ value: '', label: t('payments.methods.both') }, ...PAYMENT_METHODS.map((m) => ({ value: m, label: t(`payments.methods.${m}`) }))]}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      />
    </FormDialog>
  );
}
