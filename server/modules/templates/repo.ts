/**
 * The email templates' SQL. Every finder takes the actor (or the system,
 * for notifications) and reads its tenant only: a template of another
 * tenant answers NOT_FOUND. Rows are mapped to the API's shapes here.
 */
import { sql, type Transaction } from 'kysely';
import type { MailEvent } from '../../../core/api/templates.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, type Page, paginate } from '../../lib/list.js';
import type { Actor, Doer } from '../acl/policy.js';
import { visibleCases } from '../cases/policy.js';
import { templateActions } from './policy.js';

type Executor = Db | Transaction<Database>;

/** A template's stored columns, as the commands write them. */
export interface TemplateRow {
  name: string;
  event: MailEvent;
  subject_en: string;
  subject_es: string;
  body_html_en: string;
  body_html_es: string;
  body_text_en: string;
  body_text_es: string;
  is_default: boolean;
  print_template_id: number | null;
}

/** Whether the print template is the doer's tenant's (what an email template may attach). */
export async function tenantHasPrintTemplate(db: Executor, doer: Doer, id: number): Promise<boolean> {
  return Boolean(await db.selectFrom('print_templates').where('entity_id', '=', doer.entityId).where('id', '=', id).select('id').executeTakeFirst());
}

function templates(db: Executor, doer: Doer) {
  return db.selectFrom('mail_templates as t').where('t.entity_id', '=', doer.entityId);
}

const SUMMARY = ['t.id', 't.name', 't.event', 't.subject_en', 't.subject_es', 't.is_default', 't.updated_at'] as const;

export async function listTemplates(
  db: Db,
  actor: Actor,
  f: Page & { search?: string; event?: MailEvent; sortBy?: 'name' | 'event' | 'updated_at'; descending?: boolean },
) {
  let q = templates(db, actor).select([...SUMMARY]);
  if (f.event) q = q.where('t.event', '=', f.event);
  if (f.search) {
    const p = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('t.name', 'ilike', p), eb('t.subject_en', 'ilike', p), eb('t.subject_es', 'ilike', p)]));
  }
  q = q.orderBy(`t.${f.sortBy ?? 'name'}`, f.descending ? 'desc' : 'asc').orderBy('t.id');
  const { rows, total } = await paginate(q, f);
  return {
    items: rows.map((r) => {
      const isDefault = r.is_default;
      return { id: r.id, name: r.name, event: r.event as MailEvent, subjectEn: r.subject_en, subjectEs: r.subject_es, isDefault, updatedAt: r.updated_at, actions: templateActions(actor, { isDefault }) };
    }),
    total,
  };
}

async function fullTemplate(db: Executor, doer: Doer, id: number) {
  const r = await templates(db, doer).where('t.id', '=', id).selectAll('t').executeTakeFirst();
  if (!r) throw new AppError('NOT_FOUND');
  return {
    id: r.id,
    name: r.name,
    event: r.event as MailEvent,
    subjectEn: r.subject_en,
    subjectEs: r.subject_es,
    bodyHtmlEn: r.body_html_en,
    bodyHtmlEs: r.body_html_es,
    bodyTextEn: r.body_text_en,
    bodyTextEs: r.body_text_es,
    isDefault: r.is_default,
    printTemplateId: r.print_template_id,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
export type StoredTemplate = Awaited<ReturnType<typeof fullTemplate>>;

export async function findTemplate(db: Executor, actor: Actor, id: number) {
  const t = await fullTemplate(db, actor, id);
  return { ...t, actions: templateActions(actor, t) };
}

/** The template, locked for update, when it is the doer's tenant's. */
export async function lockTemplate(trx: Transaction<Database>, doer: Doer, id: number): Promise<StoredTemplate> {
  const locked = await trx.selectFrom('mail_templates').where('id', '=', id).where('entity_id', '=', doer.entityId).select('id').forUpdate().executeTakeFirst();
  if (!locked) throw new AppError('NOT_FOUND');
  return fullTemplate(trx, doer, id);
}

/**
 * The template an event sends: `chosenId` (a protocol task's choice) while it
 * is still the tenant's and serves `event`, else the tenant's default of the
 * event; undefined when there is neither. One query either way.
 */
export async function sendableTemplate(db: Executor, entityId: number, event: MailEvent, chosenId?: number) {
  return db
    .selectFrom('mail_templates')
    .where('entity_id', '=', entityId)
    .where('event', '=', event)
    .where((eb) => (chosenId ? eb.or([eb('is_default', '=', true), eb('id', '=', chosenId)]) : eb('is_default', '=', true)))
    .select(['id', 'subject_en', 'subject_es', 'body_html_en', 'body_html_es', 'body_text_en', 'body_text_es', 'print_template_id'])
    .orderBy('is_default')
    .limit(1)
    .executeTakeFirst();
}

/** Takes the default of an event away from every template of the tenant but `keepId` (before giving it to `keepId`). */
export async function clearDefault(trx: Transaction<Database>, doer: Doer, event: MailEvent, keepId: number | null): Promise<void> {
  let q = trx.updateTable('mail_templates').set({ is_default: false, updated_at: new Date(), version: sql`version + 1` }).where('entity_id', '=', doer.entityId).where('event', '=', event).where('is_default', '=', true);
  if (keepId !== null) q = q.where('id', '!=', keepId);
  await q.execute();
}

export async function insertTemplate(trx: Executor, doer: Doer, row: TemplateRow): Promise<number> {
  const r = await trx.insertInto('mail_templates').values({ entity_id: doer.entityId, ...row }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function updateTemplateRow(trx: Executor, doer: Doer, id: number, row: TemplateRow): Promise<void> {
  await trx
    .updateTable('mail_templates')
    .set({ ...row, version: sql`version + 1`, updated_at: new Date() })
    .where('id', '=', id)
    .where('entity_id', '=', doer.entityId)
    .execute();
}

export async function removeTemplate(trx: Executor, doer: Doer, id: number): Promise<void> {
  await trx.deleteFrom('mail_templates').where('id', '=', id).where('entity_id', '=', doer.entityId).execute();
}

// ---------------------------------------------------------------- cases to preview with

const applicantSql = sql<string>`trim(coalesce(c.data->>'firstName', '') || ' ' || coalesce(c.data->>'lastName', ''))`;

/** Cases the actor may see, newest first, by number or applicant: the preview's picker. */
export async function caseOptions(db: Db, actor: Actor, search?: string) {
  let q = db
    .selectFrom('cases as c')
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .where('c.state', '!=', 'DRAFT')
    .select(['c.id', 'c.serial', applicantSql.as('applicant')])
    .orderBy('c.id', 'desc')
    .limit(20);
  if (search) {
    const p = containsPattern(search);
    q = q.where((eb) => eb.or([eb('c.serial', 'ilike', p), eb('c.search_name', 'ilike', p)]));
  }
  const rows = await q.execute();
  return rows.map((r) => ({ id: r.id, caseNumber: r.serial, applicantName: r.applicant }));
}

/** What a case of the actor's tenant (one it may see) gives the placeholders, with its latest open task. */
export async function caseFacts(db: Db, actor: Actor, caseId: number) {
  const c = await db
    .selectFrom('cases as c')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .leftJoin('users as o', 'o.id', 'c.owner_id')
    .where('c.entity_id', '=', actor.entityId)
    .where(visibleCases(actor) as never)
    .where('c.id', '=', caseId)
    .select([
      'c.id', 'c.serial', 'c.state',
      sql<string>`coalesce(c.data->>'firstName', '')`.as('first_name'),
      sql<string>`coalesce(c.data->>'lastName', '')`.as('last_name'),
      sql<string>`coalesce(c.data->>'email', o.email, '')`.as('email'),
      'p.title', 'p.support_phone', 'p.time_zone',
    ])
    .executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  const task = await db
    .selectFrom('tasks as k')
    .leftJoin('users as u', 'u.id', 'k.responsible_user_id')
    .leftJoin('teams as tm', 'tm.id', 'k.responsible_team_id')
    .where('k.case_id', '=', c.id)
    .where('k.entity_id', '=', actor.entityId)
    .select(['k.id', 'k.name', 'k.due_at', 'u.name as responsible', 'tm.name as team'])
    .orderBy(sql`k.state in ('UNASSIGNED', 'PENDING', 'BLOCKED')`, 'desc')
    .orderBy('k.id', 'desc')
    .executeTakeFirst();
  return { ...c, task };
}
