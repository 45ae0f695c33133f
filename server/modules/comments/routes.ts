/**
 * Comments on cases (issue 15): a case's thread (optionally one task's),
 * numbered per case, internal unless visible to the applicant; the document
 * checklist the comments mark and the review accepts; quick comments in the
 * reader's language; mentions of staff (which notify them, notifications/);
 * the comments dashboard with edit and delete. (The spec's case and user
 * tracking shapes are reports: server/modules/reports.)
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. No SQL here.
 * Who may read and change a comment is policy.ts's: the routes of one
 * comment are open to any session, since its author may be an applicant
 * and its editors hold the dashboard's rights.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { acceptChecklistDocument, addComment, deleteComment, editComment } from './commands.js';
import { caseChecklist, findComment, listComments, listMentionable, listThread, quickComments } from './repo.js';
import * as s from './schema.js';

export const commentRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---------------------------------------------------------------- a case's thread

  app.get(
    '/api/cases/:id/comments',
    {
      config: { access: { target: 'wf_casos', action: 'show' } },
      schema: { tags: ['comments'], summary: "A case's comments, oldest first (the applicant's side reads only those visible to it)", params: s.idParams, querystring: s.commentThreadQuerySchema, response: { 200: s.commentThreadSchema } },
    },
    async (request) => listThread(app.db, actorOf(request), request.params.id, request.query.taskId),
  );

  app.post(
    '/api/cases/:id/comments',
    {
      config: { access: { target: 'wf_casos', action: 'show' } },
      schema: { tags: ['comments'], summary: 'Comment on a case: numbered, with its document marks and mentions (staff)', params: s.idParams, body: s.newCommentSchema, response: { 201: s.commentSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await addComment(app.db, app.engine, actor, request.params.id, request.body);
      app.mailer.kick();
      return reply.status(201).send(await findComment(app.db, actor, id));
    },
  );

  // ---------------------------------------------------------------- the document checklist

  app.get(
    '/api/cases/:id/checklist',
    { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags: ['comments'], summary: "The case's document checklist: each document's latest mark", params: s.idParams, response: { 200: s.checklistSchema } } },
    async (request) => caseChecklist(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/cases/:id/checklist/:code/accept',
    {
      config: { access: { target: 'wf_casos', action: 'show' } },
      schema: { tags: ['comments'], summary: 'Accept a document of the checklist (staff; the review)', params: s.checklistParams, body: s.acceptDocumentSchema, response: { 200: s.checklistSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await acceptChecklistDocument(app.db, actor, request.params.id, request.params.code, request.body?.fileId);
      return caseChecklist(app.db, actor, request.params.id);
    },
  );

  // ---------------------------------------------------------------- helpers of the comment box

  app.get(
    '/api/comments/quick',
    { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags: ['comments'], summary: "The tenant's quick comments, in the reader's language", response: { 200: s.quickCommentsSchema } } },
    async (request) => quickComments(app.db, actorOf(request), request.lang),
  );

  app.get(
    '/api/comments/mentionable',
    {
      config: { access: { target: 'wf_casos', action: 'show' } },
      schema: { tags: ['comments'], summary: 'Active staff of the tenant a comment may mention (staff only)', querystring: s.mentionQuerySchema, response: { 200: s.mentionablesSchema } },
    },
    async (request) => listMentionable(app.db, actorOf(request), request.query.search),
  );

  // ---------------------------------------------------------------- the dashboard and one comment

  app.get(
    '/api/comments',
    {
      config: { access: { target: 'dashboard_comments', action: 'show' } },
      schema: { tags: ['comments'], summary: "Every comment of the tenant, with filters (days in the tenant's time zone)", querystring: s.commentFiltersSchema, response: { 200: s.commentListSchema } },
    },
    async (request) => app.read(request, (db) => listComments(db, actorOf(request), request.query)),
  );

  app.patch(
    '/api/comments/:id',
    {
      config: { access: 'session' },
      schema: { tags: ['comments'], summary: 'Edit a comment (its author, or the dashboard editors); the history keeps before and after', params: s.idParams, body: s.editCommentSchema, response: { 200: s.commentSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await editComment(app.db, actor, request.params.id, request.body);
      return findComment(app.db, actor, request.params.id);
    },
  );

  app.delete(
    '/api/comments/:id',
    { config: { access: 'session' }, schema: { tags: ['comments'], summary: 'Delete a comment (its author, or the dashboard editors); kept in the history', params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteComment(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
