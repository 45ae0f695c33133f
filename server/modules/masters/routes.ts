/**
 * Masters: generic master-data tables of a tenant (code, name, parent item,
 * active, extra attributes), e.g. departamentos and their municipios,
 * definiciones (document types, income sources), funciones. Each has a
 * private URL for signed-in users and, when marked public, a public URL that
 * public forms use for their options. CSV import reports per-row errors and
 * changes nothing on a dry run; CSV export neutralises formulas.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { CsvError, csvRecords, decodeCsv, parseCsv, toCsv } from '../../lib/csv.js';
import { containsPattern, listQuery, listResponse, paginate } from '../../lib/list.js';
import { actorOf } from '../../plugins/session.js';
import type { Actor } from '../acl/policy.js';
import { assertMasterAccess, visibleMasterCodes } from './policy.js';

const codeParam = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'masters.badCode');
const itemCode = z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(60, { error: 'validation.tooLong' });
const name = z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(300, { error: 'validation.tooLong' });

const masterView = z.object({
  id: z.number(), code: z.string(), name: z.string(), description: z.string(), public: z.boolean(),
  parentCode: z.string().nullable(), system: z.boolean(), items: z.number(), publicUrl: z.string().nullable(),
});
const itemView = z.object({
  id: z.number(), code: z.string(), name: z.string(), parentCode: z.string().nullable(), parentName: z.string().nullable(),
  active: z.boolean(), extra: z.record(z.string(), z.unknown()),
});
const masterBody = z.object({
  code: codeParam,
  name,
  description: z.string().trim().max(1000, { error: 'validation.tooLong' }).default(''),
  public: z.boolean().default(false),
  parentCode: codeParam.nullable().default(null),
});
const itemBody = z.object({
  code: itemCode,
  name,
  parentCode: z.string().trim().max(60).nullable().default(null),
  active: z.boolean().default(true),
  extra: z.record(z.string().max(60), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()])).refine((o) => Object.keys(o).length <= 30).default({}),
});

type MasterRow = { id: number; code: string; name: string; description: string; public: boolean; parent_id: number | null; system: boolean };

export const masterRoutes: FastifyPluginAsyncZod = async (app) => {
  // CSV uploads arrive as text/csv bodies (up to 10 MB on the import route).
  app.addContentTypeParser(['text/csv', 'application/csv'], { parseAs: 'buffer', bodyLimit: 10 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  const publicUrl = (actor: Actor, m: { code: string; public: boolean }) =>
    m.public ? `${app.config.http.publicUrl}/api/public/masters/${encodeURIComponent(actor.entity.docnumber)}/${m.code}` : null;

  async function findMaster(actor: Actor, code: string): Promise<MasterRow & { parent_code: string | null }> {
    const m = await app.db
      .selectFrom('masters as m')
      .leftJoin('masters as p', 'p.id', 'm.parent_id')
      .where('m.entity_id', '=', actor.entityId)
      .where('m.code', '=', code)
      .select(['m.id', 'm.code', 'm.name', 'm.description', 'm.public', 'm.parent_id', 'm.system', 'p.code as parent_code'])
      .executeTakeFirst();
    if (!m) throw new AppError('NOT_FOUND');
    return m;
  }

  const viewMaster = async (actor: Actor, m: MasterRow & { parent_code: string | null }) => {
    const { n } = await app.db.selectFrom('master_items').where('master_id', '=', m.id).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    return { id: m.id, code: m.code, name: m.name, description: m.description, public: m.public, parentCode: m.parent_code, system: m.system, items: n, publicUrl: publicUrl(actor, m) };
  };

  /** The parent master's id; its chain of parents must not reach back to this master (no cycles) nor go deeper than 4. */
  async function parentMasterId(actor: Actor, parentCode: string | null, selfCode: string): Promise<number | null> {
    if (!parentCode) return null;
    const refuse = () => new AppError('VALIDATION', {}, [{ path: 'parentCode', message: 'validation.chooseOption' }]);
    const masters = await app.db.selectFrom('masters').where('entity_id', '=', actor.entityId).select(['id', 'code', 'parent_id']).execute();
    const byId = new Map(masters.map((m) => [m.id, m]));
    const parent = masters.find((m) => m.code === parentCode);
    if (!parent) throw refuse();
    let node: (typeof masters)[number] | undefined = parent;
    for (let depth = 0; node; depth++) {
      if (node.code === selfCode || depth >= 4) throw refuse();
      node = node.parent_id === null ? undefined : byId.get(node.parent_id);
    }
    return parent.id;
  }

  app.get(
    '/api/masters',
    { config: { access: 'session' }, schema: { tags: ['masters'], querystring: listQuery(['code', 'name']), response: { 200: listResponse(masterView) } } },
    async (request) => {
      const actor = actorOf(request);
      const { search, sortBy = 'name', descending, page, limit } = request.query;
      const visible = await visibleMasterCodes(app.db, actor);
      let q = app.db
        .selectFrom('masters as m')
        .leftJoin('masters as p', 'p.id', 'm.parent_id')
        .where('m.entity_id', '=', actor.entityId)
        .select(['m.id', 'm.code', 'm.name', 'm.description', 'm.public', 'm.parent_id', 'm.system', 'p.code as parent_code', sql<number>`(select count(*) from master_items i where i.master_id = m.id)::int`.as('items')]);
      if (visible !== 'all') q = visible.length ? q.where('m.code', 'in', visible) : q.where(sql<boolean>`false`);
      if (search) q = q.where((eb) => eb.or([eb('m.code', 'ilike', containsPattern(search)), eb('m.name', 'ilike', containsPattern(search))]));
      q = q.orderBy(`m.${sortBy}` as 'm.name', descending ? 'desc' : 'asc').orderBy('m.id');
      const { rows, total } = await paginate(q, { page, limit });
      return {
        items: rows.map((m) => ({ id: m.id, code: m.code, name: m.name, description: m.description, public: m.public, parentCode: m.parent_code, system: m.system, items: m.items, publicUrl: publicUrl(actor, m) })),
        total,
      };
    },
  );

  app.get(
    '/api/masters/:code',
    { config: { access: 'session' }, schema: { tags: ['masters'], params: z.strictObject({ code: codeParam }), response: { 200: masterView } } },
    async (request) => {
      const actor = actorOf(request);
      const m = await findMaster(actor, request.params.code);
      assertMasterAccess(actor, m.code, 'show');
      return viewMaster(actor, m);
    },
  );

  app.post(
    '/api/masters',
    { config: { access: { target: 'menu_maestros', action: 'create' } }, schema: { tags: ['masters'], body: masterBody, response: { 201: masterView } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const b = request.body;
      const parentId = await parentMasterId(actor, b.parentCode, b.code);
      await app.db
        .insertInto('masters')
        .values({ entity_id: actor.entityId, code: b.code, name: b.name, description: b.description, public: b.public, parent_id: parentId })
        .execute()
        .catch((e: { code?: string }) => {
          if (e.code === '23505') throw new AppError('DUPLICATE', { field: 'code' });
          throw e;
        });
      return reply.status(201).send(await viewMaster(actor, await findMaster(actor, b.code)));
    },
  );

  app.put(
    '/api/masters/:code',
    {
      config: { access: { target: 'menu_maestros', action: 'update' } },
      schema: { tags: ['masters'], params: z.strictObject({ code: codeParam }), body: masterBody, response: { 200: masterView } },
    },
    async (request) => {
      const actor = actorOf(request);
      const m = await findMaster(actor, request.params.code);
      const b = request.body;
      if (m.system && b.code !== m.code) throw new AppError('SYSTEM_RECORD');
      const parentId = await parentMasterId(actor, b.parentCode, m.code);
      if (parentId !== m.parent_id) {
        const { n } = await app.db.selectFrom('master_items').where('master_id', '=', m.id).where('parent_item_id', 'is not', null).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
        if (n > 0) throw new AppError('IN_USE');
      }
      await app.db
        .updateTable('masters')
        .set({ code: b.code, name: b.name, description: b.description, public: b.public, parent_id: parentId })
        .where('id', '=', m.id)
        .where('entity_id', '=', actor.entityId)
        .execute()
        .catch((e: { code?: string }) => {
          if (e.code === '23505') throw new AppError('DUPLICATE', { field: 'code' });
          throw e;
        });
      return viewMaster(actor, await findMaster(actor, b.code));
    },
  );

  app.delete(
    '/api/masters/:code',
    { config: { access: { target: 'menu_maestros', action: 'delete' } }, schema: { tags: ['masters'], params: z.strictObject({ code: codeParam }), response: { 204: z.null() } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const m = await findMaster(actor, request.params.code);
      if (m.system) throw new AppError('SYSTEM_RECORD');
      const child = await app.db.selectFrom('masters').where('parent_id', '=', m.id).select('id').executeTakeFirst();
      if (child) throw new AppError('IN_USE');
      await app.db.deleteFrom('masters').where('id', '=', m.id).where('entity_id', '=', actor.entityId).execute();
      return reply.status(204).send(null);
    },
  );

  const itemsQuery = listQuery(['code', 'name']).extend({
    parent: z.string().max(60).optional(),
    active: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  });

  const selectItems = (db: Db, masterId: number) =>
    db
      .selectFrom('master_items as i')
      .leftJoin('master_items as p', 'p.id', 'i.parent_item_id')
      .where('i.master_id', '=', masterId)
      .select(['i.id', 'i.code', 'i.name', 'i.active', 'i.extra', 'p.code as parent_code', 'p.name as parent_name']);
  type ItemRow = { id: number; code: string; name: string; active: boolean; extra: Record<string, unknown>; parent_code: string | null; parent_name: string | null };
  const viewItem = (i: ItemRow) => ({ id: i.id, code: i.code, name: i.name, active: i.active, extra: i.extra, parentCode: i.parent_code, parentName: i.parent_name });

  app.get(
    '/api/masters/:code/items',
    { config: { access: 'session' }, schema: { tags: ['masters'], params: z.strictObject({ code: codeParam }), querystring: itemsQuery, response: { 200: listResponse(itemView) } } },
    async (request) => {
      const actor = actorOf(request);
      const m = await findMaster(actor, request.params.code);
      assertMasterAccess(actor, m.code, 'show');
      const { search, sortBy = 'name', descending, page, limit, parent, active } = request.query;
      let q = selectItems(app.db, m.id);
      if (search) q = q.where((eb) => eb.or([eb('i.code', 'ilike', containsPattern(search)), eb('i.name', 'ilike', containsPattern(search))]));
      if (parent !== undefined) q = q.where('p.code', '=', parent);
      if (active !== undefined) q = q.where('i.active', '=', active);
      q = q.orderBy(`i.${sortBy}` as 'i.name', descending ? 'desc' : 'asc').orderBy('i.id');
      const { rows, total } = await paginate(q, { page, limit });
      return { items: rows.map(viewItem), total };
    },
  );

  async function parentItemId(m: MasterRow, parentCode: string | null): Promise<number | null> {
    if (m.parent_id === null) {
      if (parentCode) throw new AppError('VALIDATION', {}, [{ path: 'parentCode', message: 'masters.noParentMaster' }]);
      return null;
    }
    if (!parentCode) throw new AppError('VALIDATION', {}, [{ path: 'parentCode', message: 'validation.chooseOption' }]);
    const p = await app.db.selectFrom('master_items').where('master_id', '=', m.parent_id).where('code', '=', parentCode).select('id').executeTakeFirst();
    if (!p) throw new AppError('VALIDATION', {}, [{ path: 'parentCode', message: 'validation.chooseOption' }]);
    return p.id;
  }

  const itemParams = z.strictObject({ code: codeParam, id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
  const duplicateItem = (e: { code?: string }) => {
    if (e.code === '23505') throw new AppError('DUPLICATE', { field: 'code' });
    throw e;
  };

  app.post(
    '/api/masters/:code/items',
    { config: { access: 'session' }, schema: { tags: ['masters'], params: z.strictObject({ code: codeParam }), body: itemBody, response: { 201: itemView } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const m = await findMaster(actor, request.params.code);
      assertMasterAccess(actor, m.code, 'create');
      const b = request.body;
      const row = await app.db
        .insertInto('master_items')
        .values({ entity_id: actor.entityId, master_id: m.id, code: b.code, name: b.name, parent_item_id: await parentItemId(m, b.parentCode), active: b.active, extra: JSON.stringify(b.extra) })
        .returning('id')
        .executeTakeFirstOrThrow()
        .catch(duplicateItem);
      const item = await selectItems(app.db, m.id).where('i.id', '=', row.id).executeTakeFirstOrThrow();
      return reply.status(201).send(viewItem(item));
    },
  );

  app.put(
    '/api/masters/:code/items/:id',
    { config: { access: 'session' }, schema: { tags: ['masters'], params: itemParams, body: itemBody, response: { 200: itemView } } },
    async (request) => {
      const actor = actorOf(request);
      const m = await findMaster(actor, request.params.code);
      assertMasterAccess(actor, m.code, 'update');
      const b = request.body;
      const updated = await app.db
        .updateTable('master_items')
        .set({ code: b.code, name: b.name, parent_item_id: await parentItemId(m, b.parentCode), active: b.active, extra: JSON.stringify(b.extra) })
        .where('id', '=', request.params.id)
        .where('master_id', '=', m.id)
        .where('entity_id', '=', actor.entityId)
        .returning('id')
        .executeTakeFirst()
        .catch(duplicateItem);
      if (!updated) throw new AppError('NOT_FOUND');
      return viewItem(await selectItems(app.db, m.id).where('i.id', '=', updated.id).executeTakeFirstOrThrow());
    },
  );

  app.delete(
    '/api/masters/:code/items/:id',
    { config: { access: 'session' }, schema: { tags: ['masters'], params: itemParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const m = await findMaster(actor, request.params.code);
      assertMasterAccess(actor, m.code, 'delete');
      const child = await app.db.selectFrom('master_items').where('parent_item_id', '=', request.params.id).select('id').executeTakeFirst();
      if (child) throw new AppError('IN_USE');
      const deleted = await app.db.deleteFrom('master_items').where('id', '=', request.params.id).where('master_id', '=', m.id).where('entity_id', '=', actor.entityId).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
      return reply.status(204).send(null);
    },
  );

  const importResult = z.object({
    dryRun: z.boolean(),
    created: z.number(),
    updated: z.number(),
    errors: z.array(z.object({ line: z.number(), column: z.string().nullable(), message: z.string() })),
  });

  app.post(
    '/api/masters/:code/import',
    {
      config: { access: 'session' },
      bodyLimit: 10 * 1024 * 1024,
      schema: {
        tags: ['masters'],
        summary: 'Import items from CSV (columns code, name, parent, active, and extra attributes); ?dryRun=true checks without writing',
        params: z.strictObject({ code: codeParam }),
        querystring: z.strictObject({ dryRun: z.enum(['true', 'false']).transform((v) => v === 'true').default(false) }),
        response: { 200: importResult },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const m = await findMaster(actor, request.params.code);
      assertMasterAccess(actor, m.code, 'create');
      if (!Buffer.isBuffer(request.body)) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
      let records: Array<Record<string, string>>;
      let header: string[];
      try {
        ({ header, records } = csvRecords(parseCsv(decodeCsv(request.body), { maxRows: 50_000, maxColumns: 40 })));
      } catch (e) {
        if (e instanceof CsvError) throw new AppError('VALIDATION', {}, [{ path: 'file', message: `csv.${e.reason}` }]);
        throw e;
      }
      if (!header.includes('code') || !header.includes('name')) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'masters.csvNeedsCodeName' }]);
      const errors: Array<{ line: number; column: string | null; message: string }> = [];
      const parents = m.parent_id
        ? new Map((await app.db.selectFrom('master_items').where('master_id', '=', m.parent_id).select(['id', 'code']).execute()).map((p) => [p.code, p.id]))
        : new Map<string, number>();
      const existing = new Set((await app.db.selectFrom('master_items').where('master_id', '=', m.id).select('code').execute()).map((i) => i.code));
      const seen = new Set<string>();
      const rows: Array<{ code: string; name: string; parent: number | null; active: boolean; extra: Record<string, string> }> = [];
      records.forEach((r, index) => {
        const line = index + 2; // the header is line 1
        const fail = (column: string | null, key: string) => errors.push({ line, column, message: translate(request.lang, key) });
        const parsed = itemBody.safeParse({ code: r.code, name: r.name, parentCode: r.parent || null, active: r.active ? !/^(false|no|0|inactive|inactivo)$/i.test(r.active) : true });
        if (!parsed.success) {
          for (const issue of parsed.error.issues) fail(String(issue.path[0] ?? ''), issue.message);
          return;
        }
        if (seen.has(parsed.data.code)) return fail('code', 'masters.duplicateInFile');
        seen.add(parsed.data.code);
        let parent: number | null = null;
        if (m.parent_id !== null) {
          parent = parents.get(parsed.data.parentCode ?? '') ?? null;
          if (parent === null) return fail('parent', 'validation.chooseOption');
        } else if (parsed.data.parentCode) return fail('parent', 'masters.noParentMaster');
        const extra = Object.fromEntries(header.filter((h) => !['code', 'name', 'parent', 'active'].includes(h) && h).map((h) => [h, r[h]]));
        rows.push({ code: parsed.data.code, name: parsed.data.name, parent, active: parsed.data.active, extra });
      });
      const created = rows.filter((r) => !existing.has(r.code)).length;
      const updated = rows.length - created;
      if (!request.query.dryRun && rows.length) {
        await app.db.transaction().execute(async (trx) => {
          for (let i = 0; i < rows.length; i += 500) {
            await trx
              .insertInto('master_items')
              .values(rows.slice(i, i + 500).map((r) => ({ entity_id: actor.entityId, master_id: m.id, code: r.code, name: r.name, parent_item_id: r.parent, active: r.active, extra: JSON.stringify(r.extra) })))
              .onConflict((oc) =>
                oc.columns(['master_id', 'code']).doUpdateSet((eb) => ({
                  name: eb.ref('excluded.name'),
                  parent_item_id: eb.ref('excluded.parent_item_id'),
                  active: eb.ref('excluded.active'),
                  extra: eb.ref('excluded.extra'),
                })),
              )
              .execute();
          }
        });
      }
      return { dryRun: request.query.dryRun, created, updated, errors };
    },
  );

  app.get(
    '/api/masters/:code/export',
    { config: { access: 'session' }, schema: { tags: ['masters'], summary: 'All items as CSV', params: z.strictObject({ code: codeParam }) } },
    async (request, reply) => {
      const actor = actorOf(request);
      const m = await findMaster(actor, request.params.code);
      assertMasterAccess(actor, m.code, 'show');
      const items = await selectItems(app.db, m.id).orderBy('i.code').execute();
      const extraKeys = [...new Set(items.flatMap((i) => Object.keys(i.extra)))].sort();
      const csv = toCsv(
        ['code', 'name', ...(m.parent_id ? ['parent'] : []), 'active', ...extraKeys],
        items.map((i) => [i.code, i.name, ...(m.parent_id ? [i.parent_code] : []), i.active, ...extraKeys.map((k) => i.extra[k] ?? '')]),
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${m.code}.csv"`)
        .send(csv);
    },
  );

  app.get(
    '/api/public/masters/:entity/:code',
    {
      config: { access: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: ['masters'],
        summary: "A public master's active items (used by public forms)",
        params: z.strictObject({ entity: z.string().max(40), code: codeParam }),
        querystring: z.strictObject({ parent: z.string().max(60).optional() }),
        response: { 200: z.object({ info: z.array(z.object({ code: z.string(), name: z.string(), parent: z.string().nullable() })) }) },
      },
    },
    async (request) => {
      const items = await publicItems(app.db, request.params.entity, request.params.code, request.query.parent);
      if (!items) throw new AppError('NOT_FOUND');
      return { info: items };
    },
  );

};

/** Active items of a public master, or undefined when there is no such public master. */
export async function publicItems(db: Db, entityDocnumber: string, code: string, parent?: string) {
  const m = await db
    .selectFrom('masters as m')
    .innerJoin('entities as e', 'e.id', 'm.entity_id')
    .where('e.docnumber', '=', entityDocnumber)
    .where('e.active', '=', true)
    .where('m.code', '=', code)
    .where('m.public', '=', true)
    .select('m.id')
    .executeTakeFirst();
  if (!m) return undefined;
  let q = db
    .selectFrom('master_items as i')
    .leftJoin('master_items as p', 'p.id', 'i.parent_item_id')
    .where('i.master_id', '=', m.id)
    .where('i.active', '=', true)
    .select(['i.code', 'i.name', 'p.code as parent'])
    .orderBy('i.name')
    .limit(5000);
  if (parent) q = q.where('p.code', '=', parent);
  return q.execute();
}
