/**
 * Tasks: the lists (all tasks, my pending tasks with the spec's columns),
 * one task with everything its page shows and the actions this user may
 * take on it, and the transitions, which all go through the engine.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { formDataSchema } from '../../../core/forms/data.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import { adhocTaskSchema } from '../../../core/workflow/adhoc.js';
import { nextTaskState, TASK_STATES, type TaskState } from '../../../core/workflow/states.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { containsPattern, listQuery, listResponse, paginate } from '../../lib/list.js';
import { actorOf } from '../../plugins/session.js';
import { masterLabels } from '../forms/options.js';
import { type Actor, can } from '../acl/policy.js';
import { ADHOC_CODE, acceptTask, assignTask, createAdhocTask, rejectTask, restartTask, saveTaskData } from '../workflow/engine.js';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const stateEnum = z.enum(TASK_STATES);

const taskItem = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  state: stateEnum,
  caseId: z.number(),
  caseNumber: z.string().nullable(),
  protocolName: z.string(),
  responsibleId: z.number().nullable(),
  responsibleName: z.string().nullable(),
  teamId: z.number().nullable(),
  teamName: z.string().nullable(),
  dueAt: z.date().nullable(),
  overdue: z.boolean(),
  createdAt: z.date(),
});

const pendingItem = taskItem.extend({
  possibleDuplicated: z.boolean(),
  requireIncome: z.boolean(),
  section8: z.boolean(),
  thirdParty: z.boolean(),
  actions: z.array(z.string()),
});

export const taskRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = (entityId: number) =>
    app.db
      .selectFrom('tasks as t')
      .innerJoin('cases as c', 'c.id', 't.case_id')
      .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
      .leftJoin('users as u', 'u.id', 't.responsible_user_id')
      .leftJoin('teams as tm', 'tm.id', 't.responsible_team_id')
      .where('t.entity_id', '=', entityId)
      .select([
        't.id', 't.code', 't.name', 't.state', 't.case_id', 'c.serial', 'p.name as protocol_name', 't.responsible_user_id', 'u.name as responsible_name',
        't.responsible_team_id', 'tm.name as team_name', 't.due_at', 't.overdue', 't.created_at',
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
  const item = (r: Row) => ({
    id: r.id, code: r.code, name: r.name, state: r.state as TaskState, caseId: r.case_id, caseNumber: r.serial, protocolName: r.protocol_name,
    responsibleId: r.responsible_user_id, responsibleName: r.responsible_name, teamId: r.responsible_team_id, teamName: r.team_name,
    dueAt: r.due_at, overdue: r.overdue, createdAt: r.created_at,
  });

  const filters = listQuery(['created_at', 'due_at', 'name', 'state']).extend({
    state: z.union([stateEnum, z.array(stateEnum)]).optional(),
    protocolId: z.coerce.number().int().positive().optional(),
    teamId: z.coerce.number().int().positive().optional(),
    responsibleId: z.coerce.number().int().positive().optional(),
    caseId: z.coerce.number().int().positive().optional(),
    overdue: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
    /** true: only ad-hoc tasks (the /tareas list); false: only the protocol's tasks. */
    adhoc: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  });

  app.get(
    '/api/tasks',
    { config: { access: { target: 'wf_tareas', action: 'show' } }, schema: { tags: ['tasks'], querystring: filters, response: { 200: listResponse(taskItem) } } },
    async (request) => {
      const actor = actorOf(request);
      const { search, sortBy = 'created_at', descending = true, page, limit, state, protocolId, teamId, responsibleId, caseId, overdue, adhoc } = request.query;
      let q = base(actor.entityId);
      if (state) q = q.where('t.state', 'in', Array.isArray(state) ? state : [state]);
      if (protocolId) q = q.where('c.protocol_id', '=', protocolId);
      if (teamId) q = q.where('t.responsible_team_id', '=', teamId);
      if (responsibleId) q = q.where('t.responsible_user_id', '=', responsibleId);
      if (caseId) q = q.where('t.case_id', '=', caseId);
      if (overdue !== undefined) q = q.where('t.overdue', '=', overdue);
      if (adhoc !== undefined) q = q.where('t.code', adhoc ? '=' : '<>', ADHOC_CODE);
      if (search) q = q.where((eb) => eb.or([eb('t.name', 'ilike', containsPattern(search)), eb('c.serial', 'ilike', containsPattern(search))]));
      q = q.orderBy(`t.${sortBy}` as 't.created_at', descending ? 'desc' : 'asc').orderBy('t.id', 'desc');
      const { rows, total } = await paginate(q, { page, limit });
      return { items: rows.map(item), total };
    },
  );

  app.get(
    '/api/tasks/pending',
    {
      config: { access: { target: 'menutareas', action: 'show' } },
      schema: { tags: ['tasks'], summary: 'My pending tasks: mine, and unassigned ones of my teams', querystring: listQuery(['due_at', 'created_at']), response: { 200: listResponse(pendingItem) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const { search, sortBy = 'due_at', descending, page, limit } = request.query;
      let q = base(actor.entityId)
        .innerJoin('protocol_versions as v', 'v.id', 'c.protocol_version_id')
        .select(['c.possible_duplicated', 'c.data as case_data', 'v.definition as protocol_definition'])
        .where('t.state', 'in', ['PENDING', 'UNASSIGNED', 'INCONSISTENCY'])
        .where((eb) =>
          eb.or([
            eb('t.responsible_user_id', '=', actor.userId),
            eb.and([eb('t.responsible_user_id', 'is', null), eb('t.responsible_team_id', 'in', eb.selectFrom('team_members').where('user_id', '=', actor.userId).where('active', '=', true).select('team_id'))]),
          ]),
        );
      if (search) q = q.where((eb) => eb.or([eb('t.name', 'ilike', containsPattern(search)), eb('c.serial', 'ilike', containsPattern(search))]));
      q = q.orderBy(sql`${sql.ref(`t.${sortBy}`)} ${sql.raw(descending ? 'desc' : 'asc')} nulls last`).orderBy('t.id');
      const { rows, total } = await paginate(q, { page, limit });
      return {
        items: rows.map((r) => {
          // The protocol says which form fields fill the spec's columns.
          const cols = (r.protocol_definition as ProtocolDefinition).pendingColumns ?? { requireIncome: [], section8: null, thirdParty: null };
          const data = r.case_data as Record<string, unknown>;
          const state = r.state as TaskState;
          return {
            ...item(r),
            possibleDuplicated: r.possible_duplicated,
            requireIncome: cols.requireIncome.some((f) => Boolean(data[f])),
            section8: cols.section8 ? Boolean(data[cols.section8]) : false,
            thirdParty: cols.thirdParty ? Boolean(data[cols.thirdParty]) : false,
            actions: ['accept', 'reject'].filter((a) => nextTaskState(state, a as 'accept') && can(actor, 'wf_tareas', a as 'accept')),
          };
        }),
        total,
      };
    },
  );

  async function allowedActions(actor: Actor, task: { state: string; responsible_user_id: number | null; responsible_team_id: number | null }): Promise<string[]> {
    const state = task.state as TaskState;
    const member = task.responsible_team_id
      ? await app.db.selectFrom('team_members').where('team_id', '=', task.responsible_team_id).where('user_id', '=', actor.userId).where('active', '=', true).select('role').executeTakeFirst()
      : undefined;
    const involved = task.responsible_user_id === actor.userId || !!member;
    const admin = can(actor, 'admintasks', 'update');
    const out: string[] = [];
    for (const a of ['accept', 'reject'] as const) if (nextTaskState(state, a) && can(actor, 'wf_tareas', a) && (involved || admin)) out.push(a);
    if (nextTaskState(state, 'restart') && (can(actor, 'admintasks', 'restart_task') || (can(actor, 'wf_tareas', 'restart_task') && involved))) out.push('restart');
    if (nextTaskState(state, 'assign') && (admin || member?.role === 'leader' || (task.responsible_user_id === actor.userId && can(actor, 'wf_tareas', 'update')))) out.push('assign');
    if ((state === 'PENDING' || state === 'INCONSISTENCY') && (involved || admin) && can(actor, 'wf_tareas', 'update')) out.push('save');
    return out;
  }

  const taskDetail = taskItem.extend({
    version: z.number(),
    data: z.record(z.string(), z.unknown()),
    reason: z.string().nullable(),
    /** What an ad-hoc task asks for (null for protocol tasks). */
    instructions: z.string().nullable(),
    form: z.object({ versionId: z.number(), definition: z.unknown() }).nullable(),
    case: z.object({
      id: z.number(), number: z.string().nullable(), state: z.string(), ownerName: z.string(), data: z.record(z.string(), z.unknown()), mainForm: z.unknown(), possibleDuplicated: z.boolean(), docDate: z.date().nullable(),
      /** Names of the master items the case data holds, by field and code. */
      optionLabels: z.record(z.string(), z.record(z.string(), z.string())),
    }),
    next: z.array(z.object({ code: z.string(), name: z.string(), when: z.string().nullable() })),
    onReject: z.union([z.object({ to: z.string(), name: z.string() }), z.object({ notEligible: z.literal(true) })]).nullable(),
    actions: z.array(z.string()),
  });

  app.get(
    '/api/tasks/:id',
    { config: { access: { target: 'wf_tareas', action: 'show' } }, schema: { tags: ['tasks'], params: idParams, response: { 200: taskDetail } } },
    async (request) => {
      const actor = actorOf(request);
      const row = await base(actor.entityId)
        .innerJoin('users as o', 'o.id', 'c.owner_id')
        .leftJoin('protocol_versions as v', 'v.id', 'c.protocol_version_id')
        .innerJoin('form_versions as mf', 'mf.id', 'c.form_version_id')
        .leftJoin('form_versions as tf', 'tf.id', 't.form_version_id')
        .select(['t.version', 't.data', 't.reason', 't.instructions', 't.form_version_id', 'tf.definition as form_definition', 'c.state as case_state', 'c.data as case_data', 'c.possible_duplicated', 'c.doc_date', 'o.name as owner_name', 'v.definition as protocol_definition', 'mf.definition as main_form'])
        .where('t.id', '=', request.params.id)
        .executeTakeFirst();
      if (!row) throw new AppError('NOT_FOUND');
      const def = row.protocol_definition as ProtocolDefinition | null;
      const tpl = def?.tasks.find((t) => t.code === row.code);
      const names = new Map((def?.tasks ?? []).map((t) => [t.code, (actor.language === 'en' && t.name_en) || t.name]));
      return {
        ...item(row),
        version: row.version,
        data: row.data as Record<string, unknown>,
        reason: row.reason,
        instructions: row.instructions,
        form: row.form_version_id ? { versionId: row.form_version_id, definition: row.form_definition as FormDefinition } : null,
        case: {
          id: row.case_id, number: row.serial, state: row.case_state, ownerName: row.owner_name, data: row.case_data as Record<string, unknown>, mainForm: row.main_form, possibleDuplicated: row.possible_duplicated, docDate: row.doc_date,
          optionLabels: await masterLabels(app.db, actor.entityId, row.main_form as FormDefinition, row.case_data as Record<string, unknown>),
        },
        next: (tpl?.onAccept ?? []).map((e) => ({ code: e.to, name: names.get(e.to) ?? e.to, when: e.when ?? null })),
        onReject: tpl?.onReject ? ('to' in tpl.onReject ? { to: tpl.onReject.to, name: names.get(tpl.onReject.to) ?? tpl.onReject.to } : { notEligible: true as const }) : null,
        actions: await allowedActions(actor, row),
      };
    },
  );

  app.post(
    '/api/tasks',
    {
      config: { access: { target: 'wf_tareas', action: 'create' } },
      schema: {
        tags: ['tasks'],
        summary: 'An ad-hoc task on an open case, for a user or a team (outside the protocol: deciding it moves nothing else)',
        body: adhocTaskSchema,
        response: { 201: z.object({ id: z.number() }) },
      },
    },
    async (request, reply) => reply.status(201).send({ id: await createAdhocTask(app.db, app.engine, actorOf(request), request.body) }),
  );

  const lang = (request: { lang: 'en' | 'es' }) => request.lang;
  const decideBody = z.object({ data: formDataSchema.optional(), version: z.number().int().positive().optional() });
  const ok = z.object({ ok: z.literal(true), created: z.array(z.number()) });

  app.put(
    '/api/tasks/:id/data',
    {
      config: { access: { target: 'wf_tareas', action: 'update' } },
      schema: { tags: ['tasks'], summary: 'Save the task form without deciding', params: idParams, body: z.object({ data: formDataSchema, version: z.number().int().positive().optional() }), response: { 200: z.object({ version: z.number() }) } },
    },
    async (request) => ({ version: await saveTaskData(app.db, actorOf(request), request.params.id, request.body.data, request.body.version) }),
  );

  app.post(
    '/api/tasks/:id/accept',
    { config: { access: { target: 'wf_tareas', action: 'accept' } }, schema: { tags: ['tasks'], params: idParams, body: decideBody, response: { 200: ok } } },
    async (request) => {
      const { created } = await acceptTask(app.db, app.engine, actorOf(request), request.params.id, { ...request.body, lang: lang(request) });
      return { ok: true as const, created };
    },
  );

  app.post(
    '/api/tasks/:id/reject',
    {
      config: { access: { target: 'wf_tareas', action: 'reject' } },
      schema: {
        tags: ['tasks'],
        params: idParams,
        body: decideBody.extend({ reason: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(2000, { error: 'validation.tooLong' }) }),
        response: { 200: ok.extend({ notEligible: z.boolean() }) },
      },
    },
    async (request) => {
      const r = await rejectTask(app.db, app.engine, actorOf(request), request.params.id, request.body);
      return { ok: true as const, ...r };
    },
  );

  app.post(
    '/api/tasks/:id/restart',
    { config: { access: 'session' }, schema: { tags: ['tasks'], summary: 'Give a decided task back to work (task administrators, or its responsible with restart_task)', params: idParams, response: { 200: ok } } },
    async (request) => {
      await restartTask(app.db, app.engine, actorOf(request), request.params.id);
      return { ok: true as const, created: [] };
    },
  );

  const assignBody = z.object({ userId: z.number().int().positive().optional(), teamId: z.number().int().positive().optional() }).refine((b) => b.userId !== undefined || b.teamId !== undefined, { path: ['userId'], error: 'validation.chooseOption' });

  app.post(
    '/api/tasks/:id/assign',
    { config: { access: 'session' }, schema: { tags: ['tasks'], summary: 'Change the responsible (task administrators, the team leader, or the responsible handing it on)', params: idParams, body: assignBody, response: { 200: ok } } },
    async (request) => {
      await assignTask(app.db, app.engine, actorOf(request), request.params.id, request.body);
      return { ok: true as const, created: [] };
    },
  );

  const bulkResult = z.object({ done: z.array(z.number()), failed: z.array(z.object({ id: z.number(), message: z.string() })) });
  const bulk = async (ids: number[], run: (id: number) => Promise<unknown>, lang: 'en' | 'es') => {
    const done: number[] = [];
    const failed: Array<{ id: number; message: string }> = [];
    // One by one, each in its own transaction: one task that cannot move does not stop the others.
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
  };
  const ids = z.array(z.number().int().positive()).min(1).max(200);

  app.post(
    '/api/tasks/bulk/assign',
    { config: { access: { target: 'admintasks', action: 'update' } }, schema: { tags: ['tasks'], body: z.object({ ids, userId: z.number().int().positive().optional(), teamId: z.number().int().positive().optional() }), response: { 200: bulkResult } } },
    async (request) => bulk(request.body.ids, (id) => assignTask(app.db, app.engine, actorOf(request), id, request.body), request.lang),
  );

  app.post(
    '/api/tasks/bulk/restart',
    { config: { access: { target: 'admintasks', action: 'restart_task' } }, schema: { tags: ['tasks'], body: z.object({ ids }), response: { 200: bulkResult } } },
    async (request) => bulk(request.body.ids, (id) => restartTask(app.db, app.engine, actorOf(request), id), request.lang),
  );

  app.get(
    '/api/cases/:id/timeline',
    {
      config: { access: { target: 'wf_tareas', action: 'show' } },
      schema: { tags: ['tasks'], summary: 'The tasks of one case, oldest first', params: idParams, response: { 200: z.object({ caseId: z.number(), number: z.string().nullable(), state: z.string(), tasks: z.array(taskItem.extend({ reason: z.string().nullable(), decidedAt: z.date().nullable(), decidedBy: z.string().nullable() })) }) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const c = await app.db.selectFrom('cases').where('id', '=', request.params.id).where('entity_id', '=', actor.entityId).select(['id', 'serial', 'state']).executeTakeFirst();
      if (!c) throw new AppError('NOT_FOUND');
      const rows = await base(actor.entityId)
        .leftJoin('users as d', 'd.id', 't.decided_by')
        .select(['t.reason', 't.decided_at', 'd.name as decided_by_name'])
        .where('t.case_id', '=', c.id)
        .orderBy('t.id')
        .execute();
      return { caseId: c.id, number: c.serial, state: c.state, tasks: rows.map((r) => ({ ...item(r), reason: r.reason, decidedAt: r.decided_at, decidedBy: r.decided_by_name })) };
    },
  );
};
