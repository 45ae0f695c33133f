/**
 * Colour contrast as WCAG 2.x defines it (relative luminance of sRGB
 * colours, ratio (L1 + 0.05) / (L2 + 0.05)), for the settings page's check of
 * a project's colours: AA asks 4.5:1 for normal text.
 */

/** The ratio WCAG AA asks of normal text. */
export const AA_NORMAL_TEXT = 4.5;

/** `#RRGGBB` to its three channels 0..255; undefined when it is not such a colour. */
export function parseHexColor(hex: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return undefined;
  return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const rgb = parseHexColor(hex);
  if (!rgb) throw new RangeError(`not a #RRGGBB colour: ${hex}`);
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21, whichever is lighter. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Whether text of `foreground` on `background` meets WCAG AA for normal text; the ratio rounded down to two decimals (4.499 is not 4.5). */
export function contrastCheck(foreground: string, background: string): { ratio: number; passes: boolean } {
  const exact = contrastRatio(foreground, background);
  return { ratio: Math.floor(exact * 100) / 100, passes: exact >= AA_NORMAL_TEXT };
}
