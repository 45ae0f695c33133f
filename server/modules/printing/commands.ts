/**
 * The print templates' verbs, one transaction each: create, change (names,
 * protocol, the mapping or the letter's bodies), upload the PDF, delete;
 * and `printCase`, a case printed with a template as the answer's PDF
 * bytes, which the case page and the mail's attachments share.
 *
 * A mapping is checked whole before anything is written: every PDF field it
 * names must be in the uploaded PDF and every source must be a case field or
 * a field of the protocol's published form; the first that is not is a 400
 * naming it. A letter's bodies go through the email templates' checks
 * (only `{{placeholders}}` of the catalogue) and their allow-list.
 */
import type { PdfField, PrintTemplateCreateBody, PrintTemplateUpdateBody } from '../../../core/api/printing.js';
import { checkTemplate, type PlaceholderValues, renderPlaceholders } from '../../../core/templates/render.js';
import { formatDateTime } from '../../../core/dates.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { type Lang, translate } from '../../i18n.js';
import type { Actor, Doer } from '../acl/policy.js';
import type { FileStores } from '../files/stores.js';
import { sanitizeBody } from '../templates/html.js';
import { htmlToBlocks, renderLetter } from './letter.js';
import { fillAndFlatten, formFields, loadCheckedPdf } from './pdf.js';
import { assertPrintTemplateAction } from './policy.js';
import {
  caseDocuments,
  caseToPrint,
  historyOf,
  insertPrintTemplate,
  lockPrintTemplate,
  logoOf,
  presentTemplate,
  type PrintTemplateRow,
  publishedFormFields,
  removePrintTemplate,
  storedTemplate,
  type StoredPrintTemplate,
  templateForCase,
  tenantHasProtocol,
  updatePrintTemplateRow,
} from './repo.js';
import { fieldLabel, fieldText, mappedValues, type PrintCase, printableFields, unknownSources } from './sources.js';
import { scopeFields } from '../../../core/forms/validator.js';
import type { FieldDef } from '../../../core/forms/definition.js';

/** The fields of a stored PDF (none without one). */
async function pdfFieldsOf(pdf: Buffer | null): Promise<PdfField[]> {
  if (!pdf) return [];
  return formFields(await loadCheckedPdf(pdf));
}

export async function findPrintTemplate(db: Db, actor: Actor, id: number) {
  const r = await storedTemplate(db, actor, id);
  return presentTemplate(actor, r, await pdfFieldsOf(r.pdf));
}

async function assertProtocol(db: Db, actor: Actor, protocolId: number | null): Promise<void> {
  if (protocolId !== null && !(await tenantHasProtocol(db, actor, protocolId))) {
    throw new AppError('VALIDATION', {}, [{ path: 'protocolId', message: 'validation.chooseOption' }]);
  }
}

export async function createPrintTemplate(db: Db, actor: Actor, body: PrintTemplateCreateBody): Promise<number> {
  await assertProtocol(db, actor, body.protocolId);
  return db.transaction().execute((trx) => insertPrintTemplate(trx, actor.entityId, { kind: body.kind, name: body.name, name_en: body.nameEn, protocol_id: body.protocolId }));
}

function checkedBodies(body: Pick<PrintTemplateUpdateBody, 'bodyHtmlEn' | 'bodyHtmlEs'>) {
  const details: Array<{ path: string; message: string; params: Record<string, unknown> }> = [];
  const out = { en: sanitizeBody(body.bodyHtmlEn), es: sanitizeBody(body.bodyHtmlEs) };
  for (const [path, raw, stored] of [['bodyHtmlEn', body.bodyHtmlEn, out.en], ['bodyHtmlEs', body.bodyHtmlEs, out.es]] as const) {
    let problems = checkTemplate(raw);
    if (!problems.length && stored !== raw) problems = checkTemplate(stored);
    details.push(...problems.map((p) => ({ path, message: `templates.problems.${p.kind}`, params: { name: p.name, line: p.line, column: p.column } })));
  }
  if (details.length) throw new AppError('VALIDATION', {}, details);
  return out;
}

/** Changes a template on the version it was read at; a mapping naming anything that does not exist changes nothing. */
export async function updatePrintTemplate(db: Db, actor: Actor, id: number, body: PrintTemplateUpdateBody): Promise<void> {
  await assertProtocol(db, actor, body.protocolId);
  await db.transaction().execute(async (trx) => {
    const current = await lockPrintTemplate(trx, actor, id);
    assertPrintTemplateAction(actor, current, 'edit');
    if (current.version !== body.version) throw new AppError('CONFLICT');
    const row: PrintTemplateRow = { name: body.name, name_en: body.nameEn, protocol_id: body.protocolId };
    if (current.kind === 'acroform') {
      const fields = new Set((await pdfFieldsOf(current.pdf)).map((f) => f.name));
      const missingField = Object.keys(body.mapping).find((name) => !fields.has(name));
      if (missingField !== undefined) throw new AppError('PRINT_UNKNOWN_FIELD', { field: missingField });
      const formFields = body.protocolId === null ? [] : await publishedFormFields(trx, actor, body.protocolId);
      const missingSource = unknownSources(body.mapping, formFields)[0];
      if (missingSource !== undefined) throw new AppError('PRINT_UNKNOWN_FIELD', { field: missingSource });
      row.mapping = body.mapping;
    } else {
      const bodies = checkedBodies(body);
      row.body_html_en = bodies.en;
      row.body_html_es = bodies.es;
    }
    await updatePrintTemplateRow(trx, actor, id, row);
  });
}

/** Stores an AcroForm template's PDF (checked: a PDF, no script, no embedded file); mapped fields the new PDF lacks are dropped. */
export async function uploadTemplatePdf(db: Db, actor: Actor, id: number, upload: { name: string; bytes: Buffer }): Promise<void> {
  const doc = await loadCheckedPdf(upload.bytes);
  const names = new Set(formFields(doc).map((f) => f.name));
  await db.transaction().execute(async (trx) => {
    const current = await lockPrintTemplate(trx, actor, id);
    assertPrintTemplateAction(actor, current, 'edit');
    if (current.kind !== 'acroform') throw new AppError('PRINT_NOT_ACROFORM');
    const mapping = Object.fromEntries(Object.entries((current.mapping ?? {}) as Record<string, string>).filter(([k]) => names.has(k)));
    await updatePrintTemplateRow(trx, actor, id, { pdf: upload.bytes, pdf_name: upload.name, mapping });
  });
}

export async function deletePrintTemplate(db: Db, actor: Actor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await lockPrintTemplate(trx, actor, id);
    assertPrintTemplateAction(actor, current, 'delete');
    await removePrintTemplate(trx, actor, id);
  });
}

// ---------------------------------------------------------------- printing

export interface PrintOptions {
  language: Lang;
  /** The file stores the logo is read from (by us; pdfmake reads nothing); null prints without it. */
  files: FileStores | null;
  publicUrl: string;
  /** The reader's name for `{{recipientName}}`. */
  recipientName?: string;
}

function placeholderValues(c: PrintCase, lang: Lang, o: PrintOptions & { supportPhone: string }): PlaceholderValues {
  const first = typeof c.data.firstName === 'string' ? c.data.firstName : '';
  const last = typeof c.data.lastName === 'string' ? c.data.lastName : '';
  return {
    recipientName: o.recipientName ?? `${first} ${last}`.trim(),
    caseNumber: c.serial ?? `#${c.id}`,
    caseState: translate(lang, `states.${c.state}`),
    applicantName: `${first} ${last}`.trim(),
    applicantFirstName: first,
    applicantLastName: last,
    applicantEmail: typeof c.data.email === 'string' ? c.data.email : '',
    recordLink: `${o.publicUrl}/cases/${c.id}`,
    programTitle: c.programName,
    supportPhone: o.supportPhone,
  };
}

/** The complete application: every field of the case's form, its documents, a summary of its history. */
async function completeApplication(db: Db, doer: Doer, c: PrintCase, lang: Lang, intro: Array<Record<string, unknown>>) {
  const t = (key: string, p: Record<string, unknown> = {}) => translate(lang, `printing.complete.${key}`, p);
  const blocks: Array<Record<string, unknown>> = [...intro];
  const summary: Array<[string, string]> = [
    [t('number'), c.serial ?? `#${c.id}`],
    [t('state'), translate(lang, `states.${c.state}`)],
    [t('submitted'), c.docDate ? formatDateTime(c.docDate, c.timeZone) : ''],
    [t('program'), c.programName],
  ];
  const table = (rows: Array<[string, string]>) => ({
    table: { widths: ['38%', '*'], body: rows.map(([k, v]) => [{ text: k, style: 'label' }, { text: v || '—' }]) },
    layout: 'lightHorizontalLines',
    margin: [0, 0, 0, 6],
  });
  blocks.push(table(summary));

  let plain: Array<[string, string]> = [];
  const flushPlain = () => {
    if (plain.length) blocks.push(table(plain));
    plain = [];
  };
  const walk = (fields: FieldDef[], data: Record<string, unknown>) => {
    for (const f of fields) {
      if (f.type === 'stepper') walk(f.children ?? [], data);
      else if (f.type === 'step') {
        flushPlain();
        blocks.push({ text: fieldLabel(f, lang), style: 'section' });
        walk(f.children ?? [], data);
      } else if (f.type === 'repeat') {
        flushPlain();
        const rows = Array.isArray(data[f.name]) ? (data[f.name] as Array<Record<string, unknown>>) : [];
        blocks.push({ text: fieldLabel(f, lang), style: 'h3' });
        const cols = printableFields(f.children ?? []);
        if (!rows.length || !cols.length) blocks.push({ text: t('none'), style: 'muted', margin: [0, 0, 0, 6] });
        else {
          blocks.push({
            table: {
              headerRows: 1,
              widths: cols.map(() => '*'),
              body: [cols.map((col) => ({ text: fieldLabel(col, lang), style: 'label' })), ...rows.map((row) => cols.map((col) => ({ text: fieldText(col, row?.[col.name], c, lang) })))],
            },
            layout: 'lightHorizontalLines',
            fontSize: 9,
            margin: [0, 0, 0, 6],
          });
        }
      } else if (f.type !== 'static' && f.type !== 'file') plain.push([fieldLabel(f, lang), fieldText(f, data[f.name], c, lang)]);
    }
  };
  walk(c.fields, c.data);
  flushPlain();

  blocks.push({ text: t('documents'), style: 'section' });
  const docs = caseDocuments(c, scopeFields(c.fields).filter((f) => f.type === 'file'));
  blocks.push(docs.length ? { ul: docs.map((d) => `${d.name} (${fieldLabel(d.field, lang)})`), style: 'list' } : { text: t('noDocuments'), style: 'muted' });

  blocks.push({ text: t('history'), style: 'section' });
  const history = await historyOf(db, doer.entityId, c.id, lang);
  if (!history.total) blocks.push({ text: t('noHistory'), style: 'muted' });
  else {
    if (history.total > history.events.length) blocks.push({ text: t('historyShown', { shown: history.events.length, total: history.total }), style: 'muted', margin: [0, 0, 0, 4] });
    blocks.push({
      table: {
        headerRows: 1,
        widths: ['auto', '*', 'auto'],
        body: [
          [{ text: t('when'), style: 'label' }, { text: t('what'), style: 'label' }, { text: t('who'), style: 'label' }],
          ...history.events.map((e) => [formatDateTime(e.created_at, c.timeZone), translate(lang, `caseView.history.actions.${e.action}`, { task: e.task_name ?? '' }), e.user_name ?? t('system')]),
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 9,
    });
  }
  return blocks;
}

const fileName = (name: string, c: PrintCase) =>
  `${name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'document'}-${(c.serial ?? String(c.id)).replace(/[^A-Za-z0-9-]/g, '')}.pdf`;

/**
 * The case printed with the template, as PDF bytes: an AcroForm filled from
 * the case and flattened, or a letter in `language` with the project's logo.
 * NOT_FOUND when the doer may not read the case, or the template is another
 * tenant's or another protocol's.
 */
export async function printCase(db: Db, doer: Doer, caseId: number, templateId: number, o: PrintOptions): Promise<{ bytes: Uint8Array; filename: string }> {
  const { printCase: c, protocolId, logoFileId, supportPhone } = await caseToPrint(db, doer, caseId, o.language);
  const template: StoredPrintTemplate = await templateForCase(db, doer, templateId, protocolId);
  const title = o.language === 'en' ? template.name_en : template.name;
  const filename = fileName(title, c);
  if (template.kind === 'acroform') {
    if (!template.pdf) throw new AppError('PRINT_NO_PDF');
    return { bytes: await fillAndFlatten(template.pdf, mappedValues((template.mapping ?? {}) as Record<string, string>, c, o.language)), filename };
  }
  const html = o.language === 'en' ? template.body_html_en : template.body_html_es;
  // Filled, then sanitised again: a value never brings markup the allow-list refuses.
  const body = htmlToBlocks(sanitizeBody(renderPlaceholders(html, placeholderValues(c, o.language, { ...o, supportPhone }), { html: true })));
  const content = template.builtin === 'complete_application' ? await completeApplication(db, doer, c, o.language, body) : body;
  const bytes = await renderLetter({
    title,
    header: c.programName,
    logo: await logoOf(db, doer.entityId, logoFileId, o.files),
    content,
    pageLabel: (page, pages) => translate(o.language, 'printing.page', { page, pages }),
    language: o.language,
  });
  return { bytes, filename };
}

/**
 * A mail's attachment (mail/outbox.ts `AttachmentMaker`): the case printed
 * with the template, as the system of its tenant (the template was chosen by
 * the tenant's administrators for this event; the message goes to people
 * the notification names about their case). Null when the template or the
 * case is gone, another protocol's, or an AcroForm without its PDF: the
 * message is then sent without it. Other errors throw, and the delivery is
 * retried.
 */
export async function printAttachment(
  db: Db,
  m: { entityId: number; caseId: number; templateId: number; language: Lang },
  o: Pick<PrintOptions, 'files' | 'publicUrl'>,
): Promise<{ filename: string; content: Buffer; contentType: string } | null> {
  try {
    const { bytes, filename } = await printCase(db, { system: true, entityId: m.entityId }, m.caseId, m.templateId, { ...o, language: m.language });
    return { filename, content: Buffer.from(bytes), contentType: 'application/pdf' };
  } catch (e) {
    if (e instanceof AppError && (e.code === 'NOT_FOUND' || e.code === 'PRINT_NO_PDF')) return null;
    throw e;
  }
}
