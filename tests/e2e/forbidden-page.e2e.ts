import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, signIn } from './browser.js';

/**
 * A page the user may not open sends them to /home with the spec's message;
 * its API says 403 too; without a session a page goes to sign-in and comes
 * back after it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('a page the user may not open', () => {
  it.each([
    ['en', 'The user does not have permission to the page'],
    ['es', 'El usuario no tiene permiso para la página'],
  ] as const)("the reviewer opening /main/acl_roles/ lands on /home with the message (%s)", async (lang, message) => {
    const ctx = await newContext(browser, lang);
    const page = await ctx.newPage();
    await signIn(page, 'reviewer@demo.test');
    await page.goto('/main/acl_roles/');
    await page.waitForURL('**/home');
    await page.getByRole('alert').filter({ hasText: message }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(lang === 'en' ? /^Welcome/ : /^Bienvenido/);
    // The server says no as well.
    const api = await ctx.request.get(`${baseUrl()}/api/acl/roles`);
    expect(api.status()).toBe(403);
    expect((await api.json()).error.message).toBe(message);
    await ctx.close();
  });
});

describe('a page without a session', () => {
  it('goes to sign-in with the page in ?next=, and back to it after signing in', async () => {
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await page.goto('/acl/users');
    await page.waitForURL('**/login?next=%2Facl%2Fusers');
    await page.locator('input[name="email"]').fill('admin@demo.test');
    await page.locator('input[name="password"]').fill('Demo12345');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/acl/users');
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await ctx.close();
  });

  it('Exit ends the session on the server: the pages need signing in again', async () => {
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await signIn(page, 'coordinator@demo.test');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Exit' }).click();
    await page.waitForURL('**/login');
    expect((await ctx.request.get(`${baseUrl()}/api/auth/session`)).status()).toBe(401);
    await page.goto('/home');
    await page.waitForURL('**/login?next=%2Fhome');
    await ctx.close();
  });
});
