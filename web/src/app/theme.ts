import { esES } from '@mui/material/locale';
import { alpha, createTheme, darken, getContrastRatio, type Theme, type ThemeOptions } from '@mui/material/styles';
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

/** WCAG AA for normal text. */
const TEXT_CONTRAST = 4.5;

/**
 * The shade of `color` to use for text on each of `backgrounds`: the colour
 * itself if it reads well enough on all of them, else darkened step by step
 * until it does.
 */
export function readableOn(color: string, backgrounds: string | readonly string[] = '#fff'): string {
  const on = typeof backgrounds === 'string' ? [backgrounds] : backgrounds;
  const reads = (shade: string) => on.every((b) => getContrastRatio(shade, b) >= TEXT_CONTRAST);
  let shade = color;
  for (let step = 1; step <= 20 && !reads(shade); step++) shade = darken(color, step / 20);
  return shade;
}

/** `overlay` at `opacity` over an opaque `background`, as the browser paints it (both #rrggbb). */
export function overlayOn(background: string, overlay: string, opacity: number): string {
  const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const [b, o] = [channels(background), channels(overlay)];
  return `#${b.map((c, i) => Math.round(c * (1 - opacity) + (o[i] as number) * opacity).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Where links and primary-coloured text sit in this app: white, a row under
 * the pointer (MUI's action.hover, 4% black) and a selected row (the primary
 * at 8%, and 12% under the pointer).
 */
export function primaryTextBackgrounds(primary: string): string[] {
  return ['#ffffff', overlayOn('#ffffff', '#000000', 0.04), overlayOn('#ffffff', primary, 0.08), overlayOn('#ffffff', primary, 0.12)];
}

export function createAppTheme(colors: ProjectSettings['colors'], language: Language): Theme {
  // Links, focused labels and text buttons draw the primary colour as text on white, hovered and selected rows.
  const primaryText = readableOn(colors.primary, primaryTextBackgrounds(colors.primary));
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
    { components: readablePrimaryText(primaryText) },
    // MUI's own texts (pagination, close buttons) follow the page language; English is MUI's default.
    ...(language === 'es' ? [esES] : []),
  );
}

/** Where MUI draws the primary colour as text, it uses the readable shade instead; focus rings where MUI draws none. */
function readablePrimaryText(primaryText: string): ThemeOptions['components'] {
  return {
    MuiLink: {
      styleOverrides: {
        root: ({ ownerState }) =>
          (ownerState.color ?? 'primary') === 'primary'
            ? { color: primaryText, textDecorationColor: alpha(primaryText, 0.4) }
            : {},
      },
    },
    MuiFormLabel: {
      styleOverrides: { root: { '&.Mui-focused:not(.Mui-error)': { color: primaryText } } },
    },
    MuiTab: {
      styleOverrides: { root: { '&.Mui-selected': { color: primaryText } } },
    },
    MuiButton: {
      styleOverrides: {
        root: ({ ownerState }) =>
          ownerState.variant !== 'contained' && (ownerState.color ?? 'primary') === 'primary' ? { color: primaryText } : {},
      },
    },
    // A sort button draws focus only as a colour and an arrow, both already there on the sorted column: a ring instead.
    MuiTableSortLabel: {
      styleOverrides: { root: { borderRadius: 2, '&.Mui-focusVisible': focusRing(primaryText) } },
    },
  };
}

/** The visible focus of an element that has no focus ripple or highlight of its own (WCAG 2.4.7). */
export function focusRing(color: string) {
  return { outline: `2px solid ${color}`, outlineOffset: 2 };
}
