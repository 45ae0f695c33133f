import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { apiFetch } from '../../lib/api.js';
import { type Granted, type RoleRules, RulesMatrix } from './RulesMatrix.js';

const rulesPath = (roleId: string) => `/api/acl/roles/${encodeURIComponent(roleId)}/rules`;

/** /main/acl_reglas/: pick a role, then grant it actions on modules. The role is kept in `?role=`. */
interface RoleOption {
  id: number;
  code: string;
  name: string;
}

export default function RulesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const roleId = params.get('role') ?? '';

  // The rules screen lists roles itself: holding acl_reglas is enough to use it.
  const roles = useQuery({
    queryKey: ['/api/acl/rules/roles'],
    queryFn: ({ signal }) => apiFetch<RoleOption[]>('/api/acl/rules/roles', { signal }),
  });
  const rules = useQuery({
    queryKey: ['/api/acl/roles', 'rules', roleId],
    queryFn: ({ signal }) => apiFetch<RoleRules>(rulesPath(roleId), { signal }),
    enabled: roleId !== '',
    // Unsaved ticks must not be reset by a background refetch.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const save = useMutation({
    mutationFn: (granted: Granted) => apiFetch<RoleRules>(rulesPath(roleId), { method: 'PUT', json: { granted } }),
    onSuccess: (saved) => {
      queryClient.setQueryData(['/api/acl/roles', 'rules', roleId], saved);
      showToast(t('common.saved'), 'success');
    },
  });

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
