import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormDialog, QueryState } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { errorMessage } from '../../lib/api.js';
import { useRoleOptions } from '../users/api.js';
import { type ServiceAccount, serviceTokensPath, useSaveServiceAccount, useServiceAccounts } from './api.js';
import { TokenList } from './TokenList.js';

/**
 * /acl/service-accounts: accounts for other systems (a finance system, a BI
 * tool), each with a role like any user and tokens of its own; they never
 * sign in with a password. Blocking one stops its tokens at once.
 */
export default function ServiceAccountsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const accounts = useServiceAccounts();
  const [editing, setEditing] = useState<ServiceAccount | 'new' | null>(null);
  return (
    <>
      <PageHeader title={t('apiTokens.accounts.title')}>
        <Button variant="contained" onClick={() => setEditing('new')}>
          {t('apiTokens.accounts.new')}
        </Button>
      </PageHeader>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 800 }}>
        {t('apiTokens.accounts.intro')}
      </Typography>
      <QueryState query={accounts} height={240} retry>
        {(data) =>
          data.items.length === 0 ? (
            <Typography sx={{ my: 3 }}>{t('apiTokens.accounts.empty')}</Typography>
          ) : (
            <Box sx={{ maxWidth: 1000 }}>
              {data.items.map((account) => (
                <Accordion key={account.id} disableGutters>
                  <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`sa-${account.id}`} id={`sa-${account.id}-header`}>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', width: '100%' }}>
                      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                        {account.name}
                      </Typography>
                      <Chip size="small" label={account.roleName} />
                      {!account.active && <Chip size="small" color="warning" label={t('apiTokens.accounts.blocked')} />}
                      <Typography variant="body2" color="text.secondary" sx={{ ml: { sm: 'auto' } }}>
                        {t('apiTokens.accounts.tokens', { count: account.tokens })}
                        {' · '}
                        {account.lastUsedAt ? t('apiTokens.lastUsed', { date: formatDateTime(account.lastUsedAt, session.user.timeZone) }) : t('apiTokens.neverUsed')}
                      </Typography>
                    </Box>
                  </AccordionSummary>
                  <AccordionDetails id={`sa-${account.id}`}>
                    <Button onClick={() => setEditing(account)} sx={{ mb: 1 }}>
                      {t('apiTokens.accounts.edit')}
                    </Button>
                    <TokenList path={serviceTokensPath(account.id)} allowNever />
                  </AccordionDetails>
                </Accordion>
              ))}
            </Box>
          )
        }
      </QueryState>
      {editing && <AccountDialog account={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function AccountDialog({ account, onClose }: { account: ServiceAccount | null; onClose: () => void }) {
  const { t } = useTranslation();
  const roles = useRoleOptions();
  const save = useSaveServiceAccount(account);
  const [name, setName] = useState(account?.name ?? '');
  const [roleId, setRoleId] = useState<string>(account ? String(account.roleId) : '');
  const [active, setActive] = useState(account?.active ?? true);
  const [error, setError] = useState<{ name?: string; roleId?: string; other?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = { name: name.trim() ? undefined : t('validation.required'), roleId: roleId ? undefined : t('validation.chooseOption') };
    setError(problems);
    if (problems.name || problems.roleId) return;
    save.mutate(
      { name: name.trim(), roleId: Number(roleId), active },
      {
        onSuccess: () => {
          showToast(t('common.saved'), 'success');
          onClose();
        },
        onError: (e) => setError({ other: errorMessage(e) }),
      },
    );
  };
  return (
    <FormDialog
      title={account ? t('apiTokens.accounts.editTitle', { name: account.name }) : t('apiTokens.accounts.newTitle')}
      onClose={onClose}
      onSubmit={submit}
      pending={save.isPending}
      maxWidth="xs"
      description={account ? undefined : t('apiTokens.accounts.newHelp')}
    >
      <TextField
        label={t('apiTokens.accounts.name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={Boolean(error.name)}
        helperText={error.name}
        required
        fullWidth
        margin="normal"
        autoFocus
        slotProps={{ htmlInput: { maxLength: 120 } }}
      />
      <TextField
        select
        label={t('apiTokens.accounts.role')}
        value={roleId}
        onChange={(e) => setRoleId(e.target.value)}
        error={Boolean(error.roleId)}
        helperText={error.roleId}
        required
        fullWidth
        margin="normal"
      >
        {(roles.data ?? []).map((r) => (
          <MenuItem key={r.id} value={String(r.id)}>
            {r.name}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />} label={t('apiTokens.accounts.active')} />
      {!active && (
        <Typography variant="body2" color="warning.main">
          {t('apiTokens.accounts.blockedHelp')}
        </Typography>
      )}
      {error.other && (
        <Typography role="alert" color="error" sx={{ mt: 1 }}>
          {error.other}
        </Typography>
      )}
    </FormDialog>
  );
}
