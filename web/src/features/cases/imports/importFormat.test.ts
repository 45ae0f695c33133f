import { describe, expect, test } from 'vitest';
import i18n from '../../../i18n/index.js';
import { formatDuration, progressText } from './importFormat.js';

describe('an import’s time left and progress, as people read them', () => {
  test('seconds, minutes and seconds, hours and minutes, in English', () => {
    const t = i18n.getFixedT('en');
    expect(formatDuration(45, t, 'en')).toBe('45 s');
    expect(formatDuration(80, t, 'en')).toBe('1 min 20 s');
    expect(formatDuration(120, t, 'en')).toBe('2 min');
    expect(formatDuration(7500, t, 'en')).toBe('2 h 5 min');
    expect(formatDuration(3600, t, 'en')).toBe('1 h');
    expect(formatDuration(0.4, t, 'en')).toBe('0 s');
  });

  test('the same units in Spanish, with its numbers', async () => {
    await i18n.loadLanguages('es');
    const t = i18n.getFixedT('es');
    expect(formatDuration(80, t, 'es')).toBe('1 min 20 s');
    expect(progressText({ processed: 12_500, total: 1_000_000, rowsPerSecond: 2.46, secondsLeft: 45 }, t, 'es')).toBe('12.500 de 1.000.000 filas · 2,5 filas/s · faltan unos 45 s');
  });

  test('what is not known yet is left out', () => {
    const t = i18n.getFixedT('en');
    expect(progressText({ processed: 0, total: 1, rowsPerSecond: null, secondsLeft: null }, t, 'en')).toBe('0 of 1 row');
  });
});
