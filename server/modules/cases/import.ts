/**
 * Bulk import of cases (issue 17): a CSV or Excel file is streamed into
 * `case_import_rows` (one row per line), its columns are mapped to the main
 * form's fields, a dry run checks every row with the very rules the run
 * applies (`checkRow`), and the run is a pg-boss job (queue `case-import`,
 * server/jobs/boss.ts) that opens the valid rows in batches through
 * workflow/bulk.ts: a few statements per thousand cases, each batch one
 * transaction with its rows' outcomes. Rows whose reference was imported
 * before are skipped, so a file run twice creates nothing twice; a try cut
 * off resumes at the first row without an outcome. All or nothing: every row
 * is checked first, and the cases are made in one transaction, or none.
 * When it ends, each assignee hears once how many tasks it gave them, and
 * the importer that it finished.
 */
import { unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { NoResultError, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { newApplicationsOpen } from '../../../core/dates.js';
import { errorCatalog } from '../../../core/errors.js';
import type { FieldDef, FormDefinition } from '../../../core/forms/definition.js';
import { scopeFields, validateForm } from '../../../core/forms/validator.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type Lang, translate } from '../../i18n.js';
import { type Attempt, caseJobs, type Jobs, QUEUES } from '../../jobs/boss.js';
import { toCsv } from '../../lib/csv.js';
import { openTable, spoolToFile, TABLE_LIMITS, TableError } from '../../lib/tabular.js';
import type { Actor } from '../acl/policy.js';
import { actorForUser } from '../auth/sessions.js';
import { masterOptionValues } from '../forms/options.js';
import { notifyImport } from '../notifications/commands.js';
import { type BulkCase, type BulkTarget, openCasesInBulk, type Reserve, reserveApart, reserveIn } from '../workflow/bulk.js';
import type { EngineEnv } from '../workflow/engine.js';

type Trx = Transaction<Database>;
type RowError = { line: number; field: string | null; message: string };

/** Rows per batch: one transaction of the run, one read of the dry run, one insert of the upload. */
const BATCH = 1000;
const MAX_ERRORS = 1_000;
/** Rows checked between two turns of the event loop. */
const YIELD_EVERY = 250;
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));
export const IMPORT_MODES = ['valid_rows', 'all_or_nothing'] as const;
const mappingBody = z.object({
  /** File column -> main-form field name */
  mapping: z.record(z.string().max(200), z.string().max(63)).refine((m) => Object.keys(m).length <= 200),
  /** The column that identifies a row across imports (idempotency). */
  refColumn: z.string().max(200),
  /** Import the valid rows and report the others, or import only when every row is valid. */
  mode: z.enum(IMPORT_MODES).default('valid_rows'),
});
type Mapping = z.infer<typeof mappingBody>;

const SCALAR = (f: FieldDef) => !['file', 'repeat', 'static', 'stepper', 'step'].includes(f.type);

/**
 * What a column may fill: the main form's scalar fields, and the scalar
 * fields of a repeat group's first row as `group.field` (a flat file holds
 * one row of each group, e.g. the applicant as first household member).
 */
function mappableFields(form: FormDefinition): FieldDef[] {
  return scopeFields(form.fields).flatMap((f) =>
    f.type === 'repeat' ? scopeFields(f.children ?? []).filter(SCALAR).map((c) => ({ ...c, name: `${f.name}.${c.name}`, label: `${f.label} / ${c.label}`, label_en: f.label_en && c.label_en ? `${f.label_en} / ${c.label_en}` : undefined })) : SCALAR(f) ? [f] : [],
  );
}

/** A cell as the field's type expects it (text stays text: a formula-looking cell is a string). */
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
    case 'party': {
      // "Name <email>" (a data tape's cell), or an address alone; the field's role, when it fixes one.
      const m = /^(.*?)\s*<([^<>\s]+)>$/.exec(v);
      return m ? { role: field.partyRole, name: m[1].trim(), email: m[2] } : { role: field.partyRole, name: v, email: v };
    }
    default:
      return v;
  }
}

const importOf = (db: Db, actor: Actor) => db.selectFrom('case_imports').where('entity_id', '=', actor.entityId);

/** One of the tenant's imports; `own`: only the one who uploaded it may map, check and run it. */
async function loadImport(db: Db, actor: Actor, id: number, own = true) {
  const job = await importOf(db, actor).where('id', '=', id).$if(own, (q) => q.where('user_id', '=', actor.userId)).selectAll().executeTakeFirst();
  if (!job) throw new AppError('NOT_FOUND');
  return job;
}

async function mainForm(db: Db | Trx, protocolId: number): Promise<{ form: FormDefinition; def: ProtocolDefinition; versionId: number; version: number }> {
  const row = await db
    .selectFrom('protocols as p')
    .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .where('p.id', '=', protocolId)
    .select(['v.definition', 'v.id', 'v.version'])
    .executeTakeFirst();
  if (!row) throw new AppError('PROTOCOL_NOT_PUBLISHED');
  const def = row.definition as ProtocolDefinition;
  if (!def.mainFormVersionId) throw new AppError('PROTOCOL_NOT_PUBLISHED');
  const form = await db.selectFrom('form_versions').where('id', '=', def.mainFormVersionId).select('definition').executeTakeFirstOrThrow();
  return { form: form.definition as FormDefinition, def, versionId: row.id, version: row.version };
}

/** The mapping's own problems (unknown columns, fields a file may not fill), before any row is read. */
function checkMapping(header: string[], form: FormDefinition, body: Pick<Mapping, 'mapping' | 'refColumn'>, lang: Lang) {
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

// ---------------------------------------------------------------- the rules of a row

/** The values that identify an applicant (the protocol's duplicate fields), as one string; null when one is missing (no check then). */
function applicantKey(data: Record<string, unknown>, fields: string[]): string | null {
  if (fields.length === 0) return null;
  const values = fields.map((f) => data[f]);
  if (values.some((v) => v === undefined || v === null || v === '')) return null;
  return JSON.stringify(values);
}
const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * What a run or a dry run knows while it goes through a file: the form and
 * protocol, the references imported before, and the applicants the
 * protocol's cases hold (updated as rows are accepted, so a row is checked
 * against the earlier rows of the file as one-by-one submissions would be).
 */
interface RowContext {
  lang: Lang;
  header: string[];
  mapping: Array<{ index: number; field: FieldDef; name: string }>;
  refIndex: number;
  form: FormDefinition;
  def: ProtocolDefinition;
  options: Record<string, string[]>;
  role: string;
  closed: boolean;
  knownRefs: Set<string>;
  seenRefs: Set<string>;
  applicants: Set<string>;
  lastValues: Set<string>;
  names: Set<string>;
}

async function rowContext(db: Db | Trx, actor: Actor, job: { protocol_id: number; header: string[]; id: number }, body: Pick<Mapping, 'mapping' | 'refColumn'>, lang: Lang, form: FormDefinition, def: ProtocolDefinition): Promise<RowContext> {
  const fields = checkMapping(job.header, form, body, lang);
  const project = await db.selectFrom('projects').where('entity_id', '=', actor.entityId).orderBy('is_default', 'desc').orderBy('id').select(['new_applications_deadline', 'allow_new_applications']).executeTakeFirstOrThrow();
  const dup = def.duplicateFields;
  const last = dup[dup.length - 1];
  const cases = await db
    .selectFrom('cases')
    .where('entity_id', '=', actor.entityId)
    .where('protocol_id', '=', job.protocol_id)
    .select(['external_ref', 'state', sql<unknown[]>`jsonb_build_array(${sql.join([...dup, 'firstName', 'lastName'].map((f) => sql`data -> ${f}`))})`.as('values')])
    .execute();
  const ctx: RowContext = {
    lang,
    header: job.header,
    mapping: Object.entries(body.mapping).map(([column, name]) => ({ index: job.header.indexOf(column), field: fields.get(name) as FieldDef, name })),
    refIndex: job.header.indexOf(body.refColumn),
    form,
    def,
    options: await masterOptionValues(db as Db, actor.entityId, form),
    role: actor.role.code,
    closed: !newApplicationsOpen({ newApplicationsDeadline: project.new_applications_deadline, allowNewApplications: project.allow_new_applications }, new Date()),
    knownRefs: new Set(),
    seenRefs: new Set(),
    applicants: new Set(),
    lastValues: new Set(),
    names: new Set(),
  };
  for (const c of cases) {
    if (c.external_ref !== null) ctx.knownRefs.add(c.external_ref);
    if (c.state === 'DRAFT') continue;
    const data = Object.fromEntries(dup.map((f, i) => [f, c.values[i]]));
    const key = applicantKey(data, dup);
    if (key !== null) ctx.applicants.add(key);
    if (last !== undefined && present(data[last])) ctx.lastValues.add(JSON.stringify(data[last]));
    const [first, lastName] = c.values.slice(dup.length);
    if (present(first) && present(lastName)) ctx.names.add(JSON.stringify([first, lastName]));
  }
  // A resumed run: the rows done by an earlier try count as earlier rows of the file.
  const done = await db.selectFrom('case_import_rows').where('import_id', '=', job.id).where('outcome', 'is not', null).select(sql<string>`cells ->> ${ctx.refIndex}`.as('ref')).execute();
  for (const d of done) if (d.ref) ctx.seenRefs.add(d.ref.trim());
  return ctx;
}

type Checked =
  | { kind: 'ok'; line: number; ref: string; data: Record<string, unknown>; possibleDuplicated: boolean }
  | { kind: 'skip'; line: number; ref: string }
  | { kind: 'bad'; line: number; errors: Array<{ field: string | null; message: string }> };

/**
 * One row under the rules a submission applies (commands.ts submitCaseInTrx):
 * applications open, a reference given once, the form's validation, required
 * documents, an applicant not already in the protocol (refused) or nearly so
 * (flagged). Shared by the dry run and the run, so a dry run that calls a row
 * valid is followed by a run that imports it. An accepted row is remembered.
 */
function checkRow(ctx: RowContext, row: { line: number; cells: string[] }): Checked {
  const { lang, line } = { lang: ctx.lang, line: row.line };
  const bad = (field: string | null, message: string): Checked => ({ kind: 'bad', line, errors: [{ field, message }] });
  const extra = row.cells.slice(ctx.header.length).filter((c) => c.trim() !== '').length;
  if (extra > 0) return bad(null, translate(lang, 'bulkImport.extraCells', { count: extra }));
  const refColumn = ctx.header[ctx.refIndex] as string;
  const ref = (row.cells[ctx.refIndex] ?? '').trim();
  if (!ref) return bad(refColumn, translate(lang, 'validation.required'));
  if (ctx.seenRefs.has(ref)) return bad(refColumn, translate(lang, 'masters.duplicateInFile'));
  ctx.seenRefs.add(ref);
  if (ctx.knownRefs.has(ref)) return { kind: 'skip', line, ref };
  if (ctx.closed) return bad(null, translate(lang, errorCatalog.APPLICATIONS_CLOSED.key));
  const values: Record<string, unknown> = {};
  for (const m of ctx.mapping) {
    const v = coerce(m.field, row.cells[m.index] ?? '');
    if (v === undefined) continue;
    const [group, child] = m.name.split('.');
    if (child) {
      const rows = (values[group] as Array<Record<string, unknown>> | undefined) ?? [{}];
      (rows[0] as Record<string, unknown>)[child] = v;
      values[group] = rows;
    } else values[m.name] = v;
  }
  const result = validateForm(ctx.form, values, { role: ctx.role, options: ctx.options });
  if (!result.success) return { kind: 'bad', line, errors: result.issues.map((i) => ({ field: i.path, message: translate(lang, i.key, i.params) })) };
  const data = result.data;
  const { def } = ctx;
  if (def.requiredDocumentsField) {
    const files = data[def.requiredDocumentsField];
    if (!Array.isArray(files) || files.length === 0) return bad(null, translate(lang, errorCatalog.DOCUMENTS_REQUIRED.key));
  }
  const dup = def.duplicateFields;
  const key = applicantKey(data, dup);
  if (key !== null && ctx.applicants.has(key)) return bad(null, translate(lang, errorCatalog.DUPLICATE_CASE.key));
  // Flagged as the submission flags it: the most specific field equal, or the same first and last name.
  const last = dup[dup.length - 1];
  const near = key !== null && ((last !== undefined && ctx.lastValues.has(JSON.stringify(data[last]))) || (present(data.firstName) && present(data.lastName) && ctx.names.has(JSON.stringify([data.firstName, data.lastName]))));
  if (key !== null) ctx.applicants.add(key);
  if (last !== undefined && present(data[last])) ctx.lastValues.add(JSON.stringify(data[last]));
  if (present(data.firstName) && present(data.lastName)) ctx.names.add(JSON.stringify([data.firstName, data.lastName]));
  return { kind: 'ok', line, ref, data, possibleDuplicated: near };
}

/** The import's rows after `afterLine`, a batch at a time (only those without an outcome with `pending`). */
async function* importRows(db: Db | Trx, importId: number, options: { pending?: boolean } = {}): AsyncGenerator<Array<{ line: number; cells: string[] }>> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('case_import_rows')
      .where('import_id', '=', importId)
      .where('line', '>', after)
      .$if(!!options.pending, (q) => q.where('outcome', 'is', null))
      .orderBy('line')
      .limit(BATCH)
      .select(['line', 'cells'])
      .execute();
    if (rows.length === 0) return;
    yield rows;
    after = (rows[rows.length - 1] as { line: number }).line;
  }
}

// ---------------------------------------------------------------- upload, view, list

export const uploadQuery = z.strictObject({ protocolId: z.coerce.number().int().positive(), fileName: z.string().max(200).default('cases.csv') });
export { mappingBody };

const rowErrorSchema = z.object({ line: z.number(), field: z.string().nullable(), message: z.string() });
export const importSummarySchema = z.object({
  id: z.number(), protocolId: z.number(), protocolName: z.string(), fileName: z.string(), kind: z.enum(['csv', 'xlsx']), userName: z.string(), mine: z.boolean(),
  mode: z.enum(IMPORT_MODES), status: z.enum(['uploaded', 'running', 'done', 'interrupted', 'rejected']),
  total: z.number(), processed: z.number(), created: z.number(), skipped: z.number(), failed: z.number(),
  createdAt: z.date(), startedAt: z.date().nullable(), finishedAt: z.date().nullable(), rowsPerSecond: z.number().nullable(), secondsLeft: z.number().nullable(),
});
export const importJobSchema = importSummarySchema.extend({
  header: z.array(z.string()),
  errors: z.array(rowErrorSchema),
  fields: z.array(z.object({ name: z.string(), label: z.string(), required: z.boolean() })),
  sample: z.array(z.record(z.string(), z.string())),
});
export const importListSchema = z.object({ items: z.array(importSummarySchema), total: z.number() });
export const importListQuery = z.strictObject({ page: z.coerce.number().int().min(1).max(10_000).default(1), pageSize: z.coerce.number().int().min(1).max(100).default(20) });
export const dryRunSchema = z.object({ valid: z.number(), alreadyImported: z.number(), errors: z.array(rowErrorSchema) });

/** Where an upload waits while it is read (it is in the database once the answer is given). */
const SPOOL_DIR = path.join(os.tmpdir(), 'casebook-imports');

/** A file refused, with what the user can do: the limit or the line named. */
function fileProblem(e: TableError, lang: Lang): AppError {
  const params = { line: e.line ?? 0, rows: TABLE_LIMITS.maxRows.toLocaleString(lang === 'es' ? 'es' : 'en'), mb: TABLE_LIMITS.maxBytes / 1024 / 1024, columns: TABLE_LIMITS.maxColumns };
  return new AppError(e.reason === 'tooLarge' ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION', {}, [{ path: 'file', message: translate(lang, `bulkImport.file.${e.reason}`, params) }]);
}

/**
 * Reads an upload into a new import of a protocol of the tenant: spooled to
 * a temporary file (the size checked as it arrives), its kind and encoding
 * found by content, its rows written in batches. A refused file leaves
 * nothing behind.
 */
export async function uploadImport(db: Db, actor: Actor, input: { protocolId: number; fileName: string; body: NodeJS.ReadableStream | AsyncIterable<Uint8Array> }, lang: Lang): Promise<number> {
  const protocol = await db.selectFrom('protocols').where('id', '=', input.protocolId).where('entity_id', '=', actor.entityId).select('id').executeTakeFirst();
  if (!protocol) throw new AppError('NOT_FOUND');
  await mainForm(db, protocol.id);
  let spooled: { path: string } | null = null;
  try {
    spooled = await spoolToFile(input.body, SPOOL_DIR);
    const table = await openTable(spooled.path);
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('case_imports')
        .values({ entity_id: actor.entityId, user_id: actor.userId, protocol_id: protocol.id, file_name: input.fileName, kind: table.kind, header: JSON.stringify(table.header), total: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      let total = 0;
      let lines: number[] = [];
      let cells: string[] = [];
      // One statement per batch over two arrays (a parameter per column, not per value).
      const flush = async () => {
        if (lines.length) await sql`insert into case_import_rows (import_id, line, cells) select ${row.id}, u.line, u.cells::jsonb from unnest(${lines}::int[], ${cells}::text[]) as u(line, cells)`.execute(trx);
        lines = [];
        cells = [];
      };
      for await (const r of table.rows()) {
        lines.push(r.line);
        cells.push(JSON.stringify(r.cells.map((c) => c.replaceAll('\u0000', ''))));
        total++;
        if (lines.length === BATCH) await flush();
      }
      await flush();
      await trx.updateTable('case_imports').set({ total }).where('id', '=', row.id).execute();
      return row.id;
    });
  } catch (e) {
    if (e instanceof TableError) throw fileProblem(e, lang);
    throw e;
  } finally {
    if (spooled) await unlink(spooled.path).catch(() => {});
  }
}

const summaryColumns = [
  'i.id', 'i.protocol_id', 'p.name as protocol_name', 'i.file_name', 'i.kind', 'u.name as user_name', 'i.user_id', 'i.mode', 'i.status',
  'i.total', 'i.processed', 'i.created', 'i.skipped', 'i.failed', 'i.created_at', 'i.started_at', 'i.finished_at',
] as const;
const summaries = (db: Db, actor: Actor) =>
  db
    .selectFrom('case_imports as i')
    .innerJoin('protocols as p', 'p.id', 'i.protocol_id')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .where('i.entity_id', '=', actor.entityId)
    .select([...summaryColumns]);
type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>['executeTakeFirstOrThrow']>>;

function toSummary(actor: Actor, r: SummaryRow, now = Date.now()): z.infer<typeof importSummarySchema> {
  // The rate of this run: rows done since it started; the time left at that rate.
  const seconds = r.started_at ? Math.max(0.001, ((r.finished_at?.getTime() ?? now) - r.started_at.getTime()) / 1000) : null;
  const rate = seconds && r.processed > 0 ? Math.round(r.processed / seconds) : null;
  return {
    id: r.id, protocolId: r.protocol_id, protocolName: r.protocol_name, fileName: r.file_name, kind: r.kind, userName: r.user_name, mine: r.user_id === actor.userId,
    mode: r.mode, status: r.status, total: r.total, processed: r.processed, created: r.created, skipped: r.skipped, failed: r.failed,
    createdAt: r.created_at, startedAt: r.started_at, finishedAt: r.finished_at,
    rowsPerSecond: rate,
    secondsLeft: r.status === 'running' && rate ? Math.ceil((r.total - r.processed) / rate) : null,
  };
}

/** The tenant's imports, newest first. */
export async function listImports(db: Db, actor: Actor, q: z.infer<typeof importListQuery>): Promise<z.infer<typeof importListSchema>> {
  const [rows, count] = await Promise.all([
    summaries(db, actor).orderBy('i.id', 'desc').limit(q.pageSize).offset((q.page - 1) * q.pageSize).execute(),
    db.selectFrom('case_imports').where('entity_id', '=', actor.entityId).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((r) => toSummary(actor, r)), total: Number(count.n) };
}

/** An import as its screen shows it: its progress, the first rejected rows, the form's fields it may fill, and the file's first rows. */
export async function importView(db: Db, actor: Actor, id: number): Promise<z.infer<typeof importJobSchema>> {
  const r = await summaries(db, actor).where('i.id', '=', id).select(['i.header', 'i.errors']).executeTakeFirst();
  if (!r) throw new AppError('NOT_FOUND');
  const { form } = await mainForm(db, r.protocol_id).catch(() => ({ form: { fields: [] } as unknown as FormDefinition }));
  const [first, rejected] = await Promise.all([
    db.selectFrom('case_import_rows').where('import_id', '=', id).orderBy('line').limit(5).select('cells').execute(),
    db.selectFrom('case_import_rows').where('import_id', '=', id).where('outcome', '=', 'failed').orderBy('line').limit(MAX_ERRORS).select(['line', 'errors']).execute(),
  ]);
  const errors: RowError[] = [...r.errors, ...rejected.flatMap((x) => (x.errors ?? []).map((e) => ({ line: x.line, field: e.field, message: e.message })))].slice(0, MAX_ERRORS);
  return {
    ...toSummary(actor, r),
    header: r.header,
    errors,
    fields: mappableFields(form).map((f) => ({ name: f.name, label: (actor.language === 'en' && f.label_en) || f.label, required: !!f.required })),
    sample: first.map((x) => Object.fromEntries(r.header.map((h, i) => [h, (x.cells[i] ?? '').trim()]))),
  };
}

/** The rejected rows as a CSV to fix and import again: the file's columns, then the line and the reasons. */
export async function rejectedRowsCsv(db: Db, actor: Actor, id: number, lang: Lang): Promise<{ name: string; body: string }> {
  const job = await loadImport(db, actor, id, false);
  const rows = await db.selectFrom('case_import_rows').where('import_id', '=', id).where('outcome', '=', 'failed').orderBy('line').select(['line', 'cells', 'errors']).execute();
  const header = [...job.header, translate(lang, 'bulkImport.rejected.line'), translate(lang, 'bulkImport.rejected.reasons')];
  const body = toCsv(
    header,
    rows.map((r) => [...job.header.map((_, i) => r.cells[i] ?? ''), r.line, (r.errors ?? []).map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ')]),
  );
  return { name: `${job.file_name.replace(/\.(csv|xlsx)$/i, '')}-${translate(lang, 'bulkImport.rejected.suffix')}.csv`, body };
}

// ---------------------------------------------------------------- dry run

/** Checks every row with the run's rules, writing nothing but the mapping. Yields to other requests between batches. */
export async function dryRunImport(db: Db, actor: Actor, id: number, body: Mapping, lang: Lang): Promise<z.infer<typeof dryRunSchema>> {
  const job = await loadImport(db, actor, id);
  const { form, def } = await mainForm(db, job.protocol_id);
  const ctx = await rowContext(db, actor, { ...job, id: 0 }, body, lang, form, def);
  const errors: RowError[] = [];
  let valid = 0;
  let alreadyImported = 0;
  for await (const batch of importRows(db, job.id)) {
    for (let i = 0; i < batch.length; i++) {
      const r = checkRow(ctx, batch[i] as { line: number; cells: string[] });
      if (r.kind === 'ok') valid++;
      else if (r.kind === 'skip') alreadyImported++;
      else if (errors.length < MAX_ERRORS) errors.push(...r.errors.map((e) => ({ line: r.line, ...e })));
      // Other requests get their turn every few hundred rows (some 20 ms of checking).
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToOthers();
    }
    await yieldToOthers();
  }
  await db.updateTable('case_imports').set({ mapping: JSON.stringify(body.mapping), ref_column: body.refColumn, mode: body.mode, updated_at: new Date() }).where('id', '=', job.id).where('status', '<>', 'running').execute();
  return { valid, alreadyImported, errors: errors.slice(0, MAX_ERRORS) };
}

// ---------------------------------------------------------------- the run

/** Rows' outcomes of a batch, in one statement. */
async function saveOutcomes(trx: Db | Trx, importId: number, outcomes: Array<{ line: number; outcome: 'created' | 'skipped' | 'failed'; caseId: number | null; errors: unknown }>): Promise<void> {
  if (outcomes.length === 0) return;
  await sql`
    update case_import_rows r set outcome = v.outcome, case_id = v.case_id, errors = v.errors
    from (select unnest(${outcomes.map((o) => o.line)}::int[]) as line, unnest(${outcomes.map((o) => o.outcome)}::text[]) as outcome,
                 unnest(${outcomes.map((o) => o.caseId)}::bigint[]) as case_id, unnest(${outcomes.map((o) => (o.errors ? JSON.stringify(o.errors) : null))}::jsonb[]) as errors) v
    where r.import_id = ${importId} and r.line = v.line`.execute(trx);
}

interface RunState {
  db: Db;
  actor: Actor;
  job: { id: number; protocol_id: number; header: string[]; mode: 'valid_rows' | 'all_or_nothing' };
  target: BulkTarget;
  /** The protocol's version when the run began: a new one published meanwhile stops it. */
  publishedVersion: number;
  ctx: RowContext;
  signal?: AbortSignal;
}

/** A batch's rows under the rules, in file order (the context remembers what they accept). */
const checkBatch = (s: RunState, rows: Array<{ line: number; cells: string[] }>): Checked[] => rows.map((r) => checkRow(s.ctx, r));

/** One checked batch written: the valid rows opened as cases, every row's outcome saved; returns the counts. */
async function writeBatch(s: RunState, trx: Trx, reserve: Reserve, checked: Checked[], extraLoad: Map<number, number>) {
  // The protocol published again meanwhile: stop, rather than open cases on a version the user did not check against.
  const current = await trx.selectFrom('protocols').where('id', '=', s.job.protocol_id).select('published_version').executeTakeFirst();
  if (!current || current.published_version !== s.publishedVersion) throw new ProtocolChanged();
  const ok = checked.filter((c): c is Extract<Checked, { kind: 'ok' }> => c.kind === 'ok');
  const opened = await openCasesInBulk(trx, reserve, s.actor, s.target, ok.map((c): BulkCase => ({ externalRef: c.ref, data: c.data, possibleDuplicated: c.possibleDuplicated })), extraLoad);
  const caseOf = new Map(ok.map((c, i) => [c.line, opened.caseIds[i] ?? null]));
  const outcomes = checked.map((c) => {
    if (c.kind === 'bad') return { line: c.line, outcome: 'failed' as const, caseId: null, errors: c.errors };
    const caseId = c.kind === 'ok' ? (caseOf.get(c.line) ?? null) : null;
    // A reference taken by someone else between the check and the insert: imported before, as far as this file goes.
    return { line: c.line, outcome: caseId ? ('created' as const) : ('skipped' as const), caseId, errors: null };
  });
  await saveOutcomes(trx, s.job.id, outcomes);
  const n = (k: string) => outcomes.filter((o) => o.outcome === k).length;
  return { processed: checked.length, created: n('created'), skipped: n('skipped'), failed: n('failed') };
}

class ProtocolChanged extends Error {}

const addCounts = (db: Db | Trx, id: number, c: { processed: number; created: number; skipped: number; failed: number }) =>
  db
    .updateTable('case_imports')
    .set((eb) => ({ processed: eb('processed', '+', c.processed), created: eb('created', '+', c.created), skipped: eb('skipped', '+', c.skipped), failed: eb('failed', '+', c.failed), updated_at: new Date() }))
    .where('id', '=', id)
    .execute();

async function runState(db: Db, actor: Actor, jobId: number, lang: Lang, signal?: AbortSignal): Promise<RunState> {
  const job = await db.selectFrom('case_imports').where('id', '=', jobId).selectAll().executeTakeFirstOrThrow();
  const { form, def, versionId, version } = await mainForm(db, job.protocol_id);
  const protocol = await db.selectFrom('protocols').where('id', '=', job.protocol_id).select('case_type').executeTakeFirstOrThrow();
  const project = await db.selectFrom('projects').where('entity_id', '=', actor.entityId).orderBy('is_default', 'desc').orderBy('id').select(['id', 'time_zone']).executeTakeFirstOrThrow();
  const ctx = await rowContext(db, actor, job, { mapping: job.mapping ?? {}, refColumn: job.ref_column as string }, lang, form, def);
  return {
    db, actor, signal, ctx, publishedVersion: version,
    job: { id: job.id, protocol_id: job.protocol_id, header: job.header, mode: job.mode },
    target: { protocolId: job.protocol_id, protocolVersionId: versionId, def, caseType: protocol.case_type, project: { id: project.id, timeZone: project.time_zone } },
  };
}

const claimGone = (s: RunState) => {
  // Another try owns the import now: stop here, leaving the record to it.
  if (s.signal?.aborted) throw new Error(`import ${s.job.id}: this try's claim is gone`);
};

/**
 * Valid rows: each batch commits with its outcomes; a new try goes on from
 * the first row without one. While the database writes one batch, the next
 * is read and checked (the checks are the file's order either way), so the
 * server's CPU and the database's work side by side.
 */
async function runValidRows(s: RunState): Promise<void> {
  const batches = importRows(s.db, s.job.id, { pending: true });
  const readAndCheck = async () => {
    const next = await batches.next();
    return next.done ? null : checkBatch(s, next.value);
  };
  let checked = await readAndCheck();
  while (checked) {
    claimGone(s);
    const batch = checked;
    const written = s.db.transaction().execute(async (trx) => {
      // Each batch's commit need not wait for the disk: a batch lost with the database is one whose rows have no
      // outcome yet, done again by the next try; the import's end (finishImport) commits durably, and with it all before.
      await sql`set local synchronous_commit = off`.execute(trx);
      await addCounts(trx, s.job.id, await writeBatch(s, trx, reserveIn(trx), batch, new Map()));
    });
    const following = readAndCheck();
    // Both settle before going on (a failed write must not leave the read running unobserved).
    const [w, f] = await Promise.allSettled([written, following]);
    if (w.status === 'rejected') throw w.reason;
    if (f.status === 'rejected') throw f.reason;
    checked = f.value;
  }
}

/**
 * All or nothing: every row checked first (the bad ones recorded, and then
 * nothing is imported); then every case made in one transaction, its
 * progress written beside it, so a try cut off leaves nothing and starts over.
 */
async function runAllOrNothing(s: RunState, lang: Lang): Promise<'done' | 'rejected'> {
  const probe = await runState(s.db, s.actor, s.job.id, lang, s.signal);
  const bad: Array<{ line: number; outcome: 'failed'; caseId: null; errors: unknown }> = [];
  let checkedRows = 0;
  for await (const rows of importRows(s.db, s.job.id)) {
    claimGone(s);
    for (let i = 0; i < rows.length; i++) {
      const c = checkRow(probe.ctx, rows[i] as { line: number; cells: string[] });
      if (c.kind === 'bad') bad.push({ line: c.line, outcome: 'failed', caseId: null, errors: c.errors });
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToOthers();
    }
    checkedRows += rows.length;
    await yieldToOthers();
  }
  if (bad.length > 0) {
    await s.db.transaction().execute(async (trx) => {
      for (let i = 0; i < bad.length; i += BATCH) await saveOutcomes(trx, s.job.id, bad.slice(i, i + BATCH));
      await trx.updateTable('case_imports').set({ processed: checkedRows, failed: bad.length, created: 0, skipped: 0 }).where('id', '=', s.job.id).execute();
    });
    return 'rejected';
  }
  const extraLoad = new Map<number, number>();
  const totals = { processed: 0, created: 0, skipped: 0, failed: 0 };
  await s.db.transaction().execute(async (trx) => {
    for await (const rows of importRows(trx, s.job.id)) {
      claimGone(s);
      const c = await writeBatch(s, trx, reserveApart(s.db), checkBatch(s, rows), extraLoad);
      for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += c[k];
      // Progress beside the transaction (its own writes show only at the commit).
      await addCounts(s.db, s.job.id, c);
    }
    await trx.updateTable('case_imports').set({ ...totals, updated_at: new Date() }).where('id', '=', s.job.id).execute();
  });
  return 'done';
}

/**
 * Runs a claimed import: its rows in batches, then its end (status, and the
 * notices) once, in one transaction guarded by the status.
 */
async function runImport(db: Db, env: EngineEnv, actor: Actor, jobId: number, lang: Lang, signal?: AbortSignal): Promise<void> {
  const s = await runState(db, actor, jobId, lang, signal);
  let end: 'done' | 'rejected' | 'interrupted' = 'done';
  let message: string | null = null;
  try {
    if (s.job.mode === 'all_or_nothing') {
      // A try before this one left only its progress (its transaction rolled back): count again from zero.
      await db.updateTable('case_imports').set({ processed: 0, created: 0, skipped: 0, failed: 0 }).where('id', '=', jobId).execute();
      end = await runAllOrNothing(s, lang);
    } else await runValidRows(s);
  } catch (e) {
    if (!(e instanceof ProtocolChanged)) throw e;
    end = 'interrupted';
    if (s.job.mode === 'all_or_nothing') await db.updateTable('case_imports').set({ processed: 0, created: 0, skipped: 0, failed: 0 }).where('id', '=', jobId).execute();
    message = 'bulkImport.protocolChanged';
  }
  await finishImport(db, env, actor, jobId, end, message, lang);
}

async function finishImport(db: Db, env: EngineEnv, actor: Actor, jobId: number, end: 'done' | 'rejected' | 'interrupted', message: string | null, lang: Lang): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const job = await trx
      .updateTable('case_imports')
      .set({ status: end, finished_at: new Date(), updated_at: new Date(), errors: JSON.stringify(message ? [{ line: 0, field: null, message: translate(lang, message) }] : []) })
      .where('id', '=', jobId)
      .where('status', '=', 'running')
      .returning(['id', 'file_name', 'created', 'failed', 'entity_id'])
      .executeTakeFirst();
    if (!job) return;
    // Each assignee once: the PENDING tasks this import's cases gave them.
    const assigned = await trx
      .selectFrom('tasks as t')
      .innerJoin('case_import_rows as r', 'r.case_id', 't.case_id')
      .where('r.import_id', '=', jobId)
      .where('t.entity_id', '=', job.entity_id)
      .where('t.state', '=', 'PENDING')
      .where('t.responsible_user_id', 'is not', null)
      .groupBy('t.responsible_user_id')
      .select(['t.responsible_user_id as userId', (eb) => eb.fn.countAll<string>().as('n')])
      .execute();
    const base = { entityId: job.entity_id, importId: job.id, fileName: job.file_name, byUserId: actor.userId };
    if (assigned.length) await notifyImport(trx, env, { ...base, event: 'tasks_imported', counts: new Map(assigned.map((a) => [a.userId as number, Number(a.n)])) });
    const note = (language: Lang) =>
      end === 'rejected' ? translate(language, 'bulkImport.note.rejected', { count: job.failed })
      : end === 'interrupted' ? translate(language, 'bulkImport.note.interrupted')
      : job.failed > 0 ? translate(language, 'bulkImport.note.someRejected', { count: job.failed }) : '';
    await notifyImport(trx, env, { ...base, event: 'import_done', counts: new Map([[actor.userId, job.created]]), note });
  });
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

/** An import given up (its user blocked or gone, its protocol unpublished, every try failed): it may be run again, and resumes. */
export async function giveUpImport(db: Db, id: number): Promise<void> {
  await db.updateTable('case_imports').set({ status: 'interrupted', finished_at: new Date(), updated_at: new Date() }).where('id', '=', id).where('status', '=', 'running').execute();
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
  const lang: Lang = data.lang === 'en' ? 'en' : 'es';
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

/**
 * Claims the import (a second click while it runs starts nothing) and gives
 * it a job. An import that ended is run afresh (its rows' outcomes cleared:
 * the ones created before are found by their reference and skipped); one
 * that was interrupted goes on where it stopped.
 */
export async function startImport(db: Db, jobs: Jobs | null, actor: Actor, id: number, body: Mapping, lang: Lang): Promise<void> {
  const job = await loadImport(db, actor, id);
  const { form } = await mainForm(db, job.protocol_id);
  checkMapping(job.header, form, body, lang);
  const queue = caseJobs(jobs);
  const resume = job.status === 'interrupted' && job.mode === 'valid_rows' && body.mode === 'valid_rows';
  const claimed = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('case_imports')
      .set({
        status: 'running', mapping: JSON.stringify(body.mapping), ref_column: body.refColumn, mode: body.mode, errors: '[]', started_at: new Date(), finished_at: null, updated_at: new Date(),
        ...(resume ? {} : { processed: 0, created: 0, skipped: 0, failed: 0 }),
      })
      .where('id', '=', job.id)
      .where('status', '<>', 'running')
      .returning('id')
      .executeTakeFirst();
    if (row && !resume) await trx.updateTable('case_import_rows').set({ outcome: null, case_id: null, errors: null }).where('import_id', '=', job.id).where('outcome', 'is not', null).execute();
    return row;
  });
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
 * and the send, or the job is gone) would say 'running' for ever: checked at
 * start and by pg-boss's own expiry, with a short grace for a job just sent.
 */
export async function failInterruptedImports(db: Db, jobs: Jobs | null): Promise<void> {
  const stale = await db.selectFrom('case_imports').where('status', '=', 'running').where('updated_at', '<', sql<Date>`now() - interval '1 minute'`).select('id').execute();
  for (const { id } of stale) {
    const live = jobs ? (await jobs.boss.findJobs(QUEUES.caseImport, { key: importKey(id) })).some((j) => ['created', 'retry', 'active'].includes(j.state)) : false;
    if (!live) await giveUpImport(db, id);
  }
}
