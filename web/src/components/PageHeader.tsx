import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A page's title (h1) with its main actions beside it; they wrap under the title on phones. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 2 }}>
      <Typography variant="h5" component="h1" sx={{ flexGrow: 1, overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
