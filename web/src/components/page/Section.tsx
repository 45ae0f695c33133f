import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

interface SectionProps {
  title: string;
  children: ReactNode;
  /** A button or two beside the title (Edit, Add). */
  action?: ReactNode;
  /** The heading's id, when something links to it; a generated one otherwise. */
  id?: string;
}

/** A titled block of a page: a region named by its h2, so screen readers can jump between them. */
export function Section({ title, children, action, id }: SectionProps) {
  const generated = useId();
  const headingId = id ?? generated;
  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId} sx={{ minWidth: 0 }}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
          <Typography id={headingId} component="h2" variant="h6" sx={{ flexGrow: 1 }}>
            {title}
          </Typography>
          {action}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}
