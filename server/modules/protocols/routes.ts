/**
 * Protocols: list (with the public URL), the draft editor's API, publishing
 * (frozen versions), export to one JSON file with its forms, import
 * (validated, all or nothing), and the tasks of a protocol grouped by state.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { type FormDefinition, FormDefinitionError, parseFormDefinition } from '../../../core/forms/definition.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { containsPattern, listQuery, listResponse, paginate } from '../../lib/list.js';
import { actorOf } from '../../plugins/session.js';
import type { Actor } from '../acl/policy.js';
import { checkProtocolDefinition, publishProtocol } from './service.js';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const caseType = z.enum(['RADICACION_INTERNA', 'RADICACION_PUBLICA', 'RADICACION_AUTOMATICA'], { error: 'validation.chooseOption' });
const code = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'masters.badCode');

const summary = z.object({
  id: z.number(), code: z.string(), name: z.string(), description: z.string(), caseType, public: z.boolean(),
  mainFormId: z.number(), mainFormName: z.string(), publishedVersion: z.number().nullable(), tasks: z.number(), cases: z.number(), publicUrl: z.string(),
});
const detail = summary.extend({ definition: z.unknown(), versions: z.array(z.object({ version: z.number(), publishedAt: z.date(), publishedBy: z.string().nullable() })), changedSincePublished: z.boolean() });
const body = z.object({
  code,
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(200, { error: 'validation.tooLong' }),
  description: z.string().trim().max(2000, { error: 'validation.tooLong' }).default(''),
  caseType,
  public: z.boolean().default(false),
  mainFormId: z.number({ error: 'validation.chooseOption' }).int().positive(),
  definition: z.unknown(),
});

/** The export format: the protocol with its forms, and responsibles by team name or user email (ids differ between tenants). */
const exportFile = z.object({
  format: z.literal('casebook-protocol'),
  formatVersion: z.literal(1),
  protocol: z.object({ code, name: z.string().min(1).max(200), description: z.string().max(2000), caseType, public: z.boolean(), mainForm: z.string(), definition: z.unknown() }),
  forms: z.array(z.object({ code, definition: z.unknown() })).max(100),
  teams: z.record(z.string(), z.string()).default({}),
  users: z.record(z.string(), z.string()).default({}),
});

export const protocolRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = (actor: Actor, c: string) => `${app.config.http.publicUrl}/publico/${encodeURIComponent(actor.entity.docnumber)}/${c}`;
  const select = (entityId: number) =>
    app.db
      .selectFrom('protocols as p')
      .innerJoin('forms as f', 'f.id', 'p.main_form_id')
      .where('p.entity_id', '=', entityId)
      .select([
        'p.id', 'p.code', 'p.name', 'p.description', 'p.case_type', 'p.public', 'p.main_form_id', 'f.name as main_form_name', 'p.published_version', 'p.draft',
        sql<number>`jsonb_array_length(p.draft->'tasks')`.as('tasks'),
        sql<number>`(select count(*) from cases c where c.protocol_id = p.id and c.state <> 'DRAFT')::int`.as('cases'),
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirstOrThrow']>>;
  const view = (actor: Actor, p: Row) => ({
    id: p.id, code: p.code, name: p.name, description: p.description, caseType: p.case_type, public: p.public, mainFormId: p.main_form_id,
    mainFormName: p.main_form_name, publishedVersion: p.published_version, tasks: p.tasks, cases: p.cases, publicUrl: publicUrl(actor, p.code),
  });
  const find = async (actor: Actor, id: number) => {
    const p = await select(actor.entityId).where('p.id', '=', id).executeTakeFirst();
    if (!p) throw new AppError('NOT_FOUND');
    return p;
  };
  const detailOf = async (actor: Actor, id: number) => {
    const p = await find(actor, id);
    const versions = await app.db
      .selectFrom('protocol_versions as v')
      .leftJoin('users as u', 'u.id', 'v.published_by')
      .where('v.protocol_id', '=', id)
      .select(['v.version', 'v.published_at', 'u.name', 'v.definition'])
      .orderBy('v.version', 'desc')
      .execute();
    const published = versions.find((v) => v.version === p.published_version);
    const strip = (d: unknown) => JSON.stringify({ ...(d as object), mainFormVersionId: undefined, tasks: (d as ProtocolDefinition).tasks.map((t) => ({ ...t, formVersionId: undefined })) });
    return {
      ...view(actor, p),
      definition: p.draft,
      versions: versions.map((v) => ({ version: v.version, publishedAt: v.published_at, publishedBy: v.name })),
      changedSincePublished: !published || strip(published.definition) !== strip(p.draft),
    };
  };
  const assertMainForm = async (entityId: number, formId: number) => {
    const f = await app.db.selectFrom('forms').where('id', '=', formId).where('entity_id', '=', entityId).select('id').executeTakeFirst();
    if (!f) throw new AppError('VALIDATION', {}, [{ path: 'mainFormId', message: 'validation.chooseOption' }]);
  };
  const duplicate = (e: { code?: string }) => {
    if (e.code === '23505') throw new AppError('DUPLICATE', { field: 'code' });
    throw e;
  };

  app.get(
    '/api/protocols',
    { config: { access: { target: 'wf_protocolos', action: 'show' } }, schema: { tags: ['protocols'], querystring: listQuery(['name', 'code']), response: { 200: listResponse(summary) } } },
    async (request) => {
      const actor = actorOf(request);
      const { search, sortBy = 'name', descending, page, limit } = request.query;
      let q = select(actor.entityId);
      if (search) q = q.where((eb) => eb.or([eb('p.name', 'ilike', containsPattern(search)), eb('p.code', 'ilike', containsPattern(search))]));
      q = q.orderBy(`p.${sortBy}` as 'p.name', descending ? 'desc' : 'asc').orderBy('p.id');
      const { rows, total } = await paginate(q, { page, limit });
      return { items: rows.map((r) => view(actor, r)), total };
    },
  );

  app.get('/api/protocols/:id', { config: { access: { target: 'wf_protocolos', action: 'show' } }, schema: { tags: ['protocols'], params: idParams, response: { 200: detail } } }, async (request) =>
    detailOf(actorOf(request), request.params.id),
  );

  app.post(
    '/api/protocols',
    { config: { access: { target: 'wf_protocolos', action: 'create' } }, schema: { tags: ['protocols'], body, response: { 201: detail } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const b = request.body;
      await assertMainForm(actor.entityId, b.mainFormId);
      const id = await app.db.transaction().execute(async (trx) => {
        const def = await checkProtocolDefinition(trx, actor.entityId, b.definition, request.lang);
        const row = await trx
          .insertInto('protocols')
          .values({ entity_id: actor.entityId, code: b.code, name: b.name, description: b.description, case_type: b.caseType, public: b.public, main_form_id: b.mainFormId, draft: JSON.stringify(def) })
          .returning('id')
          .executeTakeFirstOrThrow()
          .catch(duplicate);
        return row.id;
      });
      return reply.status(201).send(await detailOf(actor, id));
    },
  );

  app.put(
    '/api/protocols/:id',
    { config: { access: { target: 'wf_protocolos', action: 'update' } }, schema: { tags: ['protocols'], summary: 'Save the draft (published versions do not change)', params: idParams, body, response: { 200: detail } } },
    async (request) => {
      const actor = actorOf(request);
      const b = request.body;
      await find(actor, request.params.id);
      await assertMainForm(actor.entityId, b.mainFormId);
      await app.db.transaction().execute(async (trx) => {
        const def = await checkProtocolDefinition(trx, actor.entityId, b.definition, request.lang);
        await trx
          .updateTable('protocols')
          .set({ code: b.code, name: b.name, description: b.description, case_type: b.caseType, public: b.public, main_form_id: b.mainFormId, draft: JSON.stringify(def), updated_at: new Date() })
          .where('id', '=', request.params.id)
          .where('entity_id', '=', actor.entityId)
          .execute()
          .catch(duplicate);
      });
      return detailOf(actor, request.params.id);
    },
  );

  app.post(
    '/api/protocols/:id/publish',
    { config: { access: { target: 'wf_protocolos', action: 'update' } }, schema: { tags: ['protocols'], summary: 'Freeze the draft as a new version; new cases use it, running ones keep theirs', params: idParams, response: { 200: detail } } },
    async (request) => {
      const actor = actorOf(request);
      await app.db.transaction().execute((trx) => publishProtocol(trx, actor.entityId, request.params.id, actor.userId, request.lang));
      return detailOf(actor, request.params.id);
    },
  );

  app.delete(
    '/api/protocols/:id',
    { config: { access: { target: 'wf_protocolos', action: 'delete' } }, schema: { tags: ['protocols'], params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const p = await find(actor, request.params.id);
      const anyCase = await app.db.selectFrom('cases').where('protocol_id', '=', p.id).select('id').executeTakeFirst();
      if (anyCase) throw new AppError('IN_USE');
      await app.db.deleteFrom('protocols').where('id', '=', p.id).where('entity_id', '=', actor.entityId).execute();
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/protocols/:id/export',
    { config: { access: { target: 'wf_protocolos', action: 'export' } }, schema: { tags: ['protocols'], summary: 'One JSON file with the protocol and its forms', params: idParams } },
    async (request, reply) => {
      const actor = actorOf(request);
      const p = await find(actor, request.params.id);
      const def = p.draft as ProtocolDefinition;
      const formIds = [...new Set([p.main_form_id, ...def.tasks.map((t) => t.formId).filter((x): x is number => x !== null)])];
      const forms = await app.db
        .selectFrom('forms as f')
        .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
        .where('f.id', 'in', formIds)
        .where('f.entity_id', '=', actor.entityId)
        .select(['f.id', 'f.code', 'v.definition'])
        .execute();
      const formCode = new Map(forms.map((f) => [f.id, f.code]));
      const teamIds = def.tasks.flatMap((t) => (t.responsible.kind === 'team' ? [t.responsible.teamId] : []));
      const userIds = def.tasks.flatMap((t) => (t.responsible.kind === 'user' ? [t.responsible.userId] : []));
      const teams = teamIds.length ? await app.db.selectFrom('teams').where('id', 'in', teamIds).where('entity_id', '=', actor.entityId).select(['id', 'name']).execute() : [];
      const users = userIds.length ? await app.db.selectFrom('users').where('id', 'in', userIds).where('entity_id', '=', actor.entityId).select(['id', 'email']).execute() : [];
      const file = {
        format: 'casebook-protocol' as const,
        formatVersion: 1 as const,
        protocol: {
          code: p.code, name: p.name, description: p.description, caseType: p.case_type, public: p.public, mainForm: formCode.get(p.main_form_id) as string,
          // Form ids become form codes; team and user ids are named in `teams` and `users`.
          definition: { ...def, mainFormVersionId: undefined, tasks: def.tasks.map((t) => ({ ...t, formVersionId: undefined, formId: t.formId === null ? null : formCode.get(t.formId) })) },
        },
        forms: forms.map((f) => ({ code: f.code, definition: f.definition })),
        teams: Object.fromEntries(teams.map((x) => [String(x.id), x.name])),
        users: Object.fromEntries(users.map((x) => [String(x.id), x.email])),
      };
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="protocol-${p.code}.json"`)
        .send(JSON.stringify(file, null, 2));
    },
  );

  app.post(
    '/api/protocols/import',
    {
      config: { access: { target: 'wf_protocolos', action: 'create' } },
      bodyLimit: 5 * 1024 * 1024,
      schema: { tags: ['protocols'], summary: 'Import an exported protocol with its forms: all of it, or nothing', body: exportFile, response: { 201: detail } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const f = request.body;
      const problems: Array<{ path: string; message: string }> = [];
      const forms = new Map<string, FormDefinition>();
      f.forms.forEach((form, i) => {
        try {
          forms.set(form.code, parseFormDefinition(form.definition));
        } catch (e) {
          if (!(e instanceof FormDefinitionError)) throw e;
          for (const p of e.problems) problems.push({ path: `forms.${i}.${p.path}`, message: translate(request.lang, p.reason, p.params) });
        }
      });
      const def = f.protocol.definition as { tasks?: Array<Record<string, unknown>> } & Record<string, unknown>;
      if (!forms.has(f.protocol.mainForm)) problems.push({ path: 'protocol.mainForm', message: translate(request.lang, 'protocols.def.unknownForm') });
      const teamsByName = new Map((await app.db.selectFrom('teams').where('entity_id', '=', actor.entityId).select(['id', 'name']).execute()).map((x) => [x.name, x.id]));
      const usersByEmail = new Map((await app.db.selectFrom('users').where('entity_id', '=', actor.entityId).select(['id', 'email']).execute()).map((x) => [x.email.toLowerCase(), x.id]));
      for (const [i, t] of (Array.isArray(def?.tasks) ? def.tasks : []).entries()) {
        if (t.formId !== null && t.formId !== undefined && !forms.has(String(t.formId))) problems.push({ path: `protocol.definition.tasks.${i}.formId`, message: translate(request.lang, 'protocols.def.unknownForm') });
        const r = t.responsible as { kind?: string; teamId?: number; userId?: number } | undefined;
        if (r?.kind === 'team' && !teamsByName.has(f.teams[String(r.teamId)] ?? '')) problems.push({ path: `protocol.definition.tasks.${i}.responsible`, message: translate(request.lang, 'protocols.def.unknownTeam') });
        if (r?.kind === 'user' && !usersByEmail.has((f.users[String(r.userId)] ?? '').toLowerCase())) problems.push({ path: `protocol.definition.tasks.${i}.responsible`, message: translate(request.lang, 'protocols.def.unknownUser') });
      }
      if (problems.length) throw new AppError('UNPROCESSABLE', {}, problems);
      const id = await app.db.transaction().execute(async (trx) => {
        // Forms whose code exists already get a suffix: an import never overwrites.
        const taken = new Set((await trx.selectFrom('forms').where('entity_id', '=', actor.entityId).select('code').execute()).map((x) => x.code));
        const newIds = new Map<string, number>();
        for (const [formCodeIn, formDef] of forms) {
          let target = formCodeIn;
          for (let n = 2; taken.has(target); n++) target = `${formCodeIn}-${n}`.slice(0, 63);
          taken.add(target);
          const row = await trx.insertInto('forms').values({ entity_id: actor.entityId, code: target, name: formDef.name, description: formDef.description }).returning('id').executeTakeFirstOrThrow();
          await trx.insertInto('form_versions').values({ entity_id: actor.entityId, form_id: row.id, version: 1, definition: JSON.stringify(formDef), created_by: actor.userId }).execute();
          newIds.set(formCodeIn, row.id);
        }
        const mapped = {
          ...def,
          tasks: (def.tasks ?? []).map((t) => {
            const r = t.responsible as { kind: string; teamId?: number; userId?: number };
            const responsible =
              r.kind === 'team' ? { kind: 'team', teamId: teamsByName.get(f.teams[String(r.teamId)]) } : r.kind === 'user' ? { kind: 'user', userId: usersByEmail.get(f.users[String(r.userId)].toLowerCase()) } : r;
            return { ...t, formId: t.formId === null || t.formId === undefined ? null : newIds.get(String(t.formId)), responsible };
          }),
        };
        const checked = await checkProtocolDefinition(trx, actor.entityId, mapped, request.lang);
        const row = await trx
          .insertInto('protocols')
          .values({
            entity_id: actor.entityId, code: f.protocol.code, name: f.protocol.name, description: f.protocol.description, case_type: f.protocol.caseType,
            public: f.protocol.public, main_form_id: newIds.get(f.protocol.mainForm) as number, draft: JSON.stringify(checked),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
          .catch(duplicate);
        return row.id;
      });
      return reply.status(201).send(await detailOf(actor, id));
    },
  );

  const stateGroups = ['REJECTED', 'PENDING', 'BLOCKED', 'UNASSIGNED', 'ACCEPTED'] as const;
  app.get(
    '/api/protocols/:id/tasks',
    {
      config: { access: { target: 'wf_protocolos', action: 'show' } },
      schema: {
        tags: ['protocols'],
        summary: 'The tasks of a protocol grouped by rejected, pending, blocked, unassigned and accepted, with counts',
        params: idParams,
        querystring: z.strictObject({ state: z.enum(stateGroups).default('PENDING'), page: z.coerce.number().int().min(1).default(1), limit: z.coerce.number().int().min(1).max(100).default(20) }),
        response: {
          200: z.object({
            counts: z.record(z.string(), z.number()),
            items: z.array(z.object({ id: z.number(), code: z.string(), name: z.string(), caseId: z.number(), caseNumber: z.string().nullable(), responsibleName: z.string().nullable(), teamName: z.string().nullable(), dueAt: z.date().nullable(), overdue: z.boolean() })),
            total: z.number(),
          }),
        },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const p = await find(actor, request.params.id);
      const counts = await app.db
        .selectFrom('tasks as t')
        .innerJoin('cases as c', 'c.id', 't.case_id')
        .where('c.protocol_id', '=', p.id)
        .where('t.entity_id', '=', actor.entityId)
        .where('t.state', 'in', [...stateGroups])
        .select(['t.state', sql<number>`count(*)::int`.as('n')])
        .groupBy('t.state')
        .execute();
      const q = app.db
        .selectFrom('tasks as t')
        .innerJoin('cases as c', 'c.id', 't.case_id')
        .leftJoin('users as u', 'u.id', 't.responsible_user_id')
        .leftJoin('teams as tm', 'tm.id', 't.responsible_team_id')
        .where('c.protocol_id', '=', p.id)
        .where('t.entity_id', '=', actor.entityId)
        .where('t.state', '=', request.query.state)
        .select(['t.id', 't.code', 't.name', 't.case_id', 'c.serial', 'u.name as responsible_name', 'tm.name as team_name', 't.due_at', 't.overdue'])
        .orderBy('t.id', 'desc');
      const { rows, total } = await paginate(q, request.query);
      return {
        counts: Object.fromEntries(stateGroups.map((s) => [s, counts.find((c) => c.state === s)?.n ?? 0])),
        items: rows.map((r) => ({ id: r.id, code: r.code, name: r.name, caseId: r.case_id, caseNumber: r.serial, responsibleName: r.responsible_name, teamName: r.team_name, dueAt: r.due_at, overdue: r.overdue })),
        total,
      };
    },
  );
};
