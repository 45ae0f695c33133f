/**
 * Teams and their members (leader or member, active). A user may be in
 * several teams. A team's assignment strategy (round-robin or least loaded)
 * decides who gets the tasks a protocol gives the team.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { containsPattern, listQuery, listResponse, paginate } from '../../lib/list.js';
import { actorOf } from '../../plugins/session.js';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const teamView = z.object({ id: z.number(), name: z.string(), description: z.string(), assignment: z.enum(['round_robin', 'least_loaded']), active: z.boolean(), members: z.number(), openTasks: z.number() });
const teamBody = z.object({
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  description: z.string().trim().max(1000, { error: 'validation.tooLong' }).default(''),
  assignment: z.enum(['round_robin', 'least_loaded'], { error: 'validation.chooseOption' }).default('least_loaded'),
  active: z.boolean().default(true),
});
const memberView = z.object({ id: z.number(), teamId: z.number(), teamName: z.string(), userId: z.number(), userName: z.string(), userEmail: z.string(), role: z.enum(['leader', 'member']), active: z.boolean() });
const memberBody = z.object({
  teamId: z.number({ error: 'validation.chooseOption' }).int().positive(),
  userId: z.number({ error: 'validation.chooseOption' }).int().positive(),
  role: z.enum(['leader', 'member'], { error: 'validation.chooseOption' }).default('member'),
  active: z.boolean().default(true),
});

export const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  const selectTeams = (entityId: number) =>
    app.db
      .selectFrom('teams as t')
      .where('t.entity_id', '=', entityId)
      .select([
        't.id', 't.name', 't.description', 't.assignment', 't.active',
        sql<number>`(select count(*) from team_members m where m.team_id = t.id and m.active)::int`.as('members'),
        sql<number>`(select count(*) from tasks k where k.responsible_team_id = t.id and k.state in ('UNASSIGNED', 'PENDING', 'BLOCKED'))::int`.as('open_tasks'),
      ]);
  type TeamRow = Awaited<ReturnType<ReturnType<typeof selectTeams>['executeTakeFirstOrThrow']>>;
  const view = (t: TeamRow) => ({ id: t.id, name: t.name, description: t.description, assignment: t.assignment, active: t.active, members: t.members, openTasks: t.open_tasks });
  const findTeam = async (entityId: number, id: number) => {
    const t = await selectTeams(entityId).where('t.id', '=', id).executeTakeFirst();
    if (!t) throw new AppError('NOT_FOUND');
    return t;
  };
  const duplicate = (field: string) => (e: { code?: string }) => {
    if (e.code === '23505') throw new AppError('DUPLICATE', { field });
    throw e;
  };

  app.get(
    '/api/teams',
    { config: { access: { target: 'wf_equipos', action: 'show' } }, schema: { tags: ['teams'], querystring: listQuery(['name']), response: { 200: listResponse(teamView) } } },
    async (request) => {
      const actor = actorOf(request);
      const { search, descending, page, limit } = request.query;
      let q = selectTeams(actor.entityId);
      if (search) q = q.where('t.name', 'ilike', containsPattern(search));
      q = q.orderBy('t.name', descending ? 'desc' : 'asc').orderBy('t.id');
      const { rows, total } = await paginate(q, { page, limit });
      return { items: rows.map(view), total };
    },
  );

  app.get('/api/teams/:id', { config: { access: { target: 'wf_equipos', action: 'show' } }, schema: { tags: ['teams'], params: idParams, response: { 200: teamView } } }, async (request) =>
    view(await findTeam(actorOf(request).entityId, request.params.id)),
  );

  app.post(
    '/api/teams',
    { config: { access: { target: 'wf_equipos', action: 'create' } }, schema: { tags: ['teams'], body: teamBody, response: { 201: teamView } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const row = await app.db.insertInto('teams').values({ entity_id: actor.entityId, ...request.body }).returning('id').executeTakeFirstOrThrow().catch(duplicate('name'));
      return reply.status(201).send(view(await findTeam(actor.entityId, row.id)));
    },
  );

  app.put(
    '/api/teams/:id',
    { config: { access: { target: 'wf_equipos', action: 'update' } }, schema: { tags: ['teams'], params: idParams, body: teamBody, response: { 200: teamView } } },
    async (request) => {
      const actor = actorOf(request);
      const done = await app.db
        .updateTable('teams')
        .set(request.body)
        .where('id', '=', request.params.id)
        .where('entity_id', '=', actor.entityId)
        .returning('id')
        .executeTakeFirst()
        .catch(duplicate('name'));
      if (!done) throw new AppError('NOT_FOUND');
      return view(await findTeam(actor.entityId, done.id));
    },
  );

  app.delete(
    '/api/teams/:id',
    { config: { access: { target: 'wf_equipos', action: 'delete' } }, schema: { tags: ['teams'], params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const team = await findTeam(actor.entityId, request.params.id);
      // A team that protocols name or that holds open tasks stays: deactivate it instead.
      const named = await app.db
        .selectFrom('protocols')
        .where('entity_id', '=', actor.entityId)
        .where(sql<boolean>`exists (select 1 from jsonb_array_elements(draft->'tasks') t where (t->'responsible'->>'teamId')::bigint = ${team.id})`)
        .select('id')
        .executeTakeFirst();
      if (named || team.open_tasks > 0) throw new AppError('IN_USE');
      await app.db.deleteFrom('teams').where('id', '=', team.id).where('entity_id', '=', actor.entityId).execute();
      return reply.status(204).send(null);
    },
  );

  const selectMembers = (entityId: number) =>
    app.db
      .selectFrom('team_members as m')
      .innerJoin('teams as t', 't.id', 'm.team_id')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .where('m.entity_id', '=', entityId)
      .select(['m.id', 'm.team_id', 't.name as team_name', 'm.user_id', 'u.name as user_name', 'u.email as user_email', 'm.role', 'm.active']);
  type MemberRow = Awaited<ReturnType<ReturnType<typeof selectMembers>['executeTakeFirstOrThrow']>>;
  const memberOut = (m: MemberRow) => ({ id: m.id, teamId: m.team_id, teamName: m.team_name, userId: m.user_id, userName: m.user_name, userEmail: m.user_email, role: m.role, active: m.active });

  app.get(
    '/api/team-members',
    {
      config: { access: { target: 'wf_equipos_integrantes', action: 'show' } },
      schema: { tags: ['teams'], querystring: listQuery(['user_name', 'team_name']).extend({ teamId: z.coerce.number().int().positive().optional() }), response: { 200: listResponse(memberView) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const { search, sortBy = 'team_name', descending, page, limit, teamId } = request.query;
      let q = selectMembers(actor.entityId);
      if (teamId) q = q.where('m.team_id', '=', teamId);
      if (search) q = q.where((eb) => eb.or([eb('u.name', 'ilike', containsPattern(search)), eb('u.email', 'ilike', containsPattern(search)), eb('t.name', 'ilike', containsPattern(search))]));
      const order = sortBy === 'user_name' ? 'u.name' : 't.name';
      q = q.orderBy(order, descending ? 'desc' : 'asc').orderBy('u.name').orderBy('m.id');
      const { rows, total } = await paginate(q, { page, limit });
      return { items: rows.map(memberOut), total };
    },
  );

  app.get(
    '/api/team-members/user-options',
    {
      config: { access: { target: 'wf_equipos_integrantes', action: 'show' } },
      schema: { tags: ['teams'], summary: 'Active users of the tenant who can join a team', querystring: z.strictObject({ search: z.string().max(100).optional() }), response: { 200: z.array(z.object({ id: z.number(), name: z.string(), email: z.string() })) } },
    },
    async (request) => {
      let q = app.db.selectFrom('users').where('entity_id', '=', actorOf(request).entityId).where('active', '=', true).select(['id', 'name', 'email']).orderBy('name').limit(50);
      if (request.query.search) q = q.where((eb) => eb.or([eb('name', 'ilike', containsPattern(request.query.search as string)), eb('email', 'ilike', containsPattern(request.query.search as string))]));
      return q.execute();
    },
  );

  const assertOwn = async (entityId: number, teamId: number, userId: number) => {
    const [team, user] = await Promise.all([
      app.db.selectFrom('teams').where('id', '=', teamId).where('entity_id', '=', entityId).select('id').executeTakeFirst(),
      app.db.selectFrom('users').where('id', '=', userId).where('entity_id', '=', entityId).select('id').executeTakeFirst(),
    ]);
    if (!team) throw new AppError('VALIDATION', {}, [{ path: 'teamId', message: 'validation.chooseOption' }]);
    if (!user) throw new AppError('VALIDATION', {}, [{ path: 'userId', message: 'validation.chooseOption' }]);
  };

  app.post(
    '/api/team-members',
    { config: { access: { target: 'wf_equipos_integrantes', action: 'create' } }, schema: { tags: ['teams'], body: memberBody, response: { 201: memberView } } },
    async (request, reply) => {
      const actor = actorOf(request);
      await assertOwn(actor.entityId, request.body.teamId, request.body.userId);
      const row = await app.db
        .insertInto('team_members')
        .values({ entity_id: actor.entityId, team_id: request.body.teamId, user_id: request.body.userId, role: request.body.role, active: request.body.active })
        .returning('id')
        .executeTakeFirstOrThrow()
        .catch(duplicate('userId'));
      return reply.status(201).send(memberOut(await selectMembers(actor.entityId).where('m.id', '=', row.id).executeTakeFirstOrThrow()));
    },
  );

  app.put(
    '/api/team-members/:id',
    {
      config: { access: { target: 'wf_equipos_integrantes', action: 'update' } },
      schema: { tags: ['teams'], params: idParams, body: memberBody.pick({ role: true, active: true }), response: { 200: memberView } },
    },
    async (request) => {
      const actor = actorOf(request);
      const done = await app.db.updateTable('team_members').set(request.body).where('id', '=', request.params.id).where('entity_id', '=', actor.entityId).returning('id').executeTakeFirst();
      if (!done) throw new AppError('NOT_FOUND');
      return memberOut(await selectMembers(actor.entityId).where('m.id', '=', done.id).executeTakeFirstOrThrow());
    },
  );

  app.delete(
    '/api/team-members/:id',
    { config: { access: { target: 'wf_equipos_integrantes', action: 'delete' } }, schema: { tags: ['teams'], params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const done = await app.db.deleteFrom('team_members').where('id', '=', request.params.id).where('entity_id', '=', actorOf(request).entityId).executeTakeFirst();
      if (Number(done.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
      return reply.status(204).send(null);
    },
  );
};
