import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

/**
 * A named row of buttons (a record's actions, a selection's bulk actions):
 * one toolbar for assistive technology, wrapping on narrow screens.
 * Renders nothing when it has no buttons.
 */
export function ActionToolbar({ label, children, sx }: { label: string; children: ReactNode; sx?: SxProps<Theme> }) {
  const empty = children === null || children === undefined || children === false || (Array.isArray(children) && children.length === 0);
  if (empty) return null;
  return (
    <Box role="toolbar" aria-label={label} sx={[{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }, ...(Array.isArray(sx) ? sx : [sx])]}>
      {children}
    </Box>
  );
}
