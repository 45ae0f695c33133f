import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, PHONE, signIn, unique } from './browser.js';

/**
 * An applicant creates an account: the form, the ALTCHA proof of work, the
 * confirmation, then signing in with the new account. In Spanish, the form
 * refuses to go without the captcha.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function fillForm(page: Page, email: string, name = 'Sam Signup') {
  await page.locator('input[name="name"]').fill(name);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill('Signup123');
  await page.locator('input[name="passwordConfirm"]').fill('Signup123');
}

describe('sign-up', () => {
  it('with the captcha solved, creates the account, which then signs in (English)', async () => {
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    const email = `${unique('sam')}@example.test`;
    await fillForm(page, email);

    // The widget's checkbox is drawn over a styled box: click it through.
    const widget = page.locator('altcha-widget');
    await widget.locator('input[type="checkbox"]').click({ force: true });
    await widget.locator('[data-state="verified"]').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Create account' }).click();
    // The same answer as for an address that has an account; a new one signs in at once.
    await page.getByText('Check your email to continue: we have sent a message to this address.').waitFor();

    await page.getByRole('link', { name: 'Go to sign in' }).click();
    await page.waitForURL('**/login');
    await signIn(page, email, 'Signup123');
    await page.getByRole('heading', { name: 'Welcome, Sam Signup' }).waitFor();
    const items = await page.getByRole('navigation', { name: 'Main menu' }).locator(':scope > ul > li').allInnerTexts();
    expect(items.map((text) => text.trim())).toEqual(['Applications', 'Drafts']);
    await ctx.close();
  });

  it("in Spanish: 'Por favor complete el captcha' without the captcha, and the server says the same", async () => {
    const ctx = await newContext(browser, 'es', PHONE);
    const page = await ctx.newPage();
    await page.goto('/user/create-account');
    await page.getByRole('heading', { name: 'Crear una cuenta' }).waitFor();
    await fillForm(page, `${unique('sin')}@example.test`);
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.getByText('Por favor complete el captcha').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // The browser's check is only a convenience: the server refuses too, in the caller's language.
    const answer = await ctx.request.post(`${baseUrl()}/api/auth/signup`, {
      data: { name: 'Bot', email: `${unique('bot')}@example.test`, password: 'Signup123', passwordConfirm: 'Signup123', captcha: 'e30=' },
      headers: { cookie: 'lang=es' },
    });
    expect(answer.status()).toBe(400);
    expect((await answer.json()).error.message).toBe('Por favor complete el captcha');
    await ctx.close();
  });
});
