/**
 * Masters: generic master-data tables of a tenant (code, name, parent item,
 * active, extra attributes), e.g. departamentos and their municipios,
 * definiciones (document types, income sources), funciones. Each has a
 * private URL for signed-in users and, when marked public, a public URL that
 * public forms use for their options. CSV import reports per-row errors and
 * changes nothing on a dry run; CSV export neutralises formulas.
 *
 * Each handler declares its access, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. A master's
 * items are guarded by the master's own target (policy.ts), which depends on
 * the master in the path: those routes declare a session, and the finders
 * and commands check the target.
 */
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import { toCsv } from '../../lib/csv.js';
import { actorOf } from '../../plugins/session.js';
import { addItem, changeItem, changeMaster, createMaster, deleteItem, deleteMaster, importItems } from './commands.js';
import { allItems, findItem, listItems, listMasters, masterDetail, publicItems, readMaster } from './repo.js';
import * as s from './schema.js';

/** Kept for callers that import it from here (forms' options). */
export { publicItems };

export const masterRoutes: FastifyPluginAsyncZod = async (app) => {
  const baseUrl = app.config.http.publicUrl;

  // ---------------------------------------------------------------- masters

  app.get(
    '/api/masters',
    { config: { access: 'session' }, schema: { tags: ['masters'], summary: 'The masters the caller may see', querystring: s.masterListQuery, response: { 200: s.masterListSchema } } },
    async (request) => listMasters(app.db, baseUrl, actorOf(request), request.query),
  );

  app.get(
    '/api/masters/:code',
    { config: { access: 'session' }, schema: { tags: ['masters'], summary: "A master, read with its own target's show", params: s.codeParams, response: { 200: s.masterSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await readMaster(app.db, actor, request.params.code);
      return masterDetail(app.db, baseUrl, actor, request.params.code);
    },
  );

  app.post(
    '/api/masters',
    { config: { access: { target: 'menu_maestros', action: 'create' } }, schema: { tags: ['masters'], body: s.masterBody, response: { 201: s.masterSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const code = await createMaster(app.db, actor, request.body);
      return reply.status(201).send(await masterDetail(app.db, baseUrl, actor, code));
    },
  );

  app.put(
    '/api/masters/:code',
    { config: { access: { target: 'menu_maestros', action: 'update' } }, schema: { tags: ['masters'], params: s.codeParams, body: s.masterBody, response: { 200: s.masterSchema } } },
    async (request) => {
      const actor = actorOf(request);
      const code = await changeMaster(app.db, actor, request.params.code, request.body);
      return masterDetail(app.db, baseUrl, actor, code);
    },
  );

  app.delete(
    '/api/masters/:code',
    { config: { access: { target: 'menu_maestros', action: 'delete' } }, schema: { tags: ['masters'], params: s.codeParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteMaster(app.db, actorOf(request), request.params.code);
      return reply.status(204).send(null);
    },
  );

  // ---------------------------------------------------------------- items (guarded by the master's target)

  app.get(
    '/api/masters/:code/items',
    { config: { access: 'session' }, schema: { tags: ['masters'], params: s.codeParams, querystring: s.masterItemListQuery, response: { 200: s.masterItemListSchema } } },
    async (request) => listItems(app.db, actorOf(request), request.params.code, request.query),
  );

  app.post(
    '/api/masters/:code/items',
    { config: { access: 'session' }, schema: { tags: ['masters'], params: s.codeParams, body: s.itemBody, response: { 201: s.masterItemSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const { masterId, id } = await addItem(app.db, actor, request.params.code, request.body);
      return reply.status(201).send(await findItem(app.db, actor, masterId, id));
    },
  );

  app.put(
    '/api/masters/:code/items/:id',
    { config: { access: 'session' }, schema: { tags: ['masters'], params: s.itemParams, body: s.itemBody, response: { 200: s.masterItemSchema } } },
    async (request) => {
      const actor = actorOf(request);
      const { masterId, id } = await changeItem(app.db, actor, request.params.code, request.params.id, request.body);
      return findItem(app.db, actor, masterId, id);
    },
  );

  app.delete(
    '/api/masters/:code/items/:id',
    { config: { access: 'session' }, schema: { tags: ['masters'], params: s.itemParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deleteItem(app.db, actorOf(request), request.params.code, request.params.id);
      return reply.status(204).send(null);
    },
  );

  // CSV uploads arrive as text/csv bodies (up to 10 MB), on the import route only: any other route refuses one (415).
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(['text/csv', 'application/csv'], { parseAs: 'buffer', bodyLimit: s.MAX_IMPORT_BYTES }, (_req, body, done) => done(null, body));
    scope.post(
      '/api/masters/:code/import',
      {
        config: { access: 'session' },
        bodyLimit: s.MAX_IMPORT_BYTES,
        schema: {
          tags: ['masters'],
          summary: 'Import items from CSV (columns code, name, name_en, parent, active, and extra attributes); ?dryRun=true checks without writing',
          params: s.codeParams,
          querystring: s.importQuery,
          response: { 200: s.masterImportSchema },
        },
      },
      async (request) => importItems(app.db, actorOf(request), request.params.code, request.body, { dryRun: request.query.dryRun, lang: request.lang }),
    );
  });

  app.get(
    '/api/masters/:code/export',
    { config: { access: 'session' }, schema: { tags: ['masters'], summary: 'All items as CSV', params: s.codeParams } },
    async (request, reply) => {
      const { master, items } = await allItems(app.db, actorOf(request), request.params.code);
      const hasParent = master.parent_id !== null;
      const extraKeys = [...new Set(items.flatMap((i) => Object.keys(i.extra)))].sort();
      const csv = toCsv(
        ['code', 'name', 'name_en', ...(hasParent ? ['parent'] : []), 'active', ...extraKeys],
        items.map((i) => [i.code, i.name, i.nameEn, ...(hasParent ? [i.parentCode] : []), i.active, ...extraKeys.map((k) => i.extra[k] ?? '')]),
      );
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${master.code}.csv"`).send(csv);
    },
  );

  // ---------------------------------------------------------------- public

  app.get(
    '/api/public/masters/:entity/:code',
    {
      config: { access: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { tags: ['masters'], summary: "A public master's active items (used by public forms)", params: s.publicParams, querystring: s.publicQuery, response: { 200: s.publicMasterSchema } },
    },
    async (request) => {
      const items = await publicItems(app.db, request.params.entity, request.params.code, request.lang, request.query.parent);
      if (!items) throw new AppError('NOT_FOUND');
      return { info: items };
    },
  );
};
