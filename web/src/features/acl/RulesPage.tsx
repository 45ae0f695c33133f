import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useRoleRules, useRuleRoles, useSaveRoleRules } from './api.js';
import { RulesMatrix } from './RulesMatrix.js';

/** /main/acl_reglas/: pick a role, then grant it actions on modules. The role is kept in `?role=`. */
export default function RulesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const roleId = params.get('role') ?? '';

  // The rules screen lists roles itself: holding acl_reglas is enough to use it.
  const roles = useRuleRoles();
  const rules = useRoleRules(roleId);
  const save = useSaveRoleRules(roleId, { onSuccess: () => showToast(t('common.saved'), 'success') });

  return (
    <>
      <PageHeader title={t('menu.aclRules')} />
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
        <TextField
          select
          label={t('rules.role')}
          value={roles.data?.some((r) => String(r.id) === roleId) ? roleId : ''}
          onChange={(event) => setParams({ role: event.target.value }, { replace: true })}
          sx={{ minWidth: { xs: '100%', sm: 320 }, mb: 2 }}
          disabled={!roles.data}
          helperText={roleId ? undefined : t('rules.pickRole')}
        >
          {(roles.data ?? []).length === 0 ? (
            <MenuItem value="" disabled>
              {t('common.loading')}
            </MenuItem>
          ) : (
            roles.data?.map((role) => (
              <MenuItem key={role.id} value={String(role.id)}>
                {role.name}
              </MenuItem>
            ))
          )}
        </TextField>
        {roleId && rules.isPending && <Skeleton variant="rectangular" height={240} />}
        {rules.data && (
          // A fresh grid for each role and each saved version.
          <RulesMatrix
            key={`${roleId}:${rules.dataUpdatedAt}`}
            rules={rules.data}
            canUpdate={can('acl_reglas', 'update')}
            saving={save.isPending}
            onSave={(granted) => save.mutate(granted)}
          />
        )}
        {!roleId && roles.data?.length === 0 && <Typography>{t('aclAdmin.roles.empty')}</Typography>}
      </Paper>
    </>
  );
}
