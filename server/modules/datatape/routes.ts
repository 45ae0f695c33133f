/**
 * The data tape (target `reporte_data_tape`, issue 19): the funder's file of
 * every application of a protocol, one row each, with the case's columns and
 * every field of its form flattened (a repeat group's fields numbered per
 * row). Its columns and headers are saved per tenant and protocol (show to
 * read them, update to change them); files are made in the background
 * (export), followed by their progress, then downloaded by their starter.
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts (to
 * read), commands.ts or export.ts (to change), and answers. No SQL here.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { contentTypeOf } from '../../lib/tableFile.js';
import { actorOf } from '../../plugins/session.js';
import { resetTapeConfig, saveTapeConfig } from './commands.js';
import { failInterruptedTapeExports, startTapeExport } from './export.js';
import { findTapeExport, listTapeExports, type TapeExportItem, tapeChunks, tapeConfig, tapeProtocols } from './repo.js';
import * as s from './schema.js';

const SHOW = { access: { target: 'reporte_data_tape', action: 'show' } } as const;
const UPDATE = { access: { target: 'reporte_data_tape', action: 'update' } } as const;
const EXPORT = { access: { target: 'reporte_data_tape', action: 'export' } } as const;

export const dataTapeRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---------------------------------------------------------------- protocols and columns

  app.get(
    '/api/data-tape/protocols',
    { config: SHOW, schema: { tags: ['data tape'], summary: "The tenant's published protocols, each saying whether its tape has saved columns", response: { 200: s.tapeProtocolsSchema } } },
    async (request) => tapeProtocols(app.db, actorOf(request)),
  );

  app.get(
    '/api/data-tape/protocols/:protocolId/config',
    {
      config: SHOW,
      schema: {
        tags: ['data tape'],
        summary: "The protocol's tape: its columns and headers (the saved ones, or every field in form order), and every column its form offers",
        params: s.protocolParams,
        response: { 200: s.tapeConfigSchema },
      },
    },
    async (request) => tapeConfig(app.db, actorOf(request), request.params.protocolId),
  );

  app.put(
    '/api/data-tape/protocols/:protocolId/config',
    {
      config: UPDATE,
      schema: {
        tags: ['data tape'],
        summary: "Save the protocol's tape columns (order, Spanish and English headers) for the tenant; a source its form does not offer is 400",
        params: s.protocolParams,
        body: s.tapeConfigBody,
        response: { 200: s.tapeConfigSchema },
      },
    },
    async (request) => saveTapeConfig(app.db, actorOf(request), request.params.protocolId, request.body.columns),
  );

  app.delete(
    '/api/data-tape/protocols/:protocolId/config',
    {
      config: UPDATE,
      schema: { tags: ['data tape'], summary: "Forget the protocol's saved columns: the tape is the default again", params: s.protocolParams, response: { 200: s.tapeConfigSchema } },
    },
    async (request) => resetTapeConfig(app.db, actorOf(request), request.params.protocolId),
  );

  // ---------------------------------------------------------------- exports

  /** An export as the screen shows it: the error, kept as a translation key, in the caller's language. */
  const view = (request: { lang: 'en' | 'es' }, item: TapeExportItem) => ({ ...item, error: item.error && translate(request.lang, item.error) });

  app.post(
    '/api/data-tape/exports',
    {
      config: EXPORT,
      schema: {
        tags: ['data tape'],
        summary: "Make the protocol's tape as CSV or Excel in the background; follow it with GET /api/data-tape/exports/:id, then fetch /file",
        body: s.startTapeBody,
        response: { 202: s.tapeExportSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await startTapeExport(app.db, app.jobs, actor, request.body, request.lang);
      return reply.status(202).send(view(request, await findTapeExport(app.db, actor, id)));
    },
  );

  app.get(
    '/api/data-tape/exports',
    { config: EXPORT, schema: { tags: ['data tape'], summary: "The caller's tape exports of the last day, newest first", response: { 200: s.tapeExportListSchema } } },
    async (request) => {
      const list = await listTapeExports(app.db, actorOf(request));
      return { items: list.items.map((item) => view(request, item)) };
    },
  );

  app.get(
    '/api/data-tape/exports/:id',
    { config: EXPORT, schema: { tags: ['data tape'], summary: 'An export and its progress', params: s.exportParams, response: { 200: s.tapeExportSchema } } },
    async (request) => view(request, await findTapeExport(app.db, actorOf(request), request.params.id)),
  );

  app.get(
    '/api/data-tape/exports/:id/file',
    { config: EXPORT, schema: { tags: ['data tape'], summary: 'The file of a finished export, streamed', params: s.exportParams } },
    async (request, reply) => {
      const actor = actorOf(request);
      const job = await findTapeExport(app.db, actor, request.params.id);
      if (job.state !== 'done') throw new AppError('DATA_TAPE_NOT_READY');
      return reply
        .header('content-type', contentTypeOf(job.format))
        .header('content-disposition', `attachment; filename="${job.filename}"`)
        .header('content-length', String(job.bytes))
        .header('cache-control', 'no-store')
        .send(Readable.from(tapeChunks(app.db, actor, job.id)));
    },
  );

  // Work claimed but left without a job says so instead of running for ever.
  app.addHook('onReady', async () => {
    await failInterruptedTapeExports(app.db, app.jobs);
  });
};
