// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { NOTIFICATION_KINDS } from '../../../core/api/comments.js';
import { MAIL_EVENTS } from '../../../core/api/templates.js';
import { MENU } from '../../../core/menu.js';
import { writeCookie } from '../lib/cookies.js';
import '../test/utils.js';
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import i18n, { detectLanguage, setLanguage } from './index.js';

function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

/** i18next's plural suffixes: `rows_one`, `rows_other` (and Spanish's `rows_many`) are the forms of `rows`. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const baseKeys = (tree: object) => [...new Set(keys(tree).map((key) => key.replace(PLURAL, '')))].sort();

describe('translations', () => {
  test('English and Spanish hold exactly the same keys (each with its own plural forms), none empty', async () => {
    // Spanish loads on demand (it is not in the first bundle).
    await i18n.loadLanguages('es');
    expect(i18n.hasResourceBundle('es', 'translation')).toBe(true);
    expect(baseKeys(es)).toEqual(baseKeys(en));
    for (const key of keys(es)) expect(i18n.getFixedT('es')(key), key).not.toBe('');
  });

  test('a text with plural forms has every form its language needs', () => {
    for (const [language, tree] of [['en', en], ['es', es]] as const) {
      const all = new Set(keys(tree));
      const plurals = new Set(keys(tree).filter((key) => PLURAL.test(key)).map((key) => key.replace(PLURAL, '')));
      // A bare key beside its plural forms would never be read.
      expect([...plurals].filter((base) => all.has(base)), language).toEqual([]);
      const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const base of plurals) for (const form of forms) expect(all, `${language}: ${base}`).toContain(`${base}_${form}`);
    }
  });

  test('every notification kind has its text and its label, every email event its label', () => {
    const all = new Set(keys(en).map((key) => key.replace(PLURAL, '')));
    for (const kind of NOTIFICATION_KINDS) {
      expect(all, kind).toContain(`notifications.kinds.${kind}`);
      expect(all, kind).toContain(`templates.events.${kind}`);
    }
    for (const event of MAIL_EVENTS) expect(all, event).toContain(`templates.events.${event}`);
  });

  test('every menu label has its key', () => {
    const all = new Set(keys(en));
    const menuKeys = MENU.flatMap((e) =>
      e.kind === 'link' ? [e.labelKey] : [e.labelKey, ...e.children.map((c) => c.labelKey)],
    );
    for (const key of menuKeys) expect(all, key).toContain(key);
  });

  test('every literal key the web code translates exists', () => {
    const root = dirname(dirname(fileURLToPath(import.meta.url)));
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
    );
    const used = sources.flatMap((file) =>
      [...readFileSync(`${root}/${file}`, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z]+\.[\w.]+)'/g)].map(
        (m) => m[1] as string,
      ),
    );
    expect(used.length).toBeGreaterThan(20);
    const all = new Set(keys(en).map((key) => key.replace(PLURAL, '')));
    for (const key of used) expect(all, key).toContain(key);
  });
});

describe('language detection', () => {
  afterEach(() => vi.unstubAllGlobals());

  const browserLanguage = (language: string) => vi.stubGlobal('navigator', { ...navigator, language });

  test('localStorage first', () => {
    localStorage.setItem('i18nextLng', 'es');
    writeCookie('lang', 'en', 60);
    browserLanguage('en-US');
    expect(detectLanguage()).toBe('es');
  });

  test('then the lang cookie', () => {
    writeCookie('lang', 'es', 60);
    browserLanguage('en-US');
    expect(detectLanguage()).toBe('es');
  });

  test('then the browser language, by its base', () => {
    browserLanguage('es-CO');
    expect(detectLanguage()).toBe('es');
  });

  test('English when nothing supported is found', () => {
    localStorage.setItem('i18nextLng', 'fr');
    browserLanguage('de-DE');
    expect(detectLanguage()).toBe('en');
  });
});

test('setLanguage stores the choice for the page and the server, and sets <html lang>', async () => {
  await setLanguage('es');
  expect(i18n.language).toBe('es');
  expect(localStorage.getItem('i18nextLng')).toBe('es');
  expect(document.cookie).toContain('lang=es');
  expect(document.documentElement.lang).toBe('es');
});
