import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { type TaskItem, useTaskList } from './api.js';
import { DRILLED_TASK_FILTERS, type DrilledTaskFilters, TaskFilters, useTaskUrlFilters } from './TaskFilters.js';
import { useTaskColumns } from './taskCells.js';
import { ListError } from '../../components/table/ListError.js';

interface TaskListProps {
  /** The table's accessible name. */
  label: string;
  /** Shown when nothing exists yet (a filter that matches nothing says so instead). */
  emptyText: string;
  /** Filters of the page itself, sent with every request (/tareas: `adhoc=true`). */
  fixed?: Record<string, string>;
}

/** The tasks of the tenant with filters (states, protocol, team, overdue, search), sorting and paging: /tasks and /tareas. */
export function TaskList({ label, emptyText, fixed }: TaskListProps) {
  const { t } = useTranslation();
  const list = useListParams({ sortBy: 'created_at', descending: true });
  const { filters, update, dropDrilled } = useTaskUrlFilters(() => list.setPage(0));
  const query = useTaskList(list.params, filters, fixed);
  const columns = useTaskColumns();
  const filtered = !!list.params.search || filters.states.length > 0 || !!filters.protocolId || !!filters.teamId || !!filters.overdue || !!filters.drilled;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
      <TaskFilters filters={filters} onChange={update} onSearch={list.setSearch} />
      {filters.drilled && <DrilledConditions drilled={filters.drilled} rows={query.data?.items} onDrop={dropDrilled} />}
      <DataTable
        label={label}
        columns={columns}
        rows={query.data?.items}
        total={query.data?.total ?? 0}
        getRowId={(task) => task.id}
        {...tablePaging(list)}
        loading={query.isFetching}
        emptyText={filtered ? t('dataTable.noMatches') : emptyText}
      />
      <ListError error={query.error} />
    </Paper>
  );
}

/**
 * The conditions a report's drill-down put in the address that the filter
 * bar has no field for, each one removable.
 */
function DrilledConditions({ drilled, rows, onDrop }: { drilled: DrilledTaskFilters; rows: TaskItem[] | undefined; onDrop: (name: (typeof DRILLED_TASK_FILTERS)[number]) => void }) {
  const { t } = useTranslation();
  const day = (value: string) => value.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$2/$3/$1');
  const personName = (id: string) => rows?.find((r) => String(r.responsibleId) === id)?.responsibleName ?? `#${id}`;
  const conditions: Array<{ name: (typeof DRILLED_TASK_FILTERS)[number]; text: string }> = [];
  if (drilled.code) conditions.push({ name: 'code', text: t('reports.drilled.task', { name: rows?.find((r) => r.code === drilled.code)?.name ?? drilled.code }) });
  if (drilled.from && drilled.to) conditions.push({ name: 'from', text: t('reports.drilled.period', { from: day(drilled.from), to: day(drilled.to) }) });
  else if (drilled.from) conditions.push({ name: 'from', text: t('reports.drilled.since', { from: day(drilled.from) }) });
  else if (drilled.to) conditions.push({ name: 'to', text: t('reports.drilled.until', { to: day(drilled.to) }) });
  if (drilled.handledBy) conditions.push({ name: 'handledBy', text: t('reports.drilled.handledBy', { name: personName(drilled.handledBy) }) });
  if (drilled.responsibleId) conditions.push({ name: 'responsibleId', text: t('reports.drilled.responsible', { name: personName(drilled.responsibleId) }) });
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {t('reports.drilled.label')}
      </Typography>
      {conditions.map((c) => (
        <Chip key={c.name} label={c.text} onDelete={() => onDrop(c.name)} aria-label={t('reports.drilled.remove', { condition: c.text })} />
      ))}
    </Box>
  );
}
