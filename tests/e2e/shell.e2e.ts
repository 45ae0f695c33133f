import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DESKTOP, launchBrowser, newContext, PHONE, signIn } from './browser.js';

/**
 * The application shell as a newcomer meets it: the default project's
 * branding, the menu, the footer, both languages, phone and desktop, the 404
 * page, a configuration that fails to load, and a new version being served.
 * Pages of the default layout need a session since sign-in exists: those
 * tests sign in first (as the super-admin, who sees the whole menu).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Signs in as `email` (the super-admin by default) through the sign-in page, then opens `path`. */
async function openSignedIn(lang: 'en' | 'es', path: string, viewport = DESKTOP, email = 'admin@demo.test'): Promise<Page> {
  const ctx = await newContext(browser, lang, viewport);
  const page = await ctx.newPage();
  await signIn(page, email);
  await page.goto(path);
  return page;
}

async function seriousA11yViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target} ${n.any[0]?.message ?? ""}`).join(" | ")}`);
}

describe('the shell', () => {
  it('shows the default project, the menu, the support line and the footer in English', async () => {
    const page = await openSignedIn('en', '/home');
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    expect(await page.title()).toBe('Rental Assistance Program');
    await expect.poll(() => page.getByRole('banner').textContent()).toContain('Rental Assistance Program');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    expect(await nav.getByText('Applications', { exact: true }).isVisible()).toBe(true);
    expect(await nav.getByText('Permissions', { exact: true }).isVisible()).toBe(true);
    // 'Have Questions?' gives the support phone in a tooltip, by keyboard too.
    await page.getByRole('link', { name: 'Have Questions?' }).focus();
    await page.getByRole('tooltip').waitFor();
    expect(await page.getByRole('tooltip').textContent()).toContain('+1 (787) 555-0100');
    expect(await page.getByTestId('size-class').textContent()).toBe('lg');
    expect(await page.getByTestId('front-version').textContent()).toMatch(/^v\d+\.\d+\.\d+/);
    expect(await page.getByRole('contentinfo').textContent()).toContain('Home');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('switches to Spanish and keeps it after a reload', async () => {
    const page = await openSignedIn('en', '/home');
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await page.getByRole('button', { name: 'Español' }).click();
    await page.getByRole('heading', { name: /^Bienvenido/ }).waitFor();
    expect(await page.getByRole('navigation').getByText('Radicaciones', { exact: true }).isVisible()).toBe(true);
    await page.reload();
    await page.getByRole('heading', { name: /^Bienvenido/ }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.getByText('¿Tiene preguntas?').count()).toBeGreaterThan(0);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'lang')?.value).toBe('es');
    await page.context().close();
  });

  it('fits a phone: size class xs, no sideways scrolling, the menu behind a button', async () => {
    for (const lang of ['en', 'es'] as const) {
      const page = await openSignedIn(lang, '/home', PHONE);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByTestId('size-class').textContent()).toBe('xs');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      const toggle = page.getByRole('button', { name: lang === 'en' ? 'Open or close the menu' : /menú/i });
      await toggle.click();
      await page.getByRole('navigation').getByText(lang === 'en' ? 'Applications' : 'Radicaciones', { exact: true }).waitFor();
      await page.context().close();
    }
  });

  // Signed in as the other tenant's admin: a user is shown their own tenant's project.
  it('brands the page from the project named in the projectid cookie', async () => {
    const ctx = await newContext(browser, 'en');
    await ctx.addCookies([{ name: 'projectid', value: 'other', url: baseUrl() }]);
    const page = await ctx.newPage();
    await page.goto('/login');
    await expect.poll(() => page.title()).toBe('Title Clearance Office');
    await signIn(page, 'admin@other.test');
    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.title()).toBe('Title Clearance Office');
    const color = await page.getByRole('banner').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(color).toBe('rgb(46, 125, 50)'); // #2E7D32, the project's primary colour
    await ctx.close();
  });
});

describe('the 404 page', () => {
  it.each([
    ['en', 'Page not found', 'This page could not be found'],
    ['es', 'Página no encontrada', 'No se pudo encontrar esta página'],
  ] as const)('answers an unknown route in %s', async (lang, title, text) => {
    // Signed in, so that the way home leads to the home page rather than to sign-in.
    const page = await openSignedIn(lang, '/no/such/page');
    await page.getByRole('heading', { name: title }).waitFor();
    expect(await page.getByText(text).isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: lang === 'en' ? /home/i : /inicio/i }).click();
    await page.waitForURL('**/home');
    await page.context().close();
  });

  it('is served for any client path, while an unknown API path is a JSON 404', async () => {
    const spa = await fetch(`${baseUrl()}/cases/123/whatever`);
    expect(spa.status).toBe(200);
    expect(spa.headers.get('content-type')).toContain('text/html');
    const api = await fetch(`${baseUrl()}/api/cases/123/whatever`);
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('ROUTE_NOT_FOUND');
  });
});

describe('loading the project configuration', () => {
  it("shows 'loading project' first, then a dialog with a retry when the configuration fails", async () => {
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await signIn(page, 'admin@demo.test');
    let fail = true;
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/projects/*/settings', async (route) => {
      await held;
      if (fail) await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"INTERNAL","message":"A problem has occurred"}}' });
      else await route.continue();
    });
    await page.goto('/home');
    await page.getByTestId('loading-project').waitFor();
    expect(await page.getByTestId('loading-project').textContent()).toBe('Loading project...');
    release();
    const dialog = page.getByRole('dialog', { name: 'The configuration could not be loaded' });
    await dialog.waitFor({ timeout: 20_000 });
    fail = false;
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await ctx.close();
  });
});

describe('a new version', () => {
  it('reloads the page once when the server answers with another version, and not again within a minute', async () => {
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await signIn(page, 'admin@demo.test');
    await page.goto('/home');
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    let loads = 0;
    page.on('load', () => loads++);
    await page.route('**/api/**', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'x-app-version': '99.0.0' } });
    });
    // On load the app asks for its project settings: the answer reveals the new version.
    await page.reload();
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await page.waitForTimeout(1500);
    // The reload we asked for, plus exactly one from the version check.
    expect(loads).toBe(2);
    await ctx.close();
  });
});
