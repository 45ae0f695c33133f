/**
 * CSV import of cases: upload, map columns to the main form's fields, a dry
 * run that checks every row with the shared validator, then the run as a
 * pg-boss job (queue `case-import`, server/jobs/boss.ts) with progress. Each
 * row is its own transaction, so a bad row is reported and the others go on;
 * a row whose external reference was imported before is skipped, so running
 * a file twice creates nothing twice, and a try cut off by a crash is resumed
 * by the job's retry where its progress was last saved.
 */
import type { FastifyBaseLogger } from 'fastify';
import { NoResultError, sql } from 'kysely';
import { z } from 'zod';
import { errorCatalog } from '../../../core/errors.js';
import type { FieldDef, FormDefinition } from '../../../core/forms/definition.js';
import { scopeFields, validateForm } from '../../../core/forms/validator.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { type Attempt, caseJobs, type Jobs, QUEUES } from '../../jobs/boss.js';
import { CsvError, csvRecords, decodeCsv, parseCsv } from '../../lib/csv.js';
import type { Actor } from '../acl/policy.js';
import { actorForUser } from '../auth/sessions.js';
import { masterOptionValues } from '../forms/options.js';
import type { EngineEnv } from '../workflow/engine.js';
import { createDraft, submitCaseInTrx } from './commands.js';

const MAX_ROWS = 20_000;
const MAX_ERRORS = 1_000;
const mappingBody = z.object({
  /** CSV column -> main-form field name */
  mapping: z.record(z.string().max(200), z.string().max(63)).refine((m) => Object.keys(m).length <= 200),
  /** The column that identifies a row across imports (idempotency). */
  refColumn: z.string().max(200),
});

const SCALAR = (f: FieldDef) => !['file', 'repeat', 'static', 'stepper', 'step'].includes(f.type);

/**
 * What a CSV column may fill: the main form's scalar fields, and the scalar
 * fields of a repeat group's first row as `group.field` (a flat file holds
 * one row of each group, e.g. the applicant as first household member).
 */
function mappableFields(form: FormDefinition): FieldDef[] {
  return scopeFields(form.fields).flatMap((f) =>
    f.type === 'repeat' ? scopeFields(f.children ?? []).filter(SCALAR).map((c) => ({ ...c, name: `${f.name}.${c.name}`, label: `${f.label} / ${c.label}`, label_en: f.label_en && c.label_en ? `${f.label_en} / ${c.label_en}` : undefined })) : SCALAR(f) ? [f] : [],
  );
}

/** A CSV cell as the field's type expects it. */
function coerce(field: FieldDef, cell: string): unknown {
  const v = cell.trim();
  if (v === '') return undefined;
  switch (field.type) {
    case 'number':
    case 'currency':
      return Number.isNaN(Number(v.replace(',', '.'))) ? v : Number(v.replace(',', '.'));
    case 'checkbox':
    case 'switch':
      return /^(true|yes|si|sí|1|x)$/i.test(v) ? true : /^(false|no|0)$/i.test(v) ? false : v;
    case 'select_multiple':
    case 'select_multiple_external':
      return v.split(/[;|]/).map((x) => x.trim()).filter(Boolean);
    default:
      return v;
  }
}

async function loadJob(db: Db, actor: Actor, id: number) {
  const job = await db.selectFrom('case_imports').where('id', '=', id).where('entity_id', '=', actor.entityId).where('user_id', '=', actor.userId).selectAll().executeTakeFirst();
  if (!job) throw new AppError('NOT_FOUND');
  return job;
}

async function mainForm(db: Db, protocolId: number): Promise<{ form: FormDefinition; def: ProtocolDefinition }> {
  const row = await db
    .selectFrom('protocols as p')
    .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .where('p.id', '=', protocolId)
    .select('v.definition')
    .executeTakeFirst();
  if (!row) throw new AppError('PROTOCOL_NOT_PUBLISHED');
  const def = row.definition as ProtocolDefinition;
  const form = await db.selectFrom('form_versions').where('id', '=', def.mainFormVersionId as number).select('definition').executeTakeFirstOrThrow();
  return { form: form.definition as FormDefinition, def };
}

/** Each row's values under the mapping, or the mapping's own problems (unknown or protected targets). */
function checkMapping(header: string[], form: FormDefinition, body: z.infer<typeof mappingBody>, lang: 'en' | 'es') {
  const fields = new Map(mappableFields(form).map((f) => [f.name, f]));
  const problems: Array<{ path: string; message: string }> = [];
  for (const [column, field] of Object.entries(body.mapping)) {
    if (!header.includes(column)) problems.push({ path: `mapping.${column}`, message: translate(lang, 'cases.import.unknownColumn', { column }) });
    if (!fields.has(field)) problems.push({ path: `mapping.${column}`, message: translate(lang, 'cases.import.protectedField', { field }) });
  }
  if (!header.includes(body.refColumn)) problems.push({ path: 'refColumn', message: translate(lang, 'cases.import.unknownColumn', { column: body.refColumn }) });
  if (problems.length) throw new AppError('VALIDATION', {}, problems);
  return fields;
}

function rowValues(record: Record<string, string>, mapping: Record<string, string>, fields: Map<string, FieldDef>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [column, name] of Object.entries(mapping)) {
    const v = coerce(fields.get(name) as FieldDef, record[column] ?? '');
    if (v === undefined) continue;
    const [group, child] = name.split('.');
    if (child) {
      const rows = (values[group] as Array<Record<string, unknown>> | undefined) ?? [{}];
      rows[0][child] = v;
      values[group] = rows;
    } else values[name] = v;
  }
  return values;
}

/**
 * Runs a claimed import from where its progress was last saved (the start of
 * the file on a first try): rows before that point were done by an earlier
 * try, and a row done after it is found by its reference and skipped.
 */
async function runImport(db: Db, env: EngineEnv, actor: Actor, jobId: number, lang: 'en' | 'es', signal?: AbortSignal): Promise<void> {
  const job = await db.selectFrom('case_imports').where('id', '=', jobId).selectAll().executeTakeFirstOrThrow();
  const { form } = await mainForm(db, job.protocol_id);
  const fields = new Map(mappableFields(form).map((f) => [f.name, f]));
  const { records } = csvRecords(parseCsv(job.content, { maxRows: MAX_ROWS + 1 }));
  const project = await db.selectFrom('projects').where('entity_id', '=', actor.entityId).orderBy('is_default', 'desc').orderBy('id').select('id').executeTakeFirstOrThrow();
  let { created, skipped, failed } = job;
  const errors: Array<{ line: number; field: string | null; message: string }> = [...job.errors];
  const flush = async (processed: number, status: 'running' | 'done') =>
    db
      .updateTable('case_imports')
      .set({ processed, created, skipped, failed, errors: JSON.stringify(errors.slice(0, MAX_ERRORS)), status, updated_at: new Date() })
      .where('id', '=', jobId)
      .where('status', '=', 'running')
      .execute();
  for (let i = Math.min(job.processed, records.length); i < records.length; i++) {
    // Another try owns the import now: stop here, leaving the record to it.
    if (signal?.aborted) throw new Error(`import ${jobId}: this try's claim is gone`);
    const record = records[i];
    const line = i + 2;
    const ref = (record[job.ref_column as string] ?? '').trim();
    try {
      if (!ref) throw new AppError('VALIDATION', {}, [{ path: job.ref_column as string, message: 'validation.required' }]);
      const done = await db.transaction().execute(async (trx) => {
        const exists = await trx.selectFrom('cases').where('entity_id', '=', actor.entityId).where('protocol_id', '=', job.protocol_id).where('external_ref', '=', ref).select('id').executeTakeFirst();
        if (exists) return false;
        const id = await createDraft(trx, actor, { protocolId: job.protocol_id, projectId: project.id, ownerId: actor.userId, data: rowValues(record, job.mapping ?? {}, fields), externalRef: ref });
        // The importer owns the imported cases: not one 'we received your application' to them per row.
        await submitCaseInTrx(trx, env, actor, id, { lang, announce: false });
        return true;
      });
      if (done) created++;
      else skipped++;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      failed++;
      const details = Array.isArray(e.details) ? (e.details as Array<{ path: string; message: string }>) : [];
      if (details.length) for (const d of details) errors.push({ line, field: d.path, message: translate(lang, d.message) });
      else errors.push({ line, field: null, message: translate(lang, e.key, e.params) });
    }
    if ((i + 1) % 50 === 0) await flush(i + 1, 'running');
  }
  await flush(records.length, 'done');
  env.afterMail?.();
}

/**
 * The actor a job acts for, as a session would have it: null when the user
 * is gone, inactive or locked, or their tenant inactive, or the user is not
 * of the record's tenant (the job then gives up instead of retrying).
 */
export async function actorForJob(db: Db, userId: number, entityId: number): Promise<Actor | null> {
  const user = await db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.entity_id')
    .where('u.id', '=', userId)
    .select(['u.entity_id', 'u.active', 'u.locked', 'e.active as entity_active'])
    .executeTakeFirst();
  if (!user || !user.active || user.locked || !user.entity_active || user.entity_id !== entityId) return null;
  try {
    return await actorForUser(db, userId);
  } catch (e) {
    if (e instanceof NoResultError) return null;
    throw e;
  }
}

/** The singletonKey of an import's jobs: one try of an import at a time. */
const importKey = (id: number) => `import-${id}`;

/** An import given up (its user blocked or gone, its protocol unpublished, every try failed): it may be run again. */
export async function giveUpImport(db: Db, id: number): Promise<void> {
  await db.updateTable('case_imports').set({ status: 'interrupted', updated_at: new Date() }).where('id', '=', id).where('status', '=', 'running').execute();
}

/**
 * The `case-import` job: { id, userId, lang } points at an import that
 * startImport claimed ('running'). Anything else (done, given up, another
 * user's) does nothing, so a second job for an import creates nothing twice.
 * A try that fails is retried and resumes; the last one, or one that fails
 * for good (an AppError: the protocol no longer published, ...), marks the
 * import interrupted. A try cut off with its process is dead-lettered once
 * the retries are spent (`case-import-failed`, giveUpImport).
 */
export async function importJob(db: Db, env: EngineEnv, log: FastifyBaseLogger, data: Record<string, unknown>, attempt: Attempt): Promise<void> {
  const id = Number(data.id);
  const lang = data.lang === 'en' ? 'en' : 'es';
  // Running again, now: its progress is fresh while a try works on it.
  const job = await db
    .updateTable('case_imports')
    .set({ status: 'running', updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', Number(data.userId))
    .where('status', '=', 'running')
    .returning(['id', 'entity_id', 'user_id'])
    .executeTakeFirst();
  if (!job) return;
  const actor = await actorForJob(db, job.user_id, job.entity_id);
  if (!actor) {
    log.warn({ importId: id }, 'case import given up: its user is blocked or gone');
    return giveUpImport(db, id);
  }
  try {
    await runImport(db, env, actor, id, lang, attempt.signal);
  } catch (e) {
    if (attempt.signal?.aborted) throw e;
    if (!(e instanceof AppError) && !attempt.lastTry) {
      log.warn({ err: e, importId: id, retryCount: attempt.retryCount }, 'case import failed; its job will retry');
      throw e;
    }
    log.error({ err: e, importId: id }, 'case import given up');
    await giveUpImport(db, id);
  }
}

export const importJobSchema = z.object({
  id: z.number(), protocolId: z.number(), fileName: z.string(), header: z.array(z.string()), total: z.number(), status: z.string(), processed: z.number(),
  created: z.number(), skipped: z.number(), failed: z.number(), errors: z.array(z.object({ line: z.number(), field: z.string().nullable(), message: z.string() })),
  fields: z.array(z.object({ name: z.string(), label: z.string(), required: z.boolean() })), sample: z.array(z.record(z.string(), z.string())),
});
export const dryRunSchema = z.object({ valid: z.number(), alreadyImported: z.number(), errors: z.array(z.object({ line: z.number(), field: z.string().nullable(), message: z.string() })) });
export const uploadQuery = z.strictObject({ protocolId: z.coerce.number().int().positive(), fileName: z.string().max(200).default('cases.csv') });
export { mappingBody };
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** An import as its screen shows it: the job, the form's fields it may fill, and the file's first rows. */
export async function importView(db: Db, actor: Actor, id: number): Promise<z.infer<typeof importJobSchema>> {
  const job = await loadJob(db, actor, id);
  const { form } = await mainForm(db, job.protocol_id);
  const sample = csvRecords(parseCsv(job.content, { maxRows: MAX_ROWS + 1 })).records.slice(0, 5);
  return {
    id: job.id, protocolId: job.protocol_id, fileName: job.file_name, header: job.header, total: job.total, status: job.status, processed: job.processed,
    created: job.created, skipped: job.skipped, failed: job.failed, errors: job.errors,
    fields: mappableFields(form).map((f) => ({ name: f.name, label: (actor.language === 'en' && f.label_en) || f.label, required: !!f.required })),
    sample,
  };
}

/** Keeps an uploaded CSV for a protocol of the tenant: read, its header checked, nothing imported yet. */
export async function uploadImport(db: Db, actor: Actor, input: { protocolId: number; fileName: string; body: Buffer }): Promise<number> {
  const protocol = await db.selectFrom('protocols').where('id', '=', input.protocolId).where('entity_id', '=', actor.entityId).select('id').executeTakeFirst();
  if (!protocol) throw new AppError('NOT_FOUND');
  await mainForm(db, protocol.id);
  let text: string;
  let header: string[];
  let total: number;
  try {
    text = decodeCsv(input.body);
    const parsed = csvRecords(parseCsv(text, { maxRows: MAX_ROWS + 1, maxColumns: 200 }));
    header = parsed.header;
    total = parsed.records.length;
  } catch (e) {
    if (e instanceof CsvError) throw new AppError('VALIDATION', {}, [{ path: 'file', message: `csv.${e.reason}` }]);
    throw e;
  }
  if (new Set(header).size !== header.length || header.some((h) => h === '')) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'cases.import.badHeader' }]);
  const row = await db
    .insertInto('case_imports')
    .values({ entity_id: actor.entityId, user_id: actor.userId, protocol_id: protocol.id, file_name: input.fileName, content: text, header: JSON.stringify(header), total })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Checks every row with the form, writing nothing but the mapping. */
export async function dryRunImport(db: Db, actor: Actor, id: number, body: z.infer<typeof mappingBody>, lang: 'en' | 'es'): Promise<z.infer<typeof dryRunSchema>> {
  const job = await loadJob(db, actor, id);
  const { form, def } = await mainForm(db, job.protocol_id);
  const fields = checkMapping(job.header, form, body, lang);
  const { records } = csvRecords(parseCsv(job.content, { maxRows: MAX_ROWS + 1 }));
  const options = await masterOptionValues(db, actor.entityId, form);
  const known = new Set(
    (await db.selectFrom('cases').where('entity_id', '=', actor.entityId).where('protocol_id', '=', job.protocol_id).where('external_ref', 'is not', null).select('external_ref').execute()).map((r) => r.external_ref),
  );
  const applicants = await applicantKeys(db, actor.entityId, job.protocol_id, def.duplicateFields);
  const duplicate = translate(lang, errorCatalog.DUPLICATE_CASE.key);
  const errors: Array<{ line: number; field: string | null; message: string }> = [];
  let valid = 0;
  let alreadyImported = 0;
  const seenRefs = new Set<string>();
  records.forEach((record, i) => {
    const line = i + 2;
    const ref = (record[body.refColumn] ?? '').trim();
    if (!ref) return void errors.push({ line, field: body.refColumn, message: translate(lang, 'validation.required') });
    if (seenRefs.has(ref)) return void errors.push({ line, field: body.refColumn, message: translate(lang, 'masters.duplicateInFile') });
    seenRefs.add(ref);
    if (known.has(ref)) return void alreadyImported++;
    const result = validateForm(form, rowValues(record, body.mapping, fields), { role: actor.role.code, options });
    if (!result.success) {
      for (const issue of result.issues) errors.push({ line, field: issue.path, message: translate(lang, issue.key, issue.params) });
      return;
    }
    // The rule the submission applies (commands.ts checkDuplicates): an applicant already in the protocol, or
    // earlier in this file (which the import will have created by then), is refused.
    const key = applicantKey(result.data, def.duplicateFields);
    if (key !== null && applicants.has(key)) return void errors.push({ line, field: null, message: duplicate });
    if (key !== null) applicants.add(key);
    valid++;
  });
  await db.updateTable('case_imports').set({ mapping: JSON.stringify(body.mapping), ref_column: body.refColumn, updated_at: new Date() }).where('id', '=', job.id).execute();
  return { valid, alreadyImported, errors: errors.slice(0, MAX_ERRORS) };
}

/** The values that identify an applicant (the protocol's duplicate fields), as one string; null when one is missing (no check then). */
function applicantKey(data: Record<string, unknown>, fields: string[]): string | null {
  if (fields.length === 0) return null;
  const values = fields.map((f) => data[f]);
  if (values.some((v) => v === undefined || v === null || v === '')) return null;
  return JSON.stringify(values);
}

/** The applicant keys of the protocol's submitted cases (the JSON values as stored, compared as the submission's containment does). */
async function applicantKeys(db: Db, entityId: number, protocolId: number, fields: string[]): Promise<Set<string>> {
  const keys = new Set<string>();
  if (fields.length === 0) return keys;
  const rows = await db
    .selectFrom('cases')
    .where('entity_id', '=', entityId)
    .where('protocol_id', '=', protocolId)
    .where('state', '<>', 'DRAFT')
    .select(sql<unknown[]>`jsonb_build_array(${sql.join(fields.map((f) => sql`data -> ${f}`))})`.as('values'))
    .execute();
  for (const r of rows) {
    const key = applicantKey(Object.fromEntries(fields.map((f, i) => [f, r.values[i]])), fields);
    if (key !== null) keys.add(key);
  }
  return keys;
}

/** Claims the import (a second click while it runs starts nothing) and gives it a job. */
export async function startImport(db: Db, jobs: Jobs | null, actor: Actor, id: number, body: z.infer<typeof mappingBody>, lang: 'en' | 'es'): Promise<void> {
  const job = await loadJob(db, actor, id);
  const { form } = await mainForm(db, job.protocol_id);
  checkMapping(job.header, form, body, lang);
  const queue = caseJobs(jobs);
  const claimed = await db
    .updateTable('case_imports')
    .set({ status: 'running', mapping: JSON.stringify(body.mapping), ref_column: body.refColumn, processed: 0, created: 0, skipped: 0, failed: 0, errors: '[]', updated_at: new Date() })
    .where('id', '=', job.id)
    .where('status', '<>', 'running')
    .returning('id')
    .executeTakeFirst();
  if (!claimed) throw new AppError('CONFLICT');
  try {
    await queue.send(QUEUES.caseImport, { id: job.id, userId: actor.userId, lang }, { singletonKey: importKey(job.id) });
  } catch (e) {
    await giveUpImport(db, job.id);
    throw e;
  }
}

/**
 * A claimed import without a live job (its process stopped between the claim
 * and the send, or the job is gone) would say 'running' for ever: still
 * needed next to the dead letter, which only sees jobs that exist. Left 10
 * minutes (a try saves its progress every 50 rows) and then checked with
 * pg-boss, so an import waiting in the queue behind others is left alone.
 */
export async function failInterruptedImports(db: Db, jobs: Jobs | null): Promise<void> {
  const stale = await db.selectFrom('case_imports').where('status', '=', 'running').where('updated_at', '<', sql<Date>`now() - interval '10 minutes'`).select('id').execute();
  for (const { id } of stale) {
    const live = jobs ? (await jobs.boss.findJobs(QUEUES.caseImport, { key: importKey(id) })).some((j) => ['created', 'retry', 'active'].includes(j.state)) : false;
    if (!live) await db.updateTable('case_imports').set({ status: 'interrupted' }).where('id', '=', id).where('status', '=', 'running').where('updated_at', '<', sql<Date>`now() - interval '10 minutes'`).execute();
  }
}
