import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { useTaskList } from './api.js';
import { TaskFilters, useTaskFilters } from './TaskFilters.js';
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
  const { filters, update } = useTaskFilters(() => list.setPage(0));
  const query = useTaskList(list.params, filters, fixed);
  const columns = useTaskColumns();
  const filtered = !!list.params.search || filters.states.length > 0 || !!filters.protocolId || !!filters.teamId || !!filters.overdue;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
      <TaskFilters filters={filters} onChange={update} onSearch={list.setSearch} />
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
