import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../web/src/i18n/en.json' with { type: 'json' };
import es from '../../web/src/i18n/es.json' with { type: 'json' };
import { type InstanceWithMail, startInstanceWithMail } from '../support/instance-with-mail.js';
import { DEMO_PASSWORD, DESKTOP, launchBrowser, literal, newContext, PHONE, signIn, unique } from './browser.js';

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
 * report lists the landlord. All of it again in Spanish, the landlord on a
 * phone; the landlord reaches none of another tenant's applications. Mail is needed, so
 * this journey runs its own instance with a loopback SMTP server (as
 * agency-onboarding.e2e.ts); the exhaustive cases are the API tests of
 * server/modules/parties and server/modules/payments.
 */
let browser: Browser;
let app: InstanceWithMail;
let base: string;

beforeAll(async () => {
  app = await startInstanceWithMail('landlords', { DEMO_HISTORY: 'off' });
  base = app.base;
  browser = await launchBrowser();
}, 150_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

// ---------------------------------------------------------------- helpers

const INVITATION_LINK = /https?:\/\/\S+\/partes\/invitacion\/[A-Za-z0-9_-]{43}/;

/** The first mail to `to` whose text or subject matches `pattern`, as the loopback SMTP server received it. */
const mailFor = (to: string, pattern: RegExp) => app.mailFor(to, pattern);

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

const ARREARS = [monthBack(2), monthBack(1)];
const RENT = 1250;

/** The demo forms' and protocol's own words (server/db/seed/forms.ts, workflow.ts), in each language. */
const DEMO = {
  en: {
    landlordField: /^Your landlord/, address: 'Property address', unit: 'Apartment or unit', rent: 'Monthly rent', arrears: 'Rent owed by month', month: /^Month \(YYYY-MM\)/, owed: /^Amount owed/,
    payment: 'Payment approval', amount: /^Amount to pay/, method: /^Payment method/, ach: 'Bank transfer (ACH)',
  },
  es: {
    landlordField: /^Su arrendador/, address: 'Dirección del inmueble', unit: 'Apartamento o unidad', rent: 'Renta mensual', arrears: 'Renta adeudada por mes', month: /^Mes \(AAAA-MM\)/, owed: /^Valor adeudado/,
    payment: 'Aprobación del pago', amount: /^Valor a pagar/, method: /^Medio de pago/, ach: 'Transferencia',
  },
};

/** A name that starts with `label` (its parentheses and dots taken literally). */
const startsWith = (label: string) => new RegExp(`^${literal(label)}`);

/** The "Step n of 4: name" heading of the application, in the page's language. */
const step = (t: typeof en, n: number, name = '') => new RegExp(`^${t.forms.renderer.stepOf.replace('{{step}}', String(n)).replace('{{count}}', '4').replace('{{name}}', name)}`);

/**
 * The whole journey, in English on a desktop, then again in Spanish with
 * the landlord on a phone (other people, another property, another batch).
 */
function journey(lang: 'en' | 'es') {
  const t = (lang === 'en' ? en : es) as typeof en;
  const demo = DEMO[lang];
  const landlordViewport = lang === 'en' ? DESKTOP : PHONE;
  const LANDLORD =
    lang === 'en'
      ? { name: 'Lena Lessor', email: `${unique('lena')}@landlords.test`, phone: '3005550177', password: 'Lessor12345' }
      : { name: 'Lucía Arrendadora', email: `${unique('lucia')}@landlords.test`, phone: '3005550178', password: 'Arrienda12345' };
  const PROPERTY = { address: `${Math.floor(100 + Math.random() * 800)} ${lang === 'en' ? 'Harbor Street' : 'Calle del Puerto'} ${unique('')}`, unit: lang === 'en' ? '4B' : '2A' };
  const made = { caseId: 0, caseNumber: '', partyId: 0, secondCaseId: 0, batchNumber: 0, staffReady: Promise.resolve() as Promise<unknown> };
  const ACCOUNT = lang === 'en' ? '123456789' : '987654321';
  // The payee report totals by tax id: each landlord their own.
  const TAX_ID = lang === 'en' ? '12-3456789' : '98-7654321';
  const money = (dollars: number) => `$${dollars.toLocaleString('en-US')}.00`;

  describe(`landlords and payments, as people do them (${lang})`, () => {
    it(
      `${lang}: the applicant names a landlord; the landlord gets the link by mail, signs up, accepts, fills their side with a rent ledger and a W-9, a checked routing number, and signs`,
      { timeout: 120_000 },
      async () => {
        // 1. The applicant: the application's other steps through the API as a draft (they are other journeys'), then in
        // the browser its "Income and rent" step names the landlord, Check your answers, Submit.
        const applicantCtx = await newContext(browser, lang, DESKTOP, base);
        const page = await applicantCtx.newPage();
        await signIn(page, 'applicant@demo.test');
        const options = await json<{ protocols: Array<{ id: number; code: string }> }>(applicantCtx.request, 'get', '/api/cases/new-options');
        const protocolId = (options.protocols.find((p) => p.code === 'rental-assistance') ?? options.protocols[0]).id;
        const draft = await json<{ id: number }>(applicantCtx.request, 'post', '/api/cases/drafts', { protocolId, data: application('Ana', 'Arrendataria') });
        await page.goto(`/cases/new?draft=${draft.id}`);
        const next = async (heading: RegExp) => {
          await page.getByRole('button', { name: t.forms.renderer.next, exact: true }).click();
          await page.getByRole('heading', { name: heading }).waitFor();
        };
        await page.getByRole('heading', { name: step(t, 1) }).waitFor();
        await next(step(t, 2));
        await next(step(t, 3, lang === 'en' ? 'Income and rent' : 'Ingresos y renta'));
        const landlordField = page.getByRole('group', { name: demo.landlordField });
        await landlordField.getByRole('textbox', { name: t.parties.fields.name }).fill(LANDLORD.name);
        await landlordField.getByRole('textbox', { name: t.parties.fields.email }).fill(LANDLORD.email);
        await landlordField.getByRole('textbox', { name: t.parties.fields.phone }).fill(LANDLORD.phone);
        await next(step(t, 4));
        await page.getByRole('button', { name: t.caseApply.check.continue, exact: true }).click();
        await page.getByText(t.caseApply.check.title).waitFor();
        await page.getByText(LANDLORD.email).first().waitFor();
        await page.getByRole('button', { name: t.caseApply.check.submit }).click();
        await page.getByText(t.caseApply.done.reference, { exact: true }).waitFor();
        // The draft is gone once submitted: nothing asks for it again (the change the submission announces used to, with a 404 toast).
        await page.waitForTimeout(1_500);
        expect(await page.getByRole('alert').filter({ hasText: t.errors.notFound }).count()).toBe(0);
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
        const ctx = await newContext(browser, lang, landlordViewport, base);
        const landlord = await ctx.newPage();
        await landlord.goto(link);
        await landlord.getByRole('heading', { level: 1, name: t.parties.invitation.heading.replace('{{name}}', 'Ana') }).waitFor();
        await landlord.getByText(made.caseNumber).waitFor();
        await landlord.getByRole('link', { name: t.parties.invitation.createAccount }).click();

        // The sign-up, filled with what the applicant gave; the captcha solved.
        await landlord.getByRole('heading', { name: t.signup.title }).waitFor();
        expect(await landlord.locator('input[name="name"]').inputValue()).toBe(LANDLORD.name);
        expect(await landlord.locator('input[name="email"]').inputValue()).toBe(LANDLORD.email);
        await landlord.locator('input[name="password"]').fill(LANDLORD.password);
        await landlord.locator('input[name="passwordConfirm"]').fill(LANDLORD.password);
        const widget = landlord.locator('altcha-widget');
        await widget.locator('input[type="checkbox"]').click({ force: true });
        await widget.locator('[data-state="verified"]').waitFor({ timeout: 30_000 });
        await landlord.getByRole('button', { name: t.signup.submit }).click();
        await landlord.getByRole('link', { name: t.signup.goToSignIn }).click();
        await landlord.waitForURL(/\/login/);
        await landlord.locator('input[name="email"]').fill(LANDLORD.email);
        await landlord.locator('input[name="password"]').fill(LANDLORD.password);
        await landlord.locator('form button[type="submit"]').click();

        // Back on the invitation: accept, and their side of the application opens.
        await landlord.waitForURL('**/partes/invitacion/**');
        await landlord.getByRole('button', { name: t.parties.invitation.accept }).click();
        await landlord.waitForURL(/\/partes\/\d+$/);
        made.partyId = Number(/\/partes\/(\d+)$/.exec(landlord.url())?.[1]);
        await landlord.getByRole('heading', { level: 1, name: t.parties.page.title.replace('{{number}}', made.caseNumber) }).waitFor();

        // The landlord form: the property, the rent, one month owed, the rent ledger and the W-9.
        const box = (label: string) => landlord.getByRole('textbox', { name: startsWith(label) });
        await box(demo.address).fill(PROPERTY.address);
        await box(demo.unit).fill(PROPERTY.unit);
        await box(demo.rent).fill(String(RENT));
        await landlord.getByRole('button', { name: t.forms.renderer.addRow }).click();
        const row = landlord.getByRole('dialog', { name: t.forms.renderer.addRowTitle.replace('{{group}}', demo.arrears) });
        await row.getByRole('textbox', { name: demo.month }).fill(ARREARS[0]);
        await row.getByRole('textbox', { name: demo.owed }).fill(String(RENT));
        await row.getByRole('button', { name: t.forms.renderer.addRowConfirm, exact: true }).click();
        await row.waitFor({ state: 'detached' });
        await landlord.locator('input[type="file"][name="rentLedger"]').setInputFiles({ name: 'rent-ledger.pdf', mimeType: 'application/pdf', buffer: await pdf('Rent ledger') });
        await landlord.getByRole('button', { name: t.forms.renderer.download.replace('{{name}}', 'rent-ledger.pdf') }).waitFor();
        await landlord.locator('input[type="file"][name="w9"]').setInputFiles({ name: 'w9.pdf', mimeType: 'application/pdf', buffer: await pdf('Form W-9') });
        await landlord.getByRole('button', { name: t.forms.renderer.download.replace('{{name}}', 'w9.pdf') }).waitFor();

        // Direct deposit: a routing number that fails the ABA checksum is said at once; a valid one is confirmed.
        expect(await landlord.getByRole('textbox', { name: startsWith(t.parties.page.payeeName) }).inputValue()).toBe(LANDLORD.name);
        await landlord.getByRole('textbox', { name: startsWith(t.parties.page.taxId) }).fill(TAX_ID);
        await landlord.getByRole('radio', { name: t.parties.page.methods.ach }).check();
        const routing = landlord.getByRole('textbox', { name: startsWith(t.parties.page.routingNumber) });
        await routing.fill('021000022');
        await landlord.getByText(t.payments.invalidRouting).waitFor();
        await routing.fill('021000021');
        await landlord.getByText(t.parties.page.routingOk).waitFor();
        expect(await landlord.getByText(t.payments.invalidRouting).count()).toBe(0);
        await landlord.getByRole('textbox', { name: startsWith(t.parties.page.accountNumber) }).first().fill(ACCOUNT);
        await landlord.getByRole('textbox', { name: startsWith(t.parties.page.accountConfirm) }).fill(ACCOUNT);
        await landlord.getByRole('radio', { name: t.parties.page.accountTypes.checking }).check();

        // The attestation: the typed name, today's date (filled), then Submit after the confirmation.
        await landlord.getByRole('textbox', { name: startsWith(t.parties.page.signName) }).fill(LANDLORD.name);
        await landlord.getByRole('button', { name: t.parties.page.submit, exact: true }).click();
        const confirm = landlord.getByRole('dialog', { name: t.parties.page.confirmTitle });
        await confirm.getByRole('button', { name: t.parties.page.confirm }).click();
        await toast(landlord, t.parties.page.sent);
        // Read back: submitted, signed, the account masked.
        await landlord.getByText(`••••${ACCOUNT.slice(-4)}`).first().waitFor();
        await landlord.getByText(t.parties.state.submitted).first().waitFor();
        await ctx.close();
      },
    );

    it(
      `${lang}: staff see the landlord’s part on the case, set the award on Payment approval; a second application for the same unit and months is flagged`,
      { timeout: 90_000 },
      async () => {
        expect(made.partyId).toBeGreaterThan(0);
        await made.staffReady;
        const ctx = await signedIn('coordinator@demo.test', lang);
        const page = await ctx.newPage();

        // The case page's Parties panel: the landlord, submitted, their account, what they entered.
        await page.goto(`/cases/${made.caseId}`);
        await page.getByRole('heading', { level: 1, name: new RegExp(made.caseNumber) }).waitFor();
        const parties = page.getByRole('region', { name: t.parties.panel.title });
        await parties.getByRole('heading', { name: `${t.parties.roleTitle.landlord}: ${LANDLORD.name}` }).waitFor();
        // Its state chip, and when they submitted.
        await parties.locator('.MuiChip-root').filter({ hasText: t.parties.state.submitted }).waitFor();
        await parties.getByRole('term').filter({ hasText: t.parties.panel.submitted }).waitFor();
        await parties.getByRole('button', { name: t.parties.panel.show }).click();
        await parties.getByText(PROPERTY.address).waitFor();
        // Under the landlord form's own labels, not its field names.
        await parties.getByText(demo.address, { exact: true }).first().waitFor();
        expect(await parties.getByText('propertyAddress').count()).toBe(0);

        // The landlord verification waited for them; now it goes through, and Payment approval is opt.
        await acceptTasks(ctx.request, made.caseId, ['landlord']);
        const paymentTask = await openTask(ctx.request, made.caseId, 'payment');
        await page.goto(`/tasks/${paymentTask}`);
        await page.getByRole('heading', { level: 1, name: demo.payment }).waitFor();
        await page.getByRole('textbox', { name: demo.amount }).fill(String(RENT * ARREARS.length));
        await page.getByRole('combobox', { name: demo.method }).click();
        await page.getByRole('option', { name: demo.ach, exact: true }).click();

        // The award: the months owed, the rent, the landlord's address and unit; the total as it is typed.
        const award = page.getByRole('region', { name: t.payments.award.title, exact: true });
        const fillAward = async (months: string[]) => {
          for (const m of months) {
            await award.getByLabel(t.payments.award.month, { exact: true }).fill(m);
            await award.getByRole('button', { name: t.payments.award.addMonth }).click();
          }
          await award.getByRole('textbox', { name: startsWith(t.payments.award.monthlyRent) }).fill(String(RENT));
          await award.getByRole('textbox', { name: startsWith(t.payments.award.propertyAddress) }).fill(PROPERTY.address);
          await award.getByRole('textbox', { name: startsWith(t.payments.award.unit) }).fill(PROPERTY.unit);
        };
        await fillAward(ARREARS);
        const total = money(RENT * ARREARS.length);
        await award.getByText(t.payments.award.total.replace('{{total}}', total)).waitFor();
        await award.getByText(t.payments.award.noOverlaps).waitFor();
        await page.getByRole('toolbar', { name: t.tasks.decisions }).getByRole('button', { name: t.tasks.accept, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: t.tasks.acceptTitle });
        await dialog.getByText(t.payments.award.confirm.replace('{{total}}', total).replace('{{payee}}', t.payments.kind.landlord), { exact: false }).waitFor();
        await dialog.getByRole('button', { name: t.tasks.accept, exact: true }).click();
        await toast(page, t.tasks.accepted.replace('{{name}}', demo.payment));
        const set = await json<{ award: { total: number; months: string[]; state: string } }>(ctx.request, 'get', `/api/cases/${made.caseId}/award`);
        expect(set.award).toMatchObject({ total: RENT * ARREARS.length * 100, months: ARREARS, state: 'approved' });

        // The second application, same unit, an overlapping month: its award panel warns before anything is accepted.
        const second = await openTask(ctx.request, made.secondCaseId, 'payment');
        await page.goto(`/tasks/${second}`);
        await page.getByRole('heading', { level: 1, name: demo.payment }).waitFor();
        await fillAward([ARREARS[1]]);
        const warning = award.getByRole('alert').filter({ hasText: t.payments.award.overlapsTitle_one.replace('{{count}}', '1') });
        await warning.waitFor();
        await warning.getByRole('link', { name: t.payments.award.application.replace('{{number}}', made.caseNumber) }).waitFor();
        expect(await warning.innerText()).toContain(t.payments.overlapReasons.same_unit);
        await ctx.close();
      },
    );

    it(`${lang}: the coordinator enters the ACH settings, builds a batch, downloads the NACHA file and marks it paid; the payee report lists the landlord`, { timeout: 90_000 }, async () => {
      await made.staffReady;
      expect(made.caseId).toBeGreaterThan(0);
      const ctx = await signedIn('coordinator@demo.test', lang);
      const page = await ctx.newPage();

      // The ACH settings (the demo has none without its history; the English run entered them, the Spanish one finds them).
      await page.goto('/configuracion/pagos');
      await page.getByRole('heading', { level: 1, name: t.payments.ach.title }).waitFor();
      const ach = t.payments.ach.fields;
      const field = (label: string) => page.getByRole('textbox', { name: startsWith(label) });
      if (lang === 'es') await expect.poll(() => field(ach.originatorName).inputValue()).toBe('DEMO HOUSING');
      else {
        await field(ach.originatorName).fill('DEMO HOUSING');
        await field(ach.companyId).fill('1900100200');
        await field(ach.odfiRouting).fill('021000021');
        await field(ach.immediateDestination).fill('021000021');
        await field(ach.immediateDestinationName).fill('DEMO BANK');
        await page.getByRole('textbox', { name: ach.immediateOrigin, exact: true }).fill('900100200');
        await field(ach.immediateOriginName).fill('DEMO HOUSING AGENCY');
        await page.getByRole('button', { name: t.common.save, exact: true }).click();
        await toast(page, t.payments.ach.saved);
      }

      // A batch of what is approved, then its NACHA file.
      await page.goto('/pagos');
      await page.getByRole('heading', { level: 1, name: t.payments.batches.title }).waitFor();
      await page.getByRole('button', { name: t.payments.batches.new }).click();
      const newBatch = page.getByRole('dialog', { name: t.payments.batches.newTitle });
      await newBatch.getByRole('button', { name: t.payments.batches.create }).click();
      await page.waitForURL(/\/pagos\/\d+$/);
      const batchId = Number(/\/pagos\/(\d+)$/.exec(page.url())?.[1]);
      const batch = await json<{ number: number; achCount: number; total: number; payees: Array<{ name: string; payments: Array<{ caseId: number; amount: number; method: string }> }> }>(
        ctx.request,
        'get',
        `/api/payment-batches/${batchId}`,
      );
      made.batchNumber = batch.number;
      await page.getByRole('heading', { level: 1, name: t.payments.batch.titleNumbered.replace('{{number}}', String(batch.number)) }).waitFor();
      const ours = batch.payees.flatMap((p) => p.payments.map((x) => ({ ...x, payee: p.name }))).find((x) => x.caseId === made.caseId);
      expect(ours).toMatchObject({ payee: LANDLORD.name, amount: RENT * ARREARS.length * 100, method: 'ach' });
      const achTotal = batch.payees.flatMap((p) => p.payments).filter((x) => x.method === 'ach').reduce((s, x) => s + x.amount, 0);

      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: t.payments.batch.nacha }).click();
      const file = readFileSync(await (await download).path()).toString('ascii');
      // Read back as a bank would: fixed 94-character records; the entries, and the file control record's counts.
      const records = file.split(/\r?\n/).filter((l) => l.length > 0);
      expect(records.every((l) => l.length === 94)).toBe(true);
      const entries = records.filter((l) => l[0] === '6');
      expect(entries).toHaveLength(batch.achCount);
      const ourEntry = entries.find((l) => l.slice(12, 29).trim() === ACCOUNT);
      expect(ourEntry?.slice(3, 12)).toBe('021000021');
      expect(Number(ourEntry?.slice(29, 39))).toBe(RENT * ARREARS.length * 100);
      const control = records.find((l) => l[0] === '9' && !/^9+$/.test(l)) as string;
      expect(Number(control.slice(13, 21))).toBe(batch.achCount); // entry and addenda count
      expect(Number(control.slice(31, 43))).toBe(0); // total debit
      expect(Number(control.slice(43, 55))).toBe(achTotal); // total credit

      // Exported, the batch may be marked paid: after the confirmation, every payment is paid and the landlord told.
      await page.getByRole('button', { name: t.payments.batch.markPaid }).click();
      const paid = page.getByRole('dialog', { name: t.payments.batch.markPaidTitle.replace('{{number}}', String(batch.number)) });
      await paid.getByRole('button', { name: t.payments.batch.markPaid }).click();
      await toast(page, t.payments.batch.paidDone.replace('{{number}}', String(batch.number)));
      await mailFor(LANDLORD.email, new RegExp(`^${t.payments.mail.paidSubject.replace('{{amount}}', '')}`));

      // The payee report of the year: the landlord and what they were paid.
      await page.goto('/reportes/beneficiarios');
      await page.getByRole('heading', { level: 1, name: t.payments.report.title }).waitFor();
      const report = page.getByRole('table', { name: t.payments.report.list.replace('{{year}}', String(new Date().getFullYear())) });
      const landlordRow = report.getByRole('row').filter({ hasText: LANDLORD.name });
      await landlordRow.waitFor();
      expect(await landlordRow.innerText()).toContain(money(RENT * ARREARS.length));
      expect(await landlordRow.innerText()).toContain(`••••${TAX_ID.slice(-4)}`);
      await ctx.close();
    });

    // The landlord's pages once more, in Spanish on a phone (the Spanish run only).
    if (lang === 'es') {
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
    }
  });

  return { made, LANDLORD };
}

const english = journey('en');
journey('es');

describe('landlords and payments: what a landlord may reach', () => {
  it('the landlord reaches none of another tenant’s applications: only their case is listed, anything else is 404', { timeout: 30_000 }, async () => {
    expect(english.made.partyId).toBeGreaterThan(0);
    const ctx = await signedIn(english.LANDLORD.email, 'en', DESKTOP, english.LANDLORD.password);
    const mine = await json<{ total: number; items: Array<{ id: number; caseNumber: string }> }>(ctx.request, 'get', '/api/parties/mine');
    expect(mine.total).toBe(1);
    expect(mine.items.map((p) => [p.id, p.caseNumber])).toEqual([[english.made.partyId, english.made.caseNumber]]);
    // The demo landlord's parties (two of the applicant's other applications) are not theirs.
    const demo = await signedIn('landlord@demo.test');
    const others = await json<{ items: Array<{ id: number }> }>(demo.request, 'get', '/api/parties/mine');
    await demo.close();
    expect(others.items.length).toBeGreaterThan(0);
    for (const other of others.items) expect((await ctx.request.get(`${base}/api/parties/${other.id}`)).status()).toBe(404);
    // Not the application itself (their side only), nor the tenant's other one.
    expect((await ctx.request.get(`${base}/api/cases/${english.made.caseId}`)).status()).toBe(404);
    expect((await ctx.request.get(`${base}/api/cases/${english.made.secondCaseId}`)).status()).toBe(404);
    expect((await ctx.request.get(`${base}/api/cases/${english.made.caseId}/award`)).status()).toBe(404);
    await ctx.close();
  });
});
