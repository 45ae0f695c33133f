import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickAsAPerson, FULL_HD, focusedElement, launchBrowser, newContext, PHONE, signIn } from './browser.js';

/**
 * Issue 6's journey for applications, as people do it in Chromium, in
 * English on a desktop and in Spanish on a phone: the applicant starts an
 * application, keeps it as a draft, signs out, comes back through Drafts,
 * completes and submits it and gets its number; the coordinator opens that
 * case, reads its history (the draft's saves, the submission, the fields
 * that changed), reads the household in the document detail of its first
 * task, corrects a value in the application's form (the history records it)
 * and completes it after the warning. No page scrolls sideways, and axe
 * finds nothing serious.
 *
 * The stepper is filled as people fill it: Next first, which shows what is
 * required; then each value typed key by key; then one click on Next, a
 * click that holds the button a moment as a hand does. After each change of
 * page the focus is on the new page's heading.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    newTitle: 'New application', saveForLater: 'Save, but come back later to complete', savedForLater: 'Your draft was saved',
    drafts: 'Drafts', continueOf: 'Continue the application of', account: 'Account', exit: 'Exit',
    firstName: 'First name', lastName: 'Last name', documentType: 'Document type', documentNumber: 'Document number', email: 'Email',
    phone: 'Cellphone', state: 'State', city: 'City', zip: 'Zip code', next: 'Next', step2: 'Step 2 of 4: Household', step3: 'Step 3 of 4: Income and rent',
    step4: 'Step 4 of 4: Third party and documents', addRow: 'Add row', addTo: 'Add to “Household members”', memberName: 'Name', relationship: 'Relationship',
    self: 'Applicant', age: 'Age', add: 'Add', rent: 'Monthly rent', submit: 'Submit application', numberIs: 'Your application number is ',
    continue: 'Continue', checkTitle: 'Check your answers before submitting your application',
    open: 'Open application', application: 'Application', history: 'History', started: 'Application started', draftSaved: 'Draft saved',
    submitted: 'Application submitted and opened', fields: 'Fields:', complete: 'Complete', completeTitle: (n: string) => `Complete application ${n}?`,
    onceDone: "Once done it can't be changed", completed: 'The application is completed', completedState: 'Completed', actions: 'Application actions', summary: 'Summary',
    data: 'Application data', correct: 'Correct data', saveChanges: 'Save changes', changesSaved: 'The changes are saved', rentChanged: 'Monthly rent changedFrom 950 to 1050',
    required: 'This field is required', draftTitle: 'Application draft', submittedTitle: 'Application submitted', documentDetail: 'Document detail', household: 'Household members',
  },
  es: {
    newTitle: 'Nueva radicación', saveForLater: 'Guardar, pero volver más tarde para completar', savedForLater: 'Su borrador se guardó',
    drafts: 'Borradores', continueOf: 'Continuar la radicación de', account: 'Cuenta', exit: 'Salir',
    firstName: 'Nombres', lastName: 'Apellidos', documentType: 'Tipo de documento', documentNumber: 'Número de documento', email: 'Correo electrónico',
    phone: 'Celular', state: 'Departamento', city: 'Municipio', zip: 'Código postal', next: 'Siguiente', step2: 'Paso 2 de 4: Hogar', step3: 'Paso 3 de 4: Ingresos y renta',
    step4: 'Paso 4 de 4: Tercero y documentos', addRow: 'Agregar fila', addTo: 'Agregar a «Integrantes del hogar»', memberName: 'Nombre', relationship: 'Parentesco',
    self: 'Solicitante', age: 'Edad', add: 'Agregar', rent: 'Renta mensual', submit: 'Enviar radicación', numberIs: 'Su número de radicación es ',
    continue: 'Continuar', checkTitle: 'Revise sus respuestas antes de enviar la radicación',
    open: 'Abrir la radicación', application: 'Radicación', history: 'Historial', started: 'Radicación iniciada', draftSaved: 'Borrador guardado',
    submitted: 'Radicación enviada y abierta', fields: 'Campos:', complete: 'Completar', completeTitle: (n: string) => `¿Completar la radicación ${n}?`,
    onceDone: 'Una vez hecho no se puede cambiar', completed: 'La radicación está completada', completedState: 'Completada', actions: 'Acciones de la radicación', summary: 'Resumen',
    data: 'Datos de la radicación', correct: 'Corregir datos', saveChanges: 'Guardar cambios', changesSaved: 'Los cambios están guardados', rentChanged: 'Renta mensual cambióDe 950 a 1050',
    required: 'Este campo es obligatorio', draftTitle: 'Borrador de radicación', submittedTitle: 'Radicación enviada', documentDetail: 'Detalle del documento', household: 'Integrantes del hogar',
  },
} as const;

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target} ${n.any[0]?.message ?? ''}`).join(' | ')}`);
}

/** The page fits the screen's width and axe finds nothing serious or critical. */
async function looksRight(page: Page, where: string) {
  // Measured at rest: no hover, no ripple, no toast still fading in.
  await page.mouse.move(0, 0);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(700);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${where}: sideways scrolling`).toBe(true);
  expect(await seriousViolations(page), where).toEqual([]);
}

const box = (page: Page, label: string) => page.getByRole('textbox', { name: new RegExp(`^${label}`) });
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
/** The text under a field (its help or its message). */
async function helperOf(page: Page, label: string) {
  const id = await box(page, label).getAttribute('aria-describedby');
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}
/** Typed key by key into the field, as a person types (no fill). */
async function type(page: Page, label: string, text: string) {
  const field = box(page, label);
  await field.click();
  await field.pressSequentially(text, { delay: 15 });
}
/** Next, clicked once as a hand does; the step named `heading` must follow that one click. */
async function nextOnce(page: Page, next: string, heading: string) {
  await clickAsAPerson(page, page.getByRole('button', { name: next }));
  await page.getByRole('heading', { name: heading }).waitFor({ timeout: 10_000 });
}
/** The focus is on the page's h1 (after a change of page), whose text is `title`. */
async function focusOnHeading(page: Page, title: string) {
  await expect.poll(() => focusedElement(page)).toEqual({ tag: 'H1', text: title });
}

// The applicant on a phone in Spanish, the staff on a desktop in English: each journey once, as its people meet it.
describe('an application from draft to completed', () => {
  const suffix = `${Date.now().toString(36).slice(-5)}es`;
  const firstName = `Irene${suffix}`;
  const lastName = 'Quintero';
  let caseId = 0;
  let caseNumber = '';

  it('the applicant saves a draft, signs out, comes back through Drafts, completes it and submits it (es, phone)', { timeout: 180_000 }, async () => {
    const x = TEXT.es;
    const ctx = await newContext(browser, 'es', PHONE);
    const page = await ctx.newPage();
    await signIn(page, 'applicant@demo.test');
    await page.goto('/cases/new');
    await page.getByRole('heading', { level: 1, name: x.newTitle }).waitFor();
    await box(page, x.firstName).fill(firstName);
    await box(page, x.lastName).fill(lastName);
    await looksRight(page, '/cases/new');
    await page.getByRole('button', { name: x.saveForLater }).click();
    await page.waitForURL('**/cases/drafts');
    await page.getByRole('alert').filter({ hasText: x.savedForLater }).first().waitFor();
    await page.getByRole('heading', { name: `${firstName} ${lastName}` }).waitFor();
    await looksRight(page, '/cases/drafts');

    // Out, and back in: the draft waits under Drafts with what was typed.
    await page.getByRole('button', { name: x.account }).click();
    await page.getByRole('menuitem', { name: x.exit }).click();
    await page.waitForURL('**/login');
    await signIn(page, 'applicant@demo.test');
    await page.goto('/cases/drafts');
    await page.getByRole('heading', { level: 1, name: x.drafts }).waitFor();
    await page.getByRole('link', { name: `${x.continueOf} ${firstName} ${lastName}` }).click();
    await page.waitForURL(/\/cases\/new\?draft=\d+$/);
    await focusOnHeading(page, x.draftTitle);
    expect(await box(page, x.firstName).inputValue()).toBe(firstName);
    expect(await box(page, x.lastName).inputValue()).toBe(lastName);

    // The rest of the application, step by step. Next first: the step says what it still needs.
    await clickAsAPerson(page, page.getByRole('button', { name: x.next }));
    await page.getByText(x.required, { exact: true }).first().waitFor();
    await expect.poll(() => helperOf(page, x.zip)).toBe(x.required);
    await choose(page, x.documentType, 'Cédula de ciudadanía');
    await choose(page, x.state, 'Valle del Cauca');
    await choose(page, x.city, 'Cali');
    await type(page, x.documentNumber, `77${Date.now().toString().slice(-8)}`);
    await type(page, x.email, `irene.${suffix}@example.org`);
    await type(page, x.phone, '3105550123');
    // The last field typed is still focused when Next is clicked: its message went while typing,
    // so the blur of that click moves nothing and one click is enough.
    await type(page, x.zip, '76001');
    await expect.poll(() => helperOf(page, x.zip)).toBeNull();
    await nextOnce(page, x.next, x.step2);
    await page.getByRole('button', { name: x.addRow }).click();
    const row = page.getByRole('dialog', { name: x.addTo });
    await row.getByRole('textbox', { name: new RegExp(`^${x.memberName}`) }).fill(firstName);
    await row.getByRole('combobox', { name: new RegExp(`^${x.relationship}`) }).click();
    await page.getByRole('option', { name: x.self, exact: true }).click();
    await row.getByRole('textbox', { name: new RegExp(`^${x.age}`) }).fill('34');
    await row.getByRole('button', { name: x.add, exact: true }).click();
    await row.waitFor({ state: 'detached' });
    await nextOnce(page, x.next, x.step3);
    await clickAsAPerson(page, page.getByRole('button', { name: x.next }));
    await page.getByText(x.required, { exact: true }).waitFor();
    await type(page, x.rent, '950');
    await nextOnce(page, x.next, x.step4);
    await looksRight(page, '/cases/new?draft (last step)');
    // Check your answers, then submit from there.
    await page.getByRole('button', { name: x.continue, exact: true }).click();
    await page.getByText(x.checkTitle).waitFor();
    await page.getByText('950').first().waitFor();
    await looksRight(page, 'check your answers');
    await page.getByRole('button', { name: x.submit }).click();

    // Submitted: the number, and the way to the case.
    const title = page.getByText(new RegExp(`^${x.numberIs}\\d{4}-\\d{2}-\\d{6}$`));
    await title.waitFor();
    caseNumber = ((await title.textContent()) ?? '').slice(x.numberIs.length);
    const link = page.getByRole('link', { name: `${x.open} ${caseNumber}` });
    caseId = Number((await link.getAttribute('href'))?.split('/').pop());
    expect(caseId).toBeGreaterThan(0);
    await focusOnHeading(page, x.submittedTitle);
    await looksRight(page, 'submitted');
    // The draft is gone from Drafts.
    await page.goto('/cases/drafts');
    await page.getByRole('heading', { level: 1, name: x.drafts }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('heading', { name: `${firstName} ${lastName}` }).count()).toBe(0);
    await ctx.close();
  });

  it('staff open the case, read its history, and complete it after the warning (en, desktop)', { timeout: 120_000 }, async () => {
    expect(caseId).toBeGreaterThan(0);
    const x = TEXT.en;
    const viewport = FULL_HD;
    const ctx = await newContext(browser, 'en', viewport);
    const page = await ctx.newPage();
    await signIn(page, 'coordinator@demo.test');
    await page.goto(`/cases/${caseId}`);
    await page.getByRole('heading', { level: 1, name: `${x.application} ${caseNumber}` }).waitFor();

    // The history: started with the first fields, a draft save with the fields that changed, the submission.
    const history = page.getByRole('region', { name: x.history });
    const events = history.getByRole('listitem');
    await events.filter({ hasText: x.submitted }).waitFor();
    const started = events.filter({ hasText: x.started });
    expect(await started.textContent()).toContain(`${x.fields} ${x.firstName}, ${x.lastName}`);
    expect(await started.textContent()).toContain('Ana Applicant');
    const saved = events.filter({ hasText: x.draftSaved });
    expect(await saved.count()).toBeGreaterThanOrEqual(1);
    const savedText = (await saved.allTextContents()).join(' ');
    for (const field of [x.documentType, x.email, x.rent]) expect(savedText).toContain(field);
    await looksRight(page, `/cases/${caseId}`);

    // Its first task: the household in the document detail fits the screen (on a phone, one block per member).
    const tasks = await (await ctx.request.get(`/api/tasks?caseId=${caseId}`)).json();
    const taskId = tasks.items[0]?.id;
    expect(taskId).toBeGreaterThan(0);
    await page.goto(`/tasks/${taskId}`);
    const detail = page.getByRole('region', { name: x.documentDetail });
    const household = viewport === PHONE ? detail.getByRole('list', { name: x.household }) : detail.getByRole('table', { name: x.household });
    await household.getByText(firstName).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), `/tasks/${taskId}: sideways scrolling`).toBe(true);
    await looksRight(page, `/tasks/${taskId}`);
    await page.goto(`/cases/${caseId}`);
    await page.getByRole('heading', { level: 1, name: `${x.application} ${caseNumber}` }).waitFor();

    // A correction of the data, in the application's own form: the history records the changed field.
    const data = page.getByRole('region', { name: x.data });
    await data.getByRole('button', { name: x.correct }).click();
    await data.getByRole('button', { name: x.next }).click();
    await data.getByRole('heading', { name: x.step2 }).waitFor();
    await data.getByRole('button', { name: x.next }).click();
    await data.getByRole('heading', { name: x.step3 }).waitFor();
    expect(await box(page, x.rent).inputValue()).toBe('950');
    await box(page, x.rent).fill('1050');
    await data.getByRole('button', { name: x.next }).click();
    await data.getByRole('heading', { name: x.step4 }).waitFor();
    await looksRight(page, `/cases/${caseId} correcting`);
    await data.getByRole('button', { name: x.saveChanges }).click();
    await page.getByRole('alert').filter({ hasText: x.changesSaved }).first().waitFor();
    await data.getByRole('button', { name: x.correct }).waitFor();
    await expect.poll(async () => (await events.allTextContents()).some((text) => text.includes(x.rentChanged))).toBe(true);

    const actions = page.getByRole('toolbar', { name: x.actions });
    await actions.getByRole('button', { name: x.complete, exact: true }).click();
    const confirm = page.getByRole('dialog', { name: x.completeTitle(caseNumber) });
    await confirm.getByText(x.onceDone).waitFor();
    await confirm.getByRole('button', { name: x.complete, exact: true }).click();
    await page.getByRole('alert').filter({ hasText: x.completed }).first().waitFor();
    await page.getByRole('region', { name: x.summary }).getByText(x.completedState, { exact: true }).waitFor();
    await actions.getByRole('button', { name: x.complete, exact: true }).waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: x.complete, exact: true }).count()).toBe(0);
    await looksRight(page, `/cases/${caseId} completed`);
    await ctx.close();
  });
});
