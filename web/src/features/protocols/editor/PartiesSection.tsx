import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PARTY_ROLES, type PartyRole } from '../../../../../core/parties.js';
import type { ProtocolDefinition } from '../../../../../core/workflow/protocol.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { Section } from '../../../components/page/index.js';
import { AmountField } from './AmountField.js';
import { newParty, type PartySettings, removeParty } from './draft.js';
import type { PickerOptions } from './TaskDialog.js';

interface PartiesSectionProps {
  definition: ProtocolDefinition;
  /** The tenant's forms; null when the user may not list them (the form is then given by id). */
  forms: PickerOptions['forms'];
  /** What the last save said about the parties. */
  problems: readonly string[];
  updateDefinition: (change: (def: ProtocolDefinition) => ProtocolDefinition) => void;
}

/**
 * The party roles a case of this protocol invites (issue 23): per role its
 * form, the attestation it signs in English and Spanish, the days it has,
 * its reminders, and whether the tenant may be paid once that deadline
 * passed. A role is invited only through the main form's "party" fields.
 */
export function PartiesSection({ definition: def, forms, problems, updateDefinition }: PartiesSectionProps) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const missing = PARTY_ROLES.filter((role) => !def.parties.some((p) => p.role === role));
  const roleName = (role: PartyRole) => t(`parties.roleTitle.${role}`);

  const change = (role: PartyRole, patch: Partial<PartySettings>) => updateDefinition((d) => ({ ...d, parties: d.parties.map((p) => (p.role === role ? { ...p, ...patch } : p)) }));
  const add = (role: PartyRole) => {
    setMenu(null);
    updateDefinition((d) => ({ ...d, parties: [...d.parties, newParty(role)] }));
  };
  const confirmRemove = async (role: PartyRole) => {
    const waiting = def.tasks.filter((task) => task.waitsForParty === role).map((task) => task.name);
    const confirmed = await dialogs.confirm({
      title: t('protocols.editor.parties.removeTitle', { role: roleName(role) }),
      message: waiting.length ? t('protocols.editor.parties.removeWaiting', { role: roleName(role), tasks: waiting.join(', ') }) : t('protocols.editor.parties.removeMessage', { role: roleName(role) }),
      confirmText: t('common.delete'),
    });
    if (confirmed) updateDefinition((d) => removeParty(d, role));
  };

  return (
    <Section
      title={t('protocols.editor.parties.title')}
      id="protocol-parties"
      action={
        <>
          <Button startIcon={<Add />} variant="outlined" onClick={(event) => setMenu(event.currentTarget)} disabled={missing.length === 0} aria-haspopup="menu">
            {t('protocols.editor.parties.add')}
          </Button>
          <Menu anchorEl={menu} open={!!menu} onClose={() => setMenu(null)}>
            {missing.map((role) => (
              <MenuItem key={role} onClick={() => add(role)}>
                {roleName(role)}
              </MenuItem>
            ))}
          </Menu>
        </>
      }
    >
      <Typography variant="body2" color="text.secondary">
        {t('protocols.editor.parties.hint')}
      </Typography>
      {def.parties.length === 0 && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t('protocols.editor.parties.none')}
        </Typography>
      )}
      {def.parties.map((party) => (
        <Box key={party.role} role="group" aria-label={roleName(party.role)} data-party={party.role} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, mt: 2, minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 500, flexGrow: 1 }}>
              {roleName(party.role)}
            </Typography>
            <IconButton aria-label={t('protocols.editor.parties.remove', { role: roleName(party.role) })} onClick={() => void confirmRemove(party.role)} size="small">
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '2fr 1fr 1fr' }, columnGap: 2 }}>
            {forms ? (
              <TextField
                select
                margin="dense"
                label={t('protocols.editor.parties.form')}
                value={party.formId === null ? '' : String(party.formId)}
                onChange={(event) => change(party.role, { formId: event.target.value ? Number(event.target.value) : null })}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              >
                <MenuItem value="">{t('protocols.editor.noForm')}</MenuItem>
                {forms.map((form) => (
                  <MenuItem key={form.id} value={String(form.id)}>
                    {form.name}
                  </MenuItem>
                ))}
                {party.formId !== null && !forms.some((f) => f.id === party.formId) && <MenuItem value={String(party.formId)}>{`#${party.formId}`}</MenuItem>}
              </TextField>
            ) : (
              <AmountField label={t('protocols.editor.parties.formId')} value={party.formId} empty={null} min={1} onChange={(formId) => change(party.role, { formId })} helperText={t('protocols.editor.formIdHint')} />
            )}
            <AmountField
              label={t('protocols.editor.parties.deadlineDays')}
              value={party.deadlineDays}
              min={1}
              max={365}
              onChange={(days) => change(party.role, { deadlineDays: days ?? 14 })}
              helperText={t('protocols.editor.parties.deadlineHint')}
            />
            <AmountField
              label={t('protocols.editor.parties.remindEveryDays')}
              value={party.remindEveryDays}
              empty={null}
              min={1}
              max={60}
              onChange={(remindEveryDays) => change(party.role, { remindEveryDays })}
              helperText={t('protocols.editor.parties.remindHint')}
            />
          </Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
            {(['en', 'es'] as const).map((language) => (
              <TextField
                key={language}
                multiline
                minRows={2}
                margin="dense"
                label={t(language === 'en' ? 'protocols.editor.parties.attestationEn' : 'protocols.editor.parties.attestationEs')}
                value={party.attestation[language]}
                onChange={(event) => change(party.role, { attestation: { ...party.attestation, [language]: event.target.value } })}
                helperText={t('protocols.editor.parties.attestationHint')}
                slotProps={{ htmlInput: { maxLength: 4000 } }}
              />
            ))}
          </Box>
          <FormControlLabel
            control={<Switch checked={party.payTenantAfterDeadline} onChange={(event) => change(party.role, { payTenantAfterDeadline: event.target.checked })} />}
            label={t('protocols.editor.parties.payTenant')}
          />
        </Box>
      ))}
      {problems.map((message, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat.
        <Typography key={i} color="error" variant="body2" sx={{ mt: 1 }}>
          {message}
        </Typography>
      ))}
    </Section>
  );
}
