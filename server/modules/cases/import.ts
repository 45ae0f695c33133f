/**
 * CSV import of cases: upload, map columns to the main form's fields, a dry
 * run that checks every row with the shared validator, then the run in the
 * background with progress. Each row is its own transaction, so a bad row is
 * reported and the others go on; a row whose external reference was imported
 * before is skipped, so running a file twice creates nothing twice.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { FieldDef, FormDefinition } from '../../../core/forms/definition.js';
import { scopeFields, validateForm } from '../../../core/forms/validator.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { CsvError, csvRecords, decodeCsv, parseCsv } from '../../lib/csv.js';
import { actorOf } from '../../plugins/session.js';
import type { Actor } from '../acl/policy.js';
import { masterOptionValues } from '../forms/options.js';
import type { EngineEnv } from '../workflow/engine.js';
import { createDraft, submitCaseInTrx } from './service.js';

const MAX_ROWS = 20_000;
const MAX_ERRORS = 1_000;
const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
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

export async function runImport(db: Db, env: EngineEnv, actor: Actor, jobId: number, lang: 'en' | 'es'): Promise<void> {
  const job = await db.selectFrom('case_imports').where('id', '=', jobId).selectAll().executeTakeFirstOrThrow();
  const { form } = await mainForm(db, job.protocol_id);
  const fields = new Map(mappableFields(form).map((f) => [f.name, f]));
  const { records } = csvRecords(parseCsv(job.content, { maxRows: MAX_ROWS + 1 }));
  const project = await db.selectFrom('projects').where('entity_id', '=', actor.entityId).orderBy('is_default', 'desc').orderBy('id').select('id').executeTakeFirstOrThrow();
  let created = 0;
  let skipped = 0;
  let failed = 0;
  const errors: Array<{ line: number; field: string | null; message: string }> = [];
  const flush = async (processed: number, status: 'running' | 'done') =>
    db
      .updateTable('case_imports')
      .set({ processed, created, skipped, failed, errors: JSON.stringify(errors.slice(0, MAX_ERRORS)), status, updated_at: new Date() })
      .where('id', '=', jobId)
      .execute();
  for (const [i, record] of records.entries()) {
    const line = i + 2;
    const ref = (record[job.ref_column as string] ?? '').trim();
    try {
      if (!ref) throw new AppError('VALIDATION', {}, [{ path: job.ref_column as string, message: 'validation.required' }]);
      const done = await db.transaction().execute(async (trx) => {
        const exists = await trx.selectFrom('cases').where('entity_id', '=', actor.entityId).where('protocol_id', '=', job.protocol_id).where('external_ref', '=', ref).select('id').executeTakeFirst();
        if (exists) return false;
        const id = await createDraft(trx, actor, { protocolId: job.protocol_id, projectId: project.id, ownerId: actor.userId, data: rowValues(record, job.mapping ?? {}, fields), externalRef: ref });
        await submitCaseInTrx(trx, env, actor, id, { lang });
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

const jobView = z.object({
  id: z.number(), protocolId: z.number(), fileName: z.string(), header: z.array(z.string()), total: z.number(), status: z.string(), processed: z.number(),
  created: z.number(), skipped: z.number(), failed: z.number(), errors: z.array(z.object({ line: z.number(), field: z.string().nullable(), message: z.string() })),
  fields: z.array(z.object({ name: z.string(), label: z.string(), required: z.boolean() })), sample: z.array(z.record(z.string(), z.string())),
});

export const caseImportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser(['text/csv', 'application/csv'], { parseAs: 'buffer', bodyLimit: 20 * 1024 * 1024 }, (_req, body, done) => done(null, body));
  const view = async (actor: Actor, id: number) => {
    const job = await loadJob(app.db, actor, id);
    const { form } = await mainForm(app.db, job.protocol_id);
    const sample = csvRecords(parseCsv(job.content, { maxRows: MAX_ROWS + 1 })).records.slice(0, 5);
    return {
      id: job.id, protocolId: job.protocol_id, fileName: job.file_name, header: job.header, total: job.total, status: job.status, processed: job.processed,
      created: job.created, skipped: job.skipped, failed: job.failed, errors: job.errors,
      fields: mappableFields(form).map((f) => ({ name: f.name, label: (actor.language === 'en' && f.label_en) || f.label, required: !!f.required })),
      sample,
    };
  };

  app.post(
    '/api/cases/imports',
    {
      config: { access: { target: 'admin_cases', action: 'update' } },
      bodyLimit: 20 * 1024 * 1024,
      schema: {
        tags: ['cases'],
        summary: 'Upload a CSV of cases (the raw file as a text/csv body) for a protocol',
        querystring: z.strictObject({ protocolId: z.coerce.number().int().positive(), fileName: z.string().max(200).default('cases.csv') }),
        response: { 201: jobView },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      if (!Buffer.isBuffer(request.body)) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
      const protocol = await app.db.selectFrom('protocols').where('id', '=', request.query.protocolId).where('entity_id', '=', actor.entityId).select('id').executeTakeFirst();
      if (!protocol) throw new AppError('NOT_FOUND');
      await mainForm(app.db, protocol.id);
      let text: string;
      let header: string[];
      let total: number;
      try {
        text = decodeCsv(request.body);
        const parsed = csvRecords(parseCsv(text, { maxRows: MAX_ROWS + 1, maxColumns: 200 }));
        header = parsed.header;
        total = parsed.records.length;
      } catch (e) {
        if (e instanceof CsvError) throw new AppError('VALIDATION', {}, [{ path: 'file', message: `csv.${e.reason}` }]);
        throw e;
      }
      if (new Set(header).size !== header.length || header.some((h) => h === '')) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'cases.import.badHeader' }]);
      const row = await app.db
        .insertInto('case_imports')
        .values({ entity_id: actor.entityId, user_id: actor.userId, protocol_id: protocol.id, file_name: request.query.fileName, content: text, header: JSON.stringify(header), total })
        .returning('id')
        .executeTakeFirstOrThrow();
      return reply.status(201).send(await view(actor, row.id));
    },
  );

  app.get('/api/cases/imports/:id', { config: { access: { target: 'admin_cases', action: 'update' } }, schema: { tags: ['cases'], summary: 'An import and its progress', params: idParams, response: { 200: jobView } } }, async (request) =>
    view(actorOf(request), request.params.id),
  );

  app.post(
    '/api/cases/imports/:id/dry-run',
    {
      config: { access: { target: 'admin_cases', action: 'update' } },
      schema: {
        tags: ['cases'],
        summary: 'Check every row with the form, writing nothing',
        params: idParams,
        body: mappingBody,
        response: { 200: z.object({ valid: z.number(), alreadyImported: z.number(), errors: z.array(z.object({ line: z.number(), field: z.string().nullable(), message: z.string() })) }) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const job = await loadJob(app.db, actor, request.params.id);
      const { form } = await mainForm(app.db, job.protocol_id);
      const fields = checkMapping(job.header, form, request.body, request.lang);
      const { records } = csvRecords(parseCsv(job.content, { maxRows: MAX_ROWS + 1 }));
      const options = await masterOptionValues(app.db, actor.entityId, form);
      const known = new Set(
        (await app.db.selectFrom('cases').where('entity_id', '=', actor.entityId).where('protocol_id', '=', job.protocol_id).where('external_ref', 'is not', null).select('external_ref').execute()).map((r) => r.external_ref),
      );
      const errors: Array<{ line: number; field: string | null; message: string }> = [];
      let valid = 0;
      let alreadyImported = 0;
      const seenRefs = new Set<string>();
      records.forEach((record, i) => {
        const line = i + 2;
        const ref = (record[request.body.refColumn] ?? '').trim();
        if (!ref) return void errors.push({ line, field: request.body.refColumn, message: translate(request.lang, 'validation.required') });
        if (seenRefs.has(ref)) return void errors.push({ line, field: request.body.refColumn, message: translate(request.lang, 'masters.duplicateInFile') });
        seenRefs.add(ref);
        if (known.has(ref)) return void alreadyImported++;
        const result = validateForm(form, rowValues(record, request.body.mapping, fields), { role: actor.role.code, options });
        if (result.success) valid++;
        else for (const issue of result.issues) errors.push({ line, field: issue.path, message: translate(request.lang, issue.key, issue.params) });
      });
      await app.db.updateTable('case_imports').set({ mapping: JSON.stringify(request.body.mapping), ref_column: request.body.refColumn, updated_at: new Date() }).where('id', '=', job.id).execute();
      return { valid, alreadyImported, errors: errors.slice(0, MAX_ERRORS) };
    },
  );

  app.post(
    '/api/cases/imports/:id/run',
    {
      config: { access: { target: 'admin_cases', action: 'update' } },
      schema: { tags: ['cases'], summary: 'Import the rows in the background; follow it with GET', params: idParams, body: mappingBody, response: { 202: jobView } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const job = await loadJob(app.db, actor, request.params.id);
      const { form } = await mainForm(app.db, job.protocol_id);
      checkMapping(job.header, form, request.body, request.lang);
      // Claim the job: a second click while it runs starts nothing.
      const claimed = await app.db
        .updateTable('case_imports')
        .set({ status: 'running', mapping: JSON.stringify(request.body.mapping), ref_column: request.body.refColumn, processed: 0, created: 0, skipped: 0, failed: 0, errors: '[]', updated_at: new Date() })
        .where('id', '=', job.id)
        .where('status', '<>', 'running')
        .returning('id')
        .executeTakeFirst();
      if (!claimed) throw new AppError('CONFLICT');
      const lang = request.lang;
      runImport(app.db, app.engine, actor, job.id, lang).catch(async (e) => {
        app.log.error({ err: e }, 'case import failed');
        await app.db.updateTable('case_imports').set({ status: 'interrupted', updated_at: new Date() }).where('id', '=', job.id).execute();
      });
      return reply.status(202).send(await view(actor, job.id));
    },
  );

  // An import cut off by a stop can be run again: rows already imported are skipped.
  app.addHook('onReady', async () => {
    await app.db.updateTable('case_imports').set({ status: 'interrupted' }).where('status', '=', 'running').where('updated_at', '<', sql<Date>`now() - interval '10 minutes'`).execute();
  });
};
