import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { STATE_COLORS, stateLabelKey } from '../../../../core/workflow/states.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ROWS_PER_PAGE_OPTIONS } from '../../components/table/listParams.js';
import { CaseLink, DueDate, Responsible, TaskLink } from '../tasks/taskCells.js';
import { type ProtocolTasks, protocolName, TASK_GROUPS, type TaskGroup, useProtocolOptions, useProtocolTasks } from './api.js';
import { ListError } from '../../components/table/ListError.js';

type Row = ProtocolTasks['items'][number];

/**
 * /protocolos/tareas: the tasks of one protocol grouped by rejected, pending,
 * blocked, unassigned and accepted, each group with its count. `?protocol=`
 * and `?group=` keep the choice in the address.
 */
export default function ProtocolTasksPage() {
  const { t, i18n } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const protocols = useProtocolOptions();
  const chosen = searchParams.get('protocol') ?? '';
  const protocolId = chosen || (protocols.data?.items[0] ? String(protocols.data.items[0].id) : '');
  const groupParam = searchParams.get('group') as TaskGroup | null;
  const group: TaskGroup = groupParam && (TASK_GROUPS as readonly string[]).includes(groupParam) ? groupParam : 'PENDING';
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(ROWS_PER_PAGE_OPTIONS[0] as number);
  useEffect(() => setPage(0), [protocolId, group]);

  const query = useProtocolTasks(protocolId, group, page, limit);
  const choose = (patch: Record<string, string>) => {
    const next = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(patch)) next.set(key, value);
    setSearchParams(next, { replace: true });
  };

  const columns: Column<Row>[] = [
    { id: 'case', label: t('tasks.applicationNumber'), noWrap: true, render: (row) => <CaseLink caseId={row.caseId} number={row.caseNumber} /> },
    { id: 'task', label: t('tasks.task'), render: (row) => <TaskLink id={row.id} name={row.name} /> },
    { id: 'code', label: t('protocols.editor.taskCode'), render: (row) => <Box component="span" sx={{ fontFamily: 'monospace' }}>{row.code}</Box> },
    { id: 'responsible', label: t('tasks.responsible'), render: (row) => <Responsible name={row.responsibleName} team={row.teamName} /> },
    { id: 'dueAt', label: t('tasks.dueAt'), noWrap: true, render: (row) => <DueDate dueAt={row.dueAt} overdue={row.overdue} /> },
  ];
  const counts = query.data?.counts;

  return (
    <>
      <PageHeader title={t('protocols.tasksTitle')} />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <TextField
          select
          size="small"
          label={t('tasks.protocol')}
          value={protocols.data ? protocolId : ''}
          onChange={(event) => choose({ protocol: event.target.value })}
          sx={{ minWidth: 240, width: { xs: '100%', sm: 'auto' }, mb: 1 }}
          disabled={!protocols.data}
        >
          {(protocols.data?.items ?? []).map((protocol) => (
            <MenuItem key={protocol.id} value={String(protocol.id)}>
              {protocolName(protocol, i18n.language)}
            </MenuItem>
          ))}
        </TextField>
        {protocols.isError && <Alert severity="error">{protocols.error.message}</Alert>}
        {protocols.data?.items.length === 0 && <Typography color="text.secondary">{t('protocols.empty')}</Typography>}
        {protocolId && (
          <>
            <Tabs
              value={group}
              onChange={(_event, value: TaskGroup) => choose({ group: value })}
              variant="scrollable"
              allowScrollButtonsMobile
              aria-label={t('protocols.taskGroups')}
              // The selected tab's text in the darker primary keeps AA contrast on white.
              sx={{ borderBottom: 1, borderColor: 'divider', '& .MuiTab-root.Mui-selected': { color: 'primary.dark' } }}
            >
              {TASK_GROUPS.map((state) => (
                <Tab
                  key={state}
                  value={state}
                  id={`group-${state}`}
                  data-group={state}
                  label={
                    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
                      <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: STATE_COLORS[state] }} />
                      {t(stateLabelKey(state))}
                      <Box component="span" sx={{ fontWeight: 700 }} data-count>
                        {counts ? counts[state] : '…'}
                      </Box>
                    </Box>
                  }
                />
              ))}
            </Tabs>
            <Box role="tabpanel" aria-labelledby={`group-${group}`}>
              <DataTable
                label={t('protocols.groupTasks', { group: t(stateLabelKey(group)) })}
                columns={columns}
                rows={query.data?.items}
                total={query.data?.total ?? 0}
                getRowId={(row) => row.id}
                page={page}
                rowsPerPage={limit}
                onPageChange={setPage}
                onRowsPerPageChange={(next) => {
                  setLimit(next);
                  setPage(0);
                }}
                loading={query.isFetching}
                emptyText={t('protocols.noTasksInGroup')}
              />
            </Box>
          </>
        )}
        <ListError error={query.error} />
      </Paper>
    </>
  );
}
