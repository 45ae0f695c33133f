/**
 * API tokens (issue 22): a person's own tokens under /api/profile/tokens, and
 * the service accounts of the tenant with theirs (acl_usuarios). Making a
 * token is for a signed-in person only (`sessionOnly`): a token never makes
 * another.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { changeServiceAccount, createPersonalToken, createServiceAccount, createServiceToken, revokePersonalToken, revokeServiceToken, serviceAccountFor } from './commands.js';
import { listServiceAccounts, tokensOf } from './repo.js';
import * as s from './schema.js';

const tags = ['api tokens'];

export const tokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/profile/tokens',
    { config: { access: 'session' }, schema: { tags, summary: 'My API tokens (never their values)', response: { 200: s.apiTokenListSchema } } },
    async (request) => {
      const actor = actorOf(request);
      return { items: await tokensOf(app.db, actor, actor.userId) };
    },
  );

  app.post(
    '/api/profile/tokens',
    {
      config: { access: 'session', sessionOnly: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { tags, summary: 'Make an API token for myself; its value is in this answer only (signed in only)', body: s.createTokenBody, response: { 201: s.createdTokenSchema } },
    },
    async (request, reply) => reply.status(201).send(await createPersonalToken(app.db, actorOf(request), request.body)),
  );

  app.delete(
    '/api/profile/tokens/:id',
    { config: { access: 'session' }, schema: { tags, summary: 'Revoke one of my API tokens: it stops working at once', params: s.idParams } },
    async (request, reply) => {
      await revokePersonalToken(app.db, actorOf(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/service-accounts',
    { config: { access: { target: 'acl_usuarios', action: 'show' } }, schema: { tags, summary: "The tenant's service accounts", response: { 200: s.serviceAccountListSchema } } },
    async (request) => ({ items: await listServiceAccounts(app.db, actorOf(request)) }),
  );

  app.post(
    '/api/service-accounts',
    {
      config: { access: { target: 'acl_usuarios', action: 'create' }, sessionOnly: true },
      schema: { tags, summary: 'Make a service account with a role (signed in only)', body: s.serviceAccountBody, response: { 201: s.serviceAccountSchema } },
    },
    async (request, reply) => reply.status(201).send(await createServiceAccount(app.db, actorOf(request), request.body)),
  );

  app.put(
    '/api/service-accounts/:id',
    {
      config: { access: { target: 'acl_usuarios', action: 'update' }, sessionOnly: true },
      schema: { tags, summary: 'Rename a service account, change its role, block or unblock it (its tokens stop or work again at once)', params: s.idParams, body: s.serviceAccountBody, response: { 200: s.serviceAccountSchema } },
    },
    async (request) => changeServiceAccount(app.db, actorOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/service-accounts/:id/tokens',
    { config: { access: { target: 'acl_usuarios', action: 'show' } }, schema: { tags, summary: "A service account's tokens (never their values)", params: s.idParams, response: { 200: s.apiTokenListSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await serviceAccountFor(app.db, actor, request.params.id);
      return { items: await tokensOf(app.db, actor, request.params.id) };
    },
  );

  app.post(
    '/api/service-accounts/:id/tokens',
    {
      config: { access: { target: 'acl_usuarios', action: 'update' }, sessionOnly: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { tags, summary: 'Make a token for a service account; "never" (null) expires only here (signed in only)', params: s.idParams, body: s.createServiceTokenBody, response: { 201: s.createdTokenSchema } },
    },
    async (request, reply) => reply.status(201).send(await createServiceToken(app.db, actorOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/service-accounts/:id/tokens/:tokenId',
    { config: { access: { target: 'acl_usuarios', action: 'update' } }, schema: { tags, summary: "Revoke a service account's token", params: s.tokenParams } },
    async (request, reply) => {
      await revokeServiceToken(app.db, actorOf(request), request.params.id, request.params.tokenId);
      return reply.status(204).send();
    },
  );
};
