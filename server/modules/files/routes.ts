/**
 * Files: uploads for file fields. Stored in the configured store (the disk,
 * the database or an S3 bucket: storage.ts, stores.ts), checked on the server by their content, counted against the
 * tenant's disk quota (commands.ts), and served only through links that
 * expire in minutes and name exactly one file (links.ts), as downloads
 * (Content-Disposition: attachment, X-Content-Type-Options: nosniff). A link
 * is given only to someone who may read the file (repo.ts
 * `findReadableFile`): its uploader, or a reader of the record that holds it.
 *
 * Each handler declares its target, parses, calls repo.ts (to read) or
 * commands.ts (to store), and presents the answer. No SQL here.
 */
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import { actorOf } from '../../plugins/session.js';
import { uploadFile } from './commands.js';
import { linkFor, validLink } from './links.js';
import { findLinkedFile, findReadableFile } from './repo.js';
import * as s from './schema.js';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_MB } from './storage.js';

/** Types a link with `inline=1` shows in the page (the document review's viewer); anything else is always a download. */
const INLINE_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, fieldSize: 1024 } });

  app.post(
    '/api/files',
    {
      config: { access: 'session', rateLimit: { max: 60, timeWindow: '1 minute' }, accountLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags: ['files'], summary: 'Upload one file (multipart field `file`; optional field `public`)', response: { 201: s.fileSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
      const part = await request.file();
      if (!part) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.required' }]);
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
      const file = await uploadFile(app.db, actor, app.files, {
        name: path.basename(part.filename || 'file').slice(0, 200),
        bytes,
        public: (part.fields.public as { value?: unknown } | undefined)?.value === 'true',
      });
      return reply.status(201).send(file);
    },
  );

  app.get(
    '/api/files/:id/link',
    {
      config: { access: 'session' },
      schema: {
        tags: ['files'],
        summary: 'A download link for one file, valid for five minutes: to its uploader, and to whoever may read the case, draft or task that holds it',
        params: s.fileParams,
        response: { 200: s.fileLinkSchema },
      },
    },
    async (request) => {
      const file = await findReadableFile(app.db, actorOf(request), request.params.id);
      if (!file) throw new AppError('NOT_FOUND');
      return linkFor(app.db, file);
    },
  );

  /** A download: the link's signature is the permission (it was given to a reader of the file). */
  const serve = async (request: { params: { entity: string; file: string }; query: { exp: number; token: string; inline?: '1' } }, reply: FastifyReply, isPublic: boolean) => {
    const match = /^([0-9a-f-]{36})\.([a-z0-9]{1,10})$/.exec(request.params.file);
    if (!match) throw new AppError('NOT_FOUND');
    const [, id, ext] = match;
    if (!(await validLink(app.db, id, request.query.exp, request.query.token))) throw new AppError('LINK_EXPIRED');
    const file = await findLinkedFile(app.db, id);
    if (!file || file.extension !== ext || file.public !== isPublic || file.folder !== request.params.entity) throw new AppError('NOT_FOUND');
    // Opened before the headers: a store out of reach is a 503, not a cut download.
    const body = await app.files.open(app.db, id, file.location);
    // Shown in the page only for types whose content was checked at upload (sniff.ts) and that run no script of the page's origin.
    const inline = request.query.inline === '1' && INLINE_TYPES.has(file.mime);
    return reply
      .header('content-type', inline ? file.mime : 'application/octet-stream')
      .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${file.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .header('content-length', String(file.size))
      .header('cache-control', 'private, no-store')
      .send(body);
  };

  app.get('/archivos/:entity/:file', { config: { access: 'public' }, schema: { hide: true, params: s.downloadParams, querystring: s.downloadQuery } }, (request, reply) =>
    serve(request, reply, false),
  );
  app.get('/archivos/:entity/public/:file', { config: { access: 'public' }, schema: { hide: true, params: s.downloadParams, querystring: s.downloadQuery } }, (request, reply) =>
    serve(request, reply, true),
  );
};
