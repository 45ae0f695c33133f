import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, signIn } from './browser.js';

/**
 * Each demo login sees the menu its role allows (the session's targets),
 * and nothing else, in English and Spanish.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function menuOf(email: string, lang: 'en' | 'es' = 'en'): Promise<Page> {
  const ctx = await newContext(browser, lang);
  const page = await ctx.newPage();
  await signIn(page, email);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

const nav = (page: Page) => page.getByRole('navigation', { name: /Main menu|Menú principal/ });
const entry = (page: Page, label: string) => nav(page).getByText(label, { exact: true });

describe('the menu of each demo role', () => {
  it('the super-admin (Soporte) sees everything, Permissions included, and its screens are links', async () => {
    const page = await menuOf('admin@demo.test');
    for (const label of ['Applications', 'Tasks', 'My pending tasks', 'Reports', 'Dashboard', 'Permissions', 'Settings']) {
      expect(await entry(page, label).isVisible(), label).toBe(true);
    }
    await entry(page, 'Permissions').click();
    for (const label of ['Actions', 'Modules', 'Roles', 'Rules', 'Users']) {
      expect(await nav(page).getByRole('link', { name: label, exact: true }).isVisible(), label).toBe(true);
    }
    await page.context().close();
  });

  it('the reviewer sees My pending tasks and Tasks, but no Permissions', async () => {
    const page = await menuOf('reviewer@demo.test');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome, Rafael Reviewer');
    for (const label of ['Applications', 'My pending tasks', 'Tasks']) expect(await entry(page, label).isVisible(), label).toBe(true);
    for (const label of ['Permissions', 'Drafts', 'Settings', 'Forms']) expect(await entry(page, label).count(), label).toBe(0);
    await page.context().close();
  });

  it('the applicant sees Applications and Drafts only (in Spanish too)', async () => {
    for (const [lang, labels] of [
      ['en', ['Applications', 'Drafts']],
      ['es', ['Radicaciones', 'Borradores']],
    ] as const) {
      const page = await menuOf('applicant@demo.test', lang);
      const items = await nav(page).locator(':scope > ul > li').allInnerTexts();
      expect(items.map((text) => text.trim())).toEqual(labels);
      await page.context().close();
    }
  });

  it('the coordinator sees the work menus but not Permissions', async () => {
    const page = await menuOf('coordinator@demo.test');
    for (const label of ['Applications', 'Drafts', 'Tasks', 'Protocols', 'Forms', 'Settings']) {
      expect(await entry(page, label).isVisible(), label).toBe(true);
    }
    expect(await entry(page, 'Permissions').count()).toBe(0);
    await page.context().close();
  });
});
