import { describe, expect, it } from 'vitest';
import { contrastCheck, contrastRatio, parseHexColor, relativeLuminance } from './contrast.js';

describe('WCAG contrast', () => {
  it('black on white is 21:1 and a colour on itself is 1:1, in either order', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#FFFFFF', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#0288D1', '#0288d1')).toBe(1);
  });

  it('matches published ratios', () => {
    // WebAIM's checker: #767676 on white is 4.54:1 (the lightest grey that passes AA), #777777 is 4.48:1.
    expect(contrastRatio('#767676', '#FFFFFF')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#FFFFFF')).toBeCloseTo(4.48, 2);
    expect(relativeLuminance('#FFFFFF')).toBe(1);
    expect(relativeLuminance('#000000')).toBe(0);
  });

  it('passes AA at 4.5:1 and not below, the ratio rounded down', () => {
    expect(contrastCheck('#767676', '#FFFFFF')).toEqual({ ratio: 4.54, passes: true });
    expect(contrastCheck('#777777', '#FFFFFF')).toEqual({ ratio: 4.47, passes: false });
    // The default theme: text #212121 on white passes, white on the default primary #0288D1 does not (3.85:1).
    expect(contrastCheck('#212121', '#FFFFFF').passes).toBe(true);
    expect(contrastCheck('#FFFFFF', '#0288D1')).toEqual({ ratio: 3.85, passes: false });
  });

  it('refuses what is not #RRGGBB', () => {
    expect(parseHexColor('#FFF')).toBeUndefined();
    expect(parseHexColor('red')).toBeUndefined();
    expect(parseHexColor('#12345G')).toBeUndefined();
    expect(() => relativeLuminance('rgb(0,0,0)')).toThrow(RangeError);
  });
});
