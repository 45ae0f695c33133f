import { resolveNested } from '../core/messages.js';
import en from '../web/src/i18n/en.json' with { type: 'json' };
import es from '../web/src/i18n/es.json' with { type: 'json' };
import serverEn from './messages/en.json' with { type: 'json' };
import serverEs from './messages/es.json' with { type: 'json' };

/**
 * Server messages come from the browser's translation files (errors and
 * validation are shown by both), plus server/messages for what only the
 * server says (email texts), which would only weigh down the browser bundle.
 */
export type Lang = 'en' | 'es';
export const LANGS: readonly Lang[] = ['en', 'es'];
const bundles: Record<Lang, unknown> = { en: { ...en, ...serverEn }, es: { ...es, ...serverEs } };

function lookup(bundle: unknown, key: string): string | undefined {
  let node: unknown = bundle;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Translate `key` with i18next-style `{{name}}` placeholders; English is the fallback. */
export function translate(lang: Lang, key: string, given: Record<string, unknown> = {}): string {
  const template = lookup(bundles[lang], key) ?? lookup(bundles.en, key) ?? key;
  // A parameter may itself be a message (a parse error inside a problem): translated first.
  const params = resolveNested(given, (k, p) => translate(lang, k, p));
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : '',
  );
}

/** The caller's language: the `lang` cookie, then Accept-Language, then English. */
export function pickLanguage(cookieLang: string | undefined, acceptLanguage: string | undefined): Lang {
  if (cookieLang === 'en' || cookieLang === 'es') return cookieLang;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0].trim().slice(0, 2).toLowerCase();
    if (tag === 'en' || tag === 'es') return tag;
  }
  return 'en';
}
