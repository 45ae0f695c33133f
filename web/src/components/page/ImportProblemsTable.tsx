import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

/** One problem of an imported file: its line, where in the line (a column, a field), and what is wrong. */
export interface ImportProblem {
  line: number;
  where: ReactNode;
  message: string;
}

interface ImportProblemsTableProps {
  /** The table's heading and name ("Rows with problems (2)"). */
  title: string;
  /** The header of the `where` column ("Column", "Field"). */
  whereLabel: string;
  problems: readonly ImportProblem[];
}

/** The rows of a file the server refused, one line each, in a box that scrolls under a sticky header. */
export function ImportProblemsTable({ title, whereLabel, problems }: ImportProblemsTableProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Box sx={{ mt: 2 }}>
      <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <TableContainer sx={{ maxHeight: 320, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader aria-labelledby={titleId}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{t('importFile.line')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{whereLabel}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('importFile.message')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {problems.map((problem, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a line may hold the same problem twice.
              <TableRow key={`${problem.line}:${i}`}>
                <TableCell>{problem.line}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{problem.where}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{problem.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
