/**
 * Print and attachment templates (`/configuracion/plantillas`, target
 * menu_configuracion): per tenant and optionally per protocol, a fillable
 * PDF (AcroForm) whose fields are mapped to case fields, or a letter (rich
 * text with the email placeholders) rendered to PDF with the project's logo.
 * A case prints with them (`GET /api/cases/:id/print/:templateId`, wf_casos
 * print, as the case page reads the case), and an email template may carry
 * one as its attachment (mail/outbox.ts renders it when delivering).
 *
 * Each handler declares its target, parses with schema.ts, calls repo.ts or
 * commands.ts (both scoped to the actor's tenant), and presents the answer.
 */
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PDF_MAX_BYTES, PDF_MAX_MB } from '../../../core/api/printing.js';
import { AppError } from '../../errors.js';
import { actorOf } from '../../plugins/session.js';
import { createPrintTemplate, deletePrintTemplate, findPrintTemplate, printCase, updatePrintTemplate, uploadTemplatePdf } from './commands.js';
import { casePrintOptions, listPrintTemplates, printCaseOptions, publishedFormFields, tenantHasProtocol } from './repo.js';
import * as s from './schema.js';
import { sourceList } from './sources.js';

const tags = ['printing'];
const show = { target: 'menu_configuracion', action: 'show' } as const;

export const printingRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { fileSize: PDF_MAX_BYTES, files: 1, fields: 2, fieldSize: 256 } });

  app.get(
    '/api/print-templates',
    { config: { access: show }, schema: { tags, querystring: s.printTemplateListQuery, response: { 200: s.printTemplateListSchema } } },
    async (request) => listPrintTemplates(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/print-templates/sources',
    { config: { access: show }, schema: { tags, summary: 'What a mapping may name: the case fields and the protocol form fields', querystring: s.printSourcesQuery, response: { 200: s.printSourcesSchema } } },
    async (request) => {
      const actor = actorOf(request);
      const { protocolId } = request.query;
      if (protocolId !== undefined && !(await tenantHasProtocol(app.db, actor, protocolId))) throw new AppError('NOT_FOUND');
      return { items: sourceList(protocolId === undefined ? [] : await publishedFormFields(app.db, actor, protocolId)) };
    },
  );

  app.get(
    '/api/print-templates/case-options',
    { config: { access: show }, schema: { tags, summary: 'Cases of the tenant to preview a template with', querystring: s.printCaseOptionsQuery, response: { 200: s.printCaseOptionSchema.array() } } },
    async (request) => printCaseOptions(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/print-templates/:id',
    { config: { access: show }, schema: { tags, params: s.idParams, response: { 200: s.printTemplateSchema } } },
    async (request) => findPrintTemplate(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/print-templates',
    { config: { access: { target: 'menu_configuracion', action: 'create' } }, schema: { tags, body: s.printTemplateCreateBody, response: { 201: s.printTemplateSchema } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const id = await createPrintTemplate(app.db, actor, request.body);
      return reply.status(201).send(await findPrintTemplate(app.db, actor, id));
    },
  );

  app.put(
    '/api/print-templates/:id',
    { config: { access: { target: 'menu_configuracion', action: 'update' } }, schema: { tags, params: s.idParams, body: s.printTemplateUpdateBody, response: { 200: s.printTemplateSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await updatePrintTemplate(app.db, actor, request.params.id, request.body);
      return findPrintTemplate(app.db, actor, request.params.id);
    },
  );

  app.put(
    '/api/print-templates/:id/pdf',
    {
      config: { access: { target: 'menu_configuracion', action: 'update' }, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, summary: 'Upload the fillable PDF (multipart field `file`): a PDF without scripts or embedded files', params: s.idParams, response: { 200: s.printTemplateSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
      const part = await request.file();
      if (!part) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.required' }]);
      const tooLarge = () => new AppError('FILE_TOO_LARGE', { max: PDF_MAX_MB });
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw e;
      }
      if (part.file.truncated || bytes.length > PDF_MAX_BYTES) throw tooLarge();
      await uploadTemplatePdf(app.db, actor, request.params.id, { name: path.basename(part.filename || 'template.pdf').slice(0, 200), bytes });
      return findPrintTemplate(app.db, actor, request.params.id);
    },
  );

  app.delete(
    '/api/print-templates/:id',
    { config: { access: { target: 'menu_configuracion', action: 'delete' } }, schema: { tags, params: s.idParams, response: { 204: s.noContent } } },
    async (request, reply) => {
      await deletePrintTemplate(app.db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  // ---------------------------------------------------------------- a case printed

  app.get(
    '/api/cases/:id/print-templates',
    { config: { access: { target: 'wf_casos', action: 'print' } }, schema: { tags, summary: "The templates a case prints with (its protocol's and those for every protocol)", params: s.idParams, response: { 200: s.casePrintOptionsSchema } } },
    async (request) => casePrintOptions(app.db, actorOf(request), request.params.id),
  );

  app.get(
    '/api/cases/:id/print/:templateId',
    { config: { access: { target: 'wf_casos', action: 'print' } }, schema: { tags, summary: 'The case printed with a template, as a PDF in the reader\'s language', params: s.printCaseParams } },
    async (request, reply) => {
      const actor = actorOf(request);
      const { bytes, filename } = await printCase(app.db, actor, request.params.id, request.params.templateId, {
        language: actor.language,
        files: app.files,
        publicUrl: app.config.http.publicUrl,
        recipientName: actor.name,
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(bytes));
    },
  );
};
