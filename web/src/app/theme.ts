import { esES } from '@mui/material/locale';
import { createTheme, type Theme } from '@mui/material/styles';
import type { ProjectSettings } from '../../../core/project.js';
import type { Language } from '../i18n/index.js';

declare module '@mui/material/styles' {
  interface Palette {
    accent: Palette['primary'];
  }
  interface PaletteOptions {
    accent?: PaletteOptions['primary'];
  }
}

/** The spec's size classes, in exact pixels. */
export const BREAKPOINTS = { xs: 0, sm: 600, md: 960, lg: 1264, xl: 1904 } as const;

export function createAppTheme(colors: ProjectSettings['colors'], language: Language): Theme {
  const base = createTheme({
    breakpoints: { values: BREAKPOINTS },
    palette: {
      // WCAG AA for normal text: MUI picks dark or light text on each project colour
      // (white on the spec's default primary #0288D1 is only 3.85:1).
      contrastThreshold: 4.5,
      primary: { main: colors.primary },
      secondary: { main: colors.secondary },
      text: { primary: colors.text },
    },
  });
  return createTheme(
    base,
    { palette: { accent: base.palette.augmentColor({ color: { main: colors.accent }, name: 'accent' }) } },
    // MUI's own texts (pagination, close buttons) follow the page language; English is MUI's default.
    ...(language === 'es' ? [esES] : []),
  );
}
