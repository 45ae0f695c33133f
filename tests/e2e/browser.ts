import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's Chromium with the flags this machine needs (DESIGN.md). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export const baseUrl = () => inject('baseUrl');

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** A browser context in one language, as a person with that browser setting would arrive. */
export async function newContext(browser: Browser, lang: 'en' | 'es', viewport = DESKTOP): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport, locale: lang === 'es' ? 'es-CO' : 'en-US', baseURL: baseUrl() });
  await ctx.addInitScript((l) => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', l);
  }, lang);
  return ctx;
}
