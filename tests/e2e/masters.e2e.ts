import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DESKTOP, launchBrowser, newContext, openInApp, PHONE, signedInContext, signIn, unique } from './browser.js';

/**
 * The coordinator imports a CSV of municipios with two bad rows: the dry run
 * names them, the good rows are imported and found in the list. The
 * reviewer may not open the masters.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('master data', () => {
  it('the coordinator imports municipios from a CSV with two bad rows: dry run, then the good rows', async () => {
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await signIn(page, 'coordinator@demo.test');
    const tag = unique('').slice(-5);
    const first = `Villa ${tag}`;
    const second = `Puerto ${tag}`;
    const csv = [
      'code,name,parent,active,population',
      `E${tag}1,${first},05,true,1200`,
      `E${tag}2,${second},08,,800`,
      `E${tag}3,,05,`,
      `E${tag}4,Nowhere,99,`,
    ].join('\n');

    await page.goto('/main');
    await page.getByRole('table', { name: 'Masters' }).getByRole('link', { name: 'Municipios' }).click();
    await page.waitForURL('**/main/municipios');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import CSV into Municipios' });
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'municipios.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByText('2 new and 0 updated rows can be imported.').waitFor();
    const errors = dialog.getByRole('table', { name: 'Rows with problems (2)' });
    expect(await errors.getByRole('row').allInnerTexts()).toEqual(['Line\tColumn\tMessage', '4\tname\tThis field is required', '5\tparent\tYou must choose an option']);
    // Nothing is written by the dry run.
    const before = await (await ctx.request.get(`${baseUrl()}/api/masters/municipios/items?search=${tag}`)).json();
    expect(before.total).toBe(0);

    await dialog.getByRole('button', { name: 'Import 2 rows' }).click();
    await page.getByRole('alert').filter({ hasText: 'Imported: 2 new, 0 updated.' }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('searchbox', { name: 'Search items' }).fill(tag);
    const table = page.getByRole('table', { name: 'Municipios' });
    await table.getByRole('cell', { name: first, exact: true }).waitFor();
    const row = table.getByRole('row').filter({ hasText: first });
    expect(await row.textContent()).toContain('Antioquia (05)');
    expect(await row.textContent()).toContain('population: 1200');
    expect(await table.getByRole('row').filter({ hasText: second }).textContent()).toContain('Atlántico (08)');
    await ctx.close();
  });

  it('the reviewer cannot open /main: home, with the permission message', async () => {
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await signIn(page, 'reviewer@demo.test');
    await page.goto('/main');
    await page.waitForURL('**/home');
    await page.getByRole('alert').filter({ hasText: 'The user does not have permission to the page' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Masters' }).count()).toBe(0);
    await ctx.close();
  });
});

describe('accessibility of the forms and masters pages', () => {
  it.each([
    ['en', DESKTOP, 'View'],
    ['es', PHONE, 'Vista'],
  ] as const)('%s: no serious violation, no sideways scrolling', async (lang, viewport, viewTab) => {
    const ctx = await signedInContext(browser, 'coordinator@demo.test', lang, viewport);
    const page = await ctx.newPage();
    const forms = await (await ctx.request.get(`${baseUrl()}/api/forms?search=rental-application`)).json();
    const builder = `/formularios/${forms.items[0].id}`;
    for (const [path, tab] of [['/formularios'], ['/formularios/nuevo'], [builder], [builder, viewTab], ['/main'], ['/main/municipios']] as const) {
      await openInApp(page, path);
      if (tab) await page.getByRole('tab', { name: tab }).click();
      await page.waitForLoadState('networkidle');
      const result = await new AxeBuilder({ page }).analyze();
      const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' | ')}`);
      expect(serious, `${path} ${tab ?? ''}`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
    }
    await ctx.close();
  }, 120_000);
});
