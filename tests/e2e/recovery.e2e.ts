import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstanceWithMail, startInstanceWithMail } from '../support/instance-with-mail.js';
import { launchBrowser, newContext } from './browser.js';

/**
 * Password recovery by email, end to end: this journey needs mail, so it runs
 * its own product instance whose SMTP_URL points at a loopback SMTP server.
 * The link from the mail sets a new password, which then signs in; the link
 * works once. In English and in Spanish.
 */
let browser: Browser;
let app: InstanceWithMail;
let base: string;

beforeAll(async () => {
  app = await startInstanceWithMail('recovery');
  base = app.base;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const RESET_LINK = /https?:\/\/\S+\/change-password\/[A-Za-z0-9_-]+/;

/** The reset link mailed to `to` (the demo data sends other mail too, such as task notifications). */
const resetLinkFor = (to: string) => app.linkFor(to, RESET_LINK, 20_000);

async function signInWith(page: Page, email: string, password: string) {
  await page.goto(`${base}/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
}

const texts = {
  en: {
    title: 'Recover your password',
    submit: 'Send the link',
    sent: 'If an account exists for this address, we have sent it a link to change the password. The link is valid for 60 minutes.',
    change: 'Change the password',
    changed: 'Your password has been changed successfully',
    invalid: 'This link is invalid or has expired. Ask for a new one.',
    signIn: 'Go to sign in',
    welcome: /^Welcome/,
  },
  es: {
    title: 'Recuperar su contraseña',
    submit: 'Enviar el enlace',
    sent: 'Si existe una cuenta con este correo, le enviamos un enlace para cambiar la contraseña. El enlace es válido por 60 minutos.',
    change: 'Cambiar la contraseña',
    changed: 'Su contraseña ha sido cambiada exitosamente',
    invalid: 'Este enlace no es válido o ha vencido. Solicite uno nuevo.',
    signIn: 'Ir a iniciar sesión',
    welcome: /^Bienvenido/,
  },
} as const;

describe('password recovery by email', () => {
  it.each([
    ['en', 'coordinator@demo.test', 'Recover123'],
    ['es', 'reviewer@demo.test', 'Recupera123'],
  ] as const)('in %s: the emailed link sets a new password that signs in, once', async (lang, email, newPassword) => {
    const t = texts[lang];
    const ctx = await newContext(browser, lang, undefined, base);
    const page = await ctx.newPage();
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: lang === 'en' ? 'Forgot your password?' : '¿Olvidó su contraseña?' }).click();
    await page.getByRole('heading', { name: t.title }).waitFor();
    await page.locator('input[name="email"]').fill(email);
    await page.getByRole('button', { name: t.submit }).click();
    await page.getByText(t.sent).waitFor();

    const link = await resetLinkFor(email);
    expect(link.startsWith(`${base}/change-password/`)).toBe(true);

    await page.goto(link);
    await page.locator('input[name="password"]').fill(newPassword);
    await page.locator('input[name="passwordConfirm"]').fill(newPassword);
    await page.getByRole('button', { name: t.change }).click();
    await page.getByText(t.changed).waitFor();
    await page.getByRole('link', { name: t.signIn }).click();
    await page.waitForURL('**/login');

    // The old password no longer works; the new one does.
    await signInWith(page, email, 'Demo12345');
    await page.getByRole('alert').waitFor();
    await signInWith(page, email, newPassword);
    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: t.welcome }).waitFor();

    // The link is good once.
    const again = await (await newContext(browser, lang, undefined, base)).newPage();
    await again.goto(link);
    await again.locator('input[name="password"]').fill('Another123');
    await again.locator('input[name="passwordConfirm"]').fill('Another123');
    await again.getByRole('button', { name: t.change }).click();
    await again.getByRole('alert').filter({ hasText: t.invalid }).waitFor();
    await again.context().close();
    await ctx.close();
  });

  it('answers the same for an address with no account, and sends nothing', async () => {
    const ctx = await newContext(browser, 'es', undefined, base);
    const page = await ctx.newPage();
    await page.goto(`${base}/user/recovery-password`);
    await page.locator('input[name="email"]').fill('nobody@nowhere.test');
    await page.getByRole('button', { name: texts.es.submit }).click();
    await page.getByText(texts.es.sent).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(app.mails.some((m) => m.to.includes('nobody@nowhere.test'))).toBe(false);
    await ctx.close();
  });

  it('a malformed link says so at once', async () => {
    const ctx = await newContext(browser, 'en', undefined, base);
    const page = await ctx.newPage();
    await page.goto(`${base}/change-password/not-a-token`);
    await page.locator('input[name="password"]').fill('Another123');
    await page.locator('input[name="passwordConfirm"]').fill('Another123');
    await page.getByRole('button', { name: texts.en.change }).click();
    await page.getByRole('alert').filter({ hasText: texts.en.invalid }).waitFor();
    await ctx.close();
  });
});
