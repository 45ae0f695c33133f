import CheckOutlined from '@mui/icons-material/CheckOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { CaseLink, DueDate, Responsible, TaskLink } from './taskCells.js';
import { type PendingItem, useAcceptTask, useInvalidateTasks, usePendingList } from './api.js';
import { ListError } from '../../components/table/ListError.js';

/** A yes/no column: the word, so it reads without colour. */
function Flag({ value }: { value: boolean }) {
  const { t } = useTranslation();
  return (
    <Box component="span" sx={value ? { fontWeight: 600 } : { color: 'text.secondary' }}>
      {t(value ? 'tasks.yes' : 'tasks.no')}
    </Box>
  );
}

/**
 * /pendings: my pending tasks (mine, and the unassigned ones of my teams) with
 * the spec's columns: application number, task, responsible, expiration
 * date, possible duplicated, require income, Section 8 assistance, third
 * party, actions (open, or accept at once when the saved form is complete).
 */
export default function PendingsPage() {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const navigate = useNavigate();
  const invalidate = useInvalidateTasks();
  const list = useListParams({ sortBy: 'due_at' });
  const query = usePendingList(list.params);
  // Accepted from the list with nothing but the task: its form was saved on its page.
  const accept = useAcceptTask<{ id: number; task: PendingItem }>({
    onSuccess: (_answer, { task }) => showToast(t('tasks.accepted', { name: task.name }), 'success'),
    onError: async (error, { task }) => {
      // The saved form is not complete: the task page is where it gets filled.
      if (error instanceof ApiError && (error.code === 'VALIDATION' || error.code === 'UNPROCESSABLE')) {
        showToast(t('tasks.fillFormFirst'), 'warning');
        navigate(`/tasks/${task.id}`);
        return;
      }
      showToast(errorMessage(error));
      await invalidate();
    },
  });

  const confirmAccept = async (task: PendingItem) => {
    const confirmed = await dialogs.confirm({
      title: t('tasks.acceptTitle'),
      message: t('tasks.confirmQuickAccept', { name: task.name, number: task.caseNumber ?? task.caseId }),
      confirmText: t('tasks.accept'),
    });
    if (confirmed) accept.mutate({ id: task.id, task });
  };

  const columns: Column<PendingItem>[] = [
    { id: 'case', label: t('tasks.applicationNumber'), noWrap: true, render: (task) => <CaseLink caseId={task.caseId} number={task.caseNumber} /> },
    { id: 'task', label: t('tasks.task'), render: (task) => <TaskLink id={task.id} name={task.name} /> },
    { id: 'responsible', label: t('tasks.responsible'), render: (task) => <Responsible name={task.responsibleName} team={task.teamName} /> },
    { id: 'dueAt', label: t('tasks.expirationDate'), sortKey: 'due_at', noWrap: true, render: (task) => <DueDate dueAt={task.dueAt} overdue={task.overdue} /> },
    { id: 'possibleDuplicated', label: t('tasks.possibleDuplicated'), render: (task) => <Flag value={task.possibleDuplicated} /> },
    { id: 'requireIncome', label: t('tasks.requireIncome'), render: (task) => <Flag value={task.requireIncome} /> },
    { id: 'section8', label: t('tasks.section8'), render: (task) => <Flag value={task.section8} /> },
    { id: 'thirdParty', label: t('tasks.thirdParty'), render: (task) => <Flag value={task.thirdParty} /> },
  ];
  const actions = (task: PendingItem) => (
    <>
      <Tooltip title={t('tasks.open')} describeChild>
        <IconButton component={RouterLink} to={`/tasks/${task.id}`} size="small" aria-label={`${t('tasks.open')}: ${task.name} ${task.caseNumber ?? ''}`.trim()}>
          <OpenInNewOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      {task.actions.includes('accept') && task.state === 'PENDING' && (
        <Tooltip title={t('tasks.accept')} describeChild>
          <span>
            <IconButton
              size="small"
              color="success"
              onClick={() => void confirmAccept(task)}
              disabled={accept.isPending}
              aria-label={`${t('tasks.accept')}: ${task.name} ${task.caseNumber ?? ''}`.trim()}
            >
              <CheckOutlined fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      )}
    </>
  );

  return (
    <>
      <PageHeader title={t('menu.pendings')} />
      {/* Nine columns: the headers may wrap so the table fits beside the menu. */}
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 }, '& thead th': { whiteSpace: 'normal', verticalAlign: 'bottom' } }}>
        <SearchField onSearch={list.setSearch} label={t('tasks.search')} />
        <DataTable
          label={t('menu.pendings')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(task) => task.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={list.params.search ? t('dataTable.noMatches') : t('tasks.noPendings')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
    </>
  );
}
