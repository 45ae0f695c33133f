import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stateLabelKey, TASK_STATES, type TaskState } from '../../../../core/workflow/states.js';
import { useCan } from '../../app/session/session.js';
import { type ListPage, type ListParams, listQueryString } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { apiFetch } from '../../lib/api.js';
import { useTeamOptions } from '../teams/api.js';
import { TASKS_PATH, type TaskItem } from './tasksApi.js';

export interface TaskFilterValues {
  states: TaskState[];
  protocolId: string;
  teamId: string;
  overdue: '' | 'true' | 'false';
}

export const NO_FILTERS: TaskFilterValues = { states: [], protocolId: '', teamId: '', overdue: '' };

/** The filter state of a task list; a change goes back to the first page. */
export function useTaskFilters(onChange: () => void) {
  const [filters, setFilters] = useState<TaskFilterValues>(NO_FILTERS);
  const update = (patch: Partial<TaskFilterValues>) => {
    setFilters((current) => ({ ...current, ...patch }));
    onChange();
  };
  return { filters, update };
}

/**
 * One page of GET /api/tasks with the filters (`state` repeats for several
 * states); `fixed` are filters of the page itself (/tareas: `adhoc=true`).
 */
export function useTaskList(params: ListParams, filters: TaskFilterValues, fixed?: Record<string, string>) {
  const fixedQuery = new URLSearchParams(fixed).toString();
  const qs = useMemo(() => {
    const query = new URLSearchParams(listQueryString(params, Object.fromEntries(new URLSearchParams(fixedQuery))));
    for (const state of filters.states) query.append('state', state);
    if (filters.protocolId) query.set('protocolId', filters.protocolId);
    if (filters.teamId) query.set('teamId', filters.teamId);
    if (filters.overdue) query.set('overdue', filters.overdue);
    return query.toString();
  }, [params, filters, fixedQuery]);
  return useQuery({
    queryKey: [TASKS_PATH, 'list', qs],
    queryFn: ({ signal }) => apiFetch<ListPage<TaskItem>>(`${TASKS_PATH}?${qs}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

interface ProtocolOption {
  id: number;
  name: string;
}

/** The tenant's protocols for a picker (users without the protocols target get none). */
export function useProtocolOptions(enabled = true) {
  return useQuery({
    queryKey: ['/api/protocols', 'options'],
    queryFn: ({ signal }) => apiFetch<ListPage<ProtocolOption>>('/api/protocols?limit=100&sortBy=name', { signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
}

interface TaskFiltersProps {
  filters: TaskFilterValues;
  onChange: (patch: Partial<TaskFilterValues>) => void;
  onSearch: (text: string) => void;
}

const fieldSx = { minWidth: 180, width: { xs: '100%', sm: 'auto' } };

/** Search, states (several), protocol, team and overdue: the filters of /tasks and /admin-tasks. */
export function TaskFilters({ filters, onChange, onSearch }: TaskFiltersProps) {
  const { t } = useTranslation();
  const can = useCan();
  const protocols = useProtocolOptions(can('wf_protocolos', 'show'));
  const teams = useTeamOptions(can('wf_equipos', 'show'));
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
      <SearchField onSearch={onSearch} label={t('tasks.search')} />
      <TextField
        select
        size="small"
        label={t('tasks.state')}
        value={filters.states}
        onChange={(event) => {
          const value = event.target.value as unknown as TaskState[] | string;
          onChange({ states: (typeof value === 'string' ? value.split(',') : value) as TaskState[] });
        }}
        slotProps={{
          select: {
            multiple: true,
            renderValue: (selected) => ((selected as TaskState[]).length ? (selected as TaskState[]).map((s) => t(stateLabelKey(s))).join(', ') : t('tasks.allStates')),
            displayEmpty: true,
          },
          inputLabel: { shrink: true },
        }}
        sx={{ ...fieldSx, maxWidth: { sm: 320 } }}
      >
        {TASK_STATES.map((state) => (
          <MenuItem key={state} value={state} dense>
            <Checkbox size="small" checked={filters.states.includes(state)} sx={{ py: 0 }} />
            <ListItemText primary={t(stateLabelKey(state))} />
          </MenuItem>
        ))}
      </TextField>
      {protocols.data && (
        <TextField select size="small" label={t('tasks.protocol')} value={filters.protocolId} onChange={(event) => onChange({ protocolId: event.target.value })} sx={fieldSx}>
          <MenuItem value="">{t('tasks.allProtocols')}</MenuItem>
          {protocols.data.items.map((protocol) => (
            <MenuItem key={protocol.id} value={String(protocol.id)}>
              {protocol.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {teams.data && (
        <TextField select size="small" label={t('tasks.team')} value={filters.teamId} onChange={(event) => onChange({ teamId: event.target.value })} sx={fieldSx}>
          <MenuItem value="">{t('teams.allTeams')}</MenuItem>
          {teams.data.items.map((team) => (
            <MenuItem key={team.id} value={String(team.id)}>
              {team.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        select
        size="small"
        label={t('tasks.overdue')}
        value={filters.overdue}
        onChange={(event) => onChange({ overdue: event.target.value as TaskFilterValues['overdue'] })}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        sx={fieldSx}
      >
        <MenuItem value="">{t('tasks.overdueAll')}</MenuItem>
        <MenuItem value="true">{t('tasks.overdueOnly')}</MenuItem>
        <MenuItem value="false">{t('tasks.onTime')}</MenuItem>
      </TextField>
    </Box>
  );
}
