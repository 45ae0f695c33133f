import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../web/src/i18n/en.json' with { type: 'json' };
import es from '../../web/src/i18n/es.json' with { type: 'json' };
import { freePort, type ServerProcess, startServer } from '../support/server-process.js';
import { type ReceivedMail, startSmtp } from '../support/smtp.js';
import { DEMO_PASSWORD, DESKTOP, launchBrowser, newContext, PHONE, signIn, unique } from './browser.js';

/**
 * Issue 23's "Done when", as people do it. The applicant names a landlord in
 * the application's "Your landlord" field and submits; the landlord gets the
 * invitation over SMTP on loopback, creates an account from the link (the
 * sign-up filled with the name and email the applicant gave), accepts, fills
 * the landlord form with a rent ledger and a W-9, gives direct-deposit
 * details (a routing number failing its checksum is said at once) and signs.
 * Staff see the party's part on the case page and set the award on the
 * Payment approval task; a second application for the same unit and months
 * is flagged there. The coordinator enters the ACH settings, builds a
 * payment batch, downloads the NACHA file (read back here: the file control
 * record has the batch's entries and total) and marks it paid; the payee
 * report lists the landlord. The landlord's pages in Spanish on a phone; the
 * landlord reaches none of another tenant's applications. Mail is needed, so
 * this journey runs its own instance with a loopback SMTP server (as
 * agency-onboarding.e2e.ts); the exhaustive cases are the API tests of
 * server/modules/parties and server/modules/payments.
 */
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: ServerProcess;
let dataDir: string;
let base: string;

beforeAll(async () => {
  smtp = await startSmtp();
  dataDir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'casebook-landlords-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = startServer({ DATA_DIR: dataDir, PORT: String(port), SMTP_URL: smtp.url, PUBLIC_URL: base, DEMO_HISTORY: 'off' });
  await server.waitFor(/is running at/, 120_000);
  browser = await launchBrowser();
}, 150_000);

afterAll(async () => {
  await browser?.close();
  if (server) {
    server.proc.kill('SIGTERM');
    await server.exited;
  }
  await smtp?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- helpers

const INVITATION_LINK = /https?:\/\/\S+\/partes\/invitacion\/[A-Za-z0-9_-]{43}/;

/** The first mail to `to` whose text matches `pattern`, as the loopback SMTP server received it. */
async function mailFor(to: string, pattern: RegExp, timeoutMs = 30_000): Promise<ReceivedMail> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const mail = smtp.mails.find((m) => m.to.includes(to) && (pattern.test(m.text) || pattern.test(m.subject)));
    if (mail) return mail;
    if (Date.now() > end) throw new Error(`no mail to ${to} matching ${pattern} within ${timeoutMs} ms (got ${smtp.mails.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none'})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A one-page PDF with a line of text, made here (the rent ledger, the W-9). */
async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 120]);
  page.drawText(text, { x: 20, y: 60, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) <= window.innerWidth);
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first().waitFor();

async function json<T>(request: APIRequestContext, method: 'get' | 'post' | 'put', url: string, data?: object): Promise<T> {
  const res = await request[method](`${base}${url}`, data === undefined ? undefined : { data });
  if (!res.ok()) throw new Error(`${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A context of its own, signed in through the API (for pages a step only visits, and API calls). */
async function signedIn(email: string, lang: 'en' | 'es' = 'en', viewport = DESKTOP, password = DEMO_PASSWORD): Promise<BrowserContext> {
  const ctx = await newContext(browser, lang, viewport, base);
  const res = await ctx.request.post(`${base}/api/auth/login`, { data: { email, password } });
  if (!res.ok()) throw new Error(`sign-in of ${email}: ${res.status()} ${await res.text()}`);
  return ctx;
}

/** YYYY-MM of `back` months before this one (UTC). */
function monthBack(back: number): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** An application of the demo's rental protocol, as its form takes it (a fresh document number: the duplicate check). */
const application = (firstName: string, lastName: string) => ({
  firstName,
  lastName,
  documentType: 'CC',
  documentNumber: String(Date.now()).slice(-10),
  email: `${unique(firstName.toLowerCase())}@example.org`,
  phone: '3005550142',
  departamento: '11',
  municipio: '11001',
  zipCode: '11001',
  payRent: 1250,
  householdInformation: [{ memberName: `${firstName} ${lastName}`, relationship: 'self', age: 38 }],
});

/** What the demo's staff fill in the protocol's task forms (server/db/seed/workflow.ts DEMO_DECISIONS). */
const DECISIONS: Record<string, object> = {
  intake: { complete: 'yes' },
  documents: { verified: ['lease', 'check_stubs'], allDocumentsOk: true },
  eligibility: { eligible: 'yes', amiPercent: 45 },
  landlord: { landlordName: 'Lena Lessor', landlordEmail: 'lena@example.org', leaseConfirmed: true },
};

type Timeline = { number: string | null; tasks: Array<{ id: number; code: string; state: string }> };
const OPEN = ['PENDING', 'UNASSIGNED', 'INCONSISTENCY'];

/** The open task of `code` of a case (waits for the engine to have made it). */
async function openTask(staff: APIRequestContext, caseId: number, code: string): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const timeline = await json<Timeline>(staff, 'get', `/api/cases/${caseId}/timeline`);
    const task = timeline.tasks.find((t) => t.code === code && OPEN.includes(t.state));
    if (task) return task.id;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`case ${caseId} has no open ${code} task`);
}

/** Staff accept the case's tasks of these codes, in order, through the API (as the task pages would). */
async function acceptTasks(staff: APIRequestContext, caseId: number, codes: string[]) {
  for (const code of codes) await json(staff, 'post', `/api/tasks/${await openTask(staff, caseId, code)}/accept`, { data: DECISIONS[code] });
}

// ---------------------------------------------------------------- what the steps share

const LANDLORD = { name: 'Lena Lessor', email: `${unique('lena')}@landlords.test`, phone: '3005550177', password: 'Lessor12345' };
const PROPERTY = { address: `${Math.floor(100 + Math.random() * 800)} Harbor Street ${unique('')}`, unit: '4B' };
const ARREARS = [monthBack(2), monthBack(1)];
const RENT = 1250;
const made = { caseId: 0, caseNumber: '', partyId: 0, secondCaseId: 0, batchNumber: 0, staffReady: Promise.resolve() as Promise<unknown> };

describe('landlords and payments, as people do them', () => {
  it(
    'en: the applicant names a landlord; the landlord gets the link by mail, signs up, accepts, fills their side with a rent ledger and a W-9, a checked routing number, and signs',
    { timeout: 120_000 },
    async () => {
      // 1. The applicant: the application's other steps through the API as a draft (they are other journeys'), then in
      // the browser its "Income and rent" step names the landlord, Check your answers, Submit.
      const applicantCtx = await newContext(browser, 'en', DESKTOP, base);
      const page = await applicantCtx.newPage();
      await signIn(page, 'applicant@demo.test');
      const options = await json<{ protocols: Array<{ id: number; code: string }> }>(applicantCtx.request, 'get', '/api/cases/new-options');
      const protocolId = (options.protocols.find((p) => p.code === 'rental-assistance') ?? options.protocols[0]).id;
      const draft = await json<{ id: number }>(applicantCtx.request, 'post', '/api/cases/drafts', { protocolId, data: application('Ana', 'Arrendataria') });
      await page.goto(`/cases/new?draft=${draft.id}`);
      const next = async (heading: RegExp) => {
        await page.getByRole('button', { name: en.forms.renderer.next, exact: true }).click();
        await page.getByRole('heading', { name: heading }).waitFor();
      };
      await page.getByRole('heading', { name: /^Step 1 of 4/ }).waitFor();
      await next(/^Step 2 of 4/);
      await next(/^Step 3 of 4: Income and rent/);
      const landlordField = page.getByRole('group', { name: /^Your landlord/ });
      await landlordField.getByRole('textbox', { name: en.parties.fields.name }).fill(LANDLORD.name);
      await landlordField.getByRole('textbox', { name: en.parties.fields.email }).fill(LANDLORD.email);
      await landlordField.getByRole('textbox', { name: en.parties.fields.phone }).fill(LANDLORD.phone);
      await next(/^Step 4 of 4/);
      await page.getByRole('button', { name: en.caseApply.check.continue, exact: true }).click();
      await page.getByText(en.caseApply.check.title).waitFor();
      await page.getByText(LANDLORD.email).first().waitFor();
      await page.getByRole('button', { name: en.caseApply.check.submit }).click();
      await page.getByText(en.caseApply.done.reference).waitFor();
      const submitted = await json<{ items: Array<{ id: number; number: string }> }>(applicantCtx.request, 'get', '/api/cases?limit=1');
      made.caseId = submitted.items[0].id;
      made.caseNumber = submitted.items[0].number;

      // Meanwhile staff do, through the API, what precedes the landlord's part on this case (intake, documents,
      // eligibility), and make a second application for the same unit (no landlord named) up to its Payment approval.
      made.staffReady = (async () => {
        const staff = await signedIn('coordinator@demo.test');
        const second = await json<{ id: number }>(applicantCtx.request, 'post', '/api/cases/drafts', { protocolId, data: application('Bea', 'Segunda') });
        made.secondCaseId = (await json<{ id: number }>(applicantCtx.request, 'post', `/api/cases/drafts/${second.id}/submit`, {})).id;
        await acceptTasks(staff.request, made.caseId, ['intake', 'documents', 'eligibility']);
        await acceptTasks(staff.request, made.secondCaseId, ['intake', 'documents', 'eligibility', 'landlord']);
        await staff.close();
        await applicantCtx.close();
      })();
      made.staffReady.catch(() => {});

      // 2. The landlord: the mailed link, in a browser of their own.
      const mail = await mailFor(LANDLORD.email, INVITATION_LINK);
      const link = (INVITATION_LINK.exec(mail.text) as RegExpExecArray)[0];
      expect(link.startsWith(`${base}/partes/invitacion/`)).toBe(true);
      const ctx = await newContext(browser, 'en', DESKTOP, base);
      const landlord = await ctx.newPage();
      await landlord.goto(link);
      await landlord.getByRole('heading', { level: 1, name: en.parties.invitation.heading.replace('{{name}}', 'Ana') }).waitFor();
      await landlord.getByText(made.caseNumber).waitFor();
      await landlord.getByRole('link', { name: en.parties.invitation.createAccount }).click();

      // The sign-up, filled with what the applicant gave; the captcha solved.
      await landlord.getByRole('heading', { name: en.signup.title }).waitFor();
      expect(await landlord.locator('input[name="name"]').inputValue()).toBe(LANDLORD.name);
      expect(await landlord.locator('input[name="email"]').inputValue()).toBe(LANDLORD.email);
      await landlord.locator('input[name="password"]').fill(LANDLORD.password);
      await landlord.locator('input[name="passwordConfirm"]').fill(LANDLORD.password);
      const widget = landlord.locator('altcha-widget');
      await widget.locator('input[type="checkbox"]').click({ force: true });
      await widget.locator('[data-state="verified"]').waitFor({ timeout: 30_000 });
      await landlord.getByRole('button', { name: en.signup.submit }).click();
      await landlord.getByRole('link', { name: en.signup.goToSignIn }).click();
      await landlord.waitForURL(/\/login/);
      await landlord.locator('input[name="email"]').fill(LANDLORD.email);
      await landlord.locator('input[name="password"]').fill(LANDLORD.password);
      await landlord.locator('form button[type="submit"]').click();

      // Back on the invitation: accept, and their side of the application opens.
      await landlord.waitForURL('**/partes/invitacion/**');
      await landlord.getByRole('button', { name: en.parties.invitation.accept }).click();
      await landlord.waitForURL(/\/partes\/\d+$/);
      made.partyId = Number(/\/partes\/(\d+)$/.exec(landlord.url())?.[1]);
      await landlord.getByRole('heading', { level: 1, name: en.parties.page.title.replace('{{number}}', made.caseNumber) }).waitFor();

      // The landlord form: the property, the rent, one month owed, the rent ledger and the W-9.
      const box = (label: string) => landlord.getByRole('textbox', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) });
      await box('Property address').fill(PROPERTY.address);
      await box('Apartment or unit').fill(PROPERTY.unit);
      await box('Monthly rent').fill(String(RENT));
      await landlord.getByRole('button', { name: en.forms.renderer.addRow }).click();
      const row = landlord.getByRole('dialog', { name: en.forms.renderer.addRowTitle.replace('{{group}}', 'Rent owed by month') });
      await row.getByRole('textbox', { name: /^Month \(YYYY-MM\)/ }).fill(ARREARS[0]);
      await row.getByRole('textbox', { name: /^Amount owed/ }).fill(String(RENT));
      await row.getByRole('button', { name: en.forms.renderer.addRowConfirm, exact: true }).click();
      await row.waitFor({ state: 'detached' });
      await landlord.locator('input[type="file"][name="rentLedger"]').setInputFiles({ name: 'rent-ledger.pdf', mimeType: 'application/pdf', buffer: await pdf('Rent ledger') });
      await landlord.getByRole('button', { name: en.forms.renderer.download.replace('{{name}}', 'rent-ledger.pdf') }).waitFor();
      await landlord.locator('input[type="file"][name="w9"]').setInputFiles({ name: 'w9.pdf', mimeType: 'application/pdf', buffer: await pdf('Form W-9') });
      await landlord.getByRole('button', { name: en.forms.renderer.download.replace('{{name}}', 'w9.pdf') }).waitFor();

      // Direct deposit: a routing number that fails the ABA checksum is said at once; a valid one is confirmed.
      expect(await landlord.getByRole('textbox', { name: new RegExp(`^${en.parties.page.payeeName}`) }).inputValue()).toBe(LANDLORD.name);
      await landlord.getByRole('textbox', { name: new RegExp(`^${en.parties.page.taxId.replace(/[()]/g, '\\$&')}`) }).fill('12-3456789');
      await landlord.getByRole('radio', { name: en.parties.page.methods.ach }).check();
      const routing = landlord.getByRole('textbox', { name: new RegExp(`^${en.parties.page.routingNumber}`) });
      await routing.fill('021000022');
      await landlord.getByText(en.payments.invalidRouting).waitFor();
      await routing.fill('021000021');
      await landlord.getByText(en.parties.page.routingOk).waitFor();
      expect(await landlord.getByText(en.payments.invalidRouting).count()).toBe(0);
      await landlord.getByRole('textbox', { name: new RegExp(`^${en.parties.page.accountNumber}`) }).first().fill('123456789');
      await landlord.getByRole('textbox', { name: new RegExp(`^${en.parties.page.accountConfirm}`) }).fill('123456789');
      await landlord.getByRole('radio', { name: en.parties.page.accountTypes.checking }).check();

      // The attestation: the typed name, today's date (filled), then Submit after the confirmation.
      await landlord.getByRole('textbox', { name: new RegExp(`^${en.parties.page.signName}`) }).fill(LANDLORD.name);
      await landlord.getByRole('button', { name: en.parties.page.submit, exact: true }).click();
      const confirm = landlord.getByRole('dialog', { name: en.parties.page.confirmTitle });
      await confirm.getByRole('button', { name: en.parties.page.confirm }).click();
      await toast(landlord, en.parties.page.sent);
      // Read back: submitted, signed, the account masked.
      await landlord.getByText('••••6789').first().waitFor();
      await landlord.getByText(en.parties.state.submitted).first().waitFor();
      await ctx.close();
    },
  );

  it(
    'en: staff see the landlord’s part on the case, set the award on Payment approval; a second application for the same unit and months is flagged',
    { timeout: 90_000 },
    async () => {
      expect(made.partyId).toBeGreaterThan(0);
      await made.staffReady;
      const ctx = await signedIn('coordinator@demo.test');
      const page = await ctx.newPage();

      // The case page's Parties panel: the landlord, submitted, their account, what they entered.
      await page.goto(`/cases/${made.caseId}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(made.caseNumber) }).waitFor();
      const parties = page.getByRole('region', { name: en.parties.panel.title });
      await parties.getByRole('heading', { name: `${en.parties.roleTitle.landlord}: ${LANDLORD.name}` }).waitFor();
      // Its state chip, and when they submitted.
      await parties.locator('.MuiChip-root').filter({ hasText: en.parties.state.submitted }).waitFor();
      await parties.getByRole('term').filter({ hasText: en.parties.panel.submitted }).waitFor();
      await parties.getByRole('button', { name: en.parties.panel.show }).click();
      await parties.getByText(PROPERTY.address).waitFor();

      // The landlord verification waited for them; now it goes through, and Payment approval is open.
      await acceptTasks(ctx.request, made.caseId, ['landlord']);
      const paymentTask = await openTask(ctx.request, made.caseId, 'payment');
      await page.goto(`/tasks/${paymentTask}`);
      await page.getByRole('heading', { level: 1, name: 'Payment approval' }).waitFor();
      await page.getByRole('textbox', { name: /^Amount to pay/ }).fill(String(RENT * ARREARS.length));
      await page.getByRole('combobox', { name: /^Payment method/ }).click();
      await page.getByRole('option', { name: 'Bank transfer (ACH)', exact: true }).click();

      // The award: the months owed, the rent, the landlord's address and unit; the total as it is typed.
      const award = page.getByRole('region', { name: en.payments.award.title, exact: true });
      const fillAward = async (months: string[]) => {
        for (const m of months) {
          await award.getByLabel(en.payments.award.month, { exact: true }).fill(m);
          await award.getByRole('button', { name: en.payments.award.addMonth }).click();
        }
        await award.getByRole('textbox', { name: new RegExp(`^${en.payments.award.monthlyRent}`) }).fill(String(RENT));
        await award.getByRole('textbox', { name: new RegExp(`^${en.payments.award.propertyAddress}`) }).fill(PROPERTY.address);
        await award.getByRole('textbox', { name: new RegExp(`^${en.payments.award.unit}`) }).fill(PROPERTY.unit);
      };
      await fillAward(ARREARS);
      const total = `$${(RENT * ARREARS.length).toLocaleString('en-US')}.00`;
      await award.getByText(en.payments.award.total.replace('{{total}}', total)).waitFor();
      await award.getByText(en.payments.award.noOverlaps).waitFor();
      await page.getByRole('toolbar', { name: en.tasks.decisions }).getByRole('button', { name: en.tasks.accept, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: en.tasks.acceptTitle });
      await dialog.getByText(en.payments.award.confirm.replace('{{total}}', total).replace('{{payee}}', en.payments.kind.landlord), { exact: false }).waitFor();
      await dialog.getByRole('button', { name: en.tasks.accept, exact: true }).click();
      await toast(page, 'Task Payment approval accepted');
      const set = await json<{ award: { total: number; months: string[]; state: string } }>(ctx.request, 'get', `/api/cases/${made.caseId}/award`);
      expect(set.award).toMatchObject({ total: RENT * ARREARS.length * 100, months: ARREARS, state: 'approved' });

      // The second application, same unit, an overlapping month: its award panel warns before anything is accepted.
      const second = await openTask(ctx.request, made.secondCaseId, 'payment');
      await page.goto(`/tasks/${second}`);
      await page.getByRole('heading', { level: 1, name: 'Payment approval' }).waitFor();
      await fillAward([ARREARS[1]]);
      const warning = award.getByRole('alert').filter({ hasText: en.payments.award.overlapsTitle_one.replace('{{count}}', '1') });
      await warning.waitFor();
      await warning.getByRole('link', { name: en.payments.award.application.replace('{{number}}', made.caseNumber) }).waitFor();
      expect(await warning.innerText()).toContain(en.payments.overlapReasons.same_unit);
      await ctx.close();
    },
  );

  it('en: the coordinator enters the ACH settings, builds a batch, downloads the NACHA file and marks it paid; the payee report lists the landlord', { timeout: 90_000 }, async () => {
    await made.staffReady;
    expect(made.caseId).toBeGreaterThan(0);
    const ctx = await signedIn('coordinator@demo.test');
    const page = await ctx.newPage();

    // The ACH settings (the demo has none without its history).
    await page.goto('/configuracion/pagos');
    await page.getByRole('heading', { level: 1, name: en.payments.ach.title }).waitFor();
    const ach = en.payments.ach.fields;
    const field = (label: string) => page.getByRole('textbox', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) });
    await field(ach.originatorName).fill('DEMO HOUSING');
    await field(ach.companyId).fill('1900100200');
    await field(ach.odfiRouting).fill('021000021');
    await field(ach.immediateDestination).fill('021000021');
    await field(ach.immediateDestinationName).fill('DEMO BANK');
    await field(`${ach.immediateOrigin}$`).fill('900100200');
    await field(ach.immediateOriginName).fill('DEMO HOUSING AGENCY');
    await page.getByRole('button', { name: en.common.save, exact: true }).click();
    await toast(page, en.payments.ach.saved);

    // A batch of what is approved, then its NACHA file.
    await page.goto('/pagos');
    await page.getByRole('heading', { level: 1, name: en.payments.batches.title }).waitFor();
    await page.getByRole('button', { name: en.payments.batches.new }).click();
    const newBatch = page.getByRole('dialog', { name: en.payments.batches.newTitle });
    await newBatch.getByRole('button', { name: en.payments.batches.create }).click();
    await page.waitForURL(/\/pagos\/\d+$/);
    const batchId = Number(/\/pagos\/(\d+)$/.exec(page.url())?.[1]);
    const batch = await json<{ number: number; achCount: number; total: number; payees: Array<{ name: string; payments: Array<{ caseId: number; amount: number; method: string }> }> }>(
      ctx.request,
      'get',
      `/api/payment-batches/${batchId}`,
    );
    made.batchNumber = batch.number;
    await page.getByRole('heading', { level: 1, name: en.payments.batch.titleNumbered.replace('{{number}}', String(batch.number)) }).waitFor();
    const ours = batch.payees.flatMap((p) => p.payments.map((x) => ({ ...x, payee: p.name }))).find((x) => x.caseId === made.caseId);
    expect(ours).toMatchObject({ payee: LANDLORD.name, amount: RENT * ARREARS.length * 100, method: 'ach' });
    const achTotal = batch.payees.flatMap((p) => p.payments).filter((x) => x.method === 'ach').reduce((s, x) => s + x.amount, 0);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: en.payments.batch.nacha }).click();
    const file = readFileSync(await (await download).path()).toString('ascii');
    // Read back as a bank would: fixed 94-character records; the entries, and the file control record's counts.
    const records = file.split(/\r?\n/).filter((l) => l.length > 0);
    expect(records.every((l) => l.length === 94)).toBe(true);
    const entries = records.filter((l) => l[0] === '6');
    expect(entries).toHaveLength(batch.achCount);
    const ourEntry = entries.find((l) => l.slice(12, 29).trim() === '123456789');
    expect(ourEntry?.slice(3, 12)).toBe('021000021');
    expect(Number(ourEntry?.slice(29, 39))).toBe(RENT * ARREARS.length * 100);
    const control = records.find((l) => l[0] === '9' && !/^9+$/.test(l)) as string;
    expect(Number(control.slice(13, 21))).toBe(batch.achCount); // entry and addenda count
    expect(Number(control.slice(31, 43))).toBe(0); // total debit
    expect(Number(control.slice(43, 55))).toBe(achTotal); // total credit

    // Exported, the batch may be marked paid: after the confirmation, every payment is paid and the landlord told.
    await page.getByRole('button', { name: en.payments.batch.markPaid }).click();
    const paid = page.getByRole('dialog', { name: en.payments.batch.markPaidTitle.replace('{{number}}', String(batch.number)) });
    await paid.getByRole('button', { name: en.payments.batch.markPaid }).click();
    await toast(page, en.payments.batch.paidDone.replace('{{number}}', String(batch.number)));
    await mailFor(LANDLORD.email, /Payment sent/);

    // The payee report of the year: the landlord and what they were paid.
    await page.goto('/reportes/beneficiarios');
    await page.getByRole('heading', { level: 1, name: en.payments.report.title }).waitFor();
    const report = page.getByRole('table', { name: en.payments.report.list.replace('{{year}}', String(new Date().getFullYear())) });
    const landlordRow = report.getByRole('row').filter({ hasText: LANDLORD.name });
    await landlordRow.waitFor();
    expect(await landlordRow.innerText()).toContain(`$${(RENT * ARREARS.length).toLocaleString('en-US')}.00`);
    expect(await landlordRow.innerText()).toContain('6789');
    await ctx.close();
  });

  it('es, on a phone: the landlord’s list and their part read in Spanish, nothing scrolling sideways', { timeout: 60_000 }, async () => {
    expect(made.partyId).toBeGreaterThan(0);
    const ctx = await signedIn(LANDLORD.email, 'es', PHONE, LANDLORD.password);
    const page = await ctx.newPage();
    await page.goto('/partes');
    await page.getByRole('heading', { level: 1, name: es.parties.mine.title }).waitFor();
    const open = page.getByRole('button', { name: es.parties.mine.openCase.replace('{{number}}', made.caseNumber) }).or(
      page.getByRole('link', { name: es.parties.mine.openCase.replace('{{number}}', made.caseNumber) }),
    );
    await open.first().waitFor();
    expect(await noSidewaysScroll(page), '/partes').toBe(true);
    await open.first().click();
    await page.waitForURL(`**/partes/${made.partyId}`);
    await page.getByRole('heading', { level: 1, name: es.parties.page.title.replace('{{number}}', made.caseNumber) }).waitFor();
    await page.getByText(es.parties.state.submitted, { exact: true }).first().waitFor();
    await page.getByRole('heading', { name: es.parties.page.attestation }).waitFor();
    expect(await noSidewaysScroll(page), '/partes/:id').toBe(true);
    await ctx.close();
  });

  it('the landlord reaches none of another tenant’s applications: only their case is listed, anything else is 404', { timeout: 30_000 }, async () => {
    expect(made.partyId).toBeGreaterThan(0);
    const ctx = await signedIn(LANDLORD.email, 'en', DESKTOP, LANDLORD.password);
    const mine = await json<{ total: number; items: Array<{ id: number; caseNumber: string }> }>(ctx.request, 'get', '/api/parties/mine');
    expect(mine.total).toBe(1);
    expect(mine.items.map((p) => [p.id, p.caseNumber])).toEqual([[made.partyId, made.caseNumber]]);
    // The demo landlord's parties (two of the applicant's other applications) are not theirs.
    const demo = await signedIn('landlord@demo.test');
    const others = await json<{ items: Array<{ id: number }> }>(demo.request, 'get', '/api/parties/mine');
    await demo.close();
    expect(others.items.length).toBeGreaterThan(0);
    for (const other of others.items) expect((await ctx.request.get(`${base}/api/parties/${other.id}`)).status()).toBe(404);
    // Not the application itself (their side only), nor the tenant's other one.
    expect((await ctx.request.get(`${base}/api/cases/${made.caseId}`)).status()).toBe(404);
    expect((await ctx.request.get(`${base}/api/cases/${made.secondCaseId}`)).status()).toBe(404);
    expect((await ctx.request.get(`${base}/api/cases/${made.caseId}/award`)).status()).toBe(404);
    await ctx.close();
  });
});
