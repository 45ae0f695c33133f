import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stateLabelKey, TASK_STATES, type TaskState } from '../../../../core/workflow/states.js';
import { useCan } from '../../app/session/session.js';
import { SearchField } from '../../components/table/SearchField.js';
import { useProtocolOptions } from '../protocols/api.js';
import { useTeamOptions } from '../teams/api.js';

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
