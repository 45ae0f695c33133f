import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looksRight, mailTo, PDF } from './applicant.js';
import { baseUrl, DESKTOP, launchBrowser, newContext, PHONE, signedInContext, unique } from './browser.js';
import { pickOption, reach } from './keyboard.js';

/**
 * Issue 18's journey (public-apply.e2e.ts) by keyboard alone: Tab and
 * Shift+Tab move, Enter, Space and the arrows act, typing types; nothing is
 * clicked. Every control acted on shows its focus. Only the first address
 * and the emailed link are opened as addresses (a person types or pastes
 * them), and the file comes from the file chooser the keyboard opened.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const box = (page: Page, label: string) => page.getByRole('textbox', { name: new RegExp(`^${label}`) });
const button = (page: Page, name: string | RegExp) => page.getByRole('button', { name, exact: typeof name === 'string' });

/** Reaches a text field and types into it. */
async function typeInto(page: Page, label: string, text: string, max?: number) {
  await reach(page, box(page, label), max);
  await page.keyboard.type(text);
}

/** An autocomplete: reached, its option found by typing part of it, taken with the arrows and Enter. */
async function chooseByTyping(page: Page, label: string, typed: string, option: string) {
  const combo = page.getByRole('combobox', { name: new RegExp(`^${label}`) });
  await combo.and(page.locator(':enabled')).waitFor();
  await reach(page, combo);
  await page.keyboard.type(typed);
  await pickOption(page, option);
  expect(await combo.inputValue()).toBe(option);
}

/** Next, by keyboard, to the step under `heading`. */
async function nextStep(page: Page, heading: string) {
  await reach(page, button(page, 'Siguiente'));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: heading }).waitFor({ timeout: 10_000 });
}

describe('the public application and its correction, by keyboard alone', () => {
  const email = `${unique('teclado')}@example.test`;
  const password = 'Solicita123';
  let caseId = 0;
  let caseNumber = '';

  it('the public page, an account, two sittings, Check your answers, the number (es, phone)', { timeout: 240_000 }, async () => {
    const ctx = await newContext(browser, 'es', PHONE);
    const page = await ctx.newPage();
    await page.goto('/publico/demo-housing-agency');
    await page.getByRole('heading', { level: 1, name: 'Demo Housing Agency' }).waitFor();
    await reach(page, page.getByRole('link', { name: 'Ver el programa Asistencia de emergencia para el alquiler' }));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/publico/demo-housing-agency/rental-assistance');
    await page.getByRole('heading', { level: 1, name: 'Asistencia de emergencia para el alquiler' }).waitFor();

    // An account: the captcha's checkbox ticked with Space; then signing in brings the applicant back.
    await reach(page, page.getByRole('link', { name: 'Crear una cuenta' }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Crear una cuenta' }).waitFor();
    await reach(page, page.locator('input[name="name"]'));
    await page.keyboard.type('Ana Teclado');
    await reach(page, page.locator('input[name="email"]'));
    await page.keyboard.type(email);
    await reach(page, page.locator('input[name="password"]'));
    await page.keyboard.type(password);
    await reach(page, page.locator('input[name="passwordConfirm"]'));
    await page.keyboard.type(password);
    const widget = page.locator('altcha-widget');
    await reach(page, widget.locator('input[type="checkbox"]'));
    await page.keyboard.press('Space');
    await widget.locator('[data-state="verified"]').waitFor({ timeout: 30_000 });
    await reach(page, button(page, 'Crear cuenta'));
    await page.keyboard.press('Enter');
    await reach(page, page.getByRole('link', { name: 'Ir a iniciar sesión' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/login/);
    await reach(page, page.locator('input[name="email"]'));
    await page.keyboard.type(email);
    await reach(page, page.locator('input[name="password"]'));
    await page.keyboard.type(password);
    await reach(page, button(page, 'Ingresar'));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/publico/demo-housing-agency/rental-assistance');

    // Apply; a first sitting (the names), kept as a draft.
    await reach(page, page.getByRole('link', { name: /^Solicitar/ }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/cases\/new\?protocol=\d+/);
    await page.getByRole('heading', { level: 1, name: 'Nueva radicación' }).waitFor();
    await typeInto(page, 'Nombres', 'Ana');
    await typeInto(page, 'Apellidos', 'Teclado');
    await reach(page, button(page, 'Guardar, pero volver más tarde para completar'), 60, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/cases/drafts');
    await page.getByRole('heading', { name: 'Ana Teclado' }).waitFor();

    // A second sitting, from Drafts: the rest of the steps.
    await reach(page, page.getByRole('link', { name: 'Continuar la radicación de Ana Teclado' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/cases\/new\?draft=\d+$/);
    await chooseByTyping(page, 'Tipo de documento', 'Cédula', 'Cédula de ciudadanía');
    await typeInto(page, 'Número de documento', `77${Date.now().toString().slice(-8)}`);
    await typeInto(page, 'Correo electrónico', email);
    await typeInto(page, 'Celular', '3105550199');
    await chooseByTyping(page, 'Departamento', 'Valle', 'Valle del Cauca');
    await chooseByTyping(page, 'Municipio', 'Cali', 'Cali');
    await typeInto(page, 'Código postal', '76001');
    await nextStep(page, 'Paso 2 de 4: Hogar');

    // A household member, in the row dialog: its select opened with ArrowDown.
    await reach(page, button(page, 'Agregar fila'), 20, 'Shift+Tab');
    await page.keyboard.press('Enter');
    const row = page.getByRole('dialog', { name: 'Agregar a «Integrantes del hogar»' });
    await reach(page, row.getByRole('textbox', { name: /^Nombre/ }));
    await page.keyboard.type('Ana Teclado');
    await reach(page, row.getByRole('combobox', { name: /^Parentesco/ }));
    await page.keyboard.press('ArrowDown');
    await pickOption(page, 'Solicitante');
    await reach(page, row.getByRole('textbox', { name: /^Edad/ }));
    await page.keyboard.type('41');
    await looksRight(page, 'the row dialog, by keyboard');
    await reach(page, row.getByRole('button', { name: 'Agregar', exact: true }));
    await page.keyboard.press('Enter');
    await row.waitFor({ state: 'detached' });
    await nextStep(page, 'Paso 3 de 4: Ingresos y renta');
    await typeInto(page, 'Renta mensual', '875', 40);
    await nextStep(page, 'Paso 4 de 4: Tercero y documentos');

    // Continue to Check your answers, then Submit.
    await reach(page, button(page, 'Continuar'));
    await page.keyboard.press('Enter');
    await page.getByText('Revise sus respuestas antes de enviar la radicación').waitFor();
    await page.getByText('875').first().waitFor();
    await reach(page, button(page, 'Enviar radicación'), 80);
    await page.keyboard.press('Enter');
    const title = page.getByText(/^Su número de radicación es \d{4}-\d{2}-\d{6}$/);
    await title.waitFor();
    caseNumber = ((await title.textContent()) ?? '').replace('Su número de radicación es ', '');
    const mine = (await (await ctx.request.get(`${baseUrl()}/api/cases?limit=1`)).json()) as { items: Array<{ id: number; number: string; caseType: string }> };
    expect(mine.items[0]).toMatchObject({ number: caseNumber, caseType: 'RADICACION_PUBLICA' });
    caseId = mine.items[0].id;
    await ctx.close();

    const admin = await signedInContext(browser, 'admin@demo.test', 'en');
    expect((await mailTo(admin.request, email, 'application_submitted')).bodyText).toContain(caseNumber);
    await admin.close();
  });

  it('staff return it asking for the lease (en, desktop); the applicant uploads it from the emailed link and sends it (es, phone)', { timeout: 180_000 }, async () => {
    expect(caseId).toBeGreaterThan(0);
    const staff = await signedInContext(browser, 'coordinator@demo.test', 'en', DESKTOP);
    const page = await staff.newPage();
    await page.goto(`/cases/${caseId}`);
    await button(page, 'Return for correction').waitFor();
    // Past the top bar and the menu by the skip link.
    await reach(page, page.getByRole('link', { name: 'Skip to main content' }), 3);
    await page.keyboard.press('Enter');
    await reach(page, button(page, 'Return for correction'));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Return application ${caseNumber} for correction` });
    const reason = `The lease is missing (${unique('r')}).`;
    await reach(page, dialog.getByRole('textbox', { name: /^Reason/ }));
    await page.keyboard.type(reason);
    const lease = dialog.getByRole('checkbox', { name: 'Lease (all pages)' });
    await reach(page, lease);
    await page.keyboard.press('Space');
    await dialog.getByRole('checkbox', { name: 'Lease (all pages)', checked: true }).waitFor();
    await reach(page, dialog.getByRole('button', { name: 'Return to the applicant' }));
    await page.keyboard.press('Enter');
    await page.getByText('The application was returned to its applicant').waitFor();
    const openTasks = ((await (await staff.request.get(`${baseUrl()}/api/cases/${caseId}`)).json()) as { openTasks: number }).openTasks;

    const admin = await signedInContext(browser, 'admin@demo.test', 'en');
    const mail = await mailTo(admin.request, email, 'case_returned');
    await admin.close();
    const link = /https?:\/\/\S+?(\/cases\/\d+\/correct)\b/.exec(mail.bodyText)?.[1] ?? '';
    expect(link).toBe(`/cases/${caseId}/correct`);

    // The link pasted into the browser: signing in by keyboard leads to the correction page.
    const ctx = await newContext(browser, 'es', PHONE);
    const applicant = await ctx.newPage();
    // File choosers listened for from the start: Playwright asks the browser for them asynchronously, and a
    // key press can overtake that request (the chooser then opens unseen).
    applicant.on('filechooser', () => {});
    await applicant.goto(link);
    await applicant.waitForURL(/\/login/);
    await reach(applicant, applicant.locator('input[name="email"]'));
    await applicant.keyboard.type(email);
    await reach(applicant, applicant.locator('input[name="password"]'));
    await applicant.keyboard.type(password);
    await reach(applicant, button(applicant, 'Ingresar'));
    await applicant.keyboard.press('Enter');
    await applicant.waitForURL(`**/cases/${caseId}/correct`);
    await applicant.getByText(reason).waitFor();

    // The lease: the file button opens the chooser with Enter; the chooser itself is the system's.
    await reach(applicant, button(applicant, 'Elegir archivo'));
    const chooser = applicant.waitForEvent('filechooser');
    await applicant.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'contrato.pdf', mimeType: 'application/pdf', buffer: PDF });
    await applicant.getByRole('button', { name: 'Descargar contrato.pdf' }).waitFor();
    await reach(applicant, button(applicant, 'Enviar la solicitud corregida'));
    await applicant.keyboard.press('Enter');
    await applicant.getByText('Su solicitud corregida fue enviada').waitFor();
    await ctx.close();

    const after = (await (await staff.request.get(`${baseUrl()}/api/cases/${caseId}`)).json()) as { openTasks: number; state: string; correction: unknown };
    expect(after).toMatchObject({ state: 'PENDING', openTasks, correction: null });
    await staff.close();
  });
});
