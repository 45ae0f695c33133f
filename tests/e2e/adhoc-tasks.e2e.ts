import { AxeBuilder } from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DESKTOP, launchBrowser, literal, newContext, PHONE, signIn, signedInContext, unique } from './browser.js';

/**
 * Ad-hoc tasks: a coordinator makes a task by hand on an open demo
 * application for the reviewer (/tareas/nuevo), finds it in /tareas, and the
 * reviewer finds it in /pendings and accepts it there. Once in English on a
 * desktop, once in Spanish on a phone (the reviewer in the other language).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(`${baseUrl()}${path}`);
  if (!response.ok()) throw new Error(`${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).first().waitFor();
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

const TEXTS = {
  en: {
    tasks: 'Tasks',
    list: 'Ad-hoc tasks',
    newButton: 'New task',
    newTitle: 'New ad-hoc task',
    application: 'Application',
    name: 'Task name',
    instructions: 'Instructions',
    user: 'User',
    days: 'Expiration days',
    create: 'Create task',
    required: 'This field is required',
    choose: 'You must choose an option',
    created: (name: string) => `Task ${name} created`,
    instructionsLabel: 'Instructions:',
    search: 'Search by task or application number',
    pending: 'Pending',
  },
  es: {
    tasks: 'Tareas',
    list: 'Tareas ad hoc',
    newButton: 'Nueva tarea',
    newTitle: 'Nueva tarea ad hoc',
    application: 'Radicación',
    name: 'Nombre de la tarea',
    instructions: 'Instrucciones',
    user: 'Usuario',
    days: 'Días de vencimiento',
    create: 'Crear tarea',
    required: 'Este campo es obligatorio',
    choose: 'Debe elegir una opción',
    created: (name: string) => `Tarea ${name} creada`,
    instructionsLabel: 'Instrucciones:',
    search: 'Buscar por tarea o número de radicación',
    pending: 'Pendiente',
  },
} as const;

const PENDINGS = {
  en: { title: 'My pending tasks', accept: 'Accept', confirm: 'Accept the task?', accepted: (name: string) => `Task ${name} accepted`, search: 'Search by task or application number' },
  es: { title: 'Mis pendientes', accept: 'Aceptar', confirm: '¿Aceptar la tarea?', accepted: (name: string) => `Tarea ${name} aceptada`, search: 'Buscar por tarea o número de radicación' },
} as const;

describe('an ad-hoc task from /tareas/nuevo to the reviewer’s /pendings', () => {
  it.each([
    ['en', 'es', DESKTOP],
    ['es', 'en', PHONE],
  ] as const)('the coordinator (%s) creates it, the reviewer (%s) accepts it', { timeout: 180_000 }, async (lang, reviewerLang, viewport) => {
    const text = TEXTS[lang];
    const ctx = await newContext(browser, lang, viewport);
    const page = await ctx.newPage();
    await signIn(page, 'coordinator@demo.test');
    const open = await getJson<{ items: Array<{ id: number; number: string }> }>(ctx.request, '/api/cases?state=PENDING&limit=5');
    const target = open.items[0];
    if (!target) throw new Error('the demo has no open application');

    // From /tasks to the ad-hoc list, then to the form.
    await page.goto('/tasks');
    await page.getByRole('heading', { level: 1, name: text.tasks }).waitFor();
    await page.getByRole('link', { name: text.list }).click();
    await page.waitForURL('**/tareas');
    await page.getByRole('heading', { level: 1, name: text.list }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await noSidewaysScroll(page), '/tareas').toBe(true);
    await page.getByRole('link', { name: text.newButton }).click();
    await page.waitForURL('**/tareas/nuevo');
    await page.getByRole('heading', { level: 1, name: text.newTitle }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await noSidewaysScroll(page), '/tareas/nuevo').toBe(true);

    // Nothing filled: the messages come under the fields, in the page's language.
    await page.getByRole('button', { name: text.create }).click();
    await page.getByText(text.required).waitFor();
    expect(await page.getByText(text.choose).count()).toBe(2);

    const name = `${lang === 'en' ? 'Call the landlord' : 'Llamar al arrendador'} ${unique('')}`;
    const application = page.getByRole('combobox', { name: new RegExp(`^${text.application}`) });
    await application.fill(target.number);
    await page.getByRole('option', { name: new RegExp(literal(target.number)) }).click();
    await page.getByRole('textbox', { name: new RegExp(`^${text.name}`) }).fill(name);
    const instructions = lang === 'en' ? 'Confirm the rent amount with the landlord.' : 'Confirme el valor del arriendo con el arrendador.';
    await page.getByRole('textbox', { name: text.instructions }).fill(instructions);
    await page.getByRole('combobox', { name: new RegExp(`^${text.user}`) }).fill('Rafael');
    await page.getByRole('option', { name: 'Rafael Reviewer (reviewer@demo.test)' }).click();
    await page.getByRole('spinbutton', { name: text.days }).fill('2');
    expect(await noSidewaysScroll(page), '/tareas/nuevo filled').toBe(true);
    await page.getByRole('button', { name: text.create }).click();

    // The new task's page, with its instructions.
    await page.waitForURL(/\/tasks\/\d+$/);
    await toast(page, text.created(name));
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByText(text.instructionsLabel).waitFor();
    await page.getByText(instructions).waitFor();
    const taskId = Number(new URL(page.url()).pathname.split('/').pop());

    // It shows in /tareas.
    await page.goto('/tareas');
    await page.getByRole('searchbox', { name: text.search }).fill(name);
    const listed = viewport === PHONE ? page.getByRole('list', { name: text.list }) : page.getByRole('table', { name: text.list });
    await listed.getByRole('link', { name, exact: true }).waitFor();
    expect(await listed.getByText(text.pending, { exact: true }).count()).toBeGreaterThan(0);
    expect(await noSidewaysScroll(page), '/tareas with the new task').toBe(true);
    await ctx.close();

    // The reviewer finds it in /pendings and accepts it there.
    const p = PENDINGS[reviewerLang];
    const reviewerCtx = await newContext(browser, reviewerLang, viewport);
    const reviewer = await reviewerCtx.newPage();
    await signIn(reviewer, 'reviewer@demo.test');
    await reviewer.goto('/pendings');
    await reviewer.getByRole('heading', { level: 1, name: p.title }).waitFor();
    await reviewer.getByRole('searchbox', { name: p.search }).fill(name);
    await reviewer.getByRole('link', { name, exact: true }).waitFor();
    await reviewer.getByRole('button', { name: `${p.accept}: ${name} ${target.number}` }).click();
    const confirm = reviewer.getByRole('dialog', { name: p.confirm });
    await confirm.getByRole('button', { name: p.accept }).click();
    await toast(reviewer, p.accepted(name));
    await reviewer.getByRole('link', { name, exact: true }).waitFor({ state: 'detached' });
    expect(await noSidewaysScroll(reviewer), '/pendings').toBe(true);
    expect((await getJson<{ state: string }>(reviewerCtx.request, `/api/tasks/${taskId}`)).state).toBe('ACCEPTED');
    await reviewerCtx.close();
  });

  it.each([
    ['en', DESKTOP],
    ['es', PHONE],
  ] as const)('%s: /tareas and /tareas/nuevo have no serious or critical accessibility violation', { timeout: 120_000 }, async (lang, viewport) => {
    const ctx = await signedInContext(browser, 'coordinator@demo.test', lang, viewport);
    const page = await ctx.newPage();
    for (const path of ['/tareas', '/tareas/nuevo']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      const result = await new AxeBuilder({ page }).analyze();
      const serious = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' | ')}`);
      expect(serious, path).toEqual([]);
      expect(await noSidewaysScroll(page), path).toBe(true);
    }
    await ctx.close();
  });
});
