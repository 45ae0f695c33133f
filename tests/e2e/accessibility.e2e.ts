import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DESKTOP, launchBrowser, newContext, openInApp, PHONE, signedInContext } from './browser.js';

/**
 * The identity and access pages checked by axe, as a person with a screen
 * reader or a keyboard would meet them: no serious or critical violation, on
 * a desktop and on a phone.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target} ${n.any[0]?.message ?? ''}`).join(' | ')}`);
}

// The public entry (issue 18) by the demo entity's slug, and its programme.
const PUBLIC = [
  '/login', '/login2', '/user/create-account', '/user/recovery-password', '/change-password/abc',
  '/publico', '/publico/demo-housing-agency', '/publico/demo-housing-agency/rental-assistance',
];
/** The narrowest phone a page must serve (WCAG 1.4.10, 320 CSS px). */
const NARROW = { width: 320, height: 640 };
/** A 1366 x 900 desktop zoomed to 200 % (WCAG 1.4.4): the page lays out in half the CSS pixels. */
const ZOOM_200 = { width: 683, height: 450 };

describe('accessibility of the public pages', () => {
  // axe at each of MUI's layouts (desktop, sm at 200 %, xs on a phone); at 320 px, the phone's layout again, the reflow alone.
  it.each([
    ['en', DESKTOP, true],
    ['es', PHONE, true],
    ['es', NARROW, false],
    ['en', ZOOM_200, true],
  ] as const)('%s %o (axe: %s): no serious violation, no sideways scrolling', async (lang, viewport, axe) => {
    const ctx = await newContext(browser, lang, viewport);
    const page = await ctx.newPage();
    for (const path of PUBLIC) {
      await openInApp(page, path);
      // The sign-up page's captcha loads after the form.
      if (path === '/user/create-account') await page.locator('altcha-widget input[type="checkbox"]').waitFor();
      if (axe) expect(await seriousViolations(page), path).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
    }
    await ctx.close();
  });
});

const ADMIN = ['/profile', '/main/acl_acciones/', '/main/acl_objetos/', '/main/acl_roles/', 'rules', '/acl/users', '/dashboard/blocked-users'];

describe.each([
  ['en', DESKTOP],
  ['es', PHONE],
] as const)('accessibility of the admin pages (%s)', (lang, viewport) => {
  let ctx: BrowserContext;
  let page: Page;
  let rulesPath = '';
  beforeAll(async () => {
    ctx = await signedInContext(browser, 'admin@demo.test', lang, viewport);
    const roles = await (await ctx.request.get(`${baseUrl()}/api/acl/roles?search=reviewer`)).json();
    rulesPath = `/main/acl_reglas/?role=${roles.items[0].id}`;
    page = await ctx.newPage();
  });
  afterAll(() => ctx?.close());

  // One page for them all, going from one to the next as the menu's links do.
  it.each(ADMIN)('%s: no serious violation, no sideways scrolling', async (path) => {
    await openInApp(page, path === 'rules' ? rulesPath : path);
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});

// The applicant's own pages (issue 18): the public meets these after signing up, often on a small phone.
const APPLICANT = ['/home', '/cases', '/cases/drafts', '/cases/new', '/profile', 'case'];

describe.each([
  ['en', DESKTOP],
  ['es', NARROW],
  ['es', ZOOM_200],
] as const)('accessibility of the applicant pages (%s, %o)', (lang, viewport) => {
  let ctx: BrowserContext;
  let page: Page;
  let casePath = '';
  beforeAll(async () => {
    ctx = await signedInContext(browser, 'applicant@demo.test', lang, viewport);
    const mine = await (await ctx.request.get(`${baseUrl()}/api/cases?limit=1`)).json();
    casePath = `/cases/${mine.items[0].id}`;
    page = await ctx.newPage();
  });
  afterAll(() => ctx?.close());

  it.each(APPLICANT)('%s: no serious violation, no sideways scrolling', async (path) => {
    await openInApp(page, path === 'case' ? casePath : path);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});

/**
 * Every element the Tab key reaches looks different while it has the focus:
 * the element's box (and a few pixels around it, where rings are drawn) is
 * photographed focused and again after the focus left it.
 */
async function stopsWithoutVisibleFocus(page: Page, maxStops = 150): Promise<string[]> {
  const missing: string[] = [];
  const seen = new Set<string>();
  let previous = '';
  await page.mouse.move(0, 0);
  for (let i = 0; i < maxStops; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return null;
      element.scrollIntoView({ block: 'center' });
      const box = element.getBoundingClientRect();
      const name = (element.getAttribute('aria-label') || element.textContent || element.getAttribute('name') || '').trim().slice(0, 60);
      return { name: `${element.tagName.toLowerCase()} "${name}"`, x: box.x, y: box.y, width: box.width, height: box.height };
    });
    if (!stop) break;
    const key = `${stop.name}@${Math.round(stop.x)},${Math.round(stop.y)}`;
    // A date input takes several Tabs (month, day, year) without the focus leaving it.
    if (key === previous) continue;
    if (seen.has(key)) break;
    seen.add(key);
    previous = key;
    const clip = { x: Math.max(0, stop.x - 4), y: Math.max(0, stop.y - 4), width: stop.width + 8, height: stop.height + 8 };
    // An outline shows at once; a focus ripple grows in over a few hundred ms and is part-way in here.
    await page.waitForTimeout(100);
    const focused = await page.screenshot({ clip });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // The element looks different once the focus left: at once for an outline, as it fades for a ripple (within a second).
    let changed = false;
    for (const end = Date.now() + 1000; !changed && Date.now() < end; ) {
      changed = !focused.equals(await page.screenshot({ clip }));
      if (!changed) await page.waitForTimeout(100);
    }
    if (!changed) missing.push(stop.name);
  }
  return missing;
}

// /cases only: /pendings is built of the same FilterBar and DataTable (about a second per Tab stop).
describe('keyboard focus on the lists', () => {
  it.each(['/cases'])('%s: every element reached by Tab shows its focus, the sorted column’s header too', { timeout: 180_000 }, async (path) => {
    const ctx = await signedInContext(browser, 'coordinator@demo.test', 'en');
    const page = await ctx.newPage();
    await page.goto(path);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const table = page.getByRole('table');
    await table.getByRole('columnheader', { name: /sorted/ }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
    expect(await stopsWithoutVisibleFocus(page)).toEqual([]);
    await ctx.close();
  });
});
