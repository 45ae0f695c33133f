import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looksRight, mailTo, PDF } from './applicant.js';
import { baseUrl, clickAsAPerson, DESKTOP, launchBrowser, newContext, PHONE, signIn, signedInContext, unique } from './browser.js';

/**
 * Issue 18's journey, as a new applicant meets it on a phone in Spanish: the
 * demo entity's public page, its programme, an account created from there
 * (the captcha solved) and back to the programme, Apply into the form, a
 * first sitting saved as a draft, a second that completes it, Check your
 * answers, Submit, and the reference number by email. Staff (in English, on
 * a desktop) send it back asking for the lease; the applicant follows the
 * emailed link, uploads it and sends the correction; the case goes on with
 * its tasks where they were. axe finds nothing serious on the applicant's
 * pages, and none scrolls sideways.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const box = (page: Page, label: string) => page.getByRole('textbox', { name: new RegExp(`^${label}`) });
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
async function nextOnce(page: Page, heading: string) {
  await clickAsAPerson(page, page.getByRole('button', { name: 'Siguiente' }));
  await page.getByRole('heading', { name: heading }).waitFor({ timeout: 10_000 });
}

describe('a new applicant applies from the public page, and corrects what staff send back', () => {
  const email = `${unique('ana')}@example.test`;
  const password = 'Solicita123';
  let caseId = 0;
  let caseNumber = '';

  it('the public page, an account, two sittings, Check your answers, the number by email (es, phone)', { timeout: 240_000 }, async () => {
    const ctx = await newContext(browser, 'es', PHONE);
    const page = await ctx.newPage();
    await page.goto('/publico/demo-housing-agency');
    await page.getByRole('heading', { level: 1, name: 'Demo Housing Agency' }).waitFor();
    await looksRight(page, '/publico/demo-housing-agency');
    await page.getByRole('link', { name: 'Ver el programa Asistencia de emergencia para el alquiler' }).click();
    await page.waitForURL('**/publico/demo-housing-agency/rental-assistance');
    await page.getByRole('heading', { level: 1, name: 'Asistencia de emergencia para el alquiler' }).waitFor();
    await looksRight(page, 'the programme');

    // An account, from the programme's page; then signing in brings the applicant back to it.
    await page.getByRole('link', { name: 'Crear una cuenta' }).click();
    await page.getByRole('heading', { name: 'Crear una cuenta' }).waitFor();
    await page.locator('input[name="name"]').fill('Ana Nueva');
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="passwordConfirm"]').fill(password);
    const widget = page.locator('altcha-widget');
    await widget.locator('input[type="checkbox"]').click({ force: true });
    await widget.locator('[data-state="verified"]').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.getByRole('link', { name: 'Ir a iniciar sesión' }).click();
    await page.waitForURL(/\/login/);
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL('**/publico/demo-housing-agency/rental-assistance');

    // Apply: straight into the programme's form. A first sitting: the names, kept as a draft.
    await page.getByRole('link', { name: /^Solicitar/ }).click();
    await page.waitForURL(/\/cases\/new\?protocol=\d+/);
    await page.getByRole('heading', { level: 1, name: 'Nueva radicación' }).waitFor();
    await box(page, 'Nombres').fill('Ana');
    await box(page, 'Apellidos').fill('Nueva');
    await looksRight(page, '/cases/new?protocol');
    await page.getByRole('button', { name: 'Guardar, pero volver más tarde para completar' }).click();
    await page.waitForURL('**/cases/drafts');
    await page.getByRole('heading', { name: 'Ana Nueva' }).waitFor();

    // A second sitting, from Drafts: the rest, then Check your answers and Submit.
    await page.getByRole('link', { name: 'Continuar la radicación de Ana Nueva' }).click();
    await page.waitForURL(/\/cases\/new\?draft=\d+$/);
    await choose(page, 'Tipo de documento', 'Cédula de ciudadanía');
    await choose(page, 'Departamento', 'Valle del Cauca');
    await choose(page, 'Municipio', 'Cali');
    await box(page, 'Número de documento').fill(`88${Date.now().toString().slice(-8)}`);
    await box(page, 'Correo electrónico').fill(email);
    await box(page, 'Celular').fill('3105550199');
    await box(page, 'Código postal').fill('76001');
    await nextOnce(page, 'Paso 2 de 4: Hogar');
    await page.getByRole('button', { name: 'Agregar fila' }).click();
    const row = page.getByRole('dialog', { name: 'Agregar a «Integrantes del hogar»' });
    await row.getByRole('textbox', { name: /^Nombre/ }).fill('Ana Nueva');
    await row.getByRole('combobox', { name: /^Parentesco/ }).click();
    await page.getByRole('option', { name: 'Solicitante', exact: true }).click();
    await row.getByRole('textbox', { name: /^Edad/ }).fill('41');
    await row.getByRole('button', { name: 'Agregar', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    await nextOnce(page, 'Paso 3 de 4: Ingresos y renta');
    await box(page, 'Renta mensual').fill('875');
    await nextOnce(page, 'Paso 4 de 4: Tercero y documentos');
    await page.getByRole('button', { name: 'Continuar', exact: true }).click();
    await page.getByText('Revise sus respuestas antes de enviar la radicación').waitFor();
    await page.getByText('875').first().waitFor();
    await looksRight(page, 'check your answers');
    await page.getByRole('button', { name: 'Enviar radicación' }).click();
    const title = page.getByText(/^Su número de radicación es \d{4}-\d{2}-\d{6}$/);
    await title.waitFor();
    caseNumber = ((await title.textContent()) ?? '').replace('Su número de radicación es ', '');
    await looksRight(page, 'submitted');
    const mine = (await (await ctx.request.get(`${baseUrl()}/api/cases?limit=1`)).json()) as { items: Array<{ id: number; number: string; caseType: string }> };
    expect(mine.items[0]).toMatchObject({ number: caseNumber, caseType: 'RADICACION_PUBLICA' });
    caseId = mine.items[0].id;
    await ctx.close();

    // The number by email.
    const admin = await signedInContext(browser, 'admin@demo.test', 'en');
    const mail = await mailTo(admin.request, email, 'application_submitted');
    expect(mail.bodyText).toContain(caseNumber);
    await admin.close();
  });

  it('staff send it back asking for the lease (en, desktop); the applicant follows the emailed link, uploads it and sends it (es, phone); the case goes on', { timeout: 180_000 }, async () => {
    expect(caseId).toBeGreaterThan(0);
    const staff = await signedInContext(browser, 'coordinator@demo.test', 'en', DESKTOP);
    const page = await staff.newPage();
    await page.goto(`/cases/${caseId}`);
    await page.getByRole('button', { name: 'Return for correction' }).click();
    const dialog = page.getByRole('dialog', { name: `Return application ${caseNumber} for correction` });
    const reason = `The lease is missing (${unique('r')}).`;
    await dialog.getByRole('textbox', { name: /^Reason/ }).fill(reason);
    await dialog.getByRole('checkbox', { name: 'Lease (all pages)' }).check();
    await dialog.getByRole('button', { name: 'Return to the applicant' }).click();
    await page.getByText('The application was returned to its applicant').waitFor();
    const openTasks = ((await (await staff.request.get(`${baseUrl()}/api/cases/${caseId}`)).json()) as { openTasks: number }).openTasks;
    expect(openTasks).toBeGreaterThan(0);

    // The emailed link leads to the correction page.
    const admin = await signedInContext(browser, 'admin@demo.test', 'en');
    const mail = await mailTo(admin.request, email, 'case_returned');
    await admin.close();
    expect(mail.bodyText).toContain(reason);
    const link = /https?:\/\/\S+?(\/cases\/\d+\/correct)\b/.exec(mail.bodyText);
    expect(link?.[1]).toBe(`/cases/${caseId}/correct`);

    const ctx = await newContext(browser, 'es', PHONE);
    const applicant = await ctx.newPage();
    await signIn(applicant, email, password, `/login?next=${encodeURIComponent(link?.[1] ?? '')}`);
    await applicant.waitForURL(`**/cases/${caseId}/correct`);
    await applicant.getByText(reason).waitFor();
    await looksRight(applicant, 'the correction page');
    await applicant.locator('input[type="file"]').first().setInputFiles({ name: 'contrato.pdf', mimeType: 'application/pdf', buffer: PDF });
    // Uploaded (not just chosen): the file is listed to download.
    await applicant.getByRole('button', { name: 'Descargar contrato.pdf' }).waitFor();
    await applicant.getByRole('button', { name: 'Enviar la solicitud corregida' }).click();
    await applicant.getByText('Su solicitud corregida fue enviada').waitFor();
    await looksRight(applicant, 'the correction sent');
    await ctx.close();

    // The case goes on where it was: its tasks as they were, the correction in its history, the lease received.
    const after = (await (await staff.request.get(`${baseUrl()}/api/cases/${caseId}`)).json()) as { openTasks: number; state: string; correction: unknown };
    expect(after).toMatchObject({ state: 'PENDING', openTasks, correction: null });
    const history = (await (await staff.request.get(`${baseUrl()}/api/cases/${caseId}/history`)).json()) as Array<{ action: string }>;
    expect(history.map((h) => h.action)).toEqual(expect.arrayContaining(['correction_requested', 'correction_resubmitted']));
    await staff.close();
  });
});
