import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_TOKEN_DAYS, TOKEN_LIFETIMES } from '../../../../core/api/tokens.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormDialog, QueryState } from '../../components/page/index.js';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { errorMessage } from '../../lib/api.js';
import { type ApiToken, type CreatedToken, type NewToken, useCreateToken, useRevokeToken, useTokens } from './api.js';

/**
 * The tokens of one list (mine, or a service account's): each with its
 * name, first characters, rights, expiry and last use, and Revoke (asked
 * first: a script using it stops at once). "New token" asks a name, a
 * lifetime and read-only, then shows the token once.
 */
export function TokenList({ path, allowNever = false }: { path: string; allowNever?: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const tokens = useTokens(path);
  const revoke = useRevokeToken(path);
  const dialogs = useDialogs();
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<CreatedToken | null>(null);

  const askRevoke = async (token: ApiToken) => {
    const confirmed = await dialogs.confirm({
      title: t('apiTokens.revokeTitle'),
      message: t('apiTokens.revokeMessage', { name: token.name }),
      confirmText: t('apiTokens.revoke'),
    });
    if (confirmed) revoke.mutate(token, { onSuccess: () => showToast(t('apiTokens.revoked'), 'success') });
  };

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('apiTokens.intro')}
      </Typography>
      <QueryState query={tokens} height={120} retry>
        {(data) =>
          data.items.length === 0 ? (
            <Typography sx={{ my: 2 }}>{t('apiTokens.empty')}</Typography>
          ) : (
            <List aria-label={t('apiTokens.listLabel')} dense>
              {data.items.map((token) => (
                <ListItem
                  key={token.id}
                  divider
                  secondaryAction={
                    <Button color="error" onClick={() => askRevoke(token)} aria-label={t('apiTokens.revokeNamed', { name: token.name })}>
                      {t('apiTokens.revoke')}
                    </Button>
                  }
                  sx={{ pr: 14 }}
                >
                  <ListItemText
                    primary={
                      <Box component="span" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
                        <span>{token.name}</span>
                        <Box component="code" sx={{ fontSize: '0.85em' }}>{`${token.prefix}…`}</Box>
                        {token.readOnly && <Chip size="small" label={t('apiTokens.readOnly')} />}
                        {token.expired && <Chip size="small" color="warning" label={t('apiTokens.expired')} />}
                      </Box>
                    }
                    secondary={[
                      token.expiresAt ? t('apiTokens.expires', { date: formatDateTime(token.expiresAt, session.user.timeZone) }) : t('apiTokens.neverExpires'),
                      token.lastUsedAt ? t('apiTokens.lastUsed', { date: formatDateTime(token.lastUsedAt, session.user.timeZone) }) : t('apiTokens.neverUsed'),
                    ].join(' · ')}
                  />
                </ListItem>
              ))}
            </List>
          )
        }
      </QueryState>
      <Button variant="outlined" onClick={() => setCreating(true)} sx={{ mt: 1 }}>
        {t('apiTokens.new')}
      </Button>
      {creating && (
        <NewTokenDialog
          path={path}
          allowNever={allowNever}
          onClose={() => setCreating(false)}
          onMade={(token) => {
            setCreating(false);
            setMade(token);
          }}
        />
      )}
      {made && <MadeTokenDialog token={made} onClose={() => setMade(null)} />}
    </Box>
  );
}

function NewTokenDialog({ path, allowNever, onClose, onMade }: { path: string; allowNever: boolean; onClose: () => void; onMade: (token: CreatedToken) => void }) {
  const { t } = useTranslation();
  const create = useCreateToken(path);
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState<string>(String(DEFAULT_TOKEN_DAYS));
  const [readOnly, setReadOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t('validation.required'));
      return;
    }
    const values: NewToken = { name: name.trim(), expiresInDays: lifetime === 'never' ? null : Number(lifetime), readOnly };
    create.mutate(values, { onSuccess: onMade, onError: (e) => setError(errorMessage(e)) });
  };
  return (
    <FormDialog title={t('apiTokens.newTitle')} onClose={onClose} onSubmit={submit} submitLabel={t('apiTokens.create')} pending={create.isPending} maxWidth="xs">
      <TextField
        label={t('apiTokens.name')}
        helperText={error ?? t('apiTokens.nameHelp')}
        error={Boolean(error)}
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        fullWidth
        margin="normal"
        autoFocus
        slotProps={{ htmlInput: { maxLength: 80 } }}
      />
      <TextField select label={t('apiTokens.lifetime')} value={lifetime} onChange={(e) => setLifetime(e.target.value)} fullWidth margin="normal">
        {TOKEN_LIFETIMES.map((days) => (
          <MenuItem key={days} value={String(days)}>
            {t('apiTokens.days', { count: days })}
          </MenuItem>
        ))}
        {allowNever && <MenuItem value="never">{t('apiTokens.never')}</MenuItem>}
      </TextField>
      {lifetime === 'never' && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {t('apiTokens.neverWarning')}
        </Alert>
      )}
      <FormControlLabel control={<Checkbox checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />} label={t('apiTokens.readOnlyLabel')} />
    </FormDialog>
  );
}

function MadeTokenDialog({ token, onClose }: { token: CreatedToken; onClose: () => void }) {
  const { t } = useTranslation();
  const copy = async () => {
    await navigator.clipboard?.writeText(token.token);
    showToast(t('apiTokens.copied'), 'success');
  };
  return (
    <FormDialog
      title={t('apiTokens.madeTitle', { name: token.name })}
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        onClose();
      }}
      submitLabel={t('apiTokens.done')}
      maxWidth="sm"
      extraActions={<Button onClick={copy}>{t('apiTokens.copy')}</Button>}
    >
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('apiTokens.showOnce')}
      </Alert>
      <TextField
        label={t('apiTokens.token')}
        value={token.token}
        fullWidth
        slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } } }}
        onFocus={(e) => e.target.select()}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t('apiTokens.howTo')}
      </Typography>
      <Box component="pre" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: '0.8rem', bgcolor: 'action.hover', p: 1, borderRadius: 1 }}>
        {`curl -H "Authorization: Bearer ${token.token}" ${window.location.origin}/api/cases`}
      </Box>
    </FormDialog>
  );
}
