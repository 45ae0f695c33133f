/**
 * Cases (applications): the list with filters and the advanced search over
 * case columns and any form field; drafts ('Save, but come back later to
 * complete'), submitting them through the engine; one case with its data,
 * documents, tasks and history; the open / complete / close / enable-again
 * actions, owner and participants; similar applications; saved searches.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ExpressionBuilder, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { decodeSearch, type SearchRow, searchFiltersParam, searchRowsSchema } from '../../../core/cases/search.js';
import { errorCatalog } from '../../../core/errors.js';
import { newApplicationsOpen } from '../../../core/dates.js';
import { formDataSchema } from '../../../core/forms/data.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import { CASE_STATES, type CaseAction, nextCaseState } from '../../../core/workflow/states.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { toCsv } from '../../lib/csv.js';
import { type Cell, toXlsx } from '../../lib/xlsx.js';
import { containsPattern, countCapped, listQuery, listResponse, paginate, paginateCapped } from '../../lib/list.js';
import { translate } from '../../i18n.js';
import { scopeFields } from '../../../core/forms/validator.js';
import { actorOf } from '../../plugins/session.js';
import { masterLabels } from '../forms/options.js';
import { type Actor, can } from '../acl/policy.js';
import { audit, closeOpenTasks, setCaseState } from '../workflow/engine.js';
import { isStaff, visibleCases } from './policy.js';
import { lockVisibleCase } from './repo.js';
import { caseSearchFieldRoutes } from './searchFields.js';
import { caseTextSearch, gatherThenSort } from './textSearch.js';
import { createDraft, saveDraft, submitCaseInTrx, validateCaseData } from './service.js';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
/** Form values as a body: capped in size, depth, fields and list lengths (core/forms/data.ts). */
const data = formDataSchema;

const caseItem = z.object({
  id: z.number(), number: z.string().nullable(), state: z.enum(CASE_STATES), protocolId: z.number(), protocolName: z.string(), caseType: z.string(),
  ownerId: z.number(), ownerName: z.string(), applicant: z.string(), docDate: z.date().nullable(), possibleDuplicated: z.boolean(), openTasks: z.number(),
  createdAt: z.date(), updatedAt: z.date(),
});

type Eb = ExpressionBuilder<Database & { c: Database['cases'] }, 'c'>;

/** One advanced-search row as SQL. Columns are checked by the shared schema before they get here. */
function rowCondition(eb: Eb, row: SearchRow) {
  const values = Array.isArray(row.value) ? row.value : row.value === undefined ? [] : [row.value];
  if (row.column.startsWith('data.')) {
    const field = row.column.slice(5);
    const text = sql<string>`c.data->>${field}`;
    const json = sql`c.data->${field}`;
    // Equality through the GIN index: the value as text or as a number, as forms store either.
    const equals = (v: unknown) => {
      const forms = [{ [field]: v }];
      if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) forms.push({ [field]: Number(v) });
      if (v === 'true' || v === 'false') forms.push({ [field]: v === 'true' });
      return eb.or(forms.map((f) => sql<boolean>`c.data @> ${JSON.stringify(f)}::jsonb`));
    };
    const compare = (op: '>' | '<' | '>=' | '<=', v: unknown) =>
      typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)))
        ? sql<boolean>`(jsonb_typeof(${json}) = 'number' and ${json} ${sql.raw(op)} to_jsonb(${Number(v)}::numeric))`
        : sql<boolean>`${text} ${sql.raw(op)} ${String(v)}`;
    switch (row.op) {
      case 'eq':
        return equals(values[0]);
      case 'ne':
        return eb.not(equals(values[0]));
      case 'in':
        return eb.or(values.map(equals));
      case 'contains':
        return sql<boolean>`${text} ilike ${containsPattern(String(values[0]))}`;
      case 'startsWith':
        return sql<boolean>`${text} ilike ${`${String(values[0]).replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
      case 'gt':
        return compare('>', values[0]);
      case 'lt':
        return compare('<', values[0]);
      case 'between':
        return eb.and([compare('>=', values[0]), compare('<=', values[1])]);
      case 'empty':
        return sql<boolean>`coalesce(${text}, '') = ''`;
    }
  }
  const column = { serial: sql`c.serial`, state: sql`c.state`, docDate: sql`c.doc_date`, createdAt: sql`c.created_at`, ownerName: sql`(select o.name from users o where o.id = c.owner_id)`, possibleDuplicated: sql`c.possible_duplicated` }[row.column as 'serial'];
  const v = values[0];
  switch (row.op) {
    case 'eq':
      return row.column === 'possibleDuplicated' ? sql<boolean>`${column} = ${v === true || v === 'true'}` : row.column === 'docDate' ? sql<boolean>`${column}::date = ${String(v)}::date` : sql<boolean>`${column} = ${String(v)}`;
    case 'ne':
      return sql<boolean>`${column} is distinct from ${String(v)}`;
    case 'in':
      return sql<boolean>`${column} in (${sql.join(values.map((x) => String(x)))})`;
    case 'contains':
      return sql<boolean>`${column} ilike ${containsPattern(String(v))}`;
    case 'startsWith':
      return sql<boolean>`${column} ilike ${`${String(v).replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
    case 'gt':
      return sql<boolean>`${column} > ${String(v)}::timestamptz`;
    case 'lt':
      return sql<boolean>`${column} < ${String(v)}::timestamptz`;
    case 'between':
      return sql<boolean>`${column} between ${String(values[0])}::timestamptz and ${String(values[1])}::timestamptz`;
    case 'empty':
      return sql<boolean>`${column} is null`;
  }
}

const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.invalidDate');

/** The history's record of an owner change: ids, and the names as they were then. */
async function ownerChange(trx: Transaction<Database>, fromId: number, to: { id: number; name: string }) {
  const from = await trx.selectFrom('users').where('id', '=', fromId).select('name').executeTakeFirst();
  return { from: fromId, to: to.id, fromName: from?.name ?? null, toName: to.name };
}

export const caseRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(caseSearchFieldRoutes);
  const base = (actor: Actor) =>
    app.db
      .selectFrom('cases as c')
      .where('c.entity_id', '=', actor.entityId)
      .where(visibleCases(actor) as never)
      // Names by subquery rather than join: evaluated for the page's rows only, and the planner has one
      // table to place instead of three (planning was a third of the list query's time; bench/case-list.ts).
      .select([
        'c.id', 'c.serial', 'c.state', 'c.protocol_id', 'c.case_type', 'c.owner_id', 'c.doc_date',
        sql<string>`(select p.name from protocols p where p.id = c.protocol_id)`.as('protocol_name'),
        sql<string>`(select o.name from users o where o.id = c.owner_id)`.as('owner_name'),
        'c.possible_duplicated', 'c.created_at', 'c.updated_at',
        sql<string>`trim(coalesce(c.data->>'firstName', '') || ' ' || coalesce(c.data->>'lastName', ''))`.as('applicant'),
        sql<number>`(select count(*) from tasks t where t.case_id = c.id and t.state in ('UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY'))::int`.as('open_tasks'),
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
  const item = (r: Row) => ({
    id: r.id, number: r.serial, state: r.state as (typeof CASE_STATES)[number], protocolId: r.protocol_id, protocolName: r.protocol_name, caseType: r.case_type,
    ownerId: r.owner_id, ownerName: r.owner_name, applicant: r.applicant, docDate: r.doc_date, possibleDuplicated: r.possible_duplicated, openTasks: r.open_tasks,
    createdAt: r.created_at, updatedAt: r.updated_at,
  });

  /** The list's filters and advanced search as one query, shared by the list, the export and bulk actions. */
  function filtered(actor: Actor, f: Omit<z.infer<typeof listFilters>, 'page' | 'limit' | 'sortBy' | 'descending'>) {
    let rows: SearchRow[] = [];
    if (f.filters) {
      // Checked by the request schema already (searchFiltersParam); parsed here into rows.
      const parsed = searchRowsSchema.safeParse(decodeSearch(f.filters));
      if (!parsed.success) throw new AppError('VALIDATION', {}, parsed.error.issues.map((i) => ({ path: `filters.${i.path.join('.')}`, message: i.message })));
      rows = parsed.data;
    }
    let q = base(actor).where('c.state', '<>', 'DRAFT');
    if (f.state) q = q.where('c.state', 'in', Array.isArray(f.state) ? f.state : [f.state]);
    if (f.protocolId) q = q.where('c.protocol_id', '=', f.protocolId);
    if (f.ownerId) q = q.where('c.owner_id', '=', f.ownerId);
    if (f.teamId) q = q.where('c.id', 'in', (eb) => eb.selectFrom('tasks').where('responsible_team_id', '=', f.teamId as number).select('case_id'));
    if (f.from) q = q.where('c.doc_date', '>=', new Date(`${f.from}T00:00:00Z`));
    if (f.to) q = q.where('c.doc_date', '<', new Date(new Date(`${f.to}T00:00:00Z`).getTime() + 86_400_000));
    if (f.possibleDuplicated !== undefined) q = q.where('c.possible_duplicated', '=', f.possibleDuplicated);
    // The search box: every word in a name or at the start of the case or document number (textSearch.ts, indexes of 0012).
    const text = f.search ? caseTextSearch(f.search) : undefined;
    if (text) q = q.where(text);
    for (const row of rows) q = q.where((eb) => rowCondition(eb as unknown as Eb, row));
    return q;
  }

  const listFilters = listQuery(['doc_date', 'serial', 'state', 'created_at', 'updated_at']).extend({
    state: z.union([z.enum(CASE_STATES), z.array(z.enum(CASE_STATES))]).optional(),
    protocolId: z.coerce.number().int().positive().optional(),
    ownerId: z.coerce.number().int().positive().optional(),
    teamId: z.coerce.number().int().positive().optional(),
    from: dateText.optional(),
    to: dateText.optional(),
    possibleDuplicated: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
    /** The advanced search: a JSON list of [column, operator, value] rows (core/cases/search.ts), each value parsed for its column. */
    filters: searchFiltersParam.optional(),
  });

  /** The list counts its matches up to here and says "more than" beyond (docs/decisions.md). */
  const LIST_COUNT_CAP = 1_000;
  const capped = z.boolean().describe('true when the total is a floor: more rows match than were counted');
  const pageQuery = listFilters.extend({
    /** false: no count; the screens ask …/count once per filter instead of once per page. */
    count: z.enum(['true', 'false']).transform((v) => v === 'true').default(true),
  });
  const countQuery = listFilters.omit({ page: true, limit: true, sortBy: true, descending: true });
  // The same list twice: /api/cases for those who work cases (wf_casos), /api/admin-cases for case
  // administration (admin_cases), which may be held alone. Visibility is the actor's either way.
  for (const [path, target] of [['/api/cases', 'wf_casos'], ['/api/admin-cases', 'admin_cases']] as const) {
    app.get(
      path,
      { config: { access: { target, action: 'show' } }, schema: { tags: ['cases'], querystring: pageQuery, response: { 200: listResponse(caseItem).extend({ capped }) } } },
      async (request) => {
        const actor = actorOf(request);
        const f = request.query;
        let q = filtered(actor, f);
        const sortBy = f.sortBy ?? 'doc_date';
        const column = sql.ref(`c.${sortBy}`);
        // A full name or the start of a case number finds few cases, or cases of one period (textSearch.ts): sorted by
        // an expression no index gives, they are gathered through the search's indexes and sorted, instead of found
        // by walking the newest cases first.
        const key = f.search && gatherThenSort(f.search) ? sql`coalesce(${column}, ${column})` : column;
        q = q.orderBy(sql`${key} ${sql.raw(f.descending === false ? 'asc' : 'desc')} nulls last`).orderBy('c.id', 'desc');
        const page = await paginateCapped(app.db, q, { page: f.page, limit: f.limit }, LIST_COUNT_CAP, { count: f.count });
        return { items: page.rows.map(item), total: page.total, capped: page.capped };
      },
    );
    app.get(
      `${path}/count`,
      { config: { access: { target, action: 'show' } }, schema: { tags: ['cases'], querystring: countQuery, response: { 200: z.object({ total: z.number().int(), capped }) } } },
      async (request) => countCapped(app.db, filtered(actorOf(request), request.query), LIST_COUNT_CAP),
    );
  }

  const EXPORT_LIMIT = 100_000;
  const EXPORT_BATCH = 2_000;
  const exportQuery = listFilters.omit({ page: true, limit: true });
  type ExportFilters = z.infer<typeof exportQuery>;

  /**
   * The current result as a table: case columns, then the form fields (those
   * of the protocol asked for, else the union of the first rows' keys).
   * Rows come in batches, newest first, so a long export reports progress.
   */
  async function exportTable(actor: Actor, query: ExportFilters, onBatch: (done: number, total: number) => Promise<void>) {
    const counted = await filtered(actor, query).clearSelect().select(sql<string>`count(*)`.as('n')).executeTakeFirst();
    const total = Math.min(Number(counted?.n ?? 0), EXPORT_LIMIT);
    type ExportRow = Row & { data: unknown };
    const rows: ExportRow[] = [];
    let lastId: number | null = null;
    await onBatch(0, total);
    while (rows.length < total) {
      let q = filtered(actor, query).select('c.data').orderBy('c.id', 'desc').limit(Math.min(EXPORT_BATCH, total - rows.length));
      if (lastId !== null) q = q.where('c.id', '<', lastId);
      const batch = (await q.execute()) as ExportRow[];
      if (batch.length === 0) break;
      rows.push(...batch);
      lastId = (batch.at(-1) as ExportRow).id;
      await onBatch(rows.length, total);
    }
    let fields: string[] = [];
    if (query.protocolId) {
      const def = await app.db
        .selectFrom('protocols as p')
        .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
        .innerJoin('form_versions as fv', (j) => j.on('fv.id', '=', sql<number>`(v.definition->>'mainFormVersionId')::bigint`))
        .where('p.id', '=', query.protocolId)
        .where('p.entity_id', '=', actor.entityId)
        .select('fv.definition')
        .executeTakeFirst();
      if (def) fields = scopeFields((def.definition as FormDefinition).fields).filter((x) => !['static', 'repeat', 'file'].includes(x.type)).map((x) => x.name);
    } else {
      const scalar = new Set<string>();
      const nested = new Set<string>();
      for (const r of rows.slice(0, 1000)) for (const [k, v] of Object.entries(r.data as object)) (Array.isArray(v) && v.some((x) => typeof x === 'object') ? nested : scalar).add(k);
      fields = [...scalar].filter((k) => !nested.has(k)).sort();
    }
    const header = ['number', 'state', 'protocol', 'applicant', 'owner', 'docDate', 'possibleDuplicated', ...fields];
    const body = rows.map((r) => [r.serial, r.state, r.protocol_name, r.applicant, r.owner_name, r.doc_date, r.possible_duplicated, ...fields.map((k) => {
      const v = (r.data as Record<string, unknown>)[k];
      return Array.isArray(v) ? v.join('; ') : (v as string | number | boolean | null | undefined);
    })]);
    return { header, body };
  }

  const exportName = (format: 'csv' | 'xlsx') => `cases-${new Date().toISOString().slice(0, 10)}.${format}`;
  const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  const fileOf = (format: 'csv' | 'xlsx', table: { header: string[]; body: unknown[][] }) =>
    format === 'csv' ? Buffer.from(toCsv(table.header, table.body), 'utf8') : toXlsx(table.header, table.body as Cell[][], 'Cases');

  app.get(
    '/api/cases/export',
    {
      config: { access: { target: 'wf_casos', action: 'export' } },
      schema: {
        tags: ['cases'],
        summary: 'The current result as CSV or Excel at once (cells that a spreadsheet would run as formulas are neutralised); large results go through POST /api/cases/exports',
        querystring: exportQuery.extend({ format: z.enum(['csv', 'xlsx']).default('csv') }),
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const table = await exportTable(actorOf(request), query, async () => {});
      return reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${exportName(format)}"`)
        .send(fileOf(format, table));
    },
  );

  const exportView = z.object({
    id: z.string(), state: z.enum(['running', 'done', 'failed']), format: z.enum(['csv', 'xlsx']), done: z.number(), total: z.number(), filename: z.string().nullable(), error: z.string().nullable(),
  });
  const exportParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'validation.invalid') });
  const loadExport = async (actor: Actor, id: string, lang: 'en' | 'es') => {
    const job = await app.db
      .selectFrom('case_exports')
      .where('id', '=', id)
      .where('entity_id', '=', actor.entityId)
      .where('user_id', '=', actor.userId)
      .select(['id', 'state', 'format', 'done', 'total', 'filename', 'error'])
      .executeTakeFirst();
    if (!job) throw new AppError('NOT_FOUND');
    // The error is kept as a translation key and given in the caller's language.
    return { ...job, error: job.error && translate(lang, job.error) };
  };

  app.post(
    '/api/cases/exports',
    {
      config: { access: { target: 'wf_casos', action: 'export' } },
      schema: {
        tags: ['cases'],
        summary: 'Export the current result in the background; follow it with GET /api/cases/exports/:id, then fetch /file',
        body: z.strictObject({ format: z.enum(['csv', 'xlsx']), query: exportQuery.default({}) }),
        response: { 202: exportView },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { format, query } = request.body;
      // Bad filters are refused now, not reported later by a failed job.
      await filtered(actor, query).clearSelect().select(sql`1`.as('x')).limit(0).execute();
      await app.db.deleteFrom('case_exports').where('created_at', '<', sql<Date>`now() - interval '1 day'`).execute();
      const id = randomBytes(18).toString('base64url');
      await app.db.insertInto('case_exports').values({ id, entity_id: actor.entityId, user_id: actor.userId, format, filename: null, content: null, error: null }).execute();
      const run = async () => {
        const table = await exportTable(actor, query, async (done, total) => {
          await app.db.updateTable('case_exports').set({ done, total, updated_at: new Date() }).where('id', '=', id).execute();
        });
        await app.db.updateTable('case_exports').set({ state: 'done', content: fileOf(format, table), filename: exportName(format), updated_at: new Date() }).where('id', '=', id).execute();
      };
      run().catch(async (e) => {
        app.log.error({ err: e }, 'case export failed');
        await app.db.updateTable('case_exports').set({ state: 'failed', error: e instanceof AppError ? e.key : errorCatalog.INTERNAL.key, updated_at: new Date() }).where('id', '=', id).execute();
      });
      return reply.status(202).send(await loadExport(actor, id, request.lang));
    },
  );

  app.get(
    '/api/cases/exports/:id',
    { config: { access: { target: 'wf_casos', action: 'export' } }, schema: { tags: ['cases'], summary: 'An export and its progress', params: exportParams, response: { 200: exportView } } },
    async (request) => loadExport(actorOf(request), request.params.id, request.lang),
  );

  app.get(
    '/api/cases/exports/:id/file',
    { config: { access: { target: 'wf_casos', action: 'export' } }, schema: { tags: ['cases'], summary: 'The file of a finished export', params: exportParams } },
    async (request, reply) => {
      const actor = actorOf(request);
      const job = await loadExport(actor, request.params.id, request.lang);
      if (job.state !== 'done') throw new AppError('CONFLICT');
      const file = await app.db.selectFrom('case_exports').where('id', '=', job.id).select('content').executeTakeFirstOrThrow();
      return reply
        .header('content-type', job.format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${job.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );

  // An export cut off by a stop says so instead of running for ever.
  app.addHook('onReady', async () => {
    await app.db.updateTable('case_exports').set({ state: 'failed', error: 'cases.errors.exportInterrupted' }).where('state', '=', 'running').where('updated_at', '<', sql<Date>`now() - interval '10 minutes'`).execute();
  });

  const bulkIds = z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) });
  const bulkResult = z.object({ done: z.array(z.number()), failed: z.array(z.object({ id: z.number(), message: z.string() })) });
  async function eachCase(ids: number[], lang: 'en' | 'es', run: (id: number) => Promise<void>) {
    const done: number[] = [];
    const failed: Array<{ id: number; message: string }> = [];
    for (const id of ids) {
      try {
        await run(id);
        done.push(id);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        failed.push({ id, message: translate(lang, e.key, e.params) });
      }
    }
    return { done, failed };
  }

  app.post(
    '/api/admin-cases/close',
    {
      config: { access: { target: 'admin_cases', action: 'update' } },
      schema: { tags: ['cases'], summary: 'Close many cases (each on its own; those that cannot be closed are reported)', body: bulkIds.extend({ reason: z.string().trim().max(2000).optional() }), response: { 200: bulkResult } },
    },
    async (request) => {
      const actor = actorOf(request);
      if (!can(actor, 'wf_cerrar_caso', 'confirm')) throw new AppError('FORBIDDEN');
      return eachCase(request.body.ids, request.lang, (id) =>
        app.db.transaction().execute(async (trx) => {
          const c = await lockVisibleCase(trx, actor, id);
          if (!nextCaseState(c.state as never, 'close')) throw new AppError('INVALID_TRANSITION', { state: c.state, action: 'close' });
          await closeOpenTasks(trx, c, actor);
          await setCaseState(trx, c, 'close', actor, request.body.reason ? { reason: request.body.reason } : {});
        }),
      );
    },
  );

  app.post(
    '/api/admin-cases/reassign',
    {
      config: { access: { target: 'admin_cases', action: 'update' } },
      schema: { tags: ['cases'], summary: 'Give many cases to another owner', body: bulkIds.extend({ userId: z.number().int().positive() }), response: { 200: bulkResult } },
    },
    async (request) => {
      const actor = actorOf(request);
      const user = await app.db.selectFrom('users').where('id', '=', request.body.userId).where('entity_id', '=', actor.entityId).where('active', '=', true).select(['id', 'name']).executeTakeFirst();
      if (!user) throw new AppError('VALIDATION', {}, [{ path: 'userId', message: 'validation.chooseOption' }]);
      return eachCase(request.body.ids, request.lang, (id) =>
        app.db.transaction().execute(async (trx) => {
          const c = await lockVisibleCase(trx, actor, id);
          await trx.updateTable('cases').set({ owner_id: user.id, version: sql`version + 1`, updated_at: new Date() }).where('id', '=', c.id).execute();
          await audit(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'owner_changed', type: 'case', detail: await ownerChange(trx, c.owner_id, user) });
        }),
      );
    },
  );

  // ---------------------------------------------------------------- new cases and drafts

  async function openProject(actor: Actor) {
    const project = actor.projectId
      ? await app.db.selectFrom('projects').where('id', '=', actor.projectId).where('entity_id', '=', actor.entityId).selectAll().executeTakeFirst()
      : undefined;
    return project ?? (await app.db.selectFrom('projects').where('entity_id', '=', actor.entityId).orderBy('is_default', 'desc').orderBy('id').selectAll().executeTakeFirstOrThrow());
  }

  app.get(
    '/api/cases/new-options',
    {
      config: { access: { target: 'borradores', action: 'show' } },
      schema: {
        tags: ['cases'],
        summary: 'What a new application can start from: published protocols and their main forms, and whether applications are open',
        response: { 200: z.object({ open: z.boolean(), autosaveSeconds: z.number(), protocols: z.array(z.object({ id: z.number(), name: z.string(), caseType: z.string(), formId: z.number(), form: z.unknown() })) }) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const project = await openProject(actor);
      let q = app.db
        .selectFrom('protocols as p')
        .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
        .where('p.entity_id', '=', actor.entityId)
        .select(['p.id', 'p.name', 'p.case_type', 'p.main_form_id', 'v.definition']);
      // People who are not staff start only public protocols.
      if (!isStaff(actor)) q = q.where('p.public', '=', true);
      const protocols = await q.orderBy('p.name').execute();
      const forms = protocols.length
        ? await app.db.selectFrom('form_versions').where('id', 'in', protocols.map((p) => (p.definition as ProtocolDefinition).mainFormVersionId as number)).select(['id', 'definition']).execute()
        : [];
      return {
        open: newApplicationsOpen({ newApplicationsDeadline: project.new_applications_deadline, allowNewApplications: project.allow_new_applications }, new Date()),
        autosaveSeconds: project.autosave_seconds,
        protocols: protocols.map((p) => ({ id: p.id, name: p.name, caseType: p.case_type, formId: p.main_form_id, form: forms.find((f) => f.id === (p.definition as ProtocolDefinition).mainFormVersionId)?.definition })),
      };
    },
  );

  const draftView = z.object({ id: z.number(), protocolId: z.number(), protocolName: z.string(), formId: z.number(), data: z.record(z.string(), z.unknown()), form: z.unknown(), version: z.number(), updatedAt: z.date() });
  const loadDraft = async (actor: Actor, id: number) => {
    const d = await app.db
      .selectFrom('cases as c')
      .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
      .innerJoin('form_versions as f', 'f.id', 'c.form_version_id')
      .where('c.id', '=', id)
      .where('c.entity_id', '=', actor.entityId)
      .where('c.owner_id', '=', actor.userId)
      .where('c.state', '=', 'DRAFT')
      .select(['c.id', 'c.protocol_id', 'p.name', 'f.form_id', 'c.data', 'f.definition', 'c.version', 'c.updated_at'])
      .executeTakeFirst();
    if (!d) throw new AppError('NOT_FOUND');
    return { id: d.id, protocolId: d.protocol_id, protocolName: d.name, formId: d.form_id, data: d.data, form: d.definition, version: d.version, updatedAt: d.updated_at };
  };

  app.get(
    '/api/cases/drafts',
    { config: { access: { target: 'borradores', action: 'show' } }, schema: { tags: ['cases'], summary: 'My drafts', querystring: listQuery(['updated_at']), response: { 200: listResponse(caseItem) } } },
    async (request) => {
      const actor = actorOf(request);
      const q = base(actor).where('c.state', '=', 'DRAFT').where('c.owner_id', '=', actor.userId).orderBy('c.updated_at', 'desc').orderBy('c.id', 'desc');
      const { rows, total } = await paginate(q, request.query);
      return { items: rows.map(item), total };
    },
  );

  app.post(
    '/api/cases/drafts',
    {
      config: { access: { target: 'borradores', action: 'create_drafts' } },
      schema: { tags: ['cases'], summary: "Start an application: 'Save, but come back later to complete'", body: z.object({ protocolId: z.number().int().positive(), data: data.default({}) }), response: { 201: draftView } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const project = await openProject(actor);
      if (!newApplicationsOpen({ newApplicationsDeadline: project.new_applications_deadline, allowNewApplications: project.allow_new_applications }, new Date())) throw new AppError('APPLICATIONS_CLOSED');
      const protocol = await app.db.selectFrom('protocols').where('id', '=', request.body.protocolId).where('entity_id', '=', actor.entityId).select(['public']).executeTakeFirst();
      if (!protocol || (!protocol.public && !isStaff(actor))) throw new AppError('NOT_FOUND');
      const id = await app.db.transaction().execute((trx) => createDraft(trx, actor, { protocolId: request.body.protocolId, projectId: project.id, ownerId: actor.userId, data: request.body.data }));
      return reply.status(201).send(await loadDraft(actor, id));
    },
  );

  app.get('/api/cases/drafts/:id', { config: { access: { target: 'borradores', action: 'show' } }, schema: { tags: ['cases'], params: idParams, response: { 200: draftView } } }, async (request) =>
    loadDraft(actorOf(request), request.params.id),
  );

  app.put(
    '/api/cases/drafts/:id',
    {
      config: { access: { target: 'borradores', action: 'create_drafts' } },
      schema: { tags: ['cases'], summary: 'Save a draft (autosave): kept as typed, checked only when submitted', params: idParams, body: z.object({ data, version: z.number().int().positive().optional() }), response: { 200: z.object({ version: z.number(), updatedAt: z.date() }) } },
    },
    async (request) => {
      const actor = actorOf(request);
      return app.db.transaction().execute((trx) => saveDraft(trx, actor, request.params.id, { ownerId: actor.userId, data: request.body.data, version: request.body.version }));
    },
  );

  app.delete(
    '/api/cases/drafts/:id',
    { config: { access: { target: 'borradores', action: 'create_drafts' } }, schema: { tags: ['cases'], params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const done = await app.db.deleteFrom('cases').where('id', '=', request.params.id).where('entity_id', '=', actor.entityId).where('owner_id', '=', actor.userId).where('state', '=', 'DRAFT').executeTakeFirst();
      if (Number(done.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/cases/drafts/:id/submit',
    {
      config: { access: { target: 'wf_casos', action: 'create' } },
      schema: { tags: ['cases'], summary: 'Submit a draft: checked, numbered, and its first task started', params: idParams, body: z.object({ data: data.optional() }), response: { 200: z.object({ id: z.number(), number: z.string() }) } },
    },
    async (request) => {
      const actor = actorOf(request);
      await loadDraft(actor, request.params.id);
      const c = await app.db.transaction().execute((trx) => submitCaseInTrx(trx, app.engine, actor, request.params.id, { data: request.body.data, lang: request.lang }));
      app.mailer.kick();
      return { id: c.id, number: c.serial as string };
    },
  );

  // ---------------------------------------------------------------- one case

  function allowedActions(actor: Actor, state: string): string[] {
    const out: string[] = [];
    const rule: Array<[CaseAction, string, Parameters<typeof can>[1]]> = [
      ['submit', 'open', 'wf_abrir_caso'],
      ['complete', 'complete', 'wf_completar_caso'],
      ['close', 'close', 'wf_cerrar_caso'],
      ['activate', 'activate', 'wf_activar_caso'],
    ];
    for (const [transition, name, target] of rule) if (nextCaseState(state as never, transition) && can(actor, target, 'confirm')) out.push(name);
    if (can(actor, 'change_owner_case', 'update')) out.push('changeOwner');
    if (can(actor, 'wf_casos_participantes', 'update')) out.push('participants');
    // Correcting the data of an open application (PUT /api/cases/:id/data) is staff work.
    if (state === 'PENDING' && isStaff(actor) && can(actor, 'wf_casos', 'update')) out.push('editData');
    return out;
  }

  const caseDetail = caseItem.extend({
    data: z.record(z.string(), z.unknown()),
    /** Names of the master items the data holds, by field and code. */
    optionLabels: z.record(z.string(), z.record(z.string(), z.string())),
    form: z.unknown(),
    formId: z.number(),
    version: z.number(),
    participants: z.array(z.object({ id: z.number(), name: z.string() })),
    actions: z.array(z.string()),
    canSeeHistory: z.boolean(),
    canSeeSimilar: z.boolean(),
  });

  app.get(
    '/api/cases/:id',
    { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags: ['cases'], params: idParams, response: { 200: caseDetail } } },
    async (request) => {
      const actor = actorOf(request);
      const c = await base(actor)
        .innerJoin('form_versions as f', 'f.id', 'c.form_version_id')
        .select(['c.data', 'f.definition', 'f.form_id', 'c.version'])
        .where('c.id', '=', request.params.id)
        .executeTakeFirst();
      if (!c) throw new AppError('NOT_FOUND');
      const [participants, optionLabels] = await Promise.all([
        app.db.selectFrom('case_participants as cp').innerJoin('users as u', 'u.id', 'cp.user_id').where('cp.case_id', '=', c.id).select(['u.id', 'u.name']).execute(),
        masterLabels(app.db, actor.entityId, c.definition as FormDefinition, c.data as Record<string, unknown>),
      ]);
      return {
        ...item(c),
        data: c.data,
        optionLabels,
        form: c.definition as FormDefinition,
        formId: c.form_id,
        version: c.version,
        participants,
        actions: allowedActions(actor, c.state),
        canSeeHistory: can(actor, 'historialaplicacion', 'show'),
        canSeeSimilar: can(actor, 'aplicacionessimilares', 'show'),
      };
    },
  );

  app.get(
    '/api/cases/:id/history',
    {
      config: { access: { target: 'historialaplicacion', action: 'show' } },
      schema: {
        tags: ['cases'],
        summary: 'Every transition and field change, with who and when',
        params: idParams,
        response: { 200: z.array(z.object({ id: z.number(), action: z.string(), type: z.string(), userName: z.string().nullable(), taskName: z.string().nullable(), detail: z.record(z.string(), z.unknown()), at: z.date() })) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const c = await base(actor).where('c.id', '=', request.params.id).executeTakeFirst();
      if (!c) throw new AppError('NOT_FOUND');
      const events = await app.db
        .selectFrom('case_events as e')
        .leftJoin('users as u', 'u.id', 'e.user_id')
        .leftJoin('tasks as t', 't.id', 'e.task_id')
        .where('e.case_id', '=', c.id)
        .where('e.entity_id', '=', actor.entityId)
        .select(['e.id', 'e.action', 'e.type', 'u.name as user_name', 't.name as task_name', 'e.detail', 'e.created_at'])
        .orderBy('e.id')
        .execute();
      return events.map((e) => ({ id: e.id, action: e.action, type: e.type, userName: e.user_name, taskName: e.task_name, detail: e.detail, at: e.created_at }));
    },
  );

  app.put(
    '/api/cases/:id/data',
    {
      config: { access: { target: 'wf_casos', action: 'update' } },
      schema: { tags: ['cases'], summary: "Correct an open case's data: checked by the form, every changed field recorded", params: idParams, body: z.object({ data, version: z.number().int().positive() }), response: { 200: z.object({ version: z.number() }) } },
    },
    async (request) => {
      const actor = actorOf(request);
      if (!isStaff(actor)) throw new AppError('FORBIDDEN');
      const version = await app.db.transaction().execute(async (trx) => {
        const c = await lockVisibleCase(trx, actor, request.params.id);
        if (c.version !== request.body.version) throw new AppError('STALE_DRAFT');
        if (c.state !== 'PENDING') throw new AppError('CASE_NOT_OPEN');
        const row = await trx.selectFrom('cases').where('id', '=', c.id).select('form_version_id').executeTakeFirstOrThrow();
        const clean = await validateCaseData(trx, actor.entityId, row.form_version_id, request.body.data, actor.role.code, request.lang);
        const changed = [...new Set([...Object.keys(c.data), ...Object.keys(clean)])].filter((k) => JSON.stringify(c.data[k]) !== JSON.stringify(clean[k]));
        for (const field of changed) {
          await audit(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'field_changed', type: 'field', detail: { field, from: c.data[field] ?? null, to: clean[field] ?? null } });
        }
        const updated = await trx.updateTable('cases').set({ data: JSON.stringify(clean), version: sql`version + 1`, updated_at: new Date() }).where('id', '=', c.id).returning('version').executeTakeFirstOrThrow();
        return updated.version;
      });
      return { version };
    },
  );

  const actionRoute = (name: 'open' | 'complete' | 'close' | 'activate', transition: CaseAction, target: Parameters<typeof can>[1]) =>
    app.post(
      `/api/cases/:id/${name}`,
      {
        config: { access: { target, action: 'confirm' } },
        schema: { tags: ['cases'], params: idParams, body: z.object({ reason: z.string().trim().max(2000).optional() }).optional(), response: { 200: z.object({ state: z.string() }) } },
      },
      async (request) => {
        const actor = actorOf(request);
        const state = await app.db.transaction().execute(async (trx) => {
          const c = await lockVisibleCase(trx, actor, request.params.id);
          if (transition === 'submit') {
            const opened = await submitCaseInTrx(trx, app.engine, actor, c.id, { lang: request.lang });
            return opened.state;
          }
          if (!nextCaseState(c.state as never, transition)) throw new AppError('INVALID_TRANSITION', { state: c.state, action: name });
          // Completing or closing ends whatever work is still open on it.
          if (transition === 'close' || transition === 'complete') await closeOpenTasks(trx, c, actor);
          await setCaseState(trx, c, transition, actor, request.body?.reason ? { reason: request.body.reason } : {});
          return c.state;
        });
        app.mailer.kick();
        return { state };
      },
    );
  actionRoute('open', 'submit', 'wf_abrir_caso');
  actionRoute('complete', 'complete', 'wf_completar_caso');
  actionRoute('close', 'close', 'wf_cerrar_caso');
  actionRoute('activate', 'activate', 'wf_activar_caso');

  app.put(
    '/api/cases/:id/owner',
    { config: { access: { target: 'change_owner_case', action: 'update' } }, schema: { tags: ['cases'], params: idParams, body: z.object({ userId: z.number().int().positive() }), response: { 200: z.object({ ownerId: z.number() }) } } },
    async (request) => {
      const actor = actorOf(request);
      await app.db.transaction().execute(async (trx) => {
        const c = await lockVisibleCase(trx, actor, request.params.id);
        const user = await trx.selectFrom('users').where('id', '=', request.body.userId).where('entity_id', '=', actor.entityId).where('active', '=', true).select(['id', 'name']).executeTakeFirst();
        if (!user) throw new AppError('VALIDATION', {}, [{ path: 'userId', message: 'validation.chooseOption' }]);
        await trx.updateTable('cases').set({ owner_id: user.id, version: sql`version + 1`, updated_at: new Date() }).where('id', '=', c.id).execute();
        await audit(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'owner_changed', type: 'case', detail: await ownerChange(trx, c.owner_id, user) });
      });
      return { ownerId: request.body.userId };
    },
  );

  app.put(
    '/api/cases/:id/participants',
    {
      config: { access: { target: 'wf_casos_participantes', action: 'update' } },
      schema: { tags: ['cases'], params: idParams, body: z.object({ userIds: z.array(z.number().int().positive()).max(50) }), response: { 200: z.object({ userIds: z.array(z.number()) }) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const ids = [...new Set(request.body.userIds)];
      await app.db.transaction().execute(async (trx) => {
        const c = await lockVisibleCase(trx, actor, request.params.id);
        const users = ids.length ? await trx.selectFrom('users').where('id', 'in', ids).where('entity_id', '=', actor.entityId).select('id').execute() : [];
        if (users.length !== ids.length) throw new AppError('VALIDATION', {}, [{ path: 'userIds', message: 'validation.chooseOption' }]);
        await trx.deleteFrom('case_participants').where('case_id', '=', c.id).execute();
        if (ids.length) await trx.insertInto('case_participants').values(ids.map((id) => ({ case_id: c.id, user_id: id, entity_id: actor.entityId }))).execute();
        await audit(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'participants_changed', type: 'case', detail: { userIds: ids } });
      });
      return { userIds: ids };
    },
  );

  app.get(
    '/api/cases/:id/similar',
    {
      config: { access: { target: 'aplicacionessimilares', action: 'show' } },
      schema: { tags: ['cases'], summary: 'Applications that share the identifying fields or the name', params: idParams, response: { 200: z.array(caseItem) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const c = await app.db
        .selectFrom('cases as c')
        .innerJoin('protocol_versions as v', 'v.id', 'c.protocol_version_id')
        .where('c.id', '=', request.params.id)
        .where('c.entity_id', '=', actor.entityId)
        .where(visibleCases(actor) as never)
        .select(['c.id', 'c.protocol_id', 'c.data', 'v.definition'])
        .executeTakeFirst();
      if (!c) throw new AppError('NOT_FOUND');
      const fields = (c.definition as ProtocolDefinition).duplicateFields.filter((f) => c.data[f] !== undefined && c.data[f] !== '');
      const probes: Array<Record<string, unknown>> = [];
      if (fields.length) probes.push({ [fields[fields.length - 1]]: c.data[fields[fields.length - 1]] });
      if (c.data.firstName && c.data.lastName) probes.push({ firstName: c.data.firstName, lastName: c.data.lastName });
      if (probes.length === 0) return [];
      const rows = await base(actor)
        .where('c.protocol_id', '=', c.protocol_id)
        .where('c.id', '<>', c.id)
        .where('c.state', '<>', 'DRAFT')
        .where((eb) => eb.or(probes.map((p) => sql<boolean>`c.data @> ${JSON.stringify(p)}::jsonb`)))
        .orderBy('c.id', 'desc')
        .limit(50)
        .execute();
      return rows.map(item);
    },
  );

  // ---------------------------------------------------------------- saved searches

  const savedView = z.object({ id: z.number(), name: z.string(), query: z.record(z.string(), z.unknown()) });
  app.get(
    '/api/cases/saved-searches',
    { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags: ['cases'], response: { 200: z.array(savedView) } } },
    async (request) => {
      const actor = actorOf(request);
      const rows = await app.db.selectFrom('saved_searches').where('user_id', '=', actor.userId).where('entity_id', '=', actor.entityId).select(['id', 'name', 'query']).orderBy('name').execute();
      return rows.map((r) => ({ id: r.id, name: r.name, query: r.query as Record<string, unknown> }));
    },
  );

  app.post(
    '/api/cases/saved-searches',
    {
      config: { access: { target: 'wf_casos', action: 'show' } },
      schema: {
        tags: ['cases'],
        body: z.object({ name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(100, { error: 'validation.tooLong' }), query: z.record(z.string().max(40), z.union([z.string().max(20_000), z.array(z.string().max(100)).max(20)])) }),
        response: { 201: savedView },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      // Checked as the list will take it when the search is opened: a search saved now works every time.
      const checked = exportQuery.safeParse(request.body.query);
      if (!checked.success) {
        throw new AppError('VALIDATION', {}, checked.error.issues.map((i) => ({ path: ['query', ...i.path].join('.'), message: i.message, params: (i as { params?: Record<string, unknown> }).params })));
      }
      const row = await app.db
        .insertInto('saved_searches')
        .values({ entity_id: actor.entityId, user_id: actor.userId, name: request.body.name, query: JSON.stringify(request.body.query) })
        .onConflict((oc) => oc.columns(['user_id', 'name']).doUpdateSet({ query: JSON.stringify(request.body.query) }))
        .returning(['id', 'name', 'query'])
        .executeTakeFirstOrThrow();
      return reply.status(201).send({ id: row.id, name: row.name, query: row.query as Record<string, unknown> });
    },
  );

  app.delete(
    '/api/cases/saved-searches/:id',
    { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags: ['cases'], params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const done = await app.db.deleteFrom('saved_searches').where('id', '=', request.params.id).where('user_id', '=', actor.userId).executeTakeFirst();
      if (Number(done.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
      return reply.status(204).send(null);
    },
  );
};
