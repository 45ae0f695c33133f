import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useProjectSettings } from '../../app/project/projectSettings.js';

interface AuthCardProps {
  /** The page's own heading (h1). */
  title: string;
  children: ReactNode;
  /** Links under the card (other ways in). */
  footer?: ReactNode;
}

/** The frame of the sign-in, sign-up and password pages: the project's name and colour, then the form. */
export function AuthCard({ title, children, footer }: AuthCardProps) {
  const settings = useProjectSettings();
  return (
    <Box sx={{ maxWidth: 440, mx: 'auto', mt: { xs: 1, sm: 6 } }}>
      <Paper
        variant="outlined"
        sx={{ p: { xs: 2, sm: 4 }, borderTop: 4, borderTopColor: 'primary.main', overflowWrap: 'anywhere' }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2 }}>
          {settings.logo && <Box component="img" src={settings.logo} alt="" sx={{ height: 40 }} />}
          <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }} data-testid="project-title">
            {settings.title}
          </Typography>
        </Box>
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        {children}
      </Paper>
      {footer && (
        <Box
          component="nav"
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, mt: 2, textAlign: 'center' }}
        >
          {footer}
        </Box>
      )}
    </Box>
  );
}
