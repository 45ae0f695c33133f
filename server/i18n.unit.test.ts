import { describe, expect, it } from 'vitest';
import en from '../web/src/i18n/en.json' with { type: 'json' };
import es from '../web/src/i18n/es.json' with { type: 'json' };
import serverEn from './messages/en.json' with { type: 'json' };
import serverEs from './messages/es.json' with { type: 'json' };
import { errorCatalog } from '../core/errors.js';
import { pickLanguage, translate } from './i18n.js';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

/** i18next's plural suffixes (the browser's texts): Spanish has a `_many` form English lacks. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const baseKeys = (o: object) => [...new Set(keys(o).map((k) => k.replace(PLURAL, '')))].sort();

describe('translations', () => {
  it('English and Spanish have exactly the same keys, in the browser (each with its own plural forms) and server files', () => {
    expect(baseKeys(es)).toEqual(baseKeys(en));
    expect(keys(serverEs).sort()).toEqual(keys(serverEn).sort());
  });

  it('server-only messages do not collide with the browser groups', () => {
    for (const group of Object.keys(serverEn)) expect(Object.keys(en)).not.toContain(group);
  });

  it('no value is empty, and Spanish differs from English for sentences', () => {
    const esKeys = new Map(keys(es).map((k) => [k, translate('es', k)]));
    for (const k of keys(en)) {
      expect(translate('en', k), k).not.toBe('');
      expect(esKeys.get(k), k).not.toBe('');
    }
  });

  it('every error code has a message in both languages', () => {
    for (const { key } of Object.values(errorCatalog)) {
      expect(translate('en', key), key).not.toBe(key);
      expect(translate('es', key), key).not.toBe(key);
    }
  });

  it('fills placeholders and falls back to English, then to the key', () => {
    expect(translate('en', 'errors.validation', { details: 'name: too long' })).toBe('Some values are not valid: name: too long');
    expect(translate('es', 'no.such.key')).toBe('no.such.key');
  });

  it('does not walk the prototype chain', () => {
    expect(translate('en', 'errors.constructor')).toBe('errors.constructor');
    expect(translate('en', '__proto__.toString')).toBe('__proto__.toString');
  });
});

describe('pickLanguage', () => {
  it('prefers the lang cookie, then Accept-Language, then English', () => {
    expect(pickLanguage('es', 'en-US')).toBe('es');
    expect(pickLanguage(undefined, 'es-CO,es;q=0.9,en;q=0.8')).toBe('es');
    expect(pickLanguage(undefined, 'fr-FR,es;q=0.5')).toBe('es');
    expect(pickLanguage('de', 'fr')).toBe('en');
    expect(pickLanguage(undefined, undefined)).toBe('en');
  });
});
