import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stateLabelKey, TASK_STATES, type TaskState } from '../../../../core/workflow/states.js';
import { useCan } from '../../app/session/session.js';
import { FilterBar, FilterMultiSelect, FilterSelect } from '../../components/page/index.js';
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

/** Search, states (several), protocol, team and overdue: the filters of /tasks and /admin-tasks. */
export function TaskFilters({ filters, onChange, onSearch }: TaskFiltersProps) {
  const { t } = useTranslation();
  const can = useCan();
  const protocols = useProtocolOptions(can('wf_protocolos', 'show'));
  const teams = useTeamOptions(can('wf_equipos', 'show'));
  const narrowing = filters.states.length + [filters.protocolId, filters.teamId, filters.overdue].filter((v) => v !== '').length;
  return (
    <FilterBar search={<SearchField onSearch={onSearch} label={t('tasks.search')} />} narrowing={narrowing}>
      <FilterMultiSelect<TaskState>
        label={t('tasks.state')}
        value={filters.states}
        allLabel={t('tasks.allStates')}
        options={TASK_STATES.map((state) => ({ value: state, label: t(stateLabelKey(state)) }))}
        onChange={(states) => onChange({ states })}
      />
      {protocols.data && (
        <FilterSelect
          label={t('tasks.protocol')}
          value={filters.protocolId}
          allLabel={t('tasks.allProtocols')}
          options={protocols.data.items.map((protocol) => ({ value: String(protocol.id), label: protocol.name }))}
          onChange={(protocolId) => onChange({ protocolId })}
        />
      )}
      {teams.data && (
        <FilterSelect
          label={t('tasks.team')}
          value={filters.teamId}
          allLabel={t('teams.allTeams')}
          options={teams.data.items.map((team) => ({ value: String(team.id), label: team.name }))}
          onChange={(teamId) => onChange({ teamId })}
        />
      )}
      <FilterSelect<'true' | 'false'>
        label={t('tasks.overdue')}
        value={filters.overdue}
        allLabel={t('tasks.overdueAll')}
        options={[
          { value: 'true', label: t('tasks.overdueOnly') },
          { value: 'false', label: t('tasks.onTime') },
        ]}
        onChange={(overdue) => onChange({ overdue })}
      />
    </FilterBar>
  );
}
