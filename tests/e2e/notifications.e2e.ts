import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, signedInContext, unique } from './browser.js';

/**
 * Issue 16 as people meet it: a coordinator (Spanish) changes the Spanish
 * "Task assigned" template with the placeholder picker and previews it on a
 * real case; a new reviewer whose language is Spanish is given a task, and
 * the outbox holds their message in Spanish with the placeholders filled;
 * the reviewer's bell (on a phone) counts a second task without a reload,
 * and their profile turns that event's email off.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function api<T>(request: APIRequestContext, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(path, { method, data: data as never });
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}
const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).first().waitFor();

describe('email templates and notifications', () => {
  it('a template edited with the picker is previewed, saved, and used for a Spanish reader; the bell counts live', { timeout: 180_000 }, async () => {
    const mark = unique('N');
    const coordinatorCtx = await signedInContext(browser, 'coordinator@demo.test', 'es');
    const adminCtx = await signedInContext(browser, 'admin@demo.test', 'en');
    try {
      const page = await coordinatorCtx.newPage();
      await page.goto('/plantillas-correo');
      // Found by its name: the tenant's defaults are more than a page since correction_cancelled came (0027).
      await page.getByLabel('Buscar por nombre o asunto').fill('Task assigned');
      await page.getByRole('link', { name: 'Editar: Task assigned', exact: true }).click();
      await page.getByRole('tab', { name: 'Español' }).click();
      const subject = page.getByRole('textbox', { name: 'Asunto (Español)' });
      await subject.fill(`Tarea ${mark}: `);
      // The subject's picker puts the placeholder at the cursor.
      await page.getByRole('button', { name: 'Insertar campo: Asunto' }).click();
      await page.getByRole('menuitem', { name: /\{\{taskName\}\}/ }).click();
      await expect.poll(() => subject.inputValue()).toBe(`Tarea ${mark}: {{taskName}}`);
      // The body's picker, in the rich-text editor.
      const panel = page.getByRole('tabpanel', { name: 'Español' });
      const body = panel.getByRole('textbox', { name: 'Mensaje en Español' });
      await body.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(` Caso `);
      await panel.getByRole('button', { name: 'Insertar campo', exact: true }).click();
      await page.getByRole('menuitem', { name: /\{\{caseNumber\}\}/ }).click();

      // Preview on a real case of the tenant.
      await page.getByRole('combobox', { name: 'Caso para la vista previa' }).click();
      await page.getByRole('option').first().click();
      await page.getByRole('button', { name: 'Ver vista previa' }).click();
      const spanish = page.getByRole('region', { name: 'Vista previa: Español' });
      await spanish.getByText(new RegExp(`^Tarea ${mark}: \\S`)).waitFor();
      expect(await spanish.textContent()).not.toContain('{{');
      await page.getByRole('button', { name: 'Guardar' }).click();
      await toast(page, 'Plantilla guardada');

      // A new reviewer who reads Spanish, and a task for them.
      const roles = await api<Array<{ id: number; code: string }>>(adminCtx.request, 'GET', '/api/users/role-options');
      const reviewerRole = roles.find((r) => r.code === 'reviewer');
      if (!reviewerRole) throw new Error('no reviewer role in the demo');
      const email = `${mark.toLowerCase()}@example.test`;
      const person = await api<{ id: number }>(adminCtx.request, 'POST', '/api/users', { email, name: `Valentina ${mark}`, roleId: reviewerRole.id, language: 'es', timeZone: 'America/Bogota', password: 'Demo12345' });
      const open = await api<{ items: Array<{ id: number }> }>(coordinatorCtx.request, 'GET', '/api/cases?state=PENDING&limit=1');
      const caseId = open.items[0]?.id as number;
      const first = unique('Visita ');
      await api(coordinatorCtx.request, 'POST', '/api/tasks', { caseId, name: first, userId: person.id });

      // The outbox: their message in Spanish, the template's words and the task's name.
      await page.goto('/configuracion/correos');
      await page.getByRole('searchbox', { name: 'Buscar asunto o destinatario' }).fill(email);
      await page.getByRole('cell', { name: `Tarea ${mark}: ${first}` }).first().waitFor();
      const sent = await api<{ items: Array<{ subject: string; to: string }> }>(coordinatorCtx.request, 'GET', `/api/mail/outbox?search=${encodeURIComponent(email)}`);
      expect(sent.items.map((m) => m.subject)).toEqual([`Tarea ${mark}: ${first}`]);

      // The reviewer, on a phone: the bell counts a second task without a reload.
      const reviewerCtx = await signedInContext(browser, email, 'es', PHONE);
      try {
        const phone = await reviewerCtx.newPage();
        await phone.goto('/home');
        await phone.getByRole('button', { name: 'Notificaciones, 1 sin leer' }).waitFor();
        await api(coordinatorCtx.request, 'POST', '/api/tasks', { caseId, name: unique('Llamar '), userId: person.id });
        await phone.getByRole('button', { name: 'Notificaciones, 2 sin leer' }).waitFor({ timeout: 20_000 });
        await phone.getByRole('button', { name: 'Notificaciones, 2 sin leer' }).click();
        await phone.getByRole('menuitem', { name: new RegExp(`Nueva tarea para usted: ${first}`) }).waitFor();
        // From the bell to the profile: no more email for assigned tasks.
        await phone.getByRole('menuitem', { name: 'Configurar notificaciones' }).click();
        const section = phone.getByRole('region', { name: 'Notificaciones' });
        await section.getByRole('checkbox', { name: 'Tarea asignada' }).uncheck();
        await section.getByRole('button', { name: 'Guardar configuración de notificaciones' }).click();
        await toast(phone, 'Configuración de notificaciones guardada');
        const prefs = await api<{ emailEvents: string[] }>(reviewerCtx.request, 'GET', '/api/notifications/preferences');
        expect(prefs.emailEvents).not.toContain('task_assigned');
      } finally {
        await reviewerCtx.close();
      }
    } finally {
      await coordinatorCtx.close();
      await adminCtx.close();
    }
  });
});
