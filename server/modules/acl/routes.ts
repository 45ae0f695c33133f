/**
 * Access-control administration: the tenant's actions, modules (permission
 * targets), roles, and rules (role x module -> actions). Everything is
 * scoped to the actor's tenant; another tenant's row answers 404. Seeded
 * (system) rows keep their code and cannot be deleted: the server's own
 * checks name them. `policy.ts` here is also the one place that answers
 * "may this actor do this action on this target" for every module.
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. No SQL here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { changeCatalogRow, deleteCatalogRow, setRoleRules } from './commands.js';
import { CATALOG_TARGET, type CatalogTable, catalogDetail, insertCatalogRow, listCatalog, ruleRoles, rulesOf } from './repo.js';
import * as s from './schema.js';

/** List, read, create, update and delete for one catalogue table, guarded by its target. */
function catalogRoutes(path: string, table: CatalogTable): FastifyPluginAsyncZod {
  const target = CATALOG_TARGET[table];
  const item = table === 'acl_roles' ? s.roleItemSchema : s.catalogItemSchema;
  const list = table === 'acl_roles' ? s.roleListSchema : s.catalogListSchema;
  return async (app) => {
    app.get(path, { config: { access: { target, action: 'show' } }, schema: { tags: ['acl'], querystring: s.catalogListQuery, response: { 200: list } } }, async (request) =>
      listCatalog(app.db, actorOf(request), table, request.query),
    );

    app.get(`${path}/:id`, { config: { access: { target, action: 'show' } }, schema: { tags: ['acl'], params: s.idParams, response: { 200: item } } }, async (request) =>
      catalogDetail(app.db, actorOf(request), table, request.params.id),
    );

    app.post(path, { config: { access: { target, action: 'create' } }, schema: { tags: ['acl'], body: s.catalogBody, response: { 201: item } } }, async (request, reply) => {
      const actor = actorOf(request);
      const id = await insertCatalogRow(app.db, actor, table, request.body);
      return reply.status(201).send(await catalogDetail(app.db, actor, table, id));
    });

    app.put(`${path}/:id`, { config: { access: { target, action: 'update' } }, schema: { tags: ['acl'], params: s.idParams, body: s.catalogBody, response: { 200: item } } }, async (request) => {
      const actor = actorOf(request);
      await changeCatalogRow(app.db, actor, table, request.params.id, request.body);
      return catalogDetail(app.db, actor, table, request.params.id);
    });

    app.delete(`${path}/:id`, { config: { access: { target, action: 'delete' } }, schema: { tags: ['acl'], params: s.idParams, response: { 204: s.noContent } } }, async (request, reply) => {
      await deleteCatalogRow(app.db, actorOf(request), table, request.params.id);
      return reply.status(204).send(null);
    });
  };
}

export const aclRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(catalogRoutes('/api/acl/actions', 'acl_actions'));
  await app.register(catalogRoutes('/api/acl/modules', 'acl_modules'));
  await app.register(catalogRoutes('/api/acl/roles', 'acl_roles'));

  app.get(
    '/api/acl/rules/roles',
    { config: { access: { target: 'acl_reglas', action: 'show' } }, schema: { tags: ['acl'], summary: 'The roles whose rules can be edited', response: { 200: s.ruleRoleSchema.array() } } },
    async (request) => ruleRoles(app.db, actorOf(request)),
  );

  app.get(
    '/api/acl/roles/:id/rules',
    { config: { access: { target: 'acl_reglas', action: 'show' } }, schema: { tags: ['acl'], summary: 'The rules of a role: module -> actions', params: s.idParams, response: { 200: s.roleRulesSchema } } },
    async (request) => rulesOf(app.db, actorOf(request), request.params.id),
  );

  app.put(
    '/api/acl/roles/:id/rules',
    {
      config: { access: { target: 'acl_reglas', action: 'update' } },
      schema: { tags: ['acl'], summary: 'Replace the rules of a role (takes effect on the next request of its users)', params: s.idParams, body: s.rulesBody, response: { 200: s.roleRulesSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await setRoleRules(app.db, actor, request.params.id, request.body);
      return rulesOf(app.db, actor, request.params.id);
    },
  );
};
