import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { visuallyHidden } from '@mui/utils';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ROWS_PER_PAGE_OPTIONS } from './listParams.js';

export interface Column<T> {
  id: string;
  label: string;
  render: (row: T) => ReactNode;
  /** The server's `sortBy` for this column; without it the column does not sort. */
  sortKey?: string;
  align?: 'left' | 'right' | 'center';
  /** Keeps the value on one line in the table (codes, dates). */
  noWrap?: boolean;
}

export interface DataTableProps<T> {
  /** The accessible name of the table (and of the card list on phones). */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  total: number;
  /** `total` is a floor: more rows follow ("1–20 of more than 1,000"), and the next page stays open. */
  totalIsFloor?: boolean;
  getRowId: (row: T) => string | number;
  /** 0-based. */
  page: number;
  rowsPerPage: number;
  onPageChange: (page: number) => void;
  onRowsPerPageChange: (rowsPerPage: number) => void;
  sortBy?: string;
  descending?: boolean;
  onSortChange?: (sortBy: string, descending: boolean) => void;
  loading?: boolean;
  emptyText: string;
  /** The buttons of one row (edit, delete...), in a last column. */
  actions?: (row: T) => ReactNode;
}

const SKELETON_ROWS = 3;

/**
 * A server-driven list: the server pages, sorts and searches; this shows one
 * page, its loading and empty states. On phones the rows become cards, so
 * nothing scrolls sideways.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const { rows, loading, total, totalIsFloor, page, rowsPerPage } = props;
  const firstLoad = loading && !rows;

  const pagination = (
    <TablePagination
      component="div"
      // -1: MUI's "unknown", which keeps the next page open; the label says what is known.
      count={totalIsFloor ? -1 : total}
      page={totalIsFloor ? page : total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / rowsPerPage) - 1))}
      {...(totalIsFloor && {
        labelDisplayedRows: ({ from, to }: { from: number; to: number }) =>
          t('dataTable.rangeOfMoreThan', { from: from.toLocaleString(i18n.language), to: to.toLocaleString(i18n.language), total: Math.max(total, to).toLocaleString(i18n.language) }),
      })}
      rowsPerPage={rowsPerPage}
      rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS}
      onPageChange={(_event, next) => props.onPageChange(next)}
      onRowsPerPageChange={(event) => props.onRowsPerPageChange(Number(event.target.value))}
      sx={{ '.MuiTablePagination-toolbar': { flexWrap: 'wrap', px: { xs: 0, sm: 2 } } }}
    />
  );

  return (
    <Box sx={{ position: 'relative' }} aria-busy={loading || undefined}>
      {loading && (
        <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1 }} aria-label={t('common.loading')} />
      )}
      {phone ? <CardList {...props} firstLoad={!!firstLoad} /> : <WideTable {...props} firstLoad={!!firstLoad} />}
      {pagination}
    </Box>
  );
}

type ViewProps<T> = DataTableProps<T> & { firstLoad: boolean };

function WideTable<T>({ label, columns, rows, getRowId, sortBy, descending, onSortChange, emptyText, actions, firstLoad }: ViewProps<T>) {
  const { t } = useTranslation();
  const span = columns.length + (actions ? 1 : 0);
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column) => {
              const active = !!column.sortKey && column.sortKey === sortBy;
              return (
                <TableCell
                  key={column.id}
                  align={column.align}
                  sortDirection={active ? (descending ? 'desc' : 'asc') : false}
                  sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                >
                  {column.sortKey && onSortChange ? (
                    <TableSortLabel
                      active={active}
                      direction={active && descending ? 'desc' : 'asc'}
                      onClick={() => onSortChange(column.sortKey as string, active ? !descending : false)}
                    >
                      {column.label}
                      {active && (
                        <Box component="span" sx={visuallyHidden}>
                          {t(descending ? 'dataTable.sortedDescending' : 'dataTable.sortedAscending')}
                        </Box>
                      )}
                    </TableSortLabel>
                  ) : (
                    column.label
                  )}
                </TableCell>
              );
            })}
            {actions && (
              <TableCell align="right" sx={{ fontWeight: 600 }}>
                {t('dataTable.actions')}
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {firstLoad &&
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
              <TableRow key={i}>
                <TableCell colSpan={span}>
                  <Skeleton />
                </TableCell>
              </TableRow>
            ))}
          {!firstLoad && rows?.length === 0 && (
            <TableRow>
              <TableCell colSpan={span} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                {emptyText}
              </TableCell>
            </TableRow>
          )}
          {rows?.map((row) => (
            <TableRow key={getRowId(row)} hover>
              {columns.map((column) => (
                <TableCell
                  key={column.id}
                  align={column.align}
                  sx={column.noWrap ? { whiteSpace: 'nowrap' } : { overflowWrap: 'anywhere' }}
                >
                  {column.render(row)}
                </TableCell>
              ))}
              {actions && (
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {actions(row)}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Phones: one card per row, label and value stacked; sorting from a select. */
function CardList<T>({ label, columns, rows, getRowId, sortBy, descending, onSortChange, emptyText, actions, firstLoad }: ViewProps<T>) {
  const { t } = useTranslation();
  const sortable = columns.filter((c) => c.sortKey);
  return (
    <Box>
      {onSortChange && sortable.length > 0 && (
        <TextField
          select
          size="small"
          label={t('dataTable.sortBy')}
          value={`${sortBy ?? ''}:${descending ? 'desc' : 'asc'}`}
          onChange={(event) => {
            const [by, direction] = event.target.value.split(':');
            onSortChange(by ?? '', direction === 'desc');
          }}
          sx={{ mb: 1, mt: 1, minWidth: 200 }}
        >
          {sortable.flatMap((column) => [
            <MenuItem key={`${column.sortKey}:asc`} value={`${column.sortKey}:asc`}>
              {`${column.label} ↑`}
            </MenuItem>,
            <MenuItem key={`${column.sortKey}:desc`} value={`${column.sortKey}:desc`}>
              {`${column.label} ↓`}
            </MenuItem>,
          ])}
        </TextField>
      )}
      {firstLoad && <Skeleton variant="rectangular" height={96} />}
      {!firstLoad && rows?.length === 0 && (
        <Typography sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>{emptyText}</Typography>
      )}
      <Box component="ul" aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {rows?.map((row) => (
          <li key={getRowId(row)}>
            <Card variant="outlined">
              <CardContent sx={{ pb: 1 }}>
                <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(80px, auto) 1fr', columnGap: 1.5, rowGap: 0.5 }}>
                  {columns.map((column) => {
                    const value = column.render(row);
                    // An empty value is left out of the card rather than shown as a bare label.
                    if (value === '' || value === null || value === undefined) return null;
                    return (
                      <Box key={column.id} sx={{ display: 'contents' }}>
                        <Typography component="dt" variant="body2" color="text.secondary">
                          {column.label}
                        </Typography>
                        <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere', minWidth: 0 }}>
                          {value}
                        </Typography>
                      </Box>
                    );
                  })}
                </Box>
                {actions && <Box sx={{ display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap', mt: 1 }}>{actions(row)}</Box>}
              </CardContent>
            </Card>
          </li>
        ))}
      </Box>
    </Box>
  );
}
