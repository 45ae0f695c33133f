import ExcelJS from 'exceljs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, PHONE, signIn, unique } from './browser.js';

/**
 * Issue 19's "Done when", as a new coordinator tries it on the demo data
 * (six months of history): each of the five reports shows figures; status
 * by task pivoted by task and team; a cell drilled into lands on the task
 * list of exactly that many tasks; the Excel file's totals are the screen's;
 * the layout saved and found again after a reload. In Spanish on a phone:
 * the five reports in Spanish, nothing scrolls sideways.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const REPORTS = ['status-by-task', 'task-details', 'status-by-user', 'tracking-by-case', 'tracking-by-user'] as const;
type Kind = (typeof REPORTS)[number];

const TEXT = {
  en: {
    title: 'Reports',
    tabs: 'Report',
    names: { 'status-by-task': 'Status by task', 'task-details': 'Task details', 'status-by-user': 'Status by user', 'tracking-by-case': 'Tracking by case', 'tracking-by-user': 'Tracking by user' },
    descriptions: {
      'status-by-task': 'How many tasks of each protocol task are in each state.',
      'task-details': 'Every task with its application, responsible, team, dates, the days it took and its state.',
      'status-by-user': 'The tasks each person holds or decided, by state.',
      'tracking-by-case': 'Per application: its comments, its last action and the days it spent in each state.',
      'tracking-by-user': 'What each person did on the applications (accepted, rejected, commented...), with totals.',
    },
    /** The accessible name of what each report shows first: a pivot's table, or a list of rows. */
    shown: {
      'status-by-task': 'Status by task: Count by Task and State',
      'task-details': 'Task details: Rows',
      'status-by-user': 'Status by user: Count by Person and State',
      'tracking-by-case': 'Tracking by case: Rows',
      'tracking-by-user': 'Tracking by user: Rows',
    },
    grandTotal: /^([\d,]+): Grand total\. Open the list$/,
    ofTotal: /^\d[\d,]*–\d[\d,]* of (\d[\d,]*)$/,
  },
  es: {
    title: 'Reportes',
    tabs: 'Reporte',
    names: { 'status-by-task': 'Estado por tarea', 'task-details': 'Detalle de tareas', 'status-by-user': 'Estado por usuario', 'tracking-by-case': 'Seguimiento por caso', 'tracking-by-user': 'Seguimiento por usuario' },
    descriptions: {
      'status-by-task': 'Cuántas tareas de cada tarea del protocolo hay en cada estado.',
      'task-details': 'Cada tarea con su radicación, responsable, equipo, fechas, los días que tomó y su estado.',
      'status-by-user': 'Las tareas que cada persona tiene o decidió, por estado.',
      'tracking-by-case': 'Por radicación: sus comentarios, su última acción y los días que pasó en cada estado.',
      'tracking-by-user': 'Lo que cada persona hizo en las radicaciones (aceptó, rechazó, comentó...), con totales.',
    },
    shown: {
      'status-by-task': 'Estado por tarea: Cantidad por Tarea y Estado',
      'task-details': 'Detalle de tareas: Filas',
      'status-by-user': 'Estado por usuario: Cantidad por Persona y Estado',
      'tracking-by-case': 'Seguimiento por caso: Filas',
      'tracking-by-user': 'Seguimiento por usuario: Filas',
    },
    grandTotal: /^([\d.]+): Total general\. Abrir la lista$/,
    ofTotal: /^\d[\d.]*–\d[\d.]* de (\d[\d.]*)$/,
  },
} as const;

/** "1,234" or "1.234" as a number (the figures here are counts). */
const figure = (text: string) => Number(text.replace(/\D/g, ''));

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Opens one report by its tab, as a person would, and waits until its tab is the selected one. */
async function openReport(page: Page, lang: 'en' | 'es', kind: Kind) {
  const tab = page.getByRole('tablist', { name: TEXT[lang].tabs }).getByRole('tab', { name: TEXT[lang].names[kind], exact: true });
  await tab.click();
  await page.waitForURL((url) => url.searchParams.get('report') === kind || (kind === REPORTS[0] && !url.searchParams.has('report')));
  await tab.and(page.locator('[aria-selected="true"]')).waitFor();
  return page.getByRole('tabpanel');
}

/** What a report shows first, loaded: a pivot's table with its grand total, or a list's rows with their count. Returns that figure. */
async function shownFigure(page: Page, panel: Locator, lang: 'en' | 'es', kind: Kind): Promise<number> {
  const x = TEXT[lang];
  const name = x.shown[kind];
  await panel.getByText(x.descriptions[kind], { exact: true }).waitFor();
  if (name.endsWith(lang === 'en' ? ': Rows' : ': Filas')) {
    // A wide screen shows a table; a phone shows the rows as cards, a list of the same name.
    const rows = panel.getByRole('table', { name, exact: true }).or(panel.getByRole('list', { name, exact: true }));
    // Every row links to its application: one there means the page has come.
    await rows.getByRole('link').first().waitFor();
    await panel.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
    const range = panel.getByText(x.ofTotal);
    await range.waitFor();
    return figure(x.ofTotal.exec((await range.textContent()) ?? '')?.[1] ?? '');
  }
  const table = panel.getByRole('table', { name, exact: true });
  const grand = table.getByRole('link', { name: x.grandTotal });
  await grand.waitFor();
  return figure((await grand.textContent()) ?? '');
}

/** Picks `option` in the select `name` (MUI's combobox and its listbox). */
async function choose(page: Page, scope: Locator, name: string, option: string) {
  await scope.getByRole('combobox', { name, exact: true }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

describe('/reportes', () => {
  it('en: the five reports show figures; status by task by team drills into the task list, downloads as Excel with the same totals, and its layout is saved', { timeout: 120_000 }, async () => {
    const x = TEXT.en;
    const ctx = await newContext(browser, 'en');
    const page = await ctx.newPage();
    await signIn(page, 'coordinator@demo.test');
    await page.goto('/reportes');
    await page.getByRole('heading', { level: 1, name: x.title }).waitFor();
    expect(await page.getByRole('tablist', { name: x.tabs }).getByRole('tab').allTextContents()).toEqual(REPORTS.map((k) => x.names[k]));

    // Each report has something to show on six months of history. Left to right, from the second tab: the
    // tracking by case's rows and then the tracking by user's, one list after another.
    for (const kind of [...REPORTS.slice(1), REPORTS[0]]) {
      const panel = await openReport(page, 'en', kind);
      expect(await shownFigure(page, panel, 'en', kind), kind).toBeGreaterThan(0);
    }

    // Status by task, pivoted by task (rows) and team (columns).
    const panel = page.getByRole('tabpanel');
    const layout = panel.getByRole('group', { name: 'Layout of the pivot' });
    expect(await layout.getByRole('combobox', { name: 'Rows', exact: true }).textContent()).toBe('Task');
    await choose(page, layout, 'Columns', 'Team');
    await page.waitForURL((url) => url.searchParams.get('columns') === 'team');
    const table = panel.getByRole('table', { name: 'Status by task: Count by Task and Team', exact: true });
    const grandTotal = table.getByRole('link', { name: x.grandTotal });
    await grandTotal.waitFor();
    const total = figure((await grandTotal.textContent()) ?? '');
    expect(await table.getByRole('columnheader', { name: 'Intake', exact: true }).count()).toBe(1);

    // A cell of one task and one team (not a row's total): its figure and where it sits.
    const ofOneTeam = /^(?!.*, Total\. Open the list$).*\. Open the list$/;
    const row = table.getByRole('rowgroup').nth(1).getByRole('row').filter({ has: page.getByRole('link', { name: ofOneTeam }) }).first();
    const cell = row.getByRole('link', { name: ofOneTeam }).first();
    const cellName = (await cell.getAttribute('aria-label')) ?? '';
    const count = figure((await cell.textContent()) ?? '');
    const task = ((await row.getByRole('rowheader').textContent()) ?? '').trim();
    const prefix = `${await cell.textContent()}: ${task}, `;
    expect(cellName.startsWith(prefix), cellName).toBe(true);
    const team = cellName.slice(prefix.length, -'. Open the list'.length);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(total);

    // The cell opens the task list of that task and that team: exactly that many tasks.
    await cell.click();
    await page.waitForURL((url) => url.pathname === '/tasks' && url.searchParams.has('code') && url.searchParams.has('teamId'));
    await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
    await page.getByRole('button', { name: `Remove the condition “Task: ${task}”` }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Team', exact: true }).textContent()).toBe(team);
    const tasks = page.getByRole('table', { name: 'Tasks', exact: true });
    await tasks.getByRole('link').first().waitFor();
    const range = page.getByText(x.ofTotal);
    await range.waitFor();
    await page.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
    expect(figure(x.ofTotal.exec((await range.textContent()) ?? '')?.[1] ?? '')).toBe(count);

    // Back to the pivot as it was.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/reportes' && url.searchParams.get('columns') === 'team');
    await grandTotal.waitFor();
    expect(figure((await grandTotal.textContent()) ?? '')).toBe(total);

    // Downloaded as Excel: the file opens, its last row is the screen's totals row.
    const footer = table.getByRole('row').last();
    const screenTotals = (await footer.getByRole('cell').allTextContents()).map(figure);
    expect(((await footer.getByRole('rowheader').textContent()) ?? '').trim()).toBe('Total');
    expect(screenTotals.at(-1)).toBe(total);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Excel (.xlsx)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^status-by-task-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await file.path());
    const rows: unknown[][] = [];
    book.worksheets[0]?.eachRow({ includeEmpty: false }, (row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]?.[0]).toBe('Task \\ Team (Count)');
    expect(rows.at(-1)).toEqual(['Total', ...screenTotals]);
    await page.getByText('The report was downloaded').waitFor();

    // The layout saved under a name...
    const name = unique('Tasks by team ');
    await page.getByRole('button', { name: 'Saved reports', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Saved reports: Status by task' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('button', { name: 'Save this report' }).click();
    await page.getByText(`Saved as “${name}”`).waitFor();
    await dialog.getByRole('button', { name: new RegExp(`^${name}`) }).waitFor();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // ...is there when the page is loaded afresh (its default layout), and brings the layout back.
    await page.goto('/reportes');
    await panel.getByRole('table', { name: x.shown['status-by-task'], exact: true }).waitFor();
    await page.getByRole('button', { name: 'Saved reports', exact: true }).click();
    await dialog.getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.searchParams.get('columns') === 'team');
    await grandTotal.waitFor();
    expect(figure((await grandTotal.textContent()) ?? '')).toBe(total);
    await ctx.close();
  });

  it('es, on a phone: the five reports in Spanish, none scrolls sideways', { timeout: 90_000 }, async () => {
    const x = TEXT.es;
    const ctx = await newContext(browser, 'es', PHONE);
    const page = await ctx.newPage();
    await signIn(page, 'coordinator@demo.test');
    await page.goto('/reportes');
    await page.getByRole('heading', { level: 1, name: x.title }).waitFor();
    expect(await page.getByRole('tablist', { name: x.tabs }).getByRole('tab').allTextContents()).toEqual(REPORTS.map((k) => x.names[k]));
    await page.getByRole('button', { name: 'Reportes guardados' }).waitFor();
    await page.getByRole('button', { name: 'Descargar', exact: true }).waitFor();

    // What an untranslated screen would show (names of the data, such as the demo's teams, stay as they are).
    const english: string[] = [...Object.values(TEXT.en.names), 'Saved reports', 'Download', 'Layout of the pivot', 'Pivot', 'Rows per page', 'All protocols', 'All teams', 'All states'];
    for (const kind of REPORTS) {
      const panel = await openReport(page, 'es', kind);
      expect(await shownFigure(page, panel, 'es', kind), kind).toBeGreaterThan(0);
      const text = await page.locator('body').innerText();
      for (const words of english) expect(text, `${kind}: ${words}`).not.toContain(words);
      expect(await noSidewaysScroll(page), kind).toBe(true);
    }
    // The tasks of the protocol by their Spanish names.
    const panel = await openReport(page, 'es', 'status-by-task');
    await panel.getByRole('table', { name: x.shown['status-by-task'] }).getByRole('rowheader', { name: 'Revisión de ingreso', exact: true }).waitFor();
    await ctx.close();
  });
});
