/**
 * Webhooks (`/configuracion/webhooks`, target menu_configuracion: `show` to
 * read, `update` to change): a tenant's subscriptions (a URL, the events,
 * an optional protocol filter, a Standard Webhooks secret made by the
 * server, on or off) and each one's deliveries with the subscriber's last
 * answer; send a test event, redeliver. The events themselves are recorded
 * by the database in the transaction of their change (migration 0036) and
 * sent by the `webhook-send` job (deliver.ts).
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts or
 * commands.ts (both scoped to the actor's tenant), and presents the answer.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { changeWebhook, createWebhook, deleteWebhook, redeliver, revealSecret, rotateSecret, sendTestEvent, type WebhookEnv } from './commands.js';
import { findDelivery, findWebhook, listDeliveries, listWebhooks, protocolOptions } from './repo.js';
import * as s from './schema.js';

const tags = ['webhooks'];
const show = { access: { target: 'menu_configuracion', action: 'show' } } as const;
const update = { access: { target: 'menu_configuracion', action: 'update' } } as const;
/** Test events and redeliveries make outbound requests: a few a minute per address are plenty. */
const outbound = { ...update, rateLimit: { max: 20, timeWindow: '1 minute' } } as const;

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const env: WebhookEnv = { allowHosts: app.config.webhooks.allowHosts };

  app.get(
    '/api/webhooks',
    { config: show, schema: { tags, summary: "The tenant's webhook subscriptions, newest first", querystring: s.webhookListQuery, response: { 200: s.webhookListSchema } } },
    async (request) => listWebhooks(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/webhooks/protocol-options',
    { config: show, schema: { tags, summary: 'The protocols a subscription may be narrowed to', response: { 200: s.webhookProtocolSchema.array() } } },
    async (request) => protocolOptions(app.db, actorOf(request)),
  );

  app.get(
    '/api/webhooks/:id',
    { config: show, schema: { tags, params: s.webhookParams, response: { 200: s.webhookSchema } } },
    async (request) => findWebhook(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/webhooks',
    { config: update, schema: { tags, summary: 'Subscribe a URL; the answer carries its secret, shown this once', body: s.webhookBody, response: { 201: s.webhookWithSecretSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const { id, secret } = await createWebhook(app.db, actor, env, request.body);
      return reply.status(201).send({ ...(await findWebhook(app.db, actor, id)), secret });
    },
  );

  app.put(
    '/api/webhooks/:id',
    { config: update, schema: { tags, params: s.webhookParams, body: s.webhookUpdateBody, response: { 200: s.webhookSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await changeWebhook(app.db, actor, env, request.params.id, request.body);
      return findWebhook(app.db, actor, request.params.id);
    },
  );

  app.delete(
    '/api/webhooks/:id',
    { config: update, schema: { tags, summary: 'Delete a subscription and its deliveries', params: s.webhookParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteWebhook(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/webhooks/:id/secret',
    { config: update, schema: { tags, summary: "The subscription's whole secret", params: s.webhookParams, response: { 200: s.webhookSecretSchema } } },
    async (request) => ({ secret: await revealSecret(app.db, actorOf(request), request.params.id) }),
  );

  app.post(
    '/api/webhooks/:id/secret',
    {
      config: update,
      schema: { tags, summary: 'A new secret; the previous one keeps signing beside it for a day', params: s.webhookParams, response: { 200: s.webhookWithSecretSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      const secret = await rotateSecret(app.db, actor, request.params.id);
      return { ...(await findWebhook(app.db, actor, request.params.id)), secret };
    },
  );

  app.post(
    '/api/webhooks/:id/test',
    { config: outbound, schema: { tags, summary: 'Send the subscription a webhook.test event', params: s.webhookParams, response: { 202: s.deliverySchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await sendTestEvent(app.db, actor, request.params.id);
      return reply.status(202).send(await findDelivery(app.db, actor, request.params.id, id));
    },
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    {
      config: show,
      schema: { tags, summary: "A subscription's deliveries, newest first, with the last answer", params: s.webhookParams, querystring: s.deliveryListQuery, response: { 200: s.deliveryListSchema } },
    },
    async (request) => listDeliveries(app.db, actorOf(request), request.params.id, request.query),
  );

  app.post(
    '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: outbound,
      schema: { tags, summary: 'Send a delivery again (a pending one at once)', params: s.deliveryParams, response: { 202: s.deliverySchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await redeliver(app.db, actor, request.params.id, request.params.deliveryId);
      return reply.status(202).send(await findDelivery(app.db, actor, request.params.id, id));
    },
  );
};
