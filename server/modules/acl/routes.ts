/**
 * Access-control administration: the tenant's actions, modules (permission
 * targets), roles, and rules (role x module -> actions). Everything is
 * scoped to the actor's tenant; another tenant's row answers 404. Seeded
 * (system) rows keep their code and cannot be deleted: the server's own
 * checks name them.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Target } from '../../../core/targets.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { containsPattern, listQuery, listResponse, paginate } from '../../lib/list.js';
import { actorOf } from '../../plugins/session.js';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const code = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(60, { error: 'validation.tooLong' })
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { error: 'acl.codeRule' });
const name = z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' });
const description = z.string().trim().max(500, { error: 'validation.tooLong' }).default('');

const catalogItem = z.object({ id: z.number(), code: z.string(), name: z.string(), description: z.string(), system: z.boolean(), createdAt: z.date() });
const roleItem = catalogItem.extend({ superAdmin: z.boolean(), users: z.number() });

type CatalogTable = 'acl_actions' | 'acl_modules' | 'acl_roles';

/** List, read, create, update and delete for one catalogue table, guarded by its target. */
function catalogRoutes(path: string, table: CatalogTable, target: Target): FastifyPluginAsyncZod {
  return async (app) => {
    const isRoles = table === 'acl_roles';
    const item = isRoles ? roleItem : catalogItem;
    const body = z.object({ code, name, description });

    const select = (db: Db, entityId: number) => {
      // Roles also say how many users hold them (a role in use cannot be deleted).
      const q = db.selectFrom(`${table} as t` as 'acl_roles as t').where('t.entity_id', '=', entityId);
      return q.select([
        't.id', 't.code', 't.name', 't.description', 't.system', 't.created_at',
        ...(isRoles
          ? [sql<boolean>`t.super_admin`.as('super_admin'), sql<number>`(select count(*) from users u where u.role_id = t.id)::int`.as('users')]
          : []),
      ]);
    };
    const view = (r: Record<string, unknown>) => ({
      id: r.id as number,
      code: r.code as string,
      name: r.name as string,
      description: r.description as string,
      system: r.system as boolean,
      createdAt: r.created_at as Date,
      ...(isRoles ? { superAdmin: r.super_admin as boolean, users: r.users as number } : {}),
    });
    const findOne = async (entityId: number, id: number) => {
      const row = await select(app.db, entityId).where('t.id', '=', id).executeTakeFirst();
      if (!row) throw new AppError('NOT_FOUND');
      return row as Record<string, unknown>;
    };
    const duplicate = (e: unknown) => {
      if ((e as { code?: string }).code === '23505') throw new AppError('DUPLICATE', { field: 'code' });
      throw e;
    };

    app.get(
      path,
      { config: { access: { target, action: 'show' } }, schema: { tags: ['acl'], querystring: listQuery(['code', 'name', 'created_at']), response: { 200: listResponse(item) } } },
      async (request) => {
        const actor = actorOf(request);
        const { search, sortBy = 'code', descending, page, limit } = request.query;
        let q = select(app.db, actor.entityId);
        if (search) q = q.where((eb) => eb.or([eb('t.code', 'ilike', containsPattern(search)), eb('t.name', 'ilike', containsPattern(search))]));
        q = q.orderBy(`t.${sortBy}` as 't.code', descending ? 'desc' : 'asc').orderBy('t.id');
        const { rows, total } = await paginate(q, { page, limit });
        return { items: rows.map((r) => view(r as Record<string, unknown>)), total };
      },
    );

    app.get(
      `${path}/:id`,
      { config: { access: { target, action: 'show' } }, schema: { tags: ['acl'], params: idParams, response: { 200: item } } },
      async (request) => view(await findOne(actorOf(request).entityId, request.params.id)),
    );

    app.post(
      path,
      { config: { access: { target, action: 'create' } }, schema: { tags: ['acl'], body, response: { 201: item } } },
      async (request, reply) => {
        const actor = actorOf(request);
        const row = await app.db
          .insertInto(table)
          .values({ entity_id: actor.entityId, code: request.body.code, name: request.body.name, description: request.body.description })
          .returning('id')
          .executeTakeFirstOrThrow()
          .catch(duplicate);
        return reply.status(201).send(view(await findOne(actor.entityId, row.id)));
      },
    );

    app.put(
      `${path}/:id`,
      { config: { access: { target, action: 'update' } }, schema: { tags: ['acl'], params: idParams, body, response: { 200: item } } },
      async (request) => {
        const actor = actorOf(request);
        const current = await findOne(actor.entityId, request.params.id);
        if (current.system && current.code !== request.body.code) throw new AppError('SYSTEM_RECORD');
        await app.db
          .updateTable(table)
          .set({ code: request.body.code, name: request.body.name, description: request.body.description })
          .where('id', '=', request.params.id)
          .where('entity_id', '=', actor.entityId)
          .execute()
          .catch(duplicate);
        return view(await findOne(actor.entityId, request.params.id));
      },
    );

    app.delete(
      `${path}/:id`,
      { config: { access: { target, action: 'delete' } }, schema: { tags: ['acl'], params: idParams, response: { 204: z.null() } } },
      async (request, reply) => {
        const actor = actorOf(request);
        const current = await findOne(actor.entityId, request.params.id);
        if (current.system) throw new AppError('SYSTEM_RECORD');
        if (isRoles && (current.users as number) > 0) throw new AppError('IN_USE');
        await app.db.deleteFrom(table).where('id', '=', request.params.id).where('entity_id', '=', actor.entityId).execute();
        return reply.status(204).send(null);
      },
    );
  };
}

const rulesView = z.object({
  role: z.object({ id: z.number(), code: z.string(), name: z.string(), superAdmin: z.boolean() }),
  modules: z.array(z.object({ id: z.number(), code: z.string(), name: z.string() })),
  actions: z.array(z.object({ id: z.number(), code: z.string(), name: z.string() })),
  /** module code -> action codes granted */
  granted: z.record(z.string(), z.array(z.string())),
});

const rulesBody = z.strictObject({
  granted: z.record(z.string().max(60), z.array(z.string().max(60)).max(100)).refine((g) => Object.keys(g).length <= 500),
});

export const aclRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(catalogRoutes('/api/acl/actions', 'acl_actions', 'acl_acciones'));
  await app.register(catalogRoutes('/api/acl/modules', 'acl_modules', 'acl_objetos'));
  await app.register(catalogRoutes('/api/acl/roles', 'acl_roles', 'acl_roles'));

  async function rulesOf(entityId: number, roleId: number) {
    const role = await app.db
      .selectFrom('acl_roles')
      .where('id', '=', roleId)
      .where('entity_id', '=', entityId)
      .select(['id', 'code', 'name', 'super_admin'])
      .executeTakeFirst();
    if (!role) throw new AppError('NOT_FOUND');
    const [modules, actions, rules] = await Promise.all([
      app.db.selectFrom('acl_modules').where('entity_id', '=', entityId).select(['id', 'code', 'name']).orderBy('code').execute(),
      app.db.selectFrom('acl_actions').where('entity_id', '=', entityId).select(['id', 'code', 'name']).orderBy('id').execute(),
      app.db
        .selectFrom('acl_rules as x')
        .innerJoin('acl_modules as m', 'm.id', 'x.module_id')
        .innerJoin('acl_actions as a', 'a.id', 'x.action_id')
        .where('x.role_id', '=', roleId)
        .where('x.entity_id', '=', entityId)
        .select(['m.code as module', 'a.code as action'])
        .execute(),
    ]);
    const granted: Record<string, string[]> = {};
    for (const r of rules) (granted[r.module] ??= []).push(r.action);
    return { role: { id: role.id, code: role.code, name: role.name, superAdmin: role.super_admin }, modules, actions, granted };
  }

  app.get(
    '/api/acl/rules/roles',
    {
      config: { access: { target: 'acl_reglas', action: 'show' } },
      schema: { tags: ['acl'], summary: 'The roles whose rules can be edited', response: { 200: z.array(z.object({ id: z.number(), code: z.string(), name: z.string() })) } },
    },
    async (request) => app.db.selectFrom('acl_roles').where('entity_id', '=', actorOf(request).entityId).select(['id', 'code', 'name']).orderBy('name').execute(),
  );

  app.get(
    '/api/acl/roles/:id/rules',
    { config: { access: { target: 'acl_reglas', action: 'show' } }, schema: { tags: ['acl'], summary: 'The rules of a role: module -> actions', params: idParams, response: { 200: rulesView } } },
    async (request) => rulesOf(actorOf(request).entityId, request.params.id),
  );

  app.put(
    '/api/acl/roles/:id/rules',
    {
      config: { access: { target: 'acl_reglas', action: 'update' } },
      schema: { tags: ['acl'], summary: 'Replace the rules of a role (takes effect on the next request of its users)', params: idParams, body: rulesBody, response: { 200: rulesView } },
    },
    async (request) => {
      const actor = actorOf(request);
      const current = await rulesOf(actor.entityId, request.params.id);
      const modules = new Map(current.modules.map((m) => [m.code, m.id]));
      const actions = new Map(current.actions.map((a) => [a.code, a.id]));
      const rows: Array<{ entity_id: number; role_id: number; module_id: number; action_id: number }> = [];
      for (const [moduleCode, actionCodes] of Object.entries(request.body.granted)) {
        const moduleId = modules.get(moduleCode);
        if (moduleId === undefined) throw new AppError('VALIDATION', {}, [{ path: `granted.${moduleCode}`, message: 'acl.unknownModule' }]);
        for (const actionCode of new Set(actionCodes)) {
          const actionId = actions.get(actionCode);
          if (actionId === undefined) throw new AppError('VALIDATION', {}, [{ path: `granted.${moduleCode}`, message: 'acl.unknownAction' }]);
          rows.push({ entity_id: actor.entityId, role_id: request.params.id, module_id: moduleId, action_id: actionId });
        }
      }
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('acl_rules').where('role_id', '=', request.params.id).where('entity_id', '=', actor.entityId).execute();
        if (rows.length) await trx.insertInto('acl_rules').values(rows).execute();
      });
      return rulesOf(actor.entityId, request.params.id);
    },
  );
};
