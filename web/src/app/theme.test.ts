import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COLORS } from '../../../core/project.js';
import { createAppTheme, overlayOn, primaryTextBackgrounds, readableOn } from './theme.js';

describe('the primary colour as text', () => {
  it('paints an overlay as the browser does', () => {
    expect(overlayOn('#ffffff', '#000000', 0.04)).toBe('#f5f5f5');
    expect(overlayOn('#ffffff', '#0288d1', 0)).toBe('#ffffff');
    expect(overlayOn('#ffffff', '#0288d1', 1)).toBe('#0288d1');
  });

  it('reads at 4.5:1 or more on white, a hovered row and a selected one, for the default and for pale or dark colours', () => {
    for (const primary of [DEFAULT_COLORS.primary, '#0288d1', '#6a1b9a', '#ffeb3b', '#4caf50', '#000000']) {
      const shade = readableOn(primary, primaryTextBackgrounds(primary));
      for (const background of primaryTextBackgrounds(primary)) expect(getContrastRatio(shade, background), `${primary} as ${shade} on ${background}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps a colour that already reads well as it is', () => {
    expect(readableOn('#1a237e', primaryTextBackgrounds('#1a237e'))).toBe('#1a237e');
  });

  it('gives links the readable shade: the spec’s #0288D1 on a hovered row was 4.26:1', () => {
    expect(getContrastRatio('#017abc', '#f5f5f5')).toBeLessThan(4.5);
    const theme = createAppTheme({ ...DEFAULT_COLORS, primary: '#0288d1' }, 'en');
    const root = theme.components?.MuiLink?.styleOverrides?.root as (p: { ownerState: object }) => { color: string };
    const { color } = root({ ownerState: {} });
    expect(getContrastRatio(color, '#f5f5f5')).toBeGreaterThanOrEqual(4.5);
  });
});
