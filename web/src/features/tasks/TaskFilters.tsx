import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
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
  /**
   * Conditions a report's drill-down brings in the address (GET /api/tasks
   * takes them; the filter bar has no field for them): one task of the
   * protocols, a period of creation, who handled or holds the tasks.
   */
  drilled?: DrilledTaskFilters;
}

export const DRILLED_TASK_FILTERS = ['code', 'from', 'to', 'handledBy', 'responsibleId'] as const;
export type DrilledTaskFilters = Partial<Record<(typeof DRILLED_TASK_FILTERS)[number], string>>;

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

const isTaskState = (value: string): value is TaskState => (TASK_STATES as readonly string[]).includes(value);

/** A task list's filters read from the address (/tasks?state=PENDING&protocolId=3&code=intake…). */
export function readTaskFilters(params: URLSearchParams): TaskFilterValues {
  const overdue = params.get('overdue');
  const drilled: DrilledTaskFilters = {};
  for (const name of DRILLED_TASK_FILTERS) {
    const value = params.get(name);
    if (value) drilled[name] = value;
  }
  return {
    states: params.getAll('state').filter(isTaskState),
    protocolId: params.get('protocolId') ?? '',
    teamId: params.get('teamId') ?? '',
    overdue: overdue === 'true' || overdue === 'false' ? overdue : '',
    ...(Object.keys(drilled).length > 0 && { drilled }),
  };
}

/**
 * The filters of a task list kept in its address, so that a link (a report's
 * drill-down, a dashboard tile) opens the list filtered and Back returns to
 * it. A change goes back to the first page.
 */
export function useTaskUrlFilters(onChange: () => void) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readTaskFilters(params), [params]);
  const latest = useRef(params);
  latest.current = params;
  const changed = useRef(onChange);
  changed.current = onChange;
  const write = useCallback(
    (change: (next: URLSearchParams) => void) => {
      const next = new URLSearchParams(latest.current);
      change(next);
      if (next.toString() === latest.current.toString()) return;
      latest.current = next;
      setParams(next);
      changed.current();
    },
    [setParams],
  );
  const update = useCallback(
    (patch: Partial<TaskFilterValues>) =>
      write((next) => {
        for (const [key, value] of Object.entries(patch)) {
          if (key === 'drilled') continue;
          const name = key === 'states' ? 'state' : key;
          next.delete(name);
          if (Array.isArray(value)) for (const v of value) next.append(name, v);
          else if (typeof value === 'string' && value !== '') next.set(name, value);
        }
      }),
    [write],
  );
  /** Drops one condition a drill-down brought (`from` and `to` go together). */
  const dropDrilled = useCallback(
    (name: (typeof DRILLED_TASK_FILTERS)[number]) =>
      write((next) => {
        if (name === 'from' || name === 'to') {
          next.delete('from');
          next.delete('to');
        } else next.delete(name);
      }),
    [write],
  );
  return { filters, update, dropDrilled };
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
