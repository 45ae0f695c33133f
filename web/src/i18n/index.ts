import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readCookie, writeCookie } from '../lib/cookies.js';
import en from './en.json' with { type: 'json' };

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Same key as i18next's browser detector, so a choice made elsewhere carries over. */
const STORAGE_KEY = 'i18nextLng';
/** The server translates its messages from this cookie. */
const COOKIE_NAME = 'lang';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

function toLanguage(value: string | null | undefined): Language | null {
  const base = value?.toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((l) => l === base) ?? null;
}

function readStoredLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Whether a language was chosen on this device (the switch, the profile, an earlier sign-in), not guessed from the browser. */
export function languageChosenHere(): boolean {
  return toLanguage(readStoredLanguage()) !== null || toLanguage(readCookie(COOKIE_NAME)) !== null;
}

/** The user's saved choice, then the cookie the server also reads, then the browser. */
export function detectLanguage(): Language {
  return (
    toLanguage(readStoredLanguage()) ??
    toLanguage(readCookie(COOKIE_NAME)) ??
    toLanguage(navigator.language) ??
    DEFAULT_LANGUAGE
  );
}

export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Storage may be disabled; the cookie still carries the choice.
  }
  writeCookie(COOKIE_NAME, language, ONE_YEAR_SECONDS);
  await i18n.changeLanguage(language);
}

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

/**
 * English (the default and the fallback) ships with the page; Spanish loads
 * the first time it is needed, which keeps it out of the first bundle.
 * `changeLanguage` waits for it.
 */
const lazyTranslations: BackendModule = {
  type: 'backend',
  init: () => {},
  read: (language, _namespace, callback) => {
    if (language === 'es') {
      import('./es.json').then(
        (module) => callback(null, module.default),
        (error: Error) => callback(error, false),
      );
    } else {
      callback(null, language === 'en' ? en : {});
    }
  },
};

const initialLanguage = detectLanguage();
// Keep the server's messages in the language the page shows, even when the
// choice came from storage or the browser rather than the cookie.
if (readCookie(COOKIE_NAME) !== initialLanguage) writeCookie(COOKIE_NAME, initialLanguage, ONE_YEAR_SECONDS);

/** Resolves once the page language's texts are there; the first render waits for it. */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyTranslations)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    lng: initialLanguage,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES,
    // English is bundled: initialise synchronously so that an English first render is translated at once.
    initAsync: false,
    interpolation: { escapeValue: false },
  });

export default i18n;
