/**
 * The email templates' verbs, one transaction each: create, change, delete
 * (the default of an event stays until another one is made the default),
 * preview and send a test; and `renderTemplate`, what notifications call
 * to fill the tenant's default template of an event.
 *
 * Saving checks every subject and body with core/templates/render.ts (only
 * plain text and `{{name}}`s of the catalogue; each refusal named with its
 * line and column), sanitises the HTML (html.ts) and generates the
 * plain-text part from it.
 */
import type { Transaction } from 'kysely';
import type { MailEvent, RenderedMail, TemplateBody, TemplateLanguage, TemplatePreviewBody, TemplateUpdateBody } from '../../../core/api/templates.js';
import { formatDate } from '../../../core/dates.js';
import { checkTemplate, type PlaceholderValues, renderPlaceholders, renderSubject, type TemplateProblem } from '../../../core/templates/render.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import type { Actor } from '../acl/policy.js';
import { queueMail } from '../mail/outbox.js';
import { htmlToText, sanitizeBody } from './html.js';
import { assertTemplateAction } from './policy.js';
import { caseFacts, clearDefault, insertTemplate, lockTemplate, removeTemplate, sendableTemplate, type TemplateRow, tenantHasPrintTemplate, updateTemplateRow } from './repo.js';

interface Detail {
  path: string;
  message: string;
  params: Record<string, unknown>;
}

const problemDetail = (path: string) => (p: TemplateProblem): Detail => ({
  path,
  message: `templates.problems.${p.kind}`,
  params: { name: p.name, line: p.line, column: p.column },
});

/** The parts of a template as the editor holds them, checked, the HTML sanitised: or VALIDATION naming every refusal. */
function prepareParts(body: Pick<TemplateBody, 'subjectEn' | 'subjectEs' | 'bodyHtmlEn' | 'bodyHtmlEs'>) {
  const details: Detail[] = [];
  const htmlEn = sanitizeBody(body.bodyHtmlEn);
  const htmlEs = sanitizeBody(body.bodyHtmlEs);
  const parts: Array<[path: string, raw: string, stored: string]> = [
    ['subjectEn', body.subjectEn, body.subjectEn],
    ['subjectEs', body.subjectEs, body.subjectEs],
    ['bodyHtmlEn', body.bodyHtmlEn, htmlEn],
    ['bodyHtmlEs', body.bodyHtmlEs, htmlEs],
  ];
  for (const [path, raw, stored] of parts) {
    // Positions in what was sent; then what is stored (sanitising decodes entities: `&#123;&#123;` is `{{`).
    let problems = checkTemplate(raw);
    if (!problems.length && stored !== raw) problems = checkTemplate(stored);
    details.push(...problems.map(problemDetail(path)));
  }
  if (details.length) throw new AppError('VALIDATION', {}, details);
  return { subjectEn: body.subjectEn, subjectEs: body.subjectEs, htmlEn, htmlEs, textEn: htmlToText(htmlEn), textEs: htmlToText(htmlEs) };
}

function prepare(body: TemplateBody): TemplateRow {
  const p = prepareParts(body);
  return {
    name: body.name,
    event: body.event,
    subject_en: p.subjectEn,
    subject_es: p.subjectEs,
    body_html_en: p.htmlEn,
    body_html_es: p.htmlEs,
    body_text_en: p.textEn,
    body_text_es: p.textEs,
    is_default: body.isDefault,
    print_template_id: body.printTemplateId ?? null,
  };
}

/** The attached print template must be the tenant's: else VALIDATION on its field, nothing written. */
async function assertPrintTemplate(trx: Transaction<Database>, actor: Actor, id: number | null): Promise<void> {
  if (id !== null && !(await tenantHasPrintTemplate(trx, actor, id))) throw new AppError('VALIDATION', {}, [{ path: 'printTemplateId', message: 'validation.chooseOption' }]);
}

const keepDefault = () => new AppError('VALIDATION', {}, [{ path: 'isDefault', message: 'templates.errors.keepDefault' }]);

/** A new template; made the default of its event, it takes that from the one before. Returns its id. */
export function createTemplate(db: Db, actor: Actor, body: TemplateBody): Promise<number> {
  const row = prepare(body);
  return db.transaction().execute(async (trx) => {
    await assertPrintTemplate(trx, actor, row.print_template_id);
    if (row.is_default) await clearDefault(trx, actor, row.event, null);
    return insertTemplate(trx, actor, row);
  });
}

/** Changes a template on the version it was read at. The default of an event stays one until another takes its place. */
export function updateTemplate(db: Db, actor: Actor, id: number, body: TemplateUpdateBody): Promise<void> {
  const { version, ...rest } = body;
  const row = prepare(rest);
  return db.transaction().execute(async (trx) => {
    const current = await lockTemplate(trx, actor, id);
    assertTemplateAction(actor, current, 'edit');
    if (current.version !== version) throw new AppError('CONFLICT');
    await assertPrintTemplate(trx, actor, row.print_template_id);
    if (current.isDefault && (!row.is_default || row.event !== current.event)) throw keepDefault();
    if (row.is_default && !current.isDefault) await clearDefault(trx, actor, row.event, id);
    await updateTemplateRow(trx, actor, id, row);
  });
}

export function deleteTemplate(db: Db, actor: Actor, id: number): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const current = await lockTemplate(trx, actor, id);
    assertTemplateAction(actor, current, 'delete');
    await removeTemplate(trx, actor, id);
  });
}

// ---------------------------------------------------------------- filling

function fill(parts: { subject: string; html: string; text: string }, values: PlaceholderValues): RenderedMail {
  return {
    subject: renderSubject(parts.subject, values),
    // Sanitised again after filling: a value can never bring markup or a link scheme the allow-list refuses.
    html: sanitizeBody(renderPlaceholders(parts.html, values, { html: true })),
    text: renderPlaceholders(parts.text, values, { html: false }),
  };
}

/**
 * The tenant's default template of `event` (or the chosen one), filled with `values`, in
 * `language`: what the notifications send (inside their transaction or
 * not). Throws NOT_FOUND when the tenant has no default for the event.
 */
export async function renderTemplate(
  db: Db | Transaction<Database>,
  entityId: number,
  event: MailEvent,
  language: TemplateLanguage,
  values: PlaceholderValues,
  /** A template a protocol task chose: used when it is still the tenant's and serves `event`. */
  templateId?: number,
): Promise<RenderedMail & { printTemplateId: number | null }> {
  const t = await sendableTemplate(db, entityId, event, templateId);
  if (!t) throw new AppError('NOT_FOUND');
  const filled =
    language === 'es'
      ? fill({ subject: t.subject_es, html: t.body_html_es, text: t.body_text_es }, values)
      : fill({ subject: t.subject_en, html: t.body_html_en, text: t.body_text_en }, values);
  return { ...filled, printTemplateId: t.print_template_id };
}

/** The placeholders' values from a real case of the tenant (one the actor may see), in `language`; sample values without a case. */
async function previewValues(db: Db, actor: Actor, caseId: number | null, language: TemplateLanguage, publicUrl: string): Promise<PlaceholderValues> {
  const t = (key: string) => translate(language, `templates.sample.${key}`);
  const base: PlaceholderValues = {
    recipientName: actor.name,
    reason: t('reason'),
    comment: t('comment'),
    mentionedBy: actor.name,
    supportEmail: actor.email,
    taskList: t('taskList'),
  };
  if (caseId === null) {
    return {
      ...base,
      caseNumber: '2026-01-0001',
      caseState: translate(language, 'states.PENDING'),
      applicantName: t('applicantName'),
      applicantFirstName: t('applicantFirstName'),
      applicantLastName: t('applicantLastName'),
      applicantEmail: 'applicant@example.org',
      taskName: t('taskName'),
      dueDate: formatDate(new Date(), actor.timeZone),
      responsibleName: actor.name,
      teamName: t('teamName'),
      recordLink: `${publicUrl}/cases`,
      programTitle: t('programTitle'),
      supportPhone: '',
    };
  }
  const c = await caseFacts(db, actor, caseId);
  return {
    ...base,
    caseNumber: c.serial ?? `#${c.id}`,
    caseState: translate(language, `states.${c.state}`),
    applicantName: `${c.first_name} ${c.last_name}`.trim(),
    applicantFirstName: c.first_name,
    applicantLastName: c.last_name,
    applicantEmail: c.email,
    taskName: c.task?.name ?? '',
    dueDate: c.task?.due_at ? formatDate(c.task.due_at, c.time_zone) : '',
    responsibleName: c.task?.responsible ?? '',
    teamName: c.task?.team ?? '',
    recordLink: `${publicUrl}/cases/${c.id}`,
    programTitle: c.title,
    supportPhone: c.support_phone,
  };
}

/** The editor's template (not yet saved) filled with a case's data, in English and Spanish. */
export async function previewTemplate(db: Db, actor: Actor, body: TemplatePreviewBody, publicUrl: string): Promise<Record<TemplateLanguage, RenderedMail>> {
  const p = prepareParts(body);
  const [en, es] = await Promise.all([previewValues(db, actor, body.caseId, 'en', publicUrl), previewValues(db, actor, body.caseId, 'es', publicUrl)]);
  return {
    en: fill({ subject: p.subjectEn, html: p.htmlEn, text: p.textEn }, en),
    es: fill({ subject: p.subjectEs, html: p.htmlEs, text: p.textEs }, es),
  };
}

/** Queues the editor's template, filled, in one language, to the signed-in user's own address. */
export async function sendTestTemplate(
  db: Db,
  actor: Actor,
  body: TemplatePreviewBody & { language: TemplateLanguage },
  mail: { publicUrl: string; smtpConfigured: boolean },
): Promise<{ to: string }> {
  const rendered = (await previewTemplate(db, actor, body, mail.publicUrl))[body.language];
  // The HTML part and what the message is about (user, case, event) are kept by the outbox since migration 0017.
  const message = { entityId: actor.entityId, to: actor.email, subject: rendered.subject, html: rendered.html, text: rendered.text, userId: actor.userId, caseId: body.caseId, event: 'template_test' };
  await queueMail(db, message, mail.smtpConfigured);
  return { to: actor.email };
}

