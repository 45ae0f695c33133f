import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, focusedElement, launchBrowser, newContext, signIn, unique } from './browser.js';

/**
 * Issue 5's "done when", as people do it in Chromium: the coordinator builds
 * a three-task protocol in the editor (a conditional accept edge and a
 * reject back), sees the problems of a half-made draft next to its tasks,
 * fixes them and publishes. Then a demo case flows by accept and reject:
 * the reviewer accepts an intake task from /pendings (Spanish), the next
 * task appears for the Document review team, the coordinator rejects it
 * back with a reason, and the intake task's new responsible finds it in
 * their /pendings with the reason shown.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).first().waitFor();

async function choose(page: Page, scope: Locator, combobox: string | RegExp, option: string) {
  await scope.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

interface TaskRow {
  id: number;
  code: string;
  name: string;
  state: string;
  caseId: number;
  caseNumber: string;
  responsibleId: number | null;
  responsibleName: string | null;
  teamId: number | null;
  teamName: string | null;
}

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(`${baseUrl()}${path}`);
  if (!response.ok()) throw new Error(`${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

describe('a coordinator builds and publishes a protocol', () => {
  it('three tasks, a conditional branch and a reject back; problems show next to their task; publish', { timeout: 180_000 }, async () => {
    const code = unique('e2e-flow-');
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await signIn(page, 'coordinator@demo.test');

    // The menu entries are links now.
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    for (const [label, href] of [['Protocols', '/protocolos'], ['Teams', '/equipos'], ['Team members', '/integrantes-equipos'], ['Tasks', '/tasks'], ['My pending tasks', '/pendings']]) {
      expect(await nav.getByRole('link', { name: label, exact: true }).getAttribute('href'), label).toBe(href);
    }

    await nav.getByRole('link', { name: 'Protocols', exact: true }).click();
    await page.getByRole('link', { name: 'New protocol' }).click();
    await page.waitForURL('**/protocolos/nuevo');
    await page.getByRole('heading', { level: 1, name: 'New protocol' }).waitFor();
    await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Flow ${code.slice(-8)}`);
    await choose(page, page.locator('main'), 'Main form', 'Rental assistance application');

    const addTask = async (task: { code: string; name: string; form: string; team: string; days: string }) => {
      await page.getByRole('button', { name: 'Add task' }).click();
      const dialog = page.getByRole('dialog', { name: 'New task' });
      await dialog.getByRole('textbox', { name: 'Code', exact: true }).fill(task.code);
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(task.name);
      await dialog.getByRole('spinbutton', { name: 'Expiration days' }).fill(task.days);
      await choose(page, dialog, 'Form', task.form);
      await dialog.getByRole('radio', { name: 'A team' }).check();
      await choose(page, dialog, 'Team', task.team);
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached' });
    };
    await addTask({ code: 'review', name: 'Review', form: 'Intake review', team: 'Intake', days: '2' });
    await addTask({ code: 'decide', name: 'Decision', form: 'Eligibility', team: 'Document review', days: '3' });
    await addTask({ code: 'pay', name: 'Payment', form: 'Payment approval', team: 'Payments', days: '1' });

    // Decision goes back to Review on reject; nothing links the tasks yet.
    await page.getByRole('button', { name: 'Edit: Decision' }).click();
    let dialog = page.getByRole('dialog', { name: 'Task: Decision' });
    await dialog.getByRole('radio', { name: 'Back to an earlier task' }).check();
    await choose(page, dialog, /^Back to/, 'Review');
    // The editor warns at once; the server will refuse it until Review leads to Decision.
    await dialog.getByText('Review does not come before this task yet').waitFor();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Saving the half-made draft: the server's problems show next to the tasks they name.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/The protocol has \d+ problem/).first().waitFor();
    const decisionRow = page.locator('li[data-task="decide"]');
    await decisionRow.getByText('No path from the start reaches this task').waitFor();
    await decisionRow.getByText(/A reject can only go back to an earlier task/).waitFor();
    await page.locator('li[data-task="pay"]').getByText('No path from the start reaches this task').waitFor();
    expect(page.url()).toMatch(/\/protocolos\/nuevo$/);

    // Review -> Decision.
    await page.getByRole('button', { name: 'Edit: Review' }).click();
    dialog = page.getByRole('dialog', { name: 'Task: Review' });
    await dialog.getByRole('button', { name: 'Add next task' }).click();
    await choose(page, dialog, 'Next task 1', 'Decision');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The live check clears what is fixed: Decision is reachable now.
    await decisionRow.getByText('No path from the start reaches this task').waitFor({ state: 'detached' });

    // Decision -> Payment only when eligible; the condition is checked as it is typed.
    await page.getByRole('button', { name: 'Edit: Decision' }).click();
    dialog = page.getByRole('dialog', { name: 'Task: Decision' });
    await dialog.getByRole('button', { name: 'Add next task' }).click();
    await choose(page, dialog, 'Next task 1', 'Payment');
    const condition = dialog.getByRole('textbox', { name: 'Condition (optional)' });
    await condition.fill("eligible == 'yes");
    await dialog.getByText('The condition is not valid at position 13').waitFor();
    await condition.fill("eligible == 'yes'");
    await dialog.getByText(/not valid at position/).waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The graph follows the draft: three tasks, "Not eligible", the condition on its edge.
    const graph = page.getByRole('figure', { name: /Graph of the protocol with 3 task/ });
    await graph.locator('.react-flow__node').nth(3).waitFor();
    expect(await graph.locator('.react-flow__node').count()).toBe(4);
    await graph.locator('.react-flow__edge-text').filter({ hasText: "eligible == 'yes'" }).waitFor();
    // Accept: Review -> Decision, Decision -> Payment; reject: Decision -> Review, Review and Payment -> Not eligible.
    expect(await graph.locator('.react-flow__edge').count()).toBe(5);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Changes saved successfully');
    await page.waitForURL(/\/protocolos\/\d+$/);
    await page.getByText('Not published yet: no case can start with this protocol until it is published.').waitFor();

    await page.getByRole('button', { name: 'Publish' }).click();
    const confirm = page.getByRole('dialog', { name: 'Publish this protocol?' });
    await confirm.getByText('New cases will use this version; running cases keep theirs.').waitFor();
    await confirm.getByRole('button', { name: 'Publish' }).click();
    await toast(page, 'Version 1 published');
    await page.getByRole('region', { name: 'Published versions' }).getByText('Version 1').waitFor();
    await page.getByText('Not published yet').waitFor({ state: 'detached' });

    // What the server holds is what was drawn.
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const saved = await getJson<{ publishedVersion: number; definition: { start: string[]; tasks: Array<{ code: string; onAccept: unknown[]; onReject: unknown }> } }>(ctx.request, `/api/protocols/${id}`);
    expect(saved.publishedVersion).toBe(1);
    expect(saved.definition.start).toEqual(['review']);
    expect(saved.definition.tasks.map((t) => [t.code, t.onAccept, t.onReject])).toEqual([
      ['review', [{ to: 'decide' }], { notEligible: true }],
      ['decide', [{ to: 'pay', when: "eligible == 'yes'" }], { to: 'review' }],
      ['pay', [], { notEligible: true }],
    ]);

    // The list offers it, published; its export is one JSON file with the protocol and its forms.
    await page.goto('/protocolos');
    await page.getByRole('searchbox', { name: 'Search protocols' }).fill(code);
    const row = page.getByRole('row').filter({ hasText: code });
    await row.getByText('Version 1').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /^Export:/ }).click()]);
    expect(download.suggestedFilename()).toBe(`protocol-${code}.json`);
    const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as { format: string; protocol: { code: string }; forms: unknown[] };
    expect(exported.format).toBe('casebook-protocol');
    expect(exported.protocol.code).toBe(code);
    expect(exported.forms).toHaveLength(4);

    // Importing it into the same tenant is refused (the code is taken), and nothing is half-imported.
    const formsBefore = (await getJson<{ total: number }>(ctx.request, '/api/forms?limit=1')).total;
    await page.locator('input[type="file"]').setInputFiles(await download.path());
    const refused = page.getByRole('dialog', { name: 'The import was refused' });
    await refused.getByText(/Nothing from .* was imported/).waitFor();
    await refused.getByText(/already exists/).waitFor();
    await refused.getByRole('button', { name: 'Close' }).click();
    expect((await getJson<{ total: number }>(ctx.request, '/api/forms?limit=1')).total).toBe(formsBefore);
    await ctx.close();
  });
});

describe('a case flows through the demo protocol by accept and reject', () => {
  it('accept in /pendings (es), next task for Document review, reject back with a reason, the reason in /pendings', { timeout: 180_000 }, async () => {
    // An intake task of a demo case waiting for the reviewer, never sent back before.
    const reviewerCtx = await newContext(browser, 'es');
    const reviewer = await reviewerCtx.newPage();
    await signIn(reviewer, 'reviewer@demo.test');
    const mine = await getJson<{ items: TaskRow[] }>(reviewerCtx.request, '/api/tasks/pending?limit=100');
    const candidates = mine.items.filter((t) => t.code === 'intake' && t.state === 'PENDING' && t.responsibleName === 'Rafael Reviewer');
    let intake: TaskRow | undefined;
    for (const candidate of candidates) {
      const detail = await getJson<{ reason: string | null }>(reviewerCtx.request, `/api/tasks/${candidate.id}`);
      if (!detail.reason) {
        intake = candidate;
        break;
      }
    }
    if (!intake) throw new Error('the demo has no fresh intake task for the reviewer');
    const caseNumber = intake.caseNumber;

    // The reviewer, in Spanish: /pendings, open it, fill the form, accept. Task names are the protocol's Spanish ones
    // (the coordinator, in English, reads the English ones).
    await reviewer.goto('/pendings');
    await reviewer.getByRole('heading', { level: 1, name: 'Mis pendientes' }).waitFor();
    await reviewer.getByRole('searchbox', { name: 'Buscar por tarea o número de radicación' }).fill(caseNumber);
    const table = reviewer.getByRole('table', { name: 'Mis pendientes' });
    for (const header of ['Número de radicación', 'Tarea', 'Responsable', 'Fecha de vencimiento', 'Posible duplicado', 'Requiere ingresos', 'Asistencia Sección 8', 'Tercero', 'Acciones']) {
      await table.getByRole('columnheader', { name: header }).waitFor();
    }
    await table.getByRole('link', { name: `Abrir: Revisión de ingreso ${caseNumber}` }).click();
    await reviewer.waitForURL(`**/tasks/${intake.id}`);
    await reviewer.getByRole('region', { name: 'Caso' }).getByText(caseNumber).waitFor();
    await reviewer.getByRole('radio', { name: 'Sí' }).check();
    await reviewer.getByRole('toolbar', { name: 'Decisiones' }).getByRole('button', { name: 'Aceptar' }).click();
    const confirm = reviewer.getByRole('dialog', { name: '¿Aceptar la tarea?' });
    await confirm.getByText(/El caso sigue a: Verificación de documentos/).waitFor();
    await confirm.getByRole('button', { name: 'Aceptar' }).click();
    await toast(reviewer, 'Tarea Revisión de ingreso aceptada');
    await reviewer.getByRole('toolbar', { name: 'Decisiones' }).getByRole('button', { name: 'Aceptar' }).waitFor({ state: 'detached' });
    await reviewer.getByText('Aceptada', { exact: true }).first().waitFor();
    // The button that had the focus is gone with the decision: the focus is on the page's heading, not lost on the body.
    await expect.poll(() => focusedElement(reviewer)).toEqual({ tag: 'H1', text: 'Revisión de ingreso' });

    // The next task appears on the case's timeline, for the Document review team.
    await reviewer.getByRole('link', { name: 'Línea de tiempo del caso' }).click();
    await reviewer.waitForURL(`**/tasks/case/${intake.caseId}`);
    const timeline = reviewer.getByRole('list', { name: 'Tareas del caso, de la más antigua a la más reciente' });
    const documentsItem = timeline.getByRole('listitem').filter({ hasText: 'Verificación de documentos' });
    await documentsItem.getByText('Equipo Document review', { exact: false }).waitFor();
    await documentsItem.getByText('Pendiente', { exact: true }).waitFor();
    await reviewerCtx.close();

    // The coordinator rejects the documents task back to intake, with a reason.
    const coordinatorCtx = await newContext(browser, 'en');
    const coordinator = await coordinatorCtx.newPage();
    await signIn(coordinator, 'coordinator@demo.test');
    const open = await getJson<{ items: TaskRow[] }>(coordinatorCtx.request, `/api/tasks?caseId=${intake.caseId}&state=PENDING`);
    const documents = open.items.find((t) => t.code === 'documents');
    if (!documents) throw new Error('no documents task after the accept');
    expect(documents.teamName).toBe('Document review');
    await coordinator.goto(`/tasks/${documents.id}`);
    await coordinator.getByRole('heading', { level: 1, name: 'Document verification' }).waitFor();
    await coordinator.getByRole('toolbar', { name: 'Decisions' }).getByRole('button', { name: 'Reject' }).click();
    const reject = coordinator.getByRole('dialog', { name: 'Reject Document verification' });
    await reject.getByText('The case goes back to Intake review.').waitFor();
    await reject.getByRole('button', { name: 'Reject' }).click();
    await reject.getByText('This field is required').waitFor();
    const reason = `The lease is missing its signature page (${unique('r')}).`;
    await reject.getByRole('textbox', { name: 'Reason' }).fill(reason);
    await reject.getByRole('button', { name: 'Reject' }).click();
    await toast(coordinator, 'The case went back with your reason');
    await coordinator.getByText('Cancelled', { exact: true }).first().waitFor();

    // Who got the intake task back (the Intake team's next member), by email.
    const back = (await getJson<{ items: TaskRow[] }>(coordinatorCtx.request, `/api/tasks?caseId=${intake.caseId}&state=PENDING`)).items.find((t) => t.code === 'intake');
    if (!back?.responsibleId) throw new Error('the intake task did not come back to someone');
    const members = await getJson<{ items: Array<{ userId: number; userEmail: string }> }>(coordinatorCtx.request, `/api/team-members?teamId=${back.teamId}&limit=100`);
    const email = members.items.find((m) => m.userId === back.responsibleId)?.userEmail;
    if (!email) throw new Error('the responsible is not in the team');
    await coordinatorCtx.close();

    // They find it in their /pendings (Spanish) with the reason.
    const ownerCtx = await newContext(browser, 'es');
    const owner = await ownerCtx.newPage();
    await signIn(owner, email);
    await owner.goto('/pendings');
    await owner.getByRole('searchbox', { name: 'Buscar por tarea o número de radicación' }).fill(caseNumber);
    await owner.getByRole('link', { name: `Abrir: Revisión de ingreso ${caseNumber}` }).click();
    await owner.waitForURL(`**/tasks/${back.id}`);
    const returned = owner.getByRole('alert').filter({ hasText: 'Devuelta con este motivo:' });
    await returned.getByText(reason).waitFor();
    // The form keeps what the reviewer had filled.
    expect(await owner.getByRole('radio', { name: 'Sí' }).isChecked()).toBe(true);
    await ownerCtx.close();
  });
});
