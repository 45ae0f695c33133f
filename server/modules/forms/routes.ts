/**
 * Forms: definitions built in the form builder, kept as numbered versions.
 * Saving a form whose current version is in use (a task or case points at
 * it) makes a new version; those keep theirs. The server checks submitted
 * values with the same validator the browser runs (core/forms), resolves the
 * options of master selects and, through the SSRF-guarded fetch, of external
 * lists whose host an admin allowed.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { formDataSchema } from '../../../core/forms/data.js';
import { type FieldDef, type FormDefinition, FormDefinitionError, parseFormDefinition, scopeFieldsDeep } from '../../../core/forms/definition.js';
import { validateForm } from '../../../core/forms/validator.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { containsPattern, listQuery, listResponse, paginate } from '../../lib/list.js';
import { BlockedUrlError, safeFetchJson, toOptions } from '../../lib/safe-fetch.js';
import { actorOf } from '../../plugins/session.js';
import type { Actor } from '../acl/policy.js';
import { publicItems } from '../masters/routes.js';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const formCode = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'masters.badCode');

const formSummary = z.object({ id: z.number(), code: z.string(), name: z.string(), description: z.string(), version: z.number(), fields: z.number(), updatedAt: z.date() });
const formView = formSummary.extend({ definition: z.unknown(), inUse: z.boolean() });

const createBody = z.object({ code: formCode, definition: z.unknown() });
const saveBody = z.object({ definition: z.unknown(), code: formCode.optional() });
const option = z.object({ value: z.string(), label: z.string() });

/** The problems of a bad definition, translated, as a 422 the builder can show field by field. */
function definitionProblems(lang: 'en' | 'es', e: FormDefinitionError): AppError {
  return new AppError(
    'UNPROCESSABLE',
    {},
    e.problems.map((p) => ({ path: p.path, message: translate(lang, p.reason, p.params) })),
  );
}

export async function loadFormVersion(db: Db, entityId: number, formId: number, version?: number) {
  const row = await db
    .selectFrom('forms as f')
    .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').on('v.version', '=', version ?? sql<number>`f.current_version`))
    .where('f.id', '=', formId)
    .where('f.entity_id', '=', entityId)
    .select(['f.id', 'f.code', 'f.name', 'f.description', 'f.updated_at', 'v.version', 'v.definition', 'v.in_use'])
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return { ...row, definition: row.definition as FormDefinition };
}

export const formRoutes: FastifyPluginAsyncZod = async (app) => {
  const view = (f: Awaited<ReturnType<typeof loadFormVersion>>) => ({
    id: f.id,
    code: f.code,
    name: f.name,
    description: f.description,
    version: f.version,
    fields: scopeFieldsDeep(f.definition.fields).length,
    updatedAt: f.updated_at,
    definition: f.definition,
    inUse: f.in_use,
  });
  const parseDefinition = (lang: 'en' | 'es', input: unknown) => {
    try {
      return parseFormDefinition(input);
    } catch (e) {
      if (e instanceof FormDefinitionError) throw definitionProblems(lang, e);
      throw e;
    }
  };

  app.get(
    '/api/forms',
    { config: { access: { target: 'formularios', action: 'show' } }, schema: { tags: ['forms'], querystring: listQuery(['name', 'code', 'updated_at']), response: { 200: listResponse(formSummary) } } },
    async (request) => {
      const actor = actorOf(request);
      const { search, sortBy = 'name', descending, page, limit } = request.query;
      let q = app.db
        .selectFrom('forms as f')
        .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
        .where('f.entity_id', '=', actor.entityId)
        .select(['f.id', 'f.code', 'f.name', 'f.description', 'f.updated_at', 'v.version', 'v.definition']);
      if (search) q = q.where((eb) => eb.or([eb('f.name', 'ilike', containsPattern(search)), eb('f.code', 'ilike', containsPattern(search))]));
      q = q.orderBy(`f.${sortBy}` as 'f.name', descending ? 'desc' : 'asc').orderBy('f.id');
      const { rows, total } = await paginate(q, { page, limit });
      return {
        items: rows.map((f) => ({ id: f.id, code: f.code, name: f.name, description: f.description, version: f.version, fields: scopeFieldsDeep((f.definition as FormDefinition).fields).length, updatedAt: f.updated_at })),
        total,
      };
    },
  );

  app.get(
    '/api/forms/:id',
    { config: { access: { target: 'formularios', action: 'show' } }, schema: { tags: ['forms'], params: idParams, querystring: z.strictObject({ version: z.coerce.number().int().positive().optional() }), response: { 200: formView } } },
    async (request) => view(await loadFormVersion(app.db, actorOf(request).entityId, request.params.id, request.query.version)),
  );

  app.post(
    '/api/forms',
    { config: { access: { target: 'formularios', action: 'create' } }, schema: { tags: ['forms'], body: createBody, response: { 201: formView } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const def = parseDefinition(request.lang, request.body.definition);
      const id = await app.db.transaction().execute(async (trx) => {
        const form = await trx
          .insertInto('forms')
          .values({ entity_id: actor.entityId, code: request.body.code, name: def.name, description: def.description })
          .returning('id')
          .executeTakeFirstOrThrow()
          .catch((e: { code?: string }) => {
            if (e.code === '23505') throw new AppError('DUPLICATE', { field: 'code' });
            throw e;
          });
        await trx.insertInto('form_versions').values({ entity_id: actor.entityId, form_id: form.id, version: 1, definition: JSON.stringify(def), created_by: actor.userId }).execute();
        return form.id;
      });
      return reply.status(201).send(view(await loadFormVersion(app.db, actor.entityId, id)));
    },
  );

  app.put(
    '/api/forms/:id',
    {
      config: { access: { target: 'formularios', action: 'update' } },
      schema: { tags: ['forms'], summary: 'Save a definition: a new version when the current one is in use', params: idParams, body: saveBody, response: { 200: formView } },
    },
    async (request) => {
      const actor = actorOf(request);
      const def = parseDefinition(request.lang, request.body.definition);
      await app.db.transaction().execute(async (trx) => {
        const form = await trx
          .selectFrom('forms as f')
          .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
          .where('f.id', '=', request.params.id)
          .where('f.entity_id', '=', actor.entityId)
          .select(['f.id', 'f.current_version', 'v.in_use'])
          .forUpdate('f')
          .executeTakeFirst();
        if (!form) throw new AppError('NOT_FOUND');
        const definition = JSON.stringify(def);
        let version = form.current_version;
        if (form.in_use) {
          version += 1;
          await trx.insertInto('form_versions').values({ entity_id: actor.entityId, form_id: form.id, version, definition, created_by: actor.userId }).execute();
        } else {
          await trx.updateTable('form_versions').set({ definition }).where('form_id', '=', form.id).where('version', '=', version).execute();
        }
        await trx
          .updateTable('forms')
          .set({ name: def.name, description: def.description, current_version: version, updated_at: new Date(), ...(request.body.code ? { code: request.body.code } : {}) })
          .where('id', '=', form.id)
          .execute()
          .catch((e: { code?: string }) => {
            if (e.code === '23505') throw new AppError('DUPLICATE', { field: 'code' });
            throw e;
          });
      });
      return view(await loadFormVersion(app.db, actor.entityId, request.params.id));
    },
  );

  app.delete(
    '/api/forms/:id',
    { config: { access: { target: 'formularios', action: 'delete' } }, schema: { tags: ['forms'], params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const used = await app.db.selectFrom('form_versions').where('form_id', '=', request.params.id).where('entity_id', '=', actor.entityId).where('in_use', '=', true).select('id').executeTakeFirst();
      if (used) throw new AppError('IN_USE');
      const deleted = await app.db.deleteFrom('forms').where('id', '=', request.params.id).where('entity_id', '=', actor.entityId).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/forms/:id/check',
    {
      config: { access: 'session' },
      schema: {
        tags: ['forms'],
        summary: "Validate values with the server's copy of the form validator (the gate tasks and cases use)",
        params: idParams,
        body: z.object({ values: formDataSchema, version: z.number().int().positive().optional() }),
        response: { 200: z.object({ values: z.record(z.string(), z.unknown()) }) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const form = await loadFormVersion(app.db, actor.entityId, request.params.id, request.body.version);
      const options = await resolveAllOptions(app, actor, form.definition);
      const result = validateForm(form.definition, request.body.values, { role: actor.role.code, options });
      if (!result.success) {
        throw new AppError('VALIDATION', {}, result.issues.map((i) => ({ path: i.path, message: translate(request.lang, i.key, i.params) })));
      }
      return { values: result.data };
    },
  );

  app.get(
    '/api/forms/:id/options/:field',
    {
      config: { access: 'session', rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: ['forms'],
        summary: 'The options of a master select or an external list (fetched by the server; the browser never calls a foreign URL)',
        params: z.strictObject({ id: idParams.shape.id, field: z.string().max(63) }),
        querystring: z.strictObject({ version: z.coerce.number().int().positive().optional(), parent: z.string().max(60).optional() }),
        response: { 200: z.object({ options: z.array(option) }) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const form = await loadFormVersion(app.db, actor.entityId, request.params.id, request.query.version);
      const field = scopeFieldsDeep(form.definition.fields).find((f) => f.name === request.params.field);
      if (!field) throw new AppError('NOT_FOUND');
      return { options: await fieldOptions(app, actor, field, request.query.parent) };
    },
  );

  // Hosts a tenant allows forms to fetch external option lists from.
  const hostBody = z.object({ host: z.string().trim().toLowerCase().regex(/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/, 'forms.badHost') });
  const hostView = z.object({ id: z.number(), host: z.string(), createdAt: z.date() });

  app.get(
    '/api/external-hosts',
    { config: { access: { target: 'menu_configuracion', action: 'show' } }, schema: { tags: ['forms'], response: { 200: z.array(hostView) } } },
    async (request) => {
      const rows = await app.db.selectFrom('external_hosts').where('entity_id', '=', actorOf(request).entityId).select(['id', 'host', 'created_at']).orderBy('host').execute();
      return rows.map((r) => ({ id: r.id, host: r.host, createdAt: r.created_at }));
    },
  );

  app.post(
    '/api/external-hosts',
    { config: { access: { target: 'menu_configuracion', action: 'update' } }, schema: { tags: ['forms'], body: hostBody, response: { 201: hostView } } },
    async (request, reply) => {
      const row = await app.db
        .insertInto('external_hosts')
        .values({ entity_id: actorOf(request).entityId, host: request.body.host })
        .returning(['id', 'host', 'created_at'])
        .executeTakeFirstOrThrow()
        .catch((e: { code?: string }) => {
          if (e.code === '23505') throw new AppError('DUPLICATE', { field: 'host' });
          throw e;
        });
      return reply.status(201).send({ id: row.id, host: row.host, createdAt: row.created_at });
    },
  );

  app.delete(
    '/api/external-hosts/:id',
    { config: { access: { target: 'menu_configuracion', action: 'update' } }, schema: { tags: ['forms'], params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const deleted = await app.db.deleteFrom('external_hosts').where('id', '=', request.params.id).where('entity_id', '=', actorOf(request).entityId).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
      return reply.status(204).send(null);
    },
  );
};

type App = Parameters<FastifyPluginAsyncZod>[0];

/** Options of one field: static ones, a master's active items, or an external list. */
export async function fieldOptions(app: App, actor: Actor, field: FieldDef, parent?: string): Promise<Array<{ value: string; label: string }>> {
  if (field.type === 'master_select' && field.master) {
    let q = app.db
      .selectFrom('master_items as i')
      .innerJoin('masters as m', 'm.id', 'i.master_id')
      .leftJoin('master_items as p', 'p.id', 'i.parent_item_id')
      .where('m.entity_id', '=', actor.entityId)
      .where('m.code', '=', field.master)
      .where('i.active', '=', true)
      .select(['i.code', 'i.name'])
      .orderBy('i.name')
      .limit(5000);
    if (parent) q = q.where('p.code', '=', parent);
    return (await q.execute()).map((i) => ({ value: i.code, label: i.name }));
  }
  if (field.type === 'select_multiple_external' && field.external_url) {
    // The product's own public master URLs are answered from the database, not over the network.
    const own = ownPublicMaster(app.config.http.publicUrl, field.external_url);
    if (own) return ((await publicItems(app.db, own.entity, own.code)) ?? []).map((i) => ({ value: i.code, label: i.name }));
    const hosts = await app.db.selectFrom('external_hosts').where('entity_id', '=', actor.entityId).select('host').execute();
    try {
      return toOptions(await safeFetchJson(field.external_url, { allowedHosts: new Set(hosts.map((h) => h.host)) }));
    } catch (e) {
      if (e instanceof BlockedUrlError) throw new AppError('UNPROCESSABLE', {}, [{ path: field.name, message: `forms.external.${e.reason}` }]);
      throw e;
    }
  }
  return (field.options ?? []).map((o) => ({ value: String(o.value), label: (actor.language === 'en' ? o.label_en : undefined) ?? o.label }));
}

function ownPublicMaster(publicUrl: string, url: string): { entity: string; code: string } | undefined {
  const prefix = `${publicUrl}/api/public/masters/`;
  if (!url.startsWith(prefix)) return undefined;
  const [entity, code, ...rest] = url.slice(prefix.length).split(/[/?#]/);
  if (!entity || !code || rest.some((r) => r !== '')) return undefined;
  return { entity: decodeURIComponent(entity), code };
}

/** Options the validator cannot read from the definition: masters and external lists. */
async function resolveAllOptions(app: App, actor: Actor, def: FormDefinition): Promise<Record<string, Array<string | number>>> {
  const out: Record<string, Array<string | number>> = {};
  for (const field of scopeFieldsDeep(def.fields)) {
    if (field.type === 'master_select' || field.type === 'select_multiple_external') {
      out[field.name] = (await fieldOptions(app, actor, field)).map((o) => o.value);
    }
  }
  return out;
}
