/**
 * Users of a tenant: the admin list (role, active, unlock, send a reset
 * link), the blocked-users dashboard, and the tenant's plan state (accounts
 * used of the allowed number). Scoped to the actor's tenant; only a
 * super-admin may hand out a super-admin role or change a user who holds
 * one (policy.ts).
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. No SQL here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n.js';
import { actorOf } from '../../plugins/session.js';
import { createUser, changeUser, deleteUser, type MailEnv, sendUserResetLink, unlockUser } from './commands.js';
import { assignableRoles } from './policy.js';
import { listBlocked, listUsers, planOf, rolesOfTenant, userDetail } from './repo.js';
import * as s from './schema.js';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const mail: MailEnv = { publicUrl: app.config.http.publicUrl, smtpConfigured: app.mailer.smtpConfigured };

  app.get(
    '/api/users',
    { config: { access: { target: 'acl_usuarios', action: 'show' } }, schema: { tags: ['users'], querystring: s.userListQuery, response: { 200: s.userListSchema } } },
    async (request) => listUsers(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/users/blocked',
    {
      config: { access: { target: 'dashboard_blocked_users', action: 'show' } },
      schema: { tags: ['users'], summary: 'Accounts locked by failed sign-ins', querystring: s.blockedUserListQuery, response: { 200: s.userListSchema } },
    },
    async (request) => listBlocked(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/users/role-options',
    { config: { access: { target: 'acl_usuarios', action: 'show' } }, schema: { tags: ['users'], summary: 'Roles a user may be given', response: { 200: s.roleOptionSchema.array() } } },
    async (request) => {
      const actor = actorOf(request);
      return assignableRoles(actor, await rolesOfTenant(app.db, actor));
    },
  );

  app.get('/api/users/:id', { config: { access: { target: 'acl_usuarios', action: 'show' } }, schema: { tags: ['users'], params: s.idParams, response: { 200: s.userSchema } } }, async (request) =>
    userDetail(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/users',
    { config: { access: { target: 'acl_usuarios', action: 'create' } }, schema: { tags: ['users'], body: s.createUserBody, response: { 201: s.userSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await createUser(app.db, mail, actor, request.body);
      if (!request.body.password) app.mailer.kick();
      return reply.status(201).send(await userDetail(app.db, actor, id));
    },
  );

  app.put(
    '/api/users/:id',
    { config: { access: { target: 'acl_usuarios', action: 'update' } }, schema: { tags: ['users'], params: s.idParams, body: s.updateUserBody, response: { 200: s.userSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await changeUser(app.db, actor, request.params.id, request.body);
      return userDetail(app.db, actor, request.params.id);
    },
  );

  app.delete(
    '/api/users/:id',
    { config: { access: { target: 'acl_usuarios', action: 'delete' } }, schema: { tags: ['users'], params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteUser(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/users/:id/unlock',
    {
      config: { access: { target: 'dashboard_blocked_users', action: 'update' } },
      schema: { tags: ['users'], summary: 'Unlock an account locked by failed sign-ins', params: s.idParams, response: { 200: s.userSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await unlockUser(app.db, actor, request.params.id);
      return userDetail(app.db, actor, request.params.id);
    },
  );

  app.post(
    '/api/users/:id/reset-link',
    {
      config: { access: { target: 'acl_usuarios', action: 'update' } },
      schema: { tags: ['users'], summary: 'Email the user a password-reset link', params: s.idParams, response: { 200: s.resetLinkSentSchema } },
    },
    async (request) => {
      const email = await sendUserResetLink(app.db, mail, actorOf(request), request.params.id);
      app.mailer.kick();
      return { message: translate(request.lang, 'users.resetLinkSent', { email }) };
    },
  );

  app.get(
    '/api/entity/plan',
    {
      // Any signed-in user of the tenant may read it (no right was ever asked; the users page shows it).
      config: { access: 'session' },
      schema: { tags: ['users'], summary: "My tenant's plan: accounts used of the allowed number, disk used of the quota", response: { 200: s.planSchema } },
    },
    async (request) => planOf(app.db, actorOf(request)),
  );
};
