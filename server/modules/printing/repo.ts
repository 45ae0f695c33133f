/**
 * The print templates' SQL. Every finder takes the actor (or the system, for
 * a mail's attachment) and reads its tenant only; a case is read through the
 * cases module's visibility (`visibleCases`), so a template prints exactly
 * the cases their reader could open. Rows become the API's shapes here.
 */
import { sql, type Transaction } from 'kysely';
import type { PdfField, PrintKind } from '../../../core/api/printing.js';
import type { FieldDef, FormDefinition } from '../../../core/forms/definition.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, type Page, paginate } from '../../lib/list.js';
import { localNameSql } from '../../lib/localName.js';
import { type Actor, can, type Doer } from '../acl/policy.js';
import { visibleCases } from '../cases/policy.js';
import type { FileStores } from '../files/stores.js';
import { masterLabels } from '../forms/options.js';
import { printTemplateActions } from './policy.js';
import type { PrintCase } from './sources.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

function templates(db: Executor, doer: Doer) {
  return db.selectFrom('print_templates as t').where('t.entity_id', '=', doer.entityId);
}

export async function listPrintTemplates(
  db: Db,
  actor: Actor,
  f: Page & { search?: string; protocolId?: number; kind?: PrintKind; sortBy?: 'name' | 'kind' | 'updated_at'; descending?: boolean },
) {
  let q = templates(db, actor)
    .leftJoin('protocols as p', 'p.id', 't.protocol_id')
    .select(['t.id', 't.kind', 't.name', 't.name_en', 't.protocol_id', 't.builtin', 't.updated_at', sql<boolean>`t.pdf is not null`.as('has_pdf'), localNameSql<string | null>('p', actor.language).as('protocol_name')]);
  if (f.protocolId) q = q.where((eb) => eb.or([eb('t.protocol_id', '=', f.protocolId as number), eb('t.protocol_id', 'is', null)]));
  if (f.kind) q = q.where('t.kind', '=', f.kind);
  if (f.search) {
    const p = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('t.name', 'ilike', p), eb('t.name_en', 'ilike', p)]));
  }
  q = q.orderBy(`t.${f.sortBy ?? 'name'}`, f.descending ? 'desc' : 'asc').orderBy('t.id');
  const { rows, total } = await paginate(q, f);
  return {
    items: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      name: r.name,
      nameEn: r.name_en,
      protocolId: r.protocol_id,
      protocolName: r.protocol_name,
      builtin: r.builtin,
      hasPdf: r.has_pdf,
      updatedAt: r.updated_at,
      actions: printTemplateActions(actor, { builtin: r.builtin }),
    })),
    total,
  };
}

/** The template's stored row (with its PDF), when it is the doer's tenant's. */
export async function storedTemplate(db: Executor, doer: Doer, id: number) {
  const r = await templates(db, doer)
    .leftJoin('protocols as p', 'p.id', 't.protocol_id')
    .where('t.id', '=', id)
    .selectAll('t')
    .select(['p.name as protocol_name', 'p.name_en as protocol_name_en'])
    .executeTakeFirst();
  if (!r) throw new AppError('NOT_FOUND');
  return r;
}
export type StoredPrintTemplate = Awaited<ReturnType<typeof storedTemplate>>;

/** The API's shape of a template; `fields` are its PDF's (parsed by the caller). */
export function presentTemplate(actor: Actor, r: StoredPrintTemplate, fields: PdfField[]) {
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    nameEn: r.name_en,
    protocolId: r.protocol_id,
    protocolName: r.protocol_id === null ? null : actor.language === 'en' ? r.protocol_name_en || r.protocol_name : r.protocol_name || r.protocol_name_en,
    builtin: r.builtin,
    hasPdf: r.pdf !== null,
    pdfName: r.pdf_name,
    pdfFields: fields,
    mapping: (r.mapping ?? {}) as Record<string, string>,
    bodyHtmlEn: r.body_html_en,
    bodyHtmlEs: r.body_html_es,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    actions: printTemplateActions(actor, { builtin: r.builtin }),
  };
}

/** The template, locked for update, when it is the doer's tenant's. */
export async function lockPrintTemplate(trx: Trx, doer: Doer, id: number): Promise<StoredPrintTemplate> {
  const locked = await trx.selectFrom('print_templates').where('id', '=', id).where('entity_id', '=', doer.entityId).select('id').forUpdate().executeTakeFirst();
  if (!locked) throw new AppError('NOT_FOUND');
  return storedTemplate(trx, doer, id);
}

export interface PrintTemplateRow {
  kind?: PrintKind;
  name?: string;
  name_en?: string;
  protocol_id?: number | null;
  mapping?: Record<string, string>;
  body_html_en?: string;
  body_html_es?: string;
  pdf?: Buffer | null;
  pdf_name?: string | null;
  builtin?: string | null;
}

const dbValues = (row: PrintTemplateRow) => {
  const { mapping, ...rest } = row;
  return mapping === undefined ? rest : { ...rest, mapping: JSON.stringify(mapping) };
};

export async function insertPrintTemplate(trx: Executor, entityId: number, row: PrintTemplateRow & { kind: PrintKind; name: string; name_en: string }): Promise<number> {
  const r = await trx
    .insertInto('print_templates')
    .values({ entity_id: entityId, ...dbValues(row), kind: row.kind, name: row.name, name_en: row.name_en })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updatePrintTemplateRow(trx: Trx, doer: Doer, id: number, row: PrintTemplateRow): Promise<void> {
  await trx
    .updateTable('print_templates')
    .set({ ...dbValues(row), version: sql`version + 1`, updated_at: new Date() })
    .where('id', '=', id)
    .where('entity_id', '=', doer.entityId)
    .execute();
}

export async function removePrintTemplate(trx: Trx, doer: Doer, id: number): Promise<void> {
  await trx.deleteFrom('print_templates').where('id', '=', id).where('entity_id', '=', doer.entityId).execute();
}

/** Whether the protocol is the tenant's. */
export async function tenantHasProtocol(db: Executor, doer: Doer, protocolId: number): Promise<boolean> {
  return (await db.selectFrom('protocols').where('id', '=', protocolId).where('entity_id', '=', doer.entityId).select('id').executeTakeFirst()) !== undefined;
}

/** The fields of the protocol's published main form (none when it has no published version). */
export async function publishedFormFields(db: Executor, doer: Doer, protocolId: number): Promise<FieldDef[]> {
  const row = await db
    .selectFrom('protocols as p')
    .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .innerJoin('form_versions as fv', (j) => j.on('fv.id', '=', sql<number>`(v.definition->>'mainFormVersionId')::bigint`))
    .where('p.id', '=', protocolId)
    .where('p.entity_id', '=', doer.entityId)
    .select('fv.definition')
    .executeTakeFirst();
  return row ? ((row.definition as FormDefinition).fields ?? []) : [];
}

// ---------------------------------------------------------------- the case printed

/** The case, as a template prints it, when the doer may read it (the case page's rule); NOT_FOUND otherwise. */
export async function caseToPrint(db: Db, doer: Doer, caseId: number, language: 'en' | 'es') {
  if (!('system' in doer) && !can(doer, 'wf_casos', 'show')) throw new AppError('NOT_FOUND');
  let q = db
    .selectFrom('cases as c')
    .innerJoin('form_versions as f', 'f.id', 'c.form_version_id')
    .innerJoin('projects as pj', 'pj.id', 'c.project_id')
    .where('c.id', '=', caseId)
    .where('c.entity_id', '=', doer.entityId)
    .where('c.state', '!=', 'DRAFT');
  if (!('system' in doer)) q = q.where(visibleCases(doer) as never);
  const c = await q
    .select(['c.id', 'c.serial', 'c.state', 'c.doc_date', 'c.data', 'c.protocol_id', 'c.project_id', 'f.definition', 'pj.title', 'pj.time_zone', 'pj.support_phone', 'pj.logo_file_id'])
    .executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  const def = c.definition as FormDefinition;
  const data = c.data as Record<string, unknown>;
  const printCase: PrintCase = {
    id: c.id,
    serial: c.serial,
    state: c.state,
    docDate: c.doc_date,
    data,
    fields: def.fields ?? [],
    programName: c.title,
    timeZone: c.time_zone,
    masterNames: await masterLabels(db, doer.entityId, def, data, language),
  };
  return { printCase, protocolId: c.protocol_id, logoFileId: c.logo_file_id, supportPhone: c.support_phone };
}

/** A template the case may be printed with: the tenant's, for the case's protocol or for all. */
export async function templateForCase(db: Db, doer: Doer, templateId: number, protocolId: number) {
  const r = await storedTemplate(db, doer, templateId);
  if (r.protocol_id !== null && r.protocol_id !== protocolId) throw new AppError('NOT_FOUND');
  return r;
}

/** The print menu of a case the actor may read. */
export async function casePrintOptions(db: Db, actor: Actor, caseId: number) {
  const c = await db
    .selectFrom('cases as c')
    .where('c.id', '=', caseId)
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .select('c.protocol_id')
    .executeTakeFirst();
  if (!c || !can(actor, 'wf_casos', 'show')) throw new AppError('NOT_FOUND');
  const rows = await templates(db, actor)
    .where((eb) => eb.or([eb('t.protocol_id', '=', c.protocol_id), eb('t.protocol_id', 'is', null)]))
    // An AcroForm without its PDF has nothing to print yet.
    .where((eb) => eb.or([eb('t.kind', '=', 'letter'), eb('t.pdf', 'is not', null)]))
    .select(['t.id', 't.kind', 't.name', 't.name_en'])
    .orderBy('t.name')
    .execute();
  return { items: rows.map((r) => ({ id: r.id, kind: r.kind, name: r.name, nameEn: r.name_en })) };
}

/** The documents of a case: every file its form's file fields hold, with the field's label. */
export function caseDocuments(printCase: PrintCase, fileFields: FieldDef[]): Array<{ field: FieldDef; name: string }> {
  const out: Array<{ field: FieldDef; name: string }> = [];
  for (const field of fileFields) {
    const value = printCase.data[field.name];
    for (const ref of Array.isArray(value) ? value : value ? [value] : []) {
      if (ref && typeof ref === 'object' && typeof (ref as { name?: unknown }).name === 'string') out.push({ field, name: (ref as { name: string }).name });
    }
  }
  return out;
}

/** The case's history, oldest first, capped: what the complete application summarises. */
export async function historyOf(db: Db, entityId: number, caseId: number, language: 'en' | 'es') {
  const [count, events] = await Promise.all([
    db.selectFrom('case_events').where('case_id', '=', caseId).where('entity_id', '=', entityId).where('type', '!=', 'comment').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('case_events as e')
      .leftJoin('users as u', 'u.id', 'e.user_id')
      .leftJoin('tasks as t', 't.id', 'e.task_id')
      .where('e.case_id', '=', caseId)
      .where('e.entity_id', '=', entityId)
      // Comments (internal ones too) stay out of a printed paper.
      .where('e.type', '!=', 'comment')
      .select(['e.action', 'e.created_at', 'u.name as user_name', localNameSql<string | null>('t', language).as('task_name')])
      .orderBy('e.id', 'desc')
      .limit(40)
      .execute(),
  ]);
  return { total: Number(count.n), events: events.reverse() };
}

/**
 * The logo of the case's project as bytes (PNG or JPEG only), or null; read
 * by us from its store, never by pdfmake. A logo out of reach (its store
 * down) prints the paper without it rather than fail the print or the mail.
 */
export async function logoOf(db: Db, entityId: number, logoFileId: string | null, files: FileStores | null): Promise<{ bytes: Buffer; mime: string } | null> {
  if (!logoFileId || !files) return null;
  const f = await db.selectFrom('files').where('id', '=', logoFileId).where('entity_id', '=', entityId).select(['id', 'mime']).executeTakeFirst();
  if (!f || !['image/png', 'image/jpeg'].includes(f.mime)) return null;
  try {
    return { bytes: await files.read(db, f.id), mime: f.mime };
  } catch {
    return null;
  }
}

/** Cases of the tenant the actor may see, newest first, optionally of one protocol: the preview's picker. */
export async function printCaseOptions(db: Db, actor: Actor, f: { search?: string; protocolId?: number }) {
  let q = db
    .selectFrom('cases as c')
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .where('c.state', '!=', 'DRAFT')
    .select(['c.id', 'c.serial', sql<string>`trim(coalesce(c.data->>'firstName', '') || ' ' || coalesce(c.data->>'lastName', ''))`.as('applicant')])
    .orderBy('c.id', 'desc')
    .limit(20);
  if (f.protocolId) q = q.where('c.protocol_id', '=', f.protocolId);
  if (f.search) {
    const p = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('c.serial', 'ilike', p), eb('c.search_name', 'ilike', p)]));
  }
  const rows = await q.execute();
  return rows.map((r) => ({ id: r.id, caseNumber: r.serial, applicantName: r.applicant }));
}
