import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Drill } from '../../../../core/api/reports.js';
import { stateLabelKey } from '../../../../core/workflow/states.js';
import { QueryState } from '../../components/page/index.js';
import { type DashboardAnswer, useDashboard } from './api.js';
import { ReportChart } from './chart/ReportChart.js';
import { drillHref } from './drill.js';
import { useReportLabels } from './labels.js';

/**
 * The staff home's figures (GET /api/reports/dashboard), over what the
 * reader may see: their open and overdue tasks, every overdue task they
 * see, this month's applications by state, the decisions of the last 30
 * days (a small chart, loaded after the rest) and the average days each
 * protocol task takes. Each figure links to the list that shows it.
 */
export function DashboardTiles() {
  const { t } = useTranslation();
  const headingId = useId();
  const query = useDashboard();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 4 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        {t('reports.dashboard.title')}
      </Typography>
      <QueryState query={query} retry height={220}>
        {(dashboard) => <Tiles dashboard={dashboard} />}
      </QueryState>
    </Box>
  );
}

const grid = { display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))' } as const;

function Tiles({ dashboard }: { dashboard: DashboardAnswer }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      <Box component="ul" sx={{ display: 'grid', gap: { xs: 1, sm: 2 }, gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', listStyle: 'none', p: 0, m: 0 }}>
        <CountTile label={t('reports.dashboard.myOpenTasks')} count={dashboard.myOpenTasks.count} drill={dashboard.myOpenTasks.drill} />
        <CountTile label={t('reports.dashboard.myOverdueTasks')} count={dashboard.myOverdueTasks.count} drill={dashboard.myOverdueTasks.drill} alert />
        <CountTile label={t('reports.dashboard.overdueTasks')} count={dashboard.overdueTasks.count} drill={dashboard.overdueTasks.drill} alert />
      </Box>
      <Box sx={{ ...grid, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))' }}>
        <ApplicationsTile month={dashboard.applicationsThisMonth} />
        <DecisionsTile days={dashboard.decisionsPerDay} />
      </Box>
      <AverageDaysTile tasks={dashboard.averageDaysPerTask} />
    </Box>
  );
}

/** A figure and what it counts, the whole card a link to its list. */
function CountTile({ label, count, drill, alert = false }: { label: string; count: number; drill: Drill; alert?: boolean }) {
  const labels = useReportLabels();
  const href = drillHref(drill);
  const content = (
    <CardContent sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Typography variant="h4" component="p" sx={{ fontWeight: 600, fontSize: { xs: '1.5rem', sm: '2.125rem' }, color: alert && count > 0 ? 'error.dark' : 'text.primary' }}>
        {labels.value('count', count)}
      </Typography>
      <Typography variant="body2" component="p" sx={{ overflowWrap: 'anywhere', hyphens: 'auto' }}>
        {label}
      </Typography>
    </CardContent>
  );
  return (
    <li>
      <Card variant="outlined" sx={{ height: '100%' }}>
        {href ? (
          <CardActionArea component={RouterLink} to={href} sx={{ height: '100%' }}>
            {content}
          </CardActionArea>
        ) : (
          content
        )}
      </Card>
    </li>
  );
}

function TileCard({ title, titleHref, children }: { title: string; titleHref?: string | null; children: ReactNode }) {
  const id = useId();
  return (
    <Card variant="outlined" component="section" aria-labelledby={id} sx={{ minWidth: 0 }}>
      <CardContent sx={{ display: 'grid', gap: 1 }}>
        <Typography id={id} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {titleHref ? (
            <Link component={RouterLink} to={titleHref}>
              {title}
            </Link>
          ) : (
            title
          )}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function ApplicationsTile({ month }: { month: DashboardAnswer['applicationsThisMonth'] }) {
  const { t } = useTranslation();
  const labels = useReportLabels();
  return (
    <TileCard title={t('reports.dashboard.applicationsThisMonth', { total: labels.value('count', month.total) })} titleHref={drillHref(month.drill)}>
      <Typography variant="body2" color="text.secondary">
        {t('reports.dashboard.period', { from: labels.day(month.from), to: labels.day(month.to) })}
      </Typography>
      {month.byState.length === 0 ? (
        <Typography variant="body2">{t('reports.dashboard.noApplications')}</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 }}>
          {month.byState.map((s) => {
            const href = drillHref(s.drill);
            const text = `${t(stateLabelKey(s.state))}: ${labels.value('count', s.count)}`;
            return (
              <li key={s.state}>
                {href ? (
                  <Link component={RouterLink} to={href}>
                    {text}
                  </Link>
                ) : (
                  text
                )}
              </li>
            );
          })}
        </Box>
      )}
    </TileCard>
  );
}

function DecisionsTile({ days }: { days: DashboardAnswer['decisionsPerDay'] }) {
  const { t } = useTranslation();
  const labels = useReportLabels();
  const accepted = days.reduce((n, d) => n + d.accepted, 0);
  const rejected = days.reduce((n, d) => n + d.rejected, 0);
  const data = useMemo(
    () => ({
      categories: days.map((d) => labels.day(d.day).slice(0, 5)),
      sequence: true,
      series: [
        { name: t('reports.dashboard.accepted'), values: days.map((d) => d.accepted) },
        { name: t('reports.dashboard.rejected'), values: days.map((d) => d.rejected) },
      ],
    }),
    [days, labels, t],
  );
  const format = useMemo(() => (value: number) => labels.value('count', value), [labels]);
  const summary = t('reports.dashboard.decisionsSummary', { accepted: labels.value('count', accepted), rejected: labels.value('count', rejected) });
  return (
    <TileCard title={t('reports.dashboard.decisionsPerDay')}>
      <Typography variant="body2">{summary}</Typography>
      {accepted + rejected > 0 && <ReportChart kind="stackedBar" data={data} format={format} summary={t('reports.dashboard.decisionsChart', { summary })} height={200} />}
    </TileCard>
  );
}

function AverageDaysTile({ tasks }: { tasks: DashboardAnswer['averageDaysPerTask'] }) {
  const { t } = useTranslation();
  const labels = useReportLabels();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const title = t('reports.dashboard.averageDays');
  return (
    <TileCard title={title}>
      {tasks.length === 0 ? (
        <Typography variant="body2">{t('reports.dashboard.noDecisions')}</Typography>
      ) : phone ? (
        // Four columns do not fit a phone: one line per task, its figures under it.
        <Box component="ul" aria-label={title} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {tasks.map((task) => {
            const href = drillHref(task.drill);
            return (
              <li key={`${task.protocolId}:${task.code}`}>
                {href ? (
                  <Link component={RouterLink} to={href}>
                    {task.name}
                  </Link>
                ) : (
                  task.name
                )}
                <Typography variant="body2" color="text.secondary">
                  {t('reports.dashboard.taskFigures', { protocol: task.protocolName, decided: labels.value('count', task.decided), days: labels.value('avgDays', task.avgDays) })}
                </Typography>
              </li>
            );
          })}
        </Box>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{t('reports.columns.task')}</TableCell>
                <TableCell>{t('reports.columns.protocol')}</TableCell>
                <TableCell align="right">{t('reports.dashboard.decided')}</TableCell>
                <TableCell align="right">{t('reports.measures.avgDays')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {tasks.map((task) => {
                const href = drillHref(task.drill);
                return (
                  <TableRow key={`${task.protocolId}:${task.code}`}>
                    <TableCell sx={{ overflowWrap: 'break-word' }}>
                      {href ? (
                        <Link component={RouterLink} to={href}>
                          {task.name}
                        </Link>
                      ) : (
                        task.name
                      )}
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'break-word' }}>{task.protocolName}</TableCell>
                    <TableCell align="right">{labels.value('count', task.decided)}</TableCell>
                    <TableCell align="right">{labels.value('avgDays', task.avgDays)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </TileCard>
  );
}
