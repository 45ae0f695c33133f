import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { REPORT_CASE_STATES } from '../../../../core/api/reports.js';
import { formatDate, formatDateTime } from '../../../../core/dates.js';
import { stateLabelKey } from '../../../../core/workflow/states.js';
import { useSession } from '../../app/session/session.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { DueDate, Responsible, TaskLink } from '../tasks/taskCells.js';
import { TaskStateChip } from '../tasks/TaskStateChip.js';
import { type CaseCommentRow, type CaseRow, type RowsSource, type TaskRow, type UserActionRow, useReportRows } from './api.js';
import { useReportLabels } from './labels.js';
import { type ReportState, rowsQueryString } from './reportUrl.js';

interface RowsViewProps {
  source: RowsSource;
  state: ReportState;
  label: string;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
  onSort: (sortBy: string, descending: boolean) => void;
}

/** A report's rows, paged and sorted by the server: the task details, the tracking by case (or its comments), the tracking by user. */
export function RowsView({ source, state, label, onPage, onLimit, onSort }: RowsViewProps) {
  const { t } = useTranslation();
  const query = useReportRows<never>(source, rowsQueryString(state));
  const columns = useColumns(source);
  return (
    <Box sx={{ minWidth: 0 }}>
      <DataTable<never>
        label={label}
        columns={columns as Column<never>[]}
        rows={query.data?.items}
        total={query.data?.total ?? 0}
        getRowId={(row) => rowId(source, row)}
        page={state.page}
        rowsPerPage={state.limit}
        onPageChange={onPage}
        onRowsPerPageChange={onLimit}
        sortBy={state.sortBy || undefined}
        descending={state.descending}
        onSortChange={onSort}
        loading={query.isFetching}
        emptyText={t('reports.rows.empty')}
      />
      <ListError error={query.error} />
    </Box>
  );
}

function rowId(source: RowsSource, row: unknown): string | number {
  if (source === 'taskRows' || source === 'caseRows') return (row as TaskRow | CaseRow).id;
  if (source === 'caseComments') {
    const c = row as CaseCommentRow;
    return `${c.caseId}:${c.nrocomentario}:${c.fecha}`;
  }
  const a = row as UserActionRow;
  return `${a.usuario_id}:${a.caseId}:${a.accion}:${a.tipo}`;
}

/** An application's number, a link to its page. */
function CaseNumber({ id, number }: { id: number; number: string | null }) {
  const { t } = useTranslation();
  return (
    <Link component={RouterLink} to={`/cases/${id}`} aria-label={t('reports.rows.openCase', { number: number ?? `#${id}` })} sx={{ whiteSpace: 'nowrap' }}>
      {number ?? `#${id}`}
    </Link>
  );
}

function useColumns(source: RowsSource): Column<unknown>[] {
  const { t } = useTranslation();
  const labels = useReportLabels();
  const zone = useSession().user.timeZone;
  const date = (value: string | null) => (value ? formatDate(value, zone) : '');
  const days = (value: number) => labels.value('avgDays', value);
  const col = <T,>(column: Column<T>) => column as Column<unknown>;

  if (source === 'taskRows') {
    return [
      col<TaskRow>({ id: 'task', label: t('reports.columns.task'), render: (r) => <TaskLink id={r.id} name={r.name} /> }),
      col<TaskRow>({ id: 'case', label: t('reports.columns.application'), sortKey: 'case_number', noWrap: true, render: (r) => <CaseNumber id={r.caseId} number={r.caseNumber} /> }),
      col<TaskRow>({ id: 'protocol', label: t('reports.columns.protocol'), render: (r) => r.protocolName }),
      col<TaskRow>({ id: 'responsible', label: t('reports.columns.responsible'), render: (r) => <Responsible name={r.responsibleName} team={r.teamName} /> }),
      col<TaskRow>({ id: 'state', label: t('reports.columns.state'), sortKey: 'state', render: (r) => <TaskStateChip state={r.state} /> }),
      col<TaskRow>({ id: 'created', label: t('reports.columns.createdAt'), sortKey: 'created_at', noWrap: true, render: (r) => date(r.createdAt) }),
      col<TaskRow>({ id: 'due', label: t('reports.columns.dueAt'), sortKey: 'due_at', noWrap: true, render: (r) => <DueDate dueAt={r.dueAt} overdue={r.overdue} /> }),
      col<TaskRow>({ id: 'decided', label: t('reports.columns.decidedAt'), sortKey: 'decided_at', noWrap: true, render: (r) => date(r.decidedAt) }),
      col<TaskRow>({ id: 'decidedBy', label: t('reports.columns.decidedBy'), render: (r) => r.decidedByName ?? '' }),
      col<TaskRow>({ id: 'days', label: t('reports.columns.days'), sortKey: 'days', align: 'right', noWrap: true, render: (r) => days(r.days) }),
    ];
  }
  if (source === 'caseRows') {
    return [
      col<CaseRow>({ id: 'number', label: t('reports.columns.application'), sortKey: 'serial', noWrap: true, render: (r) => <CaseNumber id={r.id} number={r.number} /> }),
      col<CaseRow>({ id: 'protocol', label: t('reports.columns.protocol'), render: (r) => r.protocolName }),
      col<CaseRow>({ id: 'state', label: t('reports.columns.state'), sortKey: 'state', render: (r) => <TaskStateChip state={r.state} /> }),
      col<CaseRow>({ id: 'docDate', label: t('reports.columns.docDate'), sortKey: 'doc_date', noWrap: true, render: (r) => date(r.docDate) }),
      col<CaseRow>({ id: 'comments', label: t('reports.columns.comments'), align: 'right', render: (r) => labels.value('count', r.comments) }),
      col<CaseRow>({
        id: 'lastAction',
        label: t('reports.columns.lastAction'),
        render: (r) =>
          r.lastAction ? (
            <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
              <span>{labels.action(r.lastAction.action)}</span>
              <Typography variant="caption" color="text.secondary" component="span">
                {[formatDateTime(r.lastAction.at, zone), r.lastAction.userName].filter(Boolean).join(' · ')}
              </Typography>
            </Box>
          ) : (
            ''
          ),
      }),
      col<CaseRow>({
        id: 'daysInState',
        label: t('reports.columns.daysInState'),
        render: (r) =>
          REPORT_CASE_STATES.filter((s) => r.daysInState[s] > 0)
            .map((s) => `${t(stateLabelKey(s))}: ${days(r.daysInState[s])}`)
            .join(' · '),
      }),
    ];
  }
  if (source === 'caseComments') {
    return [
      col<CaseCommentRow>({ id: 'number', label: t('reports.columns.application'), noWrap: true, render: (r) => <CaseNumber id={r.caseId} number={r.docnumber} /> }),
      col<CaseCommentRow>({ id: 'docDate', label: t('reports.columns.docDate'), noWrap: true, render: (r) => date(r.docdate) }),
      col<CaseCommentRow>({ id: 'state', label: t('reports.columns.state'), render: (r) => <TaskStateChip state={r.status} /> }),
      col<CaseCommentRow>({ id: 'at', label: t('reports.columns.commentedAt'), sortKey: 'created_at', noWrap: true, render: (r) => formatDateTime(r.fecha, zone) }),
      col<CaseCommentRow>({ id: 'author', label: t('reports.columns.author'), render: (r) => r.nombre }),
      col<CaseCommentRow>({ id: 'comment', label: t('reports.columns.comment'), render: (r) => r.comentario }),
      col<CaseCommentRow>({ id: 'n', label: t('reports.columns.commentNumber'), align: 'right', render: (r) => r.nrocomentario }),
    ];
  }
  return [
    col<UserActionRow>({ id: 'user', label: t('reports.columns.user'), sortKey: 'user', render: (r) => r.nombre }),
    col<UserActionRow>({ id: 'application', label: t('reports.columns.application'), sortKey: 'application', noWrap: true, render: (r) => <CaseNumber id={r.caseId} number={r.application_number} /> }),
    col<UserActionRow>({ id: 'action', label: t('reports.columns.action'), sortKey: 'action', render: (r) => labels.action(r.accion) }),
    col<UserActionRow>({ id: 'kind', label: t('reports.columns.kind'), render: (r) => t(`reports.eventKinds.${r.tipo}`, { defaultValue: r.tipo }) }),
    col<UserActionRow>({ id: 'total', label: t('reports.columns.total'), sortKey: 'total', align: 'right', render: (r) => labels.value('count', r.total) }),
  ];
}
