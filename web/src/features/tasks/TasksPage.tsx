import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.js';
import { DataTable } from '../../components/table/DataTable.js';
import { useListParams } from '../../components/table/listParams.js';
import { TaskFilters, useTaskFilters, useTaskList } from './TaskFilters.js';
import { useTaskColumns } from './taskCells.js';

/** /tasks: every task of the tenant with filters (states, protocol, team, overdue, search) and paging. */
export default function TasksPage() {
  const { t } = useTranslation();
  const list = useListParams({ sortBy: 'created_at', descending: true });
  const { filters, update } = useTaskFilters(() => list.setPage(0));
  const query = useTaskList(list.params, filters);
  const columns = useTaskColumns();
  const filtered = !!list.params.search || filters.states.length > 0 || !!filters.protocolId || !!filters.teamId || !!filters.overdue;
  return (
    <>
      <PageHeader title={t('menu.tasks')} />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <TaskFilters filters={filters} onChange={update} onSearch={list.setSearch} />
        <DataTable
          label={t('menu.tasks')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(task) => task.id}
          page={list.params.page}
          rowsPerPage={list.params.limit}
          onPageChange={list.setPage}
          onRowsPerPageChange={list.setLimit}
          sortBy={list.params.sortBy}
          descending={list.params.descending}
          onSortChange={list.setSort}
          loading={query.isFetching}
          emptyText={filtered ? t('dataTable.noMatches') : t('tasks.empty')}
        />
        {query.isError && (
          <Typography color="error" role="alert" sx={{ mt: 1 }}>
            {query.error.message}
          </Typography>
        )}
      </Paper>
    </>
  );
}
