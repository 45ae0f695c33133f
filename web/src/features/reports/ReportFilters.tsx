import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { EVENT_KINDS, type ReportDataset } from '../../../../core/api/reports.js';
import { stateLabelKey, type TaskState } from '../../../../core/workflow/states.js';
import { useCan } from '../../app/session/session.js';
import { DateFilterField } from '../../components/form/DateFilterField.js';
import { FilterBar, FilterMultiSelect, FilterSelect, filterFieldSx } from '../../components/page/index.js';
import { useProtocolOptions } from '../protocols/api.js';
import { useTeamOptions } from '../teams/api.js';
import { UserPicker } from '../teams/UserPicker.js';
import { HISTORY_ACTIONS, useReportLabels } from './labels.js';
import { narrowing, type ReportFilterValues, statesOf } from './reportUrl.js';

interface ReportFiltersProps {
  dataset: ReportDataset;
  filters: ReportFilterValues;
  /** The chosen person's name when the page knows it. */
  userName?: string;
  onChange: (patch: Partial<ReportFilterValues>) => void;
  onClear: () => void;
}

/**
 * The filter bar every report shares: protocol, period, team, person and
 * states (a task's or an application's, as the report counts); the tracking
 * by user adds the action and the kind of event. Every change goes to the
 * address at once.
 */
export function ReportFilters({ dataset, filters, userName, onChange, onClear }: ReportFiltersProps) {
  const { t } = useTranslation();
  const can = useCan();
  const labels = useReportLabels();
  const protocols = useProtocolOptions(can('wf_protocolos', 'show'));
  const teams = useTeamOptions(can('wf_equipos', 'show'));
  const count = narrowing(filters);
  const user = filters.userId ? { id: Number(filters.userId), name: userName ?? `#${filters.userId}`, email: '' } : null;
  const actions = filters.action && !HISTORY_ACTIONS.includes(filters.action) ? [...HISTORY_ACTIONS, filters.action] : HISTORY_ACTIONS;
  return (
    <FilterBar search={null} narrowing={count} onClear={onClear} clearable={count > 0}>
      {protocols.data && (
        <FilterSelect
          label={t('reports.filters.protocol')}
          value={filters.protocolId}
          allLabel={t('reports.filters.allProtocols')}
          options={protocols.data.items.map((p) => ({ value: String(p.id), label: p.name }))}
          onChange={(protocolId) => onChange({ protocolId })}
        />
      )}
      <DateFilterField label={t('reports.filters.from')} value={filters.from} onChange={(from) => onChange({ from })} max={filters.to || undefined} sx={filterFieldSx} />
      <DateFilterField label={t('reports.filters.to')} value={filters.to} onChange={(to) => onChange({ to })} min={filters.from || undefined} sx={filterFieldSx} />
      {teams.data && (
        <FilterSelect
          label={t('reports.filters.team')}
          value={filters.teamId}
          allLabel={t('reports.filters.allTeams')}
          options={teams.data.items.map((team) => ({ value: String(team.id), label: team.name }))}
          onChange={(teamId) => onChange({ teamId })}
        />
      )}
      <Box sx={{ ...filterFieldSx, minWidth: 220 }}>
        <UserPicker size="small" margin="none" label={t(`reports.filters.user.${dataset}`)} value={user} onChange={(chosen) => onChange({ userId: chosen ? String(chosen.id) : '' })} />
      </Box>
      <FilterMultiSelect
        label={t(dataset === 'tasks' ? 'reports.filters.taskState' : 'reports.filters.caseState')}
        value={filters.states}
        allLabel={t('reports.filters.allStates')}
        options={statesOf(dataset).map((s) => ({ value: s, label: t(stateLabelKey(s as TaskState)) }))}
        onChange={(states) => onChange({ states })}
      />
      {dataset === 'events' && (
        <FilterSelect
          label={t('reports.filters.action')}
          value={filters.action}
          allLabel={t('reports.filters.allActions')}
          options={actions.map((a) => ({ value: a, label: labels.action(a) }))}
          onChange={(action) => onChange({ action })}
        />
      )}
      {dataset === 'events' && (
        <FilterSelect
          label={t('reports.filters.kind')}
          value={filters.kind}
          allLabel={t('reports.filters.allKinds')}
          options={EVENT_KINDS.map((k) => ({ value: k, label: t(`reports.eventKinds.${k}`) }))}
          onChange={(kind) => onChange({ kind })}
        />
      )}
    </FilterBar>
  );
}
