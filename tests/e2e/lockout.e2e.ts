import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, signedInContext, signIn, unique } from './browser.js';

/**
 * Five wrong passwords lock an account: the right password then says it is
 * locked, it shows on /dashboard/blocked-users, the admin unlocks it, and
 * sign-in works again. Each language uses an account made for the test, so
 * no demo login other journeys need is locked.
 */
let browser: Browser;
let admin: BrowserContext;
beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signedInContext(browser, 'admin@demo.test');
});
afterAll(async () => {
  await admin?.close();
  await browser?.close();
});

const PASSWORD = 'Right1234';

/** A fresh applicant account, made through the admin API. */
async function freshAccount(name: string): Promise<string> {
  const roles = (await (await admin.request.get(`${baseUrl()}/api/users/role-options`)).json()) as Array<{ id: number; code: string }>;
  const applicant = roles.find((role) => role.code === 'applicant');
  const email = `${unique('lock')}@example.test`;
  const created = await admin.request.post(`${baseUrl()}/api/users`, {
    data: { email, name, roleId: applicant?.id, active: true, language: 'en', timeZone: 'America/Bogota', password: PASSWORD },
  });
  expect(created.status()).toBe(201);
  return email;
}

async function attempt(page: Page, email: string, password: string) {
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
}

const texts = {
  en: {
    wrong: 'Incorrect user or password',
    locked: 'Your account is locked after too many failed attempts. An administrator can unlock it, or you can unlock it yourself by choosing a new password through the link "Forgot your password?".',
    title: 'Unlock users',
    unlock: 'Unlock',
    unlocked: (name: string) => `The account of ${name} is unlocked.`,
  },
  es: {
    wrong: 'Usuario o contraseña incorrectos',
    locked: 'Su cuenta está bloqueada por demasiados intentos fallidos. Un administrador puede desbloquearla, o puede desbloquearla usted mismo eligiendo una nueva contraseña con el enlace "¿Olvidó su contraseña?".',
    title: 'Desbloquear usuarios',
    unlock: 'Desbloquear',
    unlocked: (name: string) => `La cuenta de ${name} está desbloqueada.`,
  },
} as const;

describe('lockout and unlock', () => {
  it.each(['en', 'es'] as const)('in %s', async (lang) => {
    const t = texts[lang];
    const name = `Lou ${lang.toUpperCase()} ${unique('').slice(-5)}`;
    const email = await freshAccount(name);

    const ctx = await newContext(browser, lang);
    const page = await ctx.newPage();
    await page.goto('/login');
    const alert = page.getByRole('alert');
    for (let i = 1; i <= 5; i++) {
      await attempt(page, email, 'Wrong1234');
      await alert.filter({ hasText: t.wrong }).waitFor();
      // The next attempt must wait for this answer: clear it by starting over.
      await page.reload();
    }
    await attempt(page, email, PASSWORD);
    await alert.filter({ hasText: t.locked }).waitFor();
    expect(page.url()).toContain('/login');

    // The admin finds it on the blocked-users dashboard and unlocks it.
    const adminPage = await (await newContext(browser, lang)).newPage();
    await signIn(adminPage, 'admin@demo.test');
    await adminPage.goto('/dashboard/blocked-users');
    await adminPage.getByRole('heading', { name: t.title }).waitFor();
    const row = adminPage.getByRole('row').filter({ hasText: email });
    await row.waitFor();
    expect(await row.textContent()).toContain('5');
    await row.getByRole('button', { name: new RegExp(`^${t.unlock}`) }).click();
    await adminPage.getByRole('alert').filter({ hasText: t.unlocked(name) }).waitFor();
    await row.waitFor({ state: 'detached' });
    await adminPage.context().close();

    // Now the right password works.
    await attempt(page, email, PASSWORD);
    await page.waitForURL('**/home');
    await ctx.close();
  });
});
