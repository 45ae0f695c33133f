/**
 * Files: uploads for file fields. Stored per entity under DATA_DIR/files
 * (`<entity>/[public/]<id>.<ext>`, the spec's archivos/{entity}/[public/]{file}),
 * checked on the server by their content (not the name the browser gave),
 * counted against the tenant's disk quota, and served only through links
 * that expire in minutes and name exactly one file, as downloads
 * (Content-Disposition: attachment, X-Content-Type-Options: nosniff).
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { fileExtension } from '../../../core/forms/validator.js';
import { appSecret } from '../../db/secrets.js';
import { AppError } from '../../errors.js';
import { actorOf } from '../../plugins/session.js';
import { findReadableFile } from './repo.js';
import { sniff } from './sniff.js';

export const MAX_UPLOAD_MB = 20;
const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;
const LINK_SECONDS = 5 * 60;

const fileView = z.object({ id: z.string(), name: z.string(), extension: z.string(), size: z.number(), public: z.boolean(), createdAt: z.date() });

/** A folder name from the entity's name, made unique by its document number. */
export function entityFolder(entity: { name: string; docnumber: string }): string {
  const slug = entity.name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${slug || 'entity'}-${entity.docnumber.replace(/[^A-Za-z0-9]/g, '')}`;
}

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, fieldSize: 1024 } });
  const root = path.join(app.config.data.dir, 'files');
  const linkSecret = () => appSecret(app.db, 'files.links');
  const sign = async (id: string, exp: number) => createHmac('sha256', await linkSecret()).update(`${id}.${exp}`).digest('base64url');
  const diskPath = (folder: string, isPublic: boolean, id: string, ext: string) => path.join(root, folder, ...(isPublic ? ['public'] : []), `${id}.${ext}`);

  app.post(
    '/api/files',
    {
      config: { access: 'session', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags: ['files'], summary: 'Upload one file (multipart field `file`; optional field `public`)', response: { 201: fileView } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
      const part = await request.file();
      if (!part) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.required' }]);
      const isPublic = (part.fields.public as { value?: unknown } | undefined)?.value === 'true';
      const name = path.basename(part.filename || 'file').slice(0, 200);
      const ext = fileExtension(name);
      const tooLarge = () => new AppError('FILE_TOO_LARGE', { max: MAX_UPLOAD_MB });
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw e;
      }
      // toBuffer() only fails when the cut falls inside a chunk it reads; when the
      // bytes past the limit arrive on their own, after the last chunk it let
      // through, it returns the file cut at the limit and only the stream knows.
      if (part.file.truncated || bytes.length > MAX_UPLOAD_BYTES) throw tooLarge();
      // The name is stored as text, which cannot hold a NUL (the input guard cannot see inside a multipart body).
      if (name.includes('\u0000')) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.nul' }]);
      const kind = sniff(bytes, ext);
      if (!kind) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.fileExtension' }]);
      const entity = await app.db.selectFrom('entities').where('id', '=', actor.entityId).select(['name', 'docnumber', 'disk_quota_mb']).executeTakeFirstOrThrow();
      const id = randomUUID();
      const target = diskPath(entityFolder(entity), isPublic, id, ext);
      await mkdir(path.dirname(target), { recursive: true });
      // Written beside, then renamed: a crash never leaves half a file under the final name.
      await writeFile(`${target}.part`, bytes, { mode: 0o600 });
      try {
        await app.db.transaction().execute(async (trx) => {
          await trx.selectFrom('entities').where('id', '=', actor.entityId).select('id').forUpdate().execute();
          const used = await trx.selectFrom('files').where('entity_id', '=', actor.entityId).select(sql<string>`coalesce(sum(size), 0)`.as('n')).executeTakeFirstOrThrow();
          if (Number(used.n) + bytes.length > entity.disk_quota_mb * 1024 * 1024) throw new AppError('QUOTA_FULL');
          await trx
            .insertInto('files')
            .values({ id, entity_id: actor.entityId, name, extension: ext, mime: kind.mime, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), public: isPublic, created_by: actor.userId })
            .execute();
          await rename(`${target}.part`, target);
        });
      } catch (e) {
        // Nothing stays on disk for a refused or failed upload: not the part, nor
        // the file renamed just before a commit that failed.
        await Promise.all([rm(`${target}.part`, { force: true }), rm(target, { force: true })]);
        throw e;
      }
      return reply.status(201).send({ id, name, extension: ext, size: bytes.length, public: isPublic, createdAt: new Date() });
    },
  );

  app.get(
    '/api/files/:id/link',
    {
      config: { access: 'session' },
      schema: {
        tags: ['files'],
        summary: 'A download link for one file, valid for five minutes: to its uploader, and to whoever may read the case, draft or task that holds it',
        params: z.strictObject({ id: z.uuid() }),
        response: { 200: z.object({ url: z.string(), expiresAt: z.date() }) },
      },
    },
    async (request) => {
      const file = await findReadableFile(app.db, actorOf(request), request.params.id);
      if (!file) throw new AppError('NOT_FOUND');
      const exp = Math.floor(Date.now() / 1000) + LINK_SECONDS;
      const folder = entityFolder({ name: file.name, docnumber: file.docnumber });
      const url = `/archivos/${folder}/${file.public ? 'public/' : ''}${file.id}.${file.extension}?exp=${exp}&token=${await sign(file.id, exp)}`;
      return { url, expiresAt: new Date(exp * 1000) };
    },
  );

  const serve = async (request: { params: { entity: string; file: string }; query: { exp: number; token: string } }, reply: import('fastify').FastifyReply, isPublic: boolean) => {
    const match = /^([0-9a-f-]{36})\.([a-z0-9]{1,10})$/.exec(request.params.file);
    if (!match) throw new AppError('NOT_FOUND');
    const [, id, ext] = match;
    const expected = Buffer.from(await sign(id, request.query.exp));
    const given = Buffer.from(request.query.token);
    const valid = expected.length === given.length && timingSafeEqual(expected, given) && request.query.exp * 1000 > Date.now();
    if (!valid) throw new AppError('LINK_EXPIRED');
    const file = await app.db
      .selectFrom('files as f')
      .innerJoin('entities as e', 'e.id', 'f.entity_id')
      .where('f.id', '=', id)
      .select(['f.name', 'f.extension', 'f.public', 'f.size', 'e.name as entity_name', 'e.docnumber'])
      .executeTakeFirst();
    const folder = file && entityFolder({ name: file.entity_name, docnumber: file.docnumber });
    if (!file || file.extension !== ext || file.public !== isPublic || folder !== request.params.entity) throw new AppError('NOT_FOUND');
    const disk = diskPath(folder, isPublic, id, ext);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${file.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .header('content-length', String(file.size))
      .header('cache-control', 'private, no-store')
      .send(createReadStream(disk));
  };
  const downloadQuery = z.strictObject({ exp: z.coerce.number().int().positive(), token: z.string().max(100) });
  const downloadParams = z.strictObject({ entity: z.string().max(120), file: z.string().max(80) });

  app.get('/archivos/:entity/:file', { config: { access: 'public' }, schema: { hide: true, params: downloadParams, querystring: downloadQuery } }, (request, reply) =>
    serve(request, reply, false),
  );
  app.get('/archivos/:entity/public/:file', { config: { access: 'public' }, schema: { hide: true, params: downloadParams, querystring: downloadQuery } }, (request, reply) =>
    serve(request, reply, true),
  );
};
