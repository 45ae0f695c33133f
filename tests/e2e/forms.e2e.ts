import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, signIn, unique } from './browser.js';

/**
 * The coordinator builds a form in the builder (a stepper with two steps, a
 * repeat group, a master select and a field shown by a switch), saves it,
 * sees it in View and fills it: every message shows in English and then in
 * Spanish. The same bad values sent straight to the server's gate are
 * refused with the same messages.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  ctx = await newContext(browser, 'en');
  page = await ctx.newPage();
  await signIn(page, 'coordinator@demo.test');
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

const code = unique('survey-');
const formName = `Household survey ${code.slice(-6)}`;
let formId = '';

const toast = (text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).first().waitFor();
const panel = () => page.getByRole('region', { name: /^Properties of/ });

/** Adds a field of `type` inside the container labelled `parent` (or at the top) and fills its properties. */
async function addField(parent: string | null, type: string, props: { name: string; en: string; es: string }, more?: (p: Locator) => Promise<void>) {
  await page.getByRole('button', { name: parent ? `Add a field inside ${parent}` : 'Add field', exact: true }).click();
  await page.getByRole('dialog', { name: 'Choose the type of field' }).getByRole('button', { name: type, exact: true }).click();
  const p = panel();
  await p.getByRole('textbox', { name: 'Name (key)' }).fill(props.name);
  await p.getByRole('textbox', { name: 'Label (English)', exact: true }).fill(props.en);
  await p.getByRole('textbox', { name: 'Label (Spanish)', exact: true }).fill(props.es);
  if (more) await more(p);
}

const required = (p: Locator) => p.getByLabel('Required', { exact: true }).check();

describe('the form builder', () => {
  it('builds a stepper form with a repeat group, a master select and a conditional field, and saves it', async () => {
    await page.goto('/formularios');
    await page.getByRole('link', { name: 'New form' }).click();
    await page.waitForURL('**/formularios/nuevo');
    await page.getByRole('textbox', { name: 'Name' }).fill(formName);
    await page.getByRole('textbox', { name: 'Code' }).fill(code);
    await page.getByRole('radio', { name: 'Steps' }).check();

    await page.getByRole('tab', { name: 'Fields' }).click();
    await page.getByRole('button', { name: 'Add field', exact: true }).click();
    await page.getByRole('dialog', { name: 'Choose the type of field' }).getByRole('button', { name: 'Stepper', exact: true }).click();
    await panel().getByRole('textbox', { name: 'Label (English)', exact: true }).fill('Survey');
    await panel().getByRole('textbox', { name: 'Label (Spanish)', exact: true }).fill('Encuesta');
    // A stepper holds steps only: adding inside it adds the second step at once.
    await page.getByRole('button', { name: 'Add a field inside Survey', exact: true }).click();
    await panel().getByRole('textbox', { name: 'Label (English)', exact: true }).fill('Household');
    await panel().getByRole('textbox', { name: 'Label (Spanish)', exact: true }).fill('Hogar');
    await page.getByText('step_1 · Step', { exact: true }).click();
    await panel().getByRole('textbox', { name: 'Label (English)', exact: true }).fill('Applicant');
    await panel().getByRole('textbox', { name: 'Label (Spanish)', exact: true }).fill('Solicitante');

    await addField('Applicant', 'Text', { name: 'fullName', en: 'Full name', es: 'Nombre completo' }, required);
    await addField('Applicant', 'Email', { name: 'email', en: 'Email', es: 'Correo' });
    await addField('Applicant', 'Phone', { name: 'phone', en: 'Cellphone', es: 'Celular' });
    await addField('Applicant', 'Number', { name: 'age', en: 'Age', es: 'Edad' }, (p) => p.getByRole('spinbutton', { name: 'Maximum value' }).fill('120'));
    await addField('Applicant', 'Switch', { name: 'thirdParty', en: 'A third party helps me', es: 'Me ayuda un tercero' });
    await addField('Applicant', 'Email', { name: 'thirdPartyEmail', en: 'Third party email', es: 'Correo del tercero' }, async (p) => {
      await required(p);
      const condition = p.getByRole('textbox', { name: 'Show when' });
      // The condition is checked as it is typed, with the position of the problem.
      await condition.fill('thirdParty ==');
      await p.getByText('Not valid at position 14: The condition ended too early', { exact: true }).waitFor();
      await condition.fill('thirdParty == true');
      await p.getByText('The condition is valid').waitFor();
    });
    await addField('Household', 'List from a master', { name: 'state', en: 'State', es: 'Departamento' }, async (p) => {
      await required(p);
      await p.getByRole('combobox', { name: 'Master' }).click();
      await page.getByRole('option', { name: 'Departamentos (departamentos)' }).click();
    });
    await addField('Household', 'Repeat group', { name: 'members', en: 'Household members', es: 'Integrantes del hogar' });
    await addField('Household members', 'Text', { name: 'memberName', en: 'Member name', es: 'Nombre del integrante' }, required);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast('Changes saved successfully');
    await page.waitForURL(/\/formularios\/\d+$/);
    // The builder of the saved form (with its version) has taken the place of the new one.
    await page.getByText('Version 1', { exact: true }).waitFor();
    formId = new URL(page.url()).pathname.split('/').pop() as string;
    const saved = await (await ctx.request.get(`${baseUrl()}/api/forms/${formId}`)).json();
    expect(saved.code).toBe(code);
    expect(saved.definition.layout).toBe('stepper');
    const [stepper] = saved.definition.fields;
    expect(stepper.type).toBe('stepper');
    expect(stepper.children.map((s: { label_en: string }) => s.label_en)).toEqual(['Applicant', 'Household']);
    expect(stepper.children[1].children.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual(['state:master_select', 'members:repeat']);
  }, 120_000);

  it('shows the form in View and every message in English, then in Spanish', async () => {
    await page.getByRole('tab', { name: 'View' }).click();
    await page.getByRole('heading', { name: 'Step 1 of 2: Applicant' }).waitFor();
    // A label, with the required mark or without it.
    const box = (label: string) => page.getByRole('textbox', { name: new RegExp(`^${label}( \\*)?$`) });
    const messageOf = async (input: Locator) => {
      const id = await input.getAttribute('aria-describedby');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };

    // Next checks this step only: the required name.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('This field is required').first().waitFor();
    await box('Email').fill('ana@');
    await box('Cellphone').fill('300 12');
    await box('Age').fill('130');
    await box('Full name').focus();
    expect(await box('Third party email').count()).toBe(0);
    await page.getByRole('switch', { name: 'A third party helps me' }).check();
    await box('Third party email').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Step 1 of 2: Applicant' }).waitFor();
    const english = {
      'Full name': 'This field is required',
      Email: 'Invalid email address',
      Cellphone: 'Invalid phone number',
      Age: 'The number must be at most 120',
      'Third party email': 'This field is required',
    };
    for (const [label, message] of Object.entries(english)) {
      await expect.poll(() => messageOf(box(label)), { timeout: 5000 }).toBe(message);
    }

    await page.getByRole('button', { name: 'Español' }).click();
    await page.getByRole('heading', { name: 'Paso 1 de 2: Solicitante' }).waitFor();
    const spanish = {
      'Nombre completo': 'Este campo es obligatorio',
      Correo: 'Correo electrónico no válido',
      Celular: 'Número de teléfono no válido',
      Edad: 'El número debe ser como máximo 120',
      'Correo del tercero': 'Este campo es obligatorio',
    };
    for (const [label, message] of Object.entries(spanish)) {
      await expect.poll(() => messageOf(box(label)), { timeout: 5000 }).toBe(message);
    }

    // The values are right now: on to the second step, in Spanish.
    await box('Nombre completo').fill('Ana Pérez');
    await box('Correo').fill('ana@example.org');
    await box('Celular').fill('300 123 4567');
    await box('Edad').fill('34');
    await box('Correo del tercero').fill('helper@example.org');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByRole('heading', { name: 'Paso 2 de 2: Hogar' }).waitFor();

    // A row typed but not added: the warning, in Spanish...
    await page.getByRole('button', { name: 'Agregar fila' }).click();
    let row = page.getByRole('dialog', { name: 'Agregar a «Integrantes del hogar»' });
    await row.getByRole('textbox', { name: /^Nombre del integrante/ }).fill('Luis');
    await row.getByRole('button', { name: 'Cancelar' }).click();
    let warning = page.getByRole('dialog', { name: 'Valores sin agregar' });
    await warning.getByText('Escribió valores en «Integrantes del hogar» que no se agregaron. ¿Desea continuar sin agregarlos?').waitFor();
    await warning.getByRole('button', { name: 'Continuar sin agregar' }).click();
    await row.waitFor({ state: 'detached' });

    // ...and in English.
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Step 2 of 2: Household' }).waitFor();
    await page.getByRole('button', { name: 'Add row' }).click();
    row = page.getByRole('dialog', { name: 'Add to “Household members”' });
    await row.getByRole('textbox', { name: /^Member name/ }).fill('Luis');
    await page.keyboard.press('Escape');
    warning = page.getByRole('dialog', { name: 'Values not added' });
    await warning.getByText('You typed values in “Household members” that were not added. Do you want to continue without adding them?').waitFor();
    await warning.getByRole('button', { name: 'Keep editing' }).click();
    await row.getByRole('button', { name: 'Add', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByRole('table', { name: 'Household members' }).getByRole('cell', { name: 'Luis' }).waitFor();

    // The master select offers the departamentos; the form is valid once one is chosen.
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByText('You must choose an option').waitFor();
    await page.getByRole('combobox', { name: /^State/ }).click();
    await page.getByRole('option', { name: 'Antioquia' }).click();
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByText('The values are valid.').waitFor();
  }, 120_000);

  it('the same bad values sent straight to the server are refused with the same messages', async () => {
    const values = { fullName: '', email: 'ana@', phone: '300 12', age: 130, thirdParty: true, thirdPartyEmail: '', state: 'NOPE', members: [{ memberName: '' }] };
    const check = async (lang: 'en' | 'es') => {
      await ctx.addCookies([{ name: 'lang', value: lang, url: baseUrl() }]);
      const response = await page.request.post(`${baseUrl()}/api/forms/${formId}/check`, { data: { values } });
      expect(response.status()).toBe(400);
      return ((await response.json()) as { error: { details: Array<{ path: string; message: string }> } }).error.details;
    };
    expect(await check('en')).toEqual([
      { path: 'fullName', message: 'This field is required' },
      { path: 'email', message: 'Invalid email address' },
      { path: 'phone', message: 'Invalid phone number' },
      { path: 'age', message: 'The number must be at most 120' },
      { path: 'thirdPartyEmail', message: 'This field is required' },
      { path: 'state', message: 'You must choose an option' },
      { path: 'members.0.memberName', message: 'This field is required' },
    ]);
    expect((await check('es')).map((d) => d.message)).toEqual([
      'Este campo es obligatorio',
      'Correo electrónico no válido',
      'Número de teléfono no válido',
      'El número debe ser como máximo 120',
      'Este campo es obligatorio',
      'Debe elegir una opción',
      'Este campo es obligatorio',
    ]);
    await ctx.addCookies([{ name: 'lang', value: 'en', url: baseUrl() }]);
  });

  it("'Check with the server' shows the server's messages under the same fields", async () => {
    await page.getByRole('tab', { name: 'Fields' }).click();
    await page.getByRole('tab', { name: 'View' }).click();
    await page.getByRole('button', { name: 'Clear values' }).click();
    await page.getByRole('textbox', { name: /^Email/ }).fill('ana@');
    await page.getByRole('button', { name: 'Check with the server' }).click();
    await page.getByText('The server refused some values: see the messages under the fields.').waitFor();
    const email = page.getByRole('textbox', { name: /^Email/ });
    const id = await email.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${id}"]`).textContent()).toBe('Invalid email address');
  });
});
