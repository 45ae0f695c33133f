import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICANT_COLUMNS, APPLICANT_MAPPING, applicantsCsv } from '../support/applicants-csv.js';
import { baseUrl, DESKTOP, launchBrowser, newContext, PHONE, signIn, signedInContext, unique } from './browser.js';

/**
 * The case lists on the demo data, as staff use them: an advanced search on
 * a field of the application form that lives in the address (reload keeps
 * it), saved, exported to CSV; a 1,000-row CSV import with three bad rows;
 * the administration page; phones and axe.
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

async function seriousViolations(page: Page) {
  // Colours are measured after dialogs have faded in, with no button under the pointer.
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target} ${n.any[0]?.message ?? ''}`).join(' | ')}`);
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Picks `option` in the MUI select named `name` inside `scope`. */
async function choose(page: Page, scope: ReturnType<Page['locator']> | Page, name: string, option: string | RegExp) {
  await scope.getByRole('combobox', { name, exact: true }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

const TEXT = {
  en: {
    title: 'Applications', searchBox: 'Search by number, name or document', advanced: 'Advanced search', column: 'Column', operator: 'Operator', value: 'Value', rent: 'Monthly rent', lastName: 'Last name',
    equals: 'equals', startsWith: 'starts with', add: 'Add condition', search: 'Search', saved: 'Saved searches', name: 'Name of this search',
    save: 'Save current search', clear: 'Clear filters', close: 'Close', export: 'Export', csv: 'CSV (.csv)', downloaded: 'The export was downloaded',
    condition: (n: number) => `Condition ${n}`, open: (n: string) => `Open application ${n}`, savedAs: (n: string) => `Search saved as ${n}`,
  },
  es: {
    title: 'Radicaciones', searchBox: 'Buscar por número, nombre o documento', advanced: 'Búsqueda avanzada', column: 'Columna', operator: 'Operador', value: 'Valor', rent: 'Renta mensual', lastName: 'Apellidos',
    equals: 'es igual a', startsWith: 'empieza por', add: 'Agregar condición', search: 'Buscar', saved: 'Búsquedas guardadas', name: 'Nombre de esta búsqueda',
    save: 'Guardar la búsqueda actual', clear: 'Limpiar filtros', close: 'Cerrar', export: 'Exportar', csv: 'CSV (.csv)', downloaded: 'La exportación se descargó',
    condition: (n: number) => `Condición ${n}`, open: (n: string) => `Abrir la radicación ${n}`, savedAs: (n: string) => `Búsqueda guardada como ${n}`,
  },
} as const;

interface CaseRow {
  id: number;
  number: string;
  applicant: string;
}

// One language each: the journeys are the same in both, and the translations are checked by the web tests.
describe('/cases: advanced search on a form field, in the address, saved and exported', () => {
  it.each(['en'] as const)('%s', { timeout: 180_000 }, async (lang) => {
    const x = TEXT[lang];
    const ctx = await newContext(browser, lang);
    const page = await ctx.newPage();
    await signIn(page, 'coordinator@demo.test');
    // The demo's José Rodríguez pays 1,200 a month.
    const jose = (await getJson<{ items: CaseRow[] }>(ctx.request, '/api/cases?search=Rodr%C3%ADguez&limit=100')).items.find((c) => c.applicant === 'José Rodríguez');
    if (!jose) throw new Error('the demo lacks José Rodríguez');

    await page.goto('/cases');
    await page.getByRole('heading', { level: 1, name: x.title }).waitFor();
    const table = page.getByRole('table', { name: x.title });
    await table.getByRole('link').first().waitFor();

    // The search box: a full name, typed without its accents, finds José.
    const searchBox = page.getByRole('searchbox', { name: x.searchBox });
    await searchBox.fill('jose rodriguez');
    await page.waitForURL((url) => url.searchParams.get('search') === 'jose rodriguez');
    await table.getByRole('link', { name: x.open(jose.number) }).waitFor();
    const named = (await getJson<{ total: number }>(ctx.request, '/api/cases/count?search=jose%20rodriguez')).total;
    await expect.poll(() => table.getByRole('link').count()).toBe(named);
    await searchBox.fill('');
    await page.waitForURL((url) => !url.searchParams.get('search'));

    await page.getByRole('button', { name: x.advanced }).click();
    const first = page.getByRole('group', { name: x.condition(1) });
    await choose(page, first, x.column, x.rent);
    await choose(page, first, x.operator, x.equals);
    await first.getByRole('spinbutton', { name: x.value }).fill('1200');
    await page.getByRole('button', { name: x.add }).click();
    const second = page.getByRole('group', { name: x.condition(2) });
    await choose(page, second, x.column, x.lastName);
    await choose(page, second, x.operator, x.startsWith);
    await second.getByRole('textbox', { name: x.value }).fill('Rodr');
    await page.getByRole('button', { name: x.search, exact: true }).click();

    // One row: José's. The address holds the search.
    await page.waitForURL((url) => url.searchParams.has('filters'));
    const filters = JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '[]');
    expect(filters).toEqual([
      ['data.payRent', 'eq', '1200'],
      ['data.lastName', 'startsWith', 'Rodr'],
    ]);
    const joseLink = table.getByRole('link', { name: x.open(jose.number) });
    await joseLink.waitFor();
    await expect.poll(() => table.getByRole('link').count()).toBe(1);

    // A reload (or a shared link) gives the same list and the same rows of the search.
    await page.reload();
    await joseLink.waitFor();
    await expect.poll(() => table.getByRole('link').count()).toBe(1);
    expect(await page.getByRole('group', { name: x.condition(1) }).getByRole('spinbutton', { name: x.value }).inputValue()).toBe('1200');
    expect(await page.getByRole('group', { name: x.condition(2) }).getByRole('textbox', { name: x.value }).inputValue()).toBe('Rodr');

    // Saved, then applied again after clearing.
    const name = unique(lang === 'en' ? 'Rent 1200 ' : 'Renta 1200 ');
    await page.getByRole('button', { name: x.saved }).click();
    const dialog = page.getByRole('dialog', { name: x.saved });
    await dialog.getByRole('textbox', { name: x.name }).fill(name);
    await dialog.getByRole('button', { name: x.save }).click();
    await page.getByText(x.savedAs(name)).waitFor();
    await dialog.getByRole('button', { name: new RegExp(`^${name}`) }).waitFor();
    await dialog.getByRole('button', { name: x.close, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: x.clear }).click();
    await page.waitForURL((url) => !url.searchParams.has('filters'));
    await expect.poll(() => table.getByRole('link').count()).toBeGreaterThan(1);
    await page.getByRole('button', { name: x.saved }).click();
    await dialog.getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await page.waitForURL((url) => url.searchParams.has('filters'));
    await joseLink.waitFor();
    await expect.poll(() => table.getByRole('link').count()).toBe(1);

    // Export of the current result: the CSV holds exactly that row.
    await page.getByRole('button', { name: x.export }).click();
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('menuitem', { name: x.csv }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^cases-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile(await file.path())).toString('utf8').replace(/^\uFEFF/, '');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^number,state,protocol,applicant/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(jose.number);
    expect(lines[1]).toContain('José Rodríguez');
    await page.getByText(x.downloaded).waitFor();
    await ctx.close();
  });
});

const IMPORT_TEXT = {
  en: {
    title: 'Applications', import: 'Import', dialog: 'Import applications from CSV or Excel', rows: 'applicants.csv: rows to import: 1000', ref: 'Reference column',
    refHelp: /importing the same file again creates nothing twice/, fieldFor: (c: string) => `Field for the column ${c}`, ignore: 'Ignore', check: 'Check the file',
    ready: (n: number | string) => `Rows ready to import: ${n}`, readyAny: /^Rows ready to import: \d+$/, bad: 'Rows with errors (will not be imported): 3',
    badTable: 'Rows with errors: 3', required: 'This field is required', email: 'Invalid email address', run: (n: number) => `Import ${n} rows`,
    progress: 'Import progress', progressText: /^[\d,]+ of 1,000 rows/, created: 'Applications created: 997', failed: 'Rows rejected: 3', download: 'Download rejected rows', fixedRows: 'applicants-fixed.csv: rows to import: 3',
    failedTable: 'Rows not imported: 3', close: 'Close', known: 'Rows imported before (will be skipped): 997', cancel: 'Cancel',
  },
  es: {
    title: 'Radicaciones', import: 'Importar', dialog: 'Importar radicaciones desde CSV o Excel', rows: 'applicants.csv: filas por importar: 1000', ref: 'Columna de referencia',
    refHelp: /importar de nuevo el mismo archivo no crea nada dos veces/, fieldFor: (c: string) => `Campo para la columna ${c}`, ignore: 'Ignorar', check: 'Revisar el archivo',
    ready: (n: number | string) => `Filas listas para importar: ${n}`, readyAny: /^Filas listas para importar: \d+$/, bad: 'Filas con errores (no se importarán): 3',
    badTable: 'Filas con errores: 3', required: 'Este campo es obligatorio', email: 'Correo electrónico no válido', run: (n: number) => `Importar ${n} filas`,
    progress: 'Avance de la importación', progressText: /^[\d.]+ de 1\.000 filas/, created: 'Radicaciones creadas: 997', failed: 'Filas rechazadas: 3', download: 'Descargar filas rechazadas', fixedRows: 'applicants-fixed.csv: filas por importar: 3',
    failedTable: 'Filas no importadas: 3', close: 'Cerrar', known: 'Filas ya importadas (se omitirán): 997', cancel: 'Cancelar',
  },
} as const;

describe('/cases: CSV import', () => {
  it.each(['es'] as const)('%s: 1,000 rows with three bad ones: the dry run names those three, the run imports 997 with a progress bar, the rejected rows download, again adds nothing, the fixed rows make it 1,000', { timeout: 420_000 }, async (lang) => {
    const x = IMPORT_TEXT[lang];
    const ctx = await newContext(browser, lang);
    const page = await ctx.newPage();
    await signIn(page, 'coordinator@demo.test');
    // The columns are the form's own fields (a repeat group's first row as group.field).
    const { protocols } = await getJson<{ protocols: Array<{ name: string; fields: Array<{ name: string }> }> }>(ctx.request, '/api/cases/search-fields');
    const formFields = protocols.find((p) => p.name === 'Rental assistance')?.fields.map((f) => f.name) ?? [];
    for (const column of APPLICANT_COLUMNS.filter((c) => !c.includes('.'))) expect(formFields, column).toContain(column);
    const run = unique(`e2e${lang}`).replace(/[^A-Za-z0-9]/g, '').slice(0, 12);
    const buffer = Buffer.from(applicantsCsv(run, 1000, [10, 500, 999]), 'utf8');
    const imported = async () => (await getJson<{ total: number }>(ctx.request, `/api/cases?search=${run}&limit=1`)).total;

    await page.goto('/cases');
    await page.getByRole('heading', { level: 1, name: x.title }).waitFor();
    const upload = async () => {
      await page.getByRole('button', { name: x.import, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: x.dialog });
      await dialog.locator('input[type="file"]').setInputFiles({ name: 'applicants.csv', mimeType: 'text/csv', buffer });
      await dialog.getByText(x.rows).waitFor();
      // The reference column is named, and explained.
      expect(await dialog.getByRole('combobox', { name: x.ref }).textContent()).toBe('ref');
      await dialog.getByText(x.refHelp).waitFor();
      for (const column of ['firstName', 'payRent', 'householdInformation.age']) {
        expect(await dialog.getByRole('combobox', { name: x.fieldFor(column) }).textContent(), column).not.toBe(x.ignore);
      }
      await dialog.getByRole('button', { name: x.check }).click();
      await dialog.getByText(x.readyAny).waitFor({ timeout: 60_000 });
      return dialog;
    };

    const dialog = await upload();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByText(x.ready(997)).waitFor();
    await dialog.getByText(x.bad).waitFor();
    const errors = dialog.getByRole('table', { name: x.badTable });
    const lines = (await errors.locator('tbody tr td:first-child').allTextContents()).map(Number);
    expect([...new Set(lines)]).toEqual([11, 501, 1000]);
    await errors.getByText(x.required).first().waitFor();
    await errors.getByText(x.email).first().waitFor();
    expect(await imported()).toBe(0);

    // The run, in the background, with a progress bar.
    await dialog.getByRole('button', { name: x.run(997) }).click();
    // 1,000 rows take a second or two: the bar and its text (rows, rate, time left; ImportDialog.test.tsx) may be
    // gone before a look at them, so the journey waits for the report.
    await dialog.getByText(x.created).waitFor({ timeout: 300_000 });
    await dialog.getByText(x.failed).waitFor();
    const failed = (await dialog.getByRole('table', { name: x.failedTable }).locator('tbody tr td:first-child').allTextContents()).map(Number);
    expect([...new Set(failed)]).toEqual([11, 501, 1000]);
    expect(await seriousViolations(page)).toEqual([]);
    // The rejected rows come back as a file: the file's columns, the line and the reasons.
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: x.download }).click()]);
    const rejected = (await readFile(await download.path())).toString('utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rejected).toHaveLength(4);
    expect(rejected.slice(1).map((l) => l.split(',')[0])).toEqual([`${run}-10`, `${run}-500`, `${run}-999`]);
    await dialog.getByRole('button', { name: x.close, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await imported()).toBe(997);

    // The same file again: every good row is known already; nothing to import.
    const again = await upload();
    await again.getByText(x.ready(0)).waitFor();
    await again.getByText(x.known).waitFor();
    await again.getByText(x.bad).waitFor();
    expect(await again.getByRole('button', { name: x.run(0) }).isDisabled()).toBe(true);
    await again.getByRole('button', { name: x.cancel }).click();
    expect(await imported()).toBe(997);

    // The three rows fixed (as a person would in the downloaded file) and imported: exactly 1,000.
    const fixed = applicantsCsv(run, 1000, []).split('\r\n').filter((l, i) => i === 0 || [`${run}-10,`, `${run}-500,`, `${run}-999,`].some((p) => l.startsWith(p)));
    await page.getByRole('button', { name: x.import, exact: true }).click();
    const last = page.getByRole('dialog', { name: x.dialog });
    await last.locator('input[type="file"]').setInputFiles({ name: 'applicants-fixed.csv', mimeType: 'text/csv', buffer: Buffer.from(`${fixed.join('\r\n')}\r\n`, 'utf8') });
    await last.getByText(x.fixedRows).waitFor();
    await last.getByRole('button', { name: x.check }).click();
    await last.getByText(x.ready(3)).waitFor({ timeout: 60_000 });
    await last.getByRole('button', { name: x.run(3) }).click();
    await last.getByText(x.created.replace('997', '3')).waitFor({ timeout: 120_000 });
    await last.getByRole('button', { name: x.close, exact: true }).click();
    expect(await imported()).toBe(1000);
    await ctx.close();
  });
});

describe('/admin-cases', () => {
  it('closes a case in bulk after a confirmation that says it cannot be undone, and reports each case', { timeout: 120_000 }, async () => {
    const ctx = await signedInContext(browser, 'coordinator@demo.test', 'es');
    const page = await ctx.newPage();
    // A pending case of its own (imported through the API), so that no other journey's demo case is closed under it.
    const run = unique('close').replace(/[^A-Za-z0-9]/g, '').slice(0, 12);
    const { items: protocols } = await getJson<{ items: Array<{ id: number; code: string }> }>(ctx.request, '/api/protocols?search=rental-assistance');
    const protocolId = protocols.find((p) => p.code === 'rental-assistance')?.id as number;
    const up = await ctx.request.post(`${baseUrl()}/api/cases/imports?protocolId=${protocolId}&fileName=one.csv`, { headers: { 'content-type': 'text/csv' }, data: Buffer.from(applicantsCsv(run, 1, []), 'utf8') });
    const job = (await up.json()) as { id: number };
    expect((await ctx.request.post(`${baseUrl()}/api/cases/imports/${job.id}/run`, { data: APPLICANT_MAPPING })).status()).toBe(202);
    // Until the import has ended and its case is listed, found by its document number (`${run}1`, applicantsCsv): a
    // word with a digit is looked up in document numbers, one of letters only in names (textSearch.ts), and `run` may be
    // letters only.
    let pending: CaseRow | undefined;
    let state: { status: string; created: number; skipped: number; failed: number; errors: unknown[] } | undefined;
    for (let i = 0; i < 100 && !pending; i++) {
      state = await getJson<NonNullable<typeof state>>(ctx.request, `/api/cases/imports/${job.id}`);
      if (state.status === 'done') pending = (await getJson<{ items: CaseRow[] }>(ctx.request, `/api/cases?search=${run}1&limit=1`)).items[0];
      if (!pending) await new Promise((r) => setTimeout(r, 200));
    }
    if (!pending) throw new Error(`no pending case for ${run}: import ${JSON.stringify(state)}`);
    await page.goto(`/admin-cases?search=${encodeURIComponent(pending.number)}`);
    await page.getByRole('heading', { level: 1, name: 'Administración de radicaciones' }).waitFor();
    const table = page.getByRole('table', { name: 'Administración de radicaciones' });
    await table.getByRole('checkbox', { name: `Seleccionar la radicación ${pending.number}` }).check();
    await page.getByText('Seleccionadas: 1').waitFor();
    await page.getByRole('toolbar', { name: 'Radicaciones seleccionadas' }).getByRole('button', { name: 'Cerrar radicaciones' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cerrar radicaciones' });
    await confirm.getByText('Una vez hecho no se puede cambiar: no se puede deshacer.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('textbox', { name: 'Motivo (opcional)' }).fill('Prueba de extremo a extremo');
    await confirm.getByRole('button', { name: 'Cerrar radicaciones' }).click();
    const report = page.getByRole('dialog', { name: 'Cerrar radicaciones' }).filter({ hasText: 'Hechas: 1' });
    await report.getByRole('list', { name: 'Resultado de cada radicación' }).getByText(`${pending.number} · ${pending.applicant}`).waitFor();
    await report.getByRole('button', { name: 'Cerrar', exact: true }).click();
    expect((await getJson<{ state: string }>(ctx.request, `/api/cases/${pending.id}`)).state).toBe('CLOSED');
    await ctx.close();
  });
});

describe('phones and accessibility', () => {
  const advanced = encodeURIComponent(JSON.stringify([['data.payRent', 'gt', '1000'], ['state', 'in', ['PENDING', 'SUCCESS']]]));
  const PATHS = ['/cases', `/cases?filters=${advanced}&possibleDuplicated=false`, '/admin-cases'];
  it.each([
    ['en', DESKTOP],
    ['es', PHONE],
  ] as const)('%s: no sideways scrolling, no serious or critical violation', { timeout: 120_000 }, async (lang, viewport) => {
    const ctx = await signedInContext(browser, 'coordinator@demo.test', lang, viewport);
    const page = await ctx.newPage();
    for (const path of PATHS) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
      expect(await noSidewaysScroll(page), path).toBe(true);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    // The saved searches and the export menu, open.
    await page.goto('/cases');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('button', { name: lang === 'en' ? 'Saved searches' : 'Búsquedas guardadas' }).click();
    await page.getByRole('dialog').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page), 'saved searches').toEqual([]);
    expect(await noSidewaysScroll(page)).toBe(true);
    await ctx.close();
  });
});

describe('/cases: a date typed into a filter by keyboard', () => {
  it.each([
    ['en', 'From'],
    ['es', 'Desde'],
  ] as const)('%s: 01022026 typed digit by digit, slowly, filters once by the whole date', { timeout: 120_000 }, async (lang, label) => {
    const ctx = await signedInContext(browser, 'coordinator@demo.test', lang);
    const page = await ctx.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/cases' && url.searchParams.has('from')) asked.push(url.searchParams.get('from') ?? '');
    });
    await page.goto('/cases');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const table = page.getByRole('table', { name: lang === 'en' ? 'Applications' : 'Radicaciones' });
    await table.getByRole('link').first().waitFor();

    // From the search box, Tab to the date and type it, a key every quarter of a second.
    const from = page.getByLabel(label, { exact: true });
    await page.getByRole('searchbox').focus();
    for (let i = 0; i < 10 && !(await from.evaluate((input) => input === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect.poll(() => from.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type('01022026', { delay: 250 });

    // January 2 (month first) or February 1 (day first), as the browser orders the date's parts.
    const whole = ['2026-01-02', '2026-02-01'];
    await page.waitForURL((url) => whole.includes(url.searchParams.get('from') ?? ''));
    const date = new URL(page.url()).searchParams.get('from');
    expect(await from.inputValue()).toBe(date);
    // One list for the whole date, none for the digits on the way (0002-01-02, 0020-01-02...).
    await expect.poll(() => asked).toContain(date);
    expect(new Set(asked)).toEqual(new Set([date]));
    await table.getByRole('link').first().waitFor();
    await ctx.close();
  });
});
