import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, signedInContext, unique } from './browser.js';

/**
 * Two people on the same application, each in their own browser: the
 * coordinator (English, desktop) and the reviewer (Spanish, phone). Each sees
 * the other on the page; a comment of one appears for the other without a
 * reload; in the document review one shows a document and the other's viewer
 * opens it; the reviewer accepting a task empties their own /pendings in
 * another tab and updates the coordinator's case page. Then the comments
 * dashboard edits and deletes a comment, kept in the case history.
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
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe('two people on one application, live', () => {
  it('see each other, each other’s comments, the shown document and a decided task, with no reload', { timeout: 180_000 }, async () => {
    const coordinatorCtx = await signedInContext(browser, 'coordinator@demo.test', 'en');
    const reviewerCtx = await signedInContext(browser, 'reviewer@demo.test', 'es', PHONE);
    try {
      // An open application with a document, and an ad-hoc task on it for the reviewer.
      const open = await api<{ items: Array<{ id: number; number: string }> }>(coordinatorCtx.request, 'GET', '/api/cases?state=PENDING&limit=5');
      const target = open.items[0];
      if (!target) throw new Error('the demo has no open application');
      const uploaded = await coordinatorCtx.request.post('/api/files', { multipart: { file: { name: 'lease.pdf', mimeType: 'application/pdf', buffer: PDF } } });
      expect(uploaded.status()).toBe(201);
      const file = (await uploaded.json()) as { id: string; name: string };
      const current = await api<{ data: Record<string, unknown>; version: number }>(coordinatorCtx.request, 'GET', `/api/cases/${target.id}`);
      await api(coordinatorCtx.request, 'PUT', `/api/cases/${target.id}/data`, { data: { ...current.data, documents: [{ id: file.id, name: file.name }] }, version: current.version });
      const reviewerId = Number((await api<{ user: { uid: string } }>(reviewerCtx.request, 'GET', '/api/auth/session')).user.uid);
      const taskName = unique('Call the landlord ');
      const task = await api<{ id: number }>(coordinatorCtx.request, 'POST', '/api/tasks', { caseId: target.id, name: taskName, userId: reviewerId, instructions: 'Confirm the tenancy.' });

      const coordinator = await coordinatorCtx.newPage();
      const reviewer = await reviewerCtx.newPage();
      await coordinator.goto(`/cases/${target.id}`);
      await reviewer.goto(`/cases/${target.id}`);
      await coordinator.getByRole('heading', { name: 'Comments' }).waitFor();
      await reviewer.getByRole('heading', { name: 'Comentarios' }).waitFor();
      // A mark on each page's window: still there at the end means no page was reloaded. (How fast a
      // change travels is measured by bench/realtime-latency.ts, not timed here.)
      const mark = (p: Page) => p.evaluate(() => Object.assign(window, { __noReload: true }));
      const notReloaded = (p: Page) => p.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);
      await mark(coordinator);
      await mark(reviewer);

      // Presence: each sees the other.
      await coordinator.getByTestId('presence').getByText('Also here: Rafael Reviewer').waitFor();
      await reviewer.getByTestId('presence').getByText('También aquí: Carla Coordinator').waitFor();

      // A comment by the coordinator shows on the reviewer's page, without a reload.
      const text = unique('Please upload the lease, all pages. ');
      await coordinator.getByRole('textbox', { name: 'Comment' }).fill(text);
      await coordinator.getByRole('button', { name: 'Add comment' }).click();
      await toast(coordinator, 'Comment added!');
      await reviewer.getByText(text).waitFor();
      // And back: the reviewer's reply reaches the coordinator.
      const reply = unique('Subido. ');
      await reviewer.getByRole('textbox', { name: 'Comentario' }).fill(reply);
      await reviewer.getByRole('button', { name: 'Agregar comentario' }).click();
      await toast(reviewer, '¡Comentario agregado!');
      await coordinator.getByText(reply).waitFor();

      // Document review: both join; the coordinator shows the lease; the reviewer's viewer opens it.
      await coordinator.getByRole('button', { name: 'Join review' }).click();
      await reviewer.getByRole('button', { name: 'Unirse a la revisión' }).click();
      await coordinator.getByRole('button', { name: 'Show lease.pdf to everyone' }).click();
      const viewer = reviewer.getByTestId('review-viewer');
      await viewer.getByText('Mostrado por Carla Coordinator').waitFor();
      await viewer.getByTitle('lease.pdf').waitFor();
      expect(await viewer.getByTitle('lease.pdf').getAttribute('src')).toMatch(new RegExp(`/${file.id}\\.pdf\\?exp=\\d+&token=[^&]+&inline=1$`));

      // The reviewer's /pendings in another tab, and the task decided on the task page.
      const pendings = await reviewerCtx.newPage();
      await pendings.goto('/pendings');
      // Other journeys give the reviewer tasks too: find this one.
      await pendings.getByRole('searchbox', { name: 'Buscar por tarea o número de radicación' }).fill(taskName);
      await pendings.getByRole('link', { name: taskName, exact: true }).waitFor();
      await mark(pendings);
      const taskPage = await reviewerCtx.newPage();
      await taskPage.goto(`/tasks/${task.id}`);
      await taskPage.getByRole('button', { name: 'Aceptar', exact: true }).click();
      await taskPage.getByRole('dialog', { name: '¿Aceptar la tarea?' }).getByRole('button', { name: 'Aceptar' }).click();
      await toast(taskPage, `Tarea ${taskName} aceptada`);
      await pendings.getByRole('link', { name: taskName, exact: true }).waitFor({ state: 'detached' });
      const coordinatorTask = coordinator.getByRole('region', { name: 'Tasks' }).getByRole('listitem').filter({ hasText: taskName });
      await coordinatorTask.getByText('Accepted').waitFor();
      for (const p of [coordinator, reviewer, pendings]) expect(await notReloaded(p)).toBe(true);
    } finally {
      await coordinatorCtx.close();
      await reviewerCtx.close();
    }
  });
});

describe('the comments dashboard', () => {
  it.each([['es']] as const)('edits and deletes a comment, kept in the case history (%s)', { timeout: 120_000 }, async (lang) => {
    const T = {
      en: { title: 'Comments', text: 'Text', edit: 'Edit', del: 'Delete', save: 'Save', deleted: 'Comment deleted', edited: (n: number) => `Comment #${n} edited`, gone: (n: number) => `Comment #${n} deleted` },
      es: { title: 'Comentarios', text: 'Texto', edit: 'Editar', del: 'Eliminar', save: 'Guardar', deleted: 'Comentario eliminado', edited: (n: number) => `Comentario #${n} editado`, gone: (n: number) => `Comentario #${n} eliminado` },
    }[lang];
    const ctx = await signedInContext(browser, 'coordinator@demo.test', lang);
    try {
      const open = await api<{ items: Array<{ id: number }> }>(ctx.request, 'GET', '/api/cases?state=PENDING&limit=5');
      const caseId = (open.items[1] ?? open.items[0])?.id as number;
      const body = unique('Dashboard check ');
      const posted = await api<{ number: number }>(ctx.request, 'POST', `/api/cases/${caseId}/comments`, { body });
      const page = await ctx.newPage();
      await page.goto('/dashboard/comments');
      await page.getByRole('heading', { level: 1, name: T.title }).waitFor();
      await page.getByRole('searchbox', { name: T.text }).fill(body);
      const row = page.getByRole('row').filter({ hasText: body });
      await row.waitFor();
      await row.getByRole('button', { name: new RegExp(`^${T.edit}:`) }).click();
      const dialog = page.getByRole('dialog');
      const field = dialog.getByRole('textbox').first();
      await field.fill(`${body} (corrected)`);
      await dialog.getByRole('button', { name: T.save }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('searchbox', { name: T.text }).fill(`${body} (corrected)`);
      const edited = page.getByRole('row').filter({ hasText: `${body} (corrected)` });
      await edited.waitFor();
      await edited.getByRole('button', { name: new RegExp(`^${T.del}:`) }).click();
      await page.getByRole('dialog').getByRole('button', { name: T.del }).click();
      await toast(page, T.deleted);
      await edited.waitFor({ state: 'detached' });

      const history = await api<Array<{ action: string; detail: { number?: number; from?: { body: string }; to?: { body: string } | null } }>>(ctx.request, 'GET', `/api/cases/${caseId}/history`);
      const mine = history.filter((e) => e.detail.number === posted.number);
      expect(mine.map((e) => e.action)).toEqual(['comment_added', 'comment_edited', 'comment_deleted']);
      expect(mine[1]?.detail.from?.body).toBe(body);
      expect(mine[1]?.detail.to?.body).toBe(`${body} (corrected)`);
      // The case page's history says it in the reader's language.
      await page.goto(`/cases/${caseId}`);
      await page.getByText(T.edited(posted.number)).first().waitFor();
      await page.getByText(T.gone(posted.number)).first().waitFor();
    } finally {
      await ctx.close();
    }
  });
});
