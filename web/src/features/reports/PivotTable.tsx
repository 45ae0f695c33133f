import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ReportMeasure } from '../../../../core/api/reports.js';
import { drillHref } from './drill.js';
import { useReportLabels } from './labels.js';
import type { Measured, PivotMatrix } from './pivotModel.js';

/** The first column's widest, so a focused cell can be scrolled clear of it. */
const FIRST_COLUMN_MAX = { xs: 140, sm: 280 };

const stickyFirst: SxProps<Theme> = {
  position: 'sticky',
  left: 0,
  zIndex: 2,
  bgcolor: 'background.paper',
  minWidth: { xs: 110, sm: 160 },
  maxWidth: FIRST_COLUMN_MAX,
  // Not `anywhere`: that would let the table squeeze its columns to a letter each instead of scrolling.
  overflowWrap: 'break-word',
  borderRight: 1,
  borderRightColor: 'divider',
};

interface PivotTableProps {
  matrix: PivotMatrix;
  measure: ReportMeasure;
  /** The table's name (the report and its measure). */
  label: string;
}

/**
 * A pivot as a table: the rows' names in a first column that stays in view,
 * the columns' names in a header that stays in view, a Total column and a
 * Total row. The table scrolls inside its own box (sideways on a phone),
 * never the page. A figure that drills down is a link to the list of what
 * it counted, reachable with Tab.
 */
export function PivotTable({ matrix, measure, label }: PivotTableProps) {
  const { t } = useTranslation();
  const hasColumns = matrix.columns.length > 0;
  const totalLabel = t('reports.pivot.total');
  return (
    <TableContainer
      role="region"
      aria-label={label}
      // Scrollable by keyboard even when no figure is a link.
      tabIndex={0}
      sx={{
        maxHeight: '70vh',
        overflow: 'auto',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        scrollPaddingLeft: FIRST_COLUMN_MAX,
        scrollPaddingTop: 48,
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
      }}
    >
      <Table size="small" stickyHeader aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col" sx={{ ...stickyFirst, zIndex: 3, fontWeight: 600 }}>
              {matrix.columnsLabel ? `${matrix.rowsLabel} / ${matrix.columnsLabel}` : matrix.rowsLabel}
            </TableCell>
            {matrix.columns.map((column) => (
              <TableCell key={column.key ?? '\u0000'} component="th" scope="col" align="right" sx={{ fontWeight: 600, minWidth: 72, overflowWrap: 'break-word' }}>
                {column.label}
              </TableCell>
            ))}
            <TableCell component="th" scope="col" align="right" sx={{ fontWeight: 700 }}>
              {totalLabel}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {matrix.rows.map((row) => (
            <TableRow key={row.key ?? '\u0000'} hover>
              <TableCell component="th" scope="row" sx={stickyFirst}>
                {row.label}
              </TableCell>
              {row.cells.map((cell, i) => (
                <Figure key={matrix.columns[i]?.key ?? '\u0000'} measured={cell} measure={measure} where={[row.label, matrix.columns[i]?.label ?? '']} />
              ))}
              <Figure measured={row.total} measure={measure} where={[row.label, hasColumns ? totalLabel : '']} strong />
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableCell component="th" scope="row" sx={{ ...stickyFirst, fontWeight: 700, color: 'text.primary', fontSize: '0.875rem' }}>
              {totalLabel}
            </TableCell>
            {matrix.columnTotals.map((cell, i) => (
              <Figure key={matrix.columns[i]?.key ?? '\u0000'} measured={cell} measure={measure} where={[totalLabel, matrix.columns[i]?.label ?? '']} strong />
            ))}
            <Figure measured={matrix.total} measure={measure} where={[t('reports.pivot.grandTotal')]} strong />
          </TableRow>
        </TableFooter>
      </Table>
    </TableContainer>
  );
}

interface FigureProps {
  measured: Measured | null;
  measure: ReportMeasure;
  /** The row and column it sits at, for the link's name. */
  where: string[];
  strong?: boolean;
}

/** One figure of the pivot: a link to its list when it drills down. */
function Figure({ measured, measure, where, strong = false }: FigureProps) {
  const { t } = useTranslation();
  const labels = useReportLabels();
  const sx: SxProps<Theme> = { fontWeight: strong ? 700 : 400, whiteSpace: 'nowrap', color: 'text.primary', fontSize: '0.875rem', p: 0 };
  const pad = { display: 'block', px: 2, py: 0.75 };
  if (!measured) {
    return (
      <TableCell align="right" sx={{ ...sx, color: 'text.secondary' }}>
        <span style={{ display: 'block', padding: '6px 16px' }}>{measure === 'count' ? labels.value('count', 0) : '–'}</span>
      </TableCell>
    );
  }
  const text = labels.value(measure, measured.value);
  const href = drillHref(measured.drill);
  return (
    <TableCell align="right" sx={sx}>
      {href ? (
        <Link
          component={RouterLink}
          to={href}
          aria-label={t('reports.pivot.open', { value: text, where: where.filter(Boolean).join(', ') })}
          sx={{ ...pad, '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.dark', outlineOffset: '-2px' } }}
        >
          {text}
        </Link>
      ) : (
        <span style={{ display: 'block', padding: '6px 16px' }}>{text}</span>
      )}
    </TableCell>
  );
}
