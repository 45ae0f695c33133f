/**
 * Teams and their members (leader or member, active). A user may be in
 * several teams. A team's assignment strategy (round-robin or least loaded)
 * decides who gets the tasks a protocol gives the team.
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts or
 * commands.ts (both scoped to the actor's tenant), and presents the answer.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { addMember, deleteTeam } from './commands.js';
import { findMember, findTeam, insertTeam, listMembers, listTeams, removeMember, updateMember, updateTeam, userOptions } from './repo.js';
import * as s from './schema.js';

export const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---------------------------------------------------------------- teams

  app.get(
    '/api/teams',
    { config: { access: { target: 'wf_equipos', action: 'show' } }, schema: { tags: ['teams'], querystring: s.teamListQuery, response: { 200: s.teamListSchema } } },
    async (request) => listTeams(app.db, actorOf(request), request.query),
  );

  app.get('/api/teams/:id', { config: { access: { target: 'wf_equipos', action: 'show' } }, schema: { tags: ['teams'], params: s.idParams, response: { 200: s.teamSchema } } }, async (request) =>
    findTeam(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/teams',
    { config: { access: { target: 'wf_equipos', action: 'create' } }, schema: { tags: ['teams'], body: s.teamBody, response: { 201: s.teamSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await insertTeam(app.db, actor, request.body);
      return reply.status(201).send(await findTeam(app.db, actor, id));
    },
  );

  app.put(
    '/api/teams/:id',
    { config: { access: { target: 'wf_equipos', action: 'update' } }, schema: { tags: ['teams'], params: s.idParams, body: s.teamBody, response: { 200: s.teamSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await updateTeam(app.db, actor, request.params.id, request.body);
      return findTeam(app.db, actor, request.params.id);
    },
  );

  app.delete(
    '/api/teams/:id',
    { config: { access: { target: 'wf_equipos', action: 'delete' } }, schema: { tags: ['teams'], params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteTeam(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  // ---------------------------------------------------------------- members

  app.get(
    '/api/team-members',
    { config: { access: { target: 'wf_equipos_integrantes', action: 'show' } }, schema: { tags: ['teams'], querystring: s.teamMemberListQuery, response: { 200: s.teamMemberListSchema } } },
    async (request) => listMembers(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/team-members/user-options',
    {
      config: { access: { target: 'wf_equipos_integrantes', action: 'show' } },
      schema: { tags: ['teams'], summary: 'Active users of the tenant who can join a team', querystring: s.userOptionsQuery, response: { 200: s.teamUserOptionSchema.array() } },
    },
    async (request) => userOptions(app.db, actorOf(request), request.query.search),
  );

  app.post(
    '/api/team-members',
    { config: { access: { target: 'wf_equipos_integrantes', action: 'create' } }, schema: { tags: ['teams'], body: s.memberBody, response: { 201: s.teamMemberSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await addMember(app.db, actor, request.body);
      return reply.status(201).send(await findMember(app.db, actor, id));
    },
  );

  app.put(
    '/api/team-members/:id',
    {
      config: { access: { target: 'wf_equipos_integrantes', action: 'update' } },
      schema: { tags: ['teams'], params: s.idParams, body: s.memberUpdateBody, response: { 200: s.teamMemberSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await updateMember(app.db, actor, request.params.id, request.body);
      return findMember(app.db, actor, request.params.id);
    },
  );

  app.delete(
    '/api/team-members/:id',
    { config: { access: { target: 'wf_equipos_integrantes', action: 'delete' } }, schema: { tags: ['teams'], params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await removeMember(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
