import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, PHONE, signIn, signedInContext, unique } from './browser.js';

/**
 * The super-admin builds access from scratch: a role, its rules in the
 * matrix, a user holding it, who then signs in and sees exactly that menu.
 * Another tenant's admin sees none of it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).waitFor();

describe('access administration', () => {
  const code = unique('auditor');
  const roleName = `Auditor ${code.slice(-6)}`;
  const email = `${code}@demo.test`;

  it('admin creates a role, gives it rules in the matrix, and creates a user with it, who sees that menu', async () => {
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await signIn(page, 'admin@demo.test');

    // The role.
    await page.goto('/main/acl_roles/');
    await page.getByRole('button', { name: 'New role' }).click();
    const roleDialog = page.getByRole('dialog', { name: 'New role' });
    await roleDialog.getByLabel(/^Code/).fill(code);
    await roleDialog.getByLabel(/^Name/).fill(roleName);
    await roleDialog.getByLabel(/^Description/).fill('Reads applications and tasks');
    await roleDialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Changes saved successfully');
    await page.getByRole('searchbox', { name: 'Search' }).fill(code);
    await page.getByRole('table', { name: 'Roles' }).getByText(roleName).waitFor();

    // Its rules: show applications, show and update tasks, my pending tasks.
    await page.goto('/main/acl_reglas/');
    await page.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: roleName }).click();
    const grid = page.getByRole('table', { name: `Permissions of the role ${roleName}` });
    await grid.waitFor();
    // Keyboard: each box takes the focus and Space ticks it.
    const applications = grid.getByRole('checkbox', { name: 'Applications: Show', exact: true });
    await applications.focus();
    await page.keyboard.press('Space');
    expect(await applications.isChecked()).toBe(true);
    await grid.getByRole('checkbox', { name: 'Tasks: Show', exact: true }).check();
    await grid.getByRole('checkbox', { name: 'Tasks: Update', exact: true }).check();
    await grid.getByRole('checkbox', { name: 'My pending tasks: Show', exact: true }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Changes saved successfully');
    await page.getByRole('button', { name: 'Save' }).and(page.locator(':disabled')).waitFor();
    const roleId = new URL(page.url()).searchParams.get('role');
    const saved = (await (await ctx.request.get(`${baseUrl()}/api/acl/roles/${roleId}/rules`)).json()) as { granted: Record<string, string[]> };
    const granted = Object.fromEntries(Object.entries(saved.granted).map(([module, actions]) => [module, [...actions].sort()]));
    expect(granted).toEqual({ menutareas: ['show'], wf_casos: ['show'], wf_tareas: ['show', 'update'] });

    // The user, with a password set now.
    await page.goto('/acl/users');
    await page.getByTestId('plan-state').getByText(/accounts used/).waitFor();
    await page.getByRole('button', { name: 'New user' }).click();
    const userDialog = page.getByRole('dialog', { name: 'New user' });
    await userDialog.getByRole('textbox', { name: /^Name/ }).fill('Audrey Auditor');
    await userDialog.getByRole('textbox', { name: /^Email/ }).fill(email);
    await userDialog.getByRole('combobox', { name: /Role/ }).click();
    await page.getByRole('option', { name: roleName }).click();
    await userDialog.getByRole('radio', { name: 'Set a password now' }).check();
    await userDialog.locator('input[name="password"]').fill('Audit12345');
    await userDialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Changes saved successfully');
    await page.getByRole('searchbox', { name: /Search/ }).fill(email);
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email });
    await row.waitFor();
    expect(await row.textContent()).toContain(roleName);
    expect(await row.textContent()).toContain('Active');
    await ctx.close();

    // The new user sees exactly what the role allows.
    const userCtx = await newContext(browser, 'en');
    const userPage = await userCtx.newPage();
    await signIn(userPage, email, 'Audit12345');
    const nav = userPage.getByRole('navigation', { name: 'Main menu' });
    await nav.waitFor();
    const items = (await nav.locator(':scope > ul > li').allInnerTexts()).map((text) => text.trim());
    expect(items).toEqual(['Applications', 'My pending tasks', 'Tasks']);
    const session = await (await userCtx.request.get(`${baseUrl()}/api/auth/session`)).json();
    expect(session.rules).toEqual({ menutareas: ['show'], wf_casos: ['show'], wf_tareas: ['show', 'update'] });
    await userCtx.close();
  });

  it('on a phone the rules grid scrolls inside its own box, not the page', async () => {
    const ctx = await signedInContext(browser, 'admin@demo.test', 'en', PHONE);
    const page = await ctx.newPage();
    const roles = await (await ctx.request.get(`${baseUrl()}/api/acl/roles?search=coordinator`)).json();
    await page.goto(`/main/acl_reglas/?role=${roles.items[0].id}`);
    const region = page.getByRole('region', { name: /Permissions of the role/ });
    await region.waitFor();
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await ctx.close();
  });

  it("another tenant's admin does not see the demo tenant's users, nor reach them by id", async () => {
    const demo = await signedInContext(browser, 'admin@demo.test');
    const demoUsers = await (await demo.request.get(`${baseUrl()}/api/users?search=applicant%40demo.test`)).json();
    const applicantId = demoUsers.items[0].id as number;
    await demo.close();

    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await signIn(page, 'admin@other.test');
    await page.goto('/acl/users');
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByText('admin@other.test').waitFor();
    expect(await table.getByText(/@demo\.test/).count()).toBe(0);
    await page.getByRole('searchbox', { name: /Search/ }).fill('demo.test');
    await page.getByText('Nothing matches this search.').waitFor();
    expect((await ctx.request.get(`${baseUrl()}/api/users/${applicantId}`)).status()).toBe(404);
    await ctx.close();
  });
});
