/**
 * Tasks: the lists (all tasks, my pending tasks with the spec's columns),
 * one task with everything its page shows and the actions this user may
 * take on it, the case's timeline, and the transitions, which all go through
 * the engine (workflow/engine.ts), checked by policy.ts.
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. No SQL here.
 * The two lists read through `app.read` (the read replica when there is one).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { acceptTask, assignTask, bulkAssignTasks, bulkRestartTasks, createAdhocTask, rejectTask, restartTask, saveTaskData } from './commands.js';
import { caseTimeline, findTaskDetail, listPending, listTasks } from './repo.js';
import * as s from './schema.js';

export const taskRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---------------------------------------------------------------- lists

  app.get(
    '/api/tasks',
    { config: { access: { target: 'wf_tareas', action: 'show' } }, schema: { tags: ['tasks'], querystring: s.taskFiltersSchema, response: { 200: s.taskListSchema } } },
    async (request) => app.read(request, (db) => listTasks(db, actorOf(request), request.query)),
  );

  app.get(
    '/api/tasks/pending',
    {
      config: { access: { target: 'menutareas', action: 'show' } },
      schema: { tags: ['tasks'], summary: 'My pending tasks: mine, and unassigned ones of my teams', querystring: s.pendingQuerySchema, response: { 200: s.pendingListSchema } },
    },
    async (request) => app.read(request, (db) => listPending(db, actorOf(request), request.query)),
  );

  app.get(
    '/api/cases/:id/timeline',
    {
      config: { access: { target: 'wf_tareas', action: 'show' } },
      schema: { tags: ['tasks'], summary: 'The tasks of one case, oldest first', params: s.idParams, response: { 200: s.caseTimelineSchema } },
    },
    async (request) => caseTimeline(app.db, actorOf(request), request.params.id),
  );

  // ---------------------------------------------------------------- one task

  app.get('/api/tasks/:id', { config: { access: { target: 'wf_tareas', action: 'show' } }, schema: { tags: ['tasks'], params: s.idParams, response: { 200: s.taskDetailSchema } } }, async (request) =>
    findTaskDetail(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/tasks',
    {
      config: { access: { target: 'wf_tareas', action: 'create' } },
      schema: {
        tags: ['tasks'],
        summary: 'An ad-hoc task on an open case, for a user or a team (outside the protocol: deciding it moves nothing else)',
        body: s.adhocTaskSchema,
        response: { 201: s.createdSchema },
      },
    },
    async (request, reply) => reply.status(201).send({ id: await createAdhocTask(app.db, app.engine, actorOf(request), request.body) }),
  );

  app.put(
    '/api/tasks/:id/data',
    {
      config: { access: { target: 'wf_tareas', action: 'update' } },
      schema: { tags: ['tasks'], summary: 'Save the task form without deciding', params: s.idParams, body: s.saveDataBody, response: { 200: s.savedSchema } },
    },
    async (request) => ({ version: await saveTaskData(app.db, actorOf(request), request.params.id, request.body.data, request.body.version) }),
  );

  app.post(
    '/api/tasks/:id/accept',
    { config: { access: { target: 'wf_tareas', action: 'accept' } }, schema: { tags: ['tasks'], params: s.idParams, body: s.decideBody, response: { 200: s.decidedSchema } } },
    async (request) => {
      const { created } = await acceptTask(app.db, app.engine, actorOf(request), request.params.id, { ...request.body, lang: request.lang });
      return { ok: true as const, created };
    },
  );

  app.post(
    '/api/tasks/:id/reject',
    { config: { access: { target: 'wf_tareas', action: 'reject' } }, schema: { tags: ['tasks'], params: s.idParams, body: s.rejectBody, response: { 200: s.rejectedSchema } } },
    async (request) => ({ ok: true as const, ...(await rejectTask(app.db, app.engine, actorOf(request), request.params.id, request.body)) }),
  );

  // Restart and assign name no single target: task administrators (admintasks) may, and so may people by
  // their relation to the task (its responsible with wf_tareas restart_task or update, the leader of its
  // team with no right at all). Any signed-in user may ask; tasks/policy.ts answers for the task.
  app.post(
    '/api/tasks/:id/restart',
    {
      config: { access: 'session' },
      schema: { tags: ['tasks'], summary: 'Give a decided task back to work (task administrators, or its responsible with restart_task)', params: s.idParams, response: { 200: s.decidedSchema } },
    },
    async (request) => {
      await restartTask(app.db, app.engine, actorOf(request), request.params.id);
      return { ok: true as const, created: [] };
    },
  );

  app.post(
    '/api/tasks/:id/assign',
    {
      config: { access: 'session' },
      schema: {
        tags: ['tasks'],
        summary: 'Change the responsible (task administrators, the team leader, or the responsible handing it on)',
        params: s.idParams,
        body: s.assignBody,
        response: { 200: s.decidedSchema },
      },
    },
    async (request) => {
      await assignTask(app.db, app.engine, actorOf(request), request.params.id, request.body);
      return { ok: true as const, created: [] };
    },
  );

  // ---------------------------------------------------------------- task administration

  app.post(
    '/api/tasks/bulk/assign',
    { config: { access: { target: 'admintasks', action: 'update' } }, schema: { tags: ['tasks'], body: s.bulkAssignBody, response: { 200: s.taskBulkResultSchema } } },
    async (request) => bulkAssignTasks(app.db, app.engine, actorOf(request), { ...request.body, lang: request.lang }),
  );

  app.post(
    '/api/tasks/bulk/restart',
    { config: { access: { target: 'admintasks', action: 'restart_task' } }, schema: { tags: ['tasks'], body: s.bulkRestartBody, response: { 200: s.taskBulkResultSchema } } },
    async (request) => bulkRestartTasks(app.db, app.engine, actorOf(request), { ...request.body, lang: request.lang }),
  );
};
