/**
 * Users of a tenant: the admin list (role, active, unlock, send a reset
 * link), the blocked-users dashboard, and the tenant's plan state (accounts
 * used of the allowed number). Scoped to the actor's tenant; only a
 * super-admin may hand out a super-admin role.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { emailSchema, isTimeZone, passwordSchema } from '../../../core/auth.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { containsPattern, listQuery, listResponse, paginate } from '../../lib/list.js';
import { actorOf } from '../../plugins/session.js';
import type { Actor } from '../acl/policy.js';
import { assertAccountAvailable, hashPassword, sendResetLink } from '../auth/commands.js';
import { endOtherSessions } from '../auth/sessions.js';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const userItem = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  docnumber: z.string().nullable(),
  roleId: z.number(),
  roleName: z.string(),
  active: z.boolean(),
  locked: z.boolean(),
  lockedAt: z.date().nullable(),
  failedLogins: z.number(),
  language: z.enum(['en', 'es']),
  timeZone: z.string(),
  createdAt: z.date(),
});

const userFields = {
  email: emailSchema,
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  docnumber: z.string().trim().max(40, { error: 'validation.tooLong' }).nullable().default(null),
  roleId: z.number({ error: 'validation.chooseOption' }).int().positive(),
  active: z.boolean().default(true),
  language: z.enum(['en', 'es'], { error: 'validation.chooseOption' }).default('en'),
  timeZone: z.string().refine(isTimeZone, { error: 'validation.chooseOption' }).default('America/Bogota'),
};
/** Without a password the new user gets a reset link to choose one. */
const createBody = z.object({ ...userFields, password: passwordSchema.optional() });
const updateBody = z.object(userFields);

function selectUsers(db: Db, entityId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('acl_roles as r', 'r.id', 'u.role_id')
    .where('u.entity_id', '=', entityId)
    .select([
      'u.id', 'u.email', 'u.name', 'u.docnumber', 'u.role_id', 'r.name as role_name', 'u.active', 'u.locked', 'u.locked_at',
      'u.failed_logins', 'u.language', 'u.time_zone', 'u.created_at',
    ]);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof selectUsers>['executeTakeFirstOrThrow']>>;
const view = (u: UserRow) => ({
  id: u.id, email: u.email, name: u.name, docnumber: u.docnumber, roleId: u.role_id, roleName: u.role_name, active: u.active,
  locked: u.locked, lockedAt: u.locked_at, failedLogins: u.failed_logins, language: u.language, timeZone: u.time_zone, createdAt: u.created_at,
});

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const findUser = async (actor: Actor, id: number, notFound: 'NOT_FOUND' | 'USER_NOT_FOUND' = 'NOT_FOUND') => {
    const u = await selectUsers(app.db, actor.entityId).where('u.id', '=', id).executeTakeFirst();
    if (!u) throw new AppError(notFound);
    return u;
  };

  /** The role must be the tenant's own, and a super-admin role is given only by a super-admin. */
  const assertRoleAssignable = async (actor: Actor, roleId: number) => {
    const role = await app.db.selectFrom('acl_roles').where('id', '=', roleId).where('entity_id', '=', actor.entityId).select('super_admin').executeTakeFirst();
    if (!role) throw new AppError('VALIDATION', {}, [{ path: 'roleId', message: 'validation.chooseOption' }]);
    if (role.super_admin && !actor.role.superAdmin) throw new AppError('FORBIDDEN');
  };
  const duplicate = (e: unknown) => {
    if ((e as { code?: string }).code === '23505') throw new AppError('EMAIL_TAKEN');
    throw e;
  };

  const listQ = listQuery(['name', 'email', 'created_at', 'locked_at']).extend({
    locked: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  });

  app.get(
    '/api/users',
    { config: { access: { target: 'acl_usuarios', action: 'show' } }, schema: { tags: ['users'], querystring: listQ, response: { 200: listResponse(userItem) } } },
    async (request) => {
      const actor = actorOf(request);
      const { search, sortBy = 'name', descending, page, limit, locked } = request.query;
      let q = selectUsers(app.db, actor.entityId);
      if (search) {
        const p = containsPattern(search);
        q = q.where((eb) => eb.or([eb('u.name', 'ilike', p), eb('u.email', 'ilike', p), eb('u.docnumber', 'ilike', p)]));
      }
      if (locked !== undefined) q = q.where('u.locked', '=', locked);
      q = q.orderBy(`u.${sortBy}` as 'u.name', descending ? 'desc' : 'asc').orderBy('u.id');
      const { rows, total } = await paginate(q, { page, limit });
      return { items: rows.map(view), total };
    },
  );

  app.get(
    '/api/users/blocked',
    {
      config: { access: { target: 'dashboard_blocked_users', action: 'show' } },
      schema: { tags: ['users'], summary: 'Accounts locked by failed sign-ins', querystring: listQuery(['name', 'email', 'locked_at']), response: { 200: listResponse(userItem) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const { search, sortBy = 'locked_at', descending = true, page, limit } = request.query;
      let q = selectUsers(app.db, actor.entityId).where('u.locked', '=', true);
      if (search) {
        const p = containsPattern(search);
        q = q.where((eb) => eb.or([eb('u.name', 'ilike', p), eb('u.email', 'ilike', p), eb('u.docnumber', 'ilike', p)]));
      }
      q = q.orderBy(`u.${sortBy}` as 'u.name', descending ? 'desc' : 'asc').orderBy('u.id');
      const { rows, total } = await paginate(q, { page, limit });
      return { items: rows.map(view), total };
    },
  );

  app.get(
    '/api/users/role-options',
    {
      config: { access: { target: 'acl_usuarios', action: 'show' } },
      schema: { tags: ['users'], summary: 'Roles a user may be given', response: { 200: z.array(z.object({ id: z.number(), code: z.string(), name: z.string(), superAdmin: z.boolean() })) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const roles = await app.db.selectFrom('acl_roles').where('entity_id', '=', actor.entityId).select(['id', 'code', 'name', 'super_admin']).orderBy('name').execute();
      return roles.filter((r) => actor.role.superAdmin || !r.super_admin).map((r) => ({ id: r.id, code: r.code, name: r.name, superAdmin: r.super_admin }));
    },
  );

  app.get(
    '/api/users/:id',
    { config: { access: { target: 'acl_usuarios', action: 'show' } }, schema: { tags: ['users'], params: idParams, response: { 200: userItem } } },
    async (request) => view(await findUser(actorOf(request), request.params.id)),
  );

  app.post(
    '/api/users',
    { config: { access: { target: 'acl_usuarios', action: 'create' } }, schema: { tags: ['users'], body: createBody, response: { 201: userItem } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const b = request.body;
      await assertRoleAssignable(actor, b.roleId);
      const passwordHash = await hashPassword(b.password ?? randomBytes(24).toString('base64url'));
      const id = await app.db.transaction().execute(async (trx) => {
        await assertAccountAvailable(trx, actor.entityId);
        const row = await trx
          .insertInto('users')
          .values({
            entity_id: actor.entityId, email: b.email, name: b.name, docnumber: b.docnumber || null, role_id: b.roleId, active: b.active,
            language: b.language, time_zone: b.timeZone, password_hash: passwordHash,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
          .catch(duplicate);
        return row.id;
      });
      const user = await findUser(actor, id);
      if (!b.password) {
        await sendResetLink(app.db, { id, entity_id: actor.entityId, email: user.email, name: user.name, language: user.language }, app.config.http.publicUrl, app.mailer.smtpConfigured);
        app.mailer.kick();
      }
      return reply.status(201).send(view(user));
    },
  );

  app.put(
    '/api/users/:id',
    { config: { access: { target: 'acl_usuarios', action: 'update' } }, schema: { tags: ['users'], params: idParams, body: updateBody, response: { 200: userItem } } },
    async (request) => {
      const actor = actorOf(request);
      const current = await findUser(actor, request.params.id);
      const b = request.body;
      if (b.roleId !== current.role_id) await assertRoleAssignable(actor, b.roleId);
      if (current.id === actor.userId && (!b.active || b.roleId !== current.role_id)) throw new AppError('FORBIDDEN');
      await app.db
        .updateTable('users')
        .set({ email: b.email, name: b.name, docnumber: b.docnumber || null, role_id: b.roleId, active: b.active, language: b.language, time_zone: b.timeZone, updated_at: new Date() })
        .where('id', '=', current.id)
        .where('entity_id', '=', actor.entityId)
        .execute()
        .catch(duplicate);
      // A deactivated user is signed out at once.
      if (!b.active) await endOtherSessions(app.db, current.id, null);
      return view(await findUser(actor, current.id));
    },
  );

  app.delete(
    '/api/users/:id',
    { config: { access: { target: 'acl_usuarios', action: 'delete' } }, schema: { tags: ['users'], params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const current = await findUser(actor, request.params.id);
      if (current.id === actor.userId) throw new AppError('FORBIDDEN');
      await app.db.deleteFrom('users').where('id', '=', current.id).where('entity_id', '=', actor.entityId).execute();
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/users/:id/unlock',
    {
      config: { access: { target: 'dashboard_blocked_users', action: 'update' } },
      schema: { tags: ['users'], summary: 'Unlock an account locked by failed sign-ins', params: idParams, response: { 200: userItem } },
    },
    async (request) => {
      const actor = actorOf(request);
      const current = await findUser(actor, request.params.id);
      await app.db
        .updateTable('users')
        .set({ locked: false, locked_at: null, failed_logins: 0, updated_at: new Date() })
        .where('id', '=', current.id)
        .where('entity_id', '=', actor.entityId)
        .execute();
      await app.db.deleteFrom('auth_throttle').where('key', '=', `account:${current.email.toLowerCase()}`).execute();
      return view(await findUser(actor, current.id));
    },
  );

  app.post(
    '/api/users/:id/reset-link',
    {
      config: { access: { target: 'acl_usuarios', action: 'update' } },
      schema: { tags: ['users'], summary: 'Email the user a password-reset link', params: idParams, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const user = await findUser(actor, request.params.id, 'USER_NOT_FOUND');
      if (!emailSchema.safeParse(user.email).success) throw new AppError('NO_VALID_EMAIL');
      await sendResetLink(app.db, { id: user.id, entity_id: actor.entityId, email: user.email, name: user.name, language: user.language }, app.config.http.publicUrl, app.mailer.smtpConfigured);
      app.mailer.kick();
      return { message: translate(request.lang, 'users.resetLinkSent', { email: user.email }) };
    },
  );

  app.get(
    '/api/entity/plan',
    {
      config: { access: 'session' },
      schema: {
        tags: ['users'],
        summary: "My tenant's plan: accounts used of the allowed number, disk used of the quota",
        response: { 200: z.object({ plan: z.number(), accountLimit: z.number(), accountsUsed: z.number(), diskQuotaMb: z.number(), diskUsedMb: z.number() }) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const e = await app.db
        .selectFrom('entities')
        .where('id', '=', actor.entityId)
        .select([
          'plan', 'account_limit', 'disk_quota_mb',
          sql<number>`(select count(*) from users where entity_id = entities.id)::int`.as('used'),
          sql<string>`(select coalesce(sum(size), 0) from files where entity_id = entities.id)`.as('disk'),
        ])
        .executeTakeFirstOrThrow();
      const diskUsedMb = Math.round((Number(e.disk) / (1024 * 1024)) * 100) / 100;
      return { plan: e.plan, accountLimit: e.account_limit, accountsUsed: e.used, diskQuotaMb: e.disk_quota_mb, diskUsedMb };
    },
  );
};
