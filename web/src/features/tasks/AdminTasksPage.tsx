import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { ApiError } from '../../lib/api.js';
import { AssignDialog } from './AssignDialog.js';
import { BulkResultDialog } from './BulkResultDialog.js';
import { TaskFilters, useTaskFilters } from './TaskFilters.js';
import { useTaskColumns } from './taskCells.js';
import { type BulkResult, type TaskItem, useBulkAssignTasks, useBulkRestartTasks, useTaskList } from './api.js';
import { ListError } from '../../components/table/ListError.js';

type Report = { title: string; result: BulkResult };

/**
 * /admin-tasks (target admintasks): every task with the filters of /tasks,
 * rows to select, and two bulk actions: reassign (a user or a team) and
 * restart. Each task moves on its own; the report names those that did not.
 */
export default function AdminTasksPage() {
  const { t } = useTranslation();
  const can = useCan();
  const dialogs = useDialogs();
  const list = useListParams({ sortBy: 'created_at', descending: true });
  const { filters, update } = useTaskFilters(() => list.setPage(0));
  const query = useTaskList(list.params, filters);
  const taskColumns = useTaskColumns();
  // Selected tasks, kept across pages, with what the report needs to name them.
  const [selected, setSelected] = useState<Map<number, TaskItem>>(new Map());
  const [assigning, setAssigning] = useState(false);
  const [assignError, setAssignError] = useState<string | undefined>();
  const [report, setReport] = useState<Report | null>(null);
  const named = useRef(new Map<number, TaskItem>());

  const rows = query.data?.items ?? [];
  const toggle = (task: TaskItem) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(task.id)) next.delete(task.id);
      else next.set(task.id, task);
      return next;
    });
  const pageSelected = rows.length > 0 && rows.every((task) => selected.has(task.id));
  const somePageSelected = rows.some((task) => selected.has(task.id));
  const togglePage = () =>
    setSelected((current) => {
      const next = new Map(current);
      for (const task of rows) {
        if (pageSelected) next.delete(task.id);
        else next.set(task.id, task);
      }
      return next;
    });

  // The report names the tasks as they were selected; the hooks then refresh every task view.
  const finish = (title: string, result: BulkResult) => {
    named.current = new Map(selected);
    setReport({ title, result });
    setSelected(new Map());
  };
  const restart = useBulkRestartTasks({
    onSuccess: (result) => finish(t('tasks.bulk.restartTitle'), result),
  });
  const assign = useBulkAssignTasks({
    onSuccess: (result) => {
      setAssigning(false);
      finish(t('tasks.bulk.assignTitle'), result);
    },
    onError: (error) => setAssignError(error instanceof ApiError ? error.message : undefined),
  });

  const confirmRestart = async () => {
    const confirmed = await dialogs.confirm({
      title: t('tasks.bulk.restartTitle'),
      message: t('tasks.bulk.confirmRestart', { count: selected.size }),
      confirmText: t('tasks.restart'),
    });
    if (confirmed) restart.mutate([...selected.keys()]);
  };

  const columns: Column<TaskItem>[] = [
    {
      id: 'select',
      label: t('tasks.bulk.select'),
      render: (task) => (
        <Checkbox
          size="small"
          checked={selected.has(task.id)}
          onChange={() => toggle(task)}
          slotProps={{ input: { 'aria-label': t('tasks.bulk.selectTask', { name: task.name, number: task.caseNumber ?? task.caseId }) } }}
          sx={{ p: 0.5 }}
        />
      ),
    },
    ...taskColumns,
  ];
  const describe = (id: number) => {
    const task = named.current.get(id);
    return task ? `${task.name} · ${task.caseNumber ?? `#${task.caseId}`}` : `#${id}`;
  };

  return (
    <>
      <PageHeader title={t('tasks.admin.title')} />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <TaskFilters
          filters={filters}
          onChange={update}
          onSearch={list.setSearch}
        />
        <Box
          role="toolbar"
          aria-label={t('tasks.bulk.toolbar')}
          sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 2, py: 1, px: 1, bgcolor: 'action.hover', borderRadius: 1 }}
        >
          <FormControlLabel
            control={<Checkbox size="small" checked={pageSelected} indeterminate={!pageSelected && somePageSelected} onChange={togglePage} />}
            label={t('tasks.bulk.selectPage')}
          />
          <Typography variant="body2" sx={{ flexGrow: 1 }} aria-live="polite">
            {t('tasks.bulk.selected', { count: selected.size })}
          </Typography>
          {can('admintasks', 'update') && (
            <Button
              variant="outlined"
              startIcon={<PersonAddAltOutlined />}
              disabled={selected.size === 0}
              onClick={() => {
                setAssignError(undefined);
                setAssigning(true);
              }}
            >
              {t('tasks.bulk.reassign')}
            </Button>
          )}
          {can('admintasks', 'restart_task') && (
            <Button variant="outlined" startIcon={<RestartAltOutlined />} disabled={selected.size === 0} loading={restart.isPending} onClick={() => void confirmRestart()}>
              {t('tasks.restart')}
            </Button>
          )}
          {selected.size > 0 && <Button onClick={() => setSelected(new Map())}>{t('tasks.bulk.clear')}</Button>}
        </Box>
        <DataTable
          label={t('tasks.admin.title')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(task) => task.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={t('dataTable.noMatches')}
        />
        <ListError error={query.error} />
      </Paper>
      {assigning && (
        <AssignDialog
          title={t('tasks.bulk.assignTitle')}
          description={t('tasks.bulk.assignDescription', { count: selected.size })}
          pending={assign.isPending}
          error={assignError}
          onSubmit={(target) => assign.mutate({ ids: [...selected.keys()], ...target })}
          onClose={() => setAssigning(false)}
        />
      )}
      {report && <BulkResultDialog title={report.title} result={report.result} describe={describe} onClose={() => setReport(null)} />}
    </>
  );
}
