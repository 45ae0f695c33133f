import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
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
/** The commonest desktop screen: a whole step of the application form fits without scrolling. */
export const FULL_HD = { width: 1920, height: 1080 };
export const PHONE = { width: 390, height: 844 };

/**
 * A click as a hand makes it: the button goes down, stays down a moment,
 * and comes up where the pointer went down. Anything that moves the layout
 * between the two (a message that goes on blur) makes the click miss, as it
 * does for a person; Playwright's click() is too quick to notice.
 */
export async function clickAsAPerson(page: Page, target: Locator, holdMs = 150): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to click: the element has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(holdMs);
  await page.mouse.up();
}

/** The tag name of the focused element ('H1' for a page heading), and its text. */
export const focusedElement = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName ?? '', text: document.activeElement?.textContent?.trim() ?? '' }));

/** A browser context in one language, as a person with that browser setting would arrive. */
export async function newContext(browser: Browser, lang: 'en' | 'es', viewport = DESKTOP, base = baseUrl()): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport, locale: lang === 'es' ? 'es-CO' : 'en-US', baseURL: base });
  await ctx.addInitScript((l) => {
    if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', l);
  }, lang);
  return ctx;
}

/** The password of every demo login (DESIGN.md "Demo data"). */
export const DEMO_PASSWORD = 'Demo12345';

/**
 * Signs in through the sign-in page as a person would, in whatever language
 * the page shows, and waits until the app has left /login.
 */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, path = '/login'): Promise<void> {
  await page.goto(path);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** A context (its own cookies) already signed in as `email`, through the API, for pages a test only visits. */
export async function signedInContext(browser: Browser, email: string, lang: 'en' | 'es' = 'en', viewport = DESKTOP, password = DEMO_PASSWORD) {
  const ctx = await newContext(browser, lang, viewport);
  const response = await ctx.request.post('/api/auth/login', { data: { email, password } });
  if (!response.ok()) throw new Error(`sign-in of ${email} failed: ${response.status()} ${await response.text()}`);
  return ctx;
}

/** A value no other run or test has used (e-mails, codes). */
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * Goes to `path` inside the app already loaded in `page`, as a link the
 * app draws would (the router's history, no page load), and waits for the
 * new page's heading: the old heading is marked first, so a check that
 * follows never reads the page being left. A page not on the app yet is
 * loaded. For the accessibility sweeps over many pages: a full load of the
 * bundle per page doubled their time on the CI machine.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const onApp = page.url().startsWith(new URL(baseUrl()).origin);
  const here = onApp ? new URL(page.url()) : null;
  if (here && `${here.pathname}${here.search}` === path) return;
  if (!onApp) {
    await page.goto(path);
  } else {
    // The pointer left where the last click was would hover whatever the new page puts under it.
    await page.mouse.move(0, 0);
    await page.evaluate((to) => {
      for (const h of document.querySelectorAll('h1')) h.setAttribute('data-left', '');
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, path);
  }
  if (!onApp) {
    await page.locator('h1').first().waitFor();
    return;
  }
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
  // Two routes drawn by one page component keep its heading element (and the mark): then its new text is awaited by
  // the network going quiet, which the callers wait for anyway.
  await page
    .locator('h1:not([data-left])')
    .first()
    .waitFor({ timeout: 5000 })
    .catch(() => page.waitForLoadState('networkidle'));
  await page.waitForLoadState('networkidle');
  await settled(page);
}

/**
 * Waits for the page's transitions and animations that end (a menu item's
 * highlight, a label moving up) to end, at most two seconds: a colour
 * checked half-way through one is neither the old nor the new one.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.race([Promise.allSettled(ending.map((a) => a.finished)), new Promise((r) => setTimeout(r, 2000))]);
  });
}

/** `text` as a regular expression matching it literally (its dots, parentheses and the like escaped). */
export const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
