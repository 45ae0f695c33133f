import { zodResolver } from '@hookform/resolvers/zod';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { WEBHOOK_EVENTS, webhookUrl } from '../../../../core/api/webhooks.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { FormDialog } from '../../components/page/FormDialog.js';
import { fieldErrorText, showServerError } from '../../lib/forms.js';
import { type ProtocolOption, useProtocolOptions, useSaveWebhook, type WebhookItem, type WebhookWithSecret } from './api.js';
import { eventLabel } from './labels.js';

/** The server's rules for a subscription (core/api/webhooks.ts), as the form holds them. */
const schema = z.object({
  url: webhookUrl,
  description: z.string().trim().max(200, { error: 'validation.tooLong' }),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, { error: 'webhooks.errors.noEvents' }),
  protocolIds: z.array(z.number()),
  enabled: z.boolean(),
});
type Values = z.input<typeof schema>;
type Output = z.output<typeof schema>;
const FIELDS = ['url', 'description', 'events', 'protocolIds'] as const;

/**
 * Make or change a subscription: the receiver's URL, a description, the
 * events (checkboxes), the protocols it is narrowed to (none: all), on or
 * off. A new one's secret is shown next, by the page (`onMade`).
 */
export function WebhookDialog({ webhook, onClose, onMade }: { webhook: WebhookItem | null; onClose: () => void; onMade: (made: WebhookWithSecret) => void }) {
  const { t } = useTranslation();
  const eventsLabel = useId();
  const protocols = useProtocolOptions();
  const { control, handleSubmit, setError } = useForm<Values, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: {
      url: webhook?.url ?? '',
      description: webhook?.description ?? '',
      events: webhook?.events ?? [],
      protocolIds: webhook?.protocols.map((p) => p.id) ?? [],
      enabled: webhook?.enabled ?? true,
    },
  });
  const save = useSaveWebhook(webhook, {
    onSuccess: (saved) => {
      showToast(t('webhooks.saved'), 'success');
      if (!webhook && 'secret' in saved) onMade(saved);
    },
    onRefreshed: onClose,
    onError: (error) => showServerError(error, setError, FIELDS),
  });
  const options: ProtocolOption[] = protocols.data ?? [];
  const nameOf = (id: number) => options.find((p) => p.id === id)?.name ?? `#${id}`;

  return (
    <FormDialog
      title={t(webhook ? 'webhooks.editTitle' : 'webhooks.newTitle')}
      onClose={onClose}
      onSubmit={handleSubmit((values) => save.mutate(values))}
      pending={save.isPending}
      maxWidth="md"
    >
      <FormTextField control={control} name="url" label={t('webhooks.url')} required autoFocus inputMode="url" helperText={t('webhooks.urlHelp')} />
      <FormTextField control={control} name="description" label={t('webhooks.description')} helperText={t('webhooks.descriptionHelp')} />
      <Controller
        control={control}
        name="events"
        render={({ field, fieldState }) => {
          const message = fieldErrorText(t, fieldState.error);
          const chosen = new Set(field.value);
          return (
            <FormControl component="fieldset" margin="normal" error={!!message} fullWidth required>
              <FormLabel component="legend" id={eventsLabel}>
                {t('webhooks.events')}
              </FormLabel>
              <FormGroup aria-labelledby={eventsLabel} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                {WEBHOOK_EVENTS.map((event, i) => (
                  <FormControlLabel
                    key={event}
                    label={eventLabel(t, event)}
                    control={
                      <Checkbox
                        checked={chosen.has(event)}
                        slotProps={{ input: { ref: i === 0 ? field.ref : undefined } }}
                        onChange={(e) => field.onChange(WEBHOOK_EVENTS.filter((x) => (x === event ? e.target.checked : chosen.has(x))))}
                      />
                    }
                  />
                ))}
              </FormGroup>
              <FormHelperText>{message ?? t('webhooks.eventsHelp')}</FormHelperText>
            </FormControl>
          );
        }}
      />
      <Controller
        control={control}
        name="protocolIds"
        render={({ field, fieldState }) => {
          const message = fieldErrorText(t, fieldState.error);
          return (
            <TextField
              select
              fullWidth
              margin="normal"
              label={t('webhooks.protocols')}
              value={field.value}
              onChange={(e) => {
                const next = e.target.value as unknown as number[] | string;
                field.onChange(typeof next === 'string' ? next.split(',').map(Number) : next);
              }}
              inputRef={field.ref}
              error={!!message}
              helperText={message ?? t('webhooks.protocolsHelp')}
              slotProps={{
                select: { multiple: true, displayEmpty: true, renderValue: (ids) => ((ids as number[]).length ? (ids as number[]).map(nameOf).join(', ') : t('webhooks.allProtocols')) },
                inputLabel: { shrink: true },
              }}
            >
              {options.map((p) => (
                <MenuItem key={p.id} value={p.id} dense>
                  <Checkbox size="small" checked={field.value.includes(p.id)} sx={{ py: 0 }} />
                  <ListItemText primary={p.name} secondary={p.code} />
                </MenuItem>
              ))}
            </TextField>
          );
        }}
      />
      <Controller
        control={control}
        name="enabled"
        render={({ field }) => (
          <FormControl margin="normal">
            <FormControlLabel
              control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} slotProps={{ input: { ref: field.ref } }} />}
              label={t('webhooks.enabled')}
            />
            <FormHelperText sx={{ mx: 0 }}>{t('webhooks.enabledHelp')}</FormHelperText>
          </FormControl>
        )}
      />
    </FormDialog>
  );
}
