/**
 * Awards, payees, payment batches and the payee report (issue 23). A case's
 * award is read with the case's own visibility (target `wf_casos show`);
 * payees and batches are the programme's money (target `pagos`), a payee's
 * full bank details need `pagos_cuentas` and every read is recorded; the
 * yearly payee report is `reporte_beneficiarios`. Awards are set by the
 * engine when the approval task is accepted (`POST /api/tasks/:id/accept`
 * with `award`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PAYEE_REPORT_THRESHOLD_CENTS } from '../../../core/payments.js';
import { AppError } from '../../errors.js';
import { contentTypeOf } from '../../lib/tableFile.js';
import { actorOf } from '../../plugins/session.js';
import { mayReadCase } from '../cases/repo.js';
import { awardCapsOf, awardOverlaps, defaultPayeeKind, createBatch, exportBatch, markBatchPaid, payeeReportFile, readBankDetails, saveAchSettings, saveCasePayee } from './commands.js';
import { configurePaymentsKey } from './crypto.js';
import { achSettingsOf, achSettingsView, awardsOfCase, findBatchDetail, findPayee, listBatches, listPayees, payeeEvents, payeeReport, payeeView, protocolDefinitionOfCase } from './repo.js';
import * as s from './schema.js';

const tags = ['awards and payments'];
const PAGOS = (action: 'show' | 'create' | 'update' | 'export') => ({ access: { target: 'pagos', action } as const });

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  configurePaymentsKey(app.config);

  /** The case as GET /api/cases/:id would answer it, or 404. */
  const assertCaseReadable = async (request: Parameters<typeof actorOf>[0], id: number) => {
    if (!(await mayReadCase(app.db, actorOf(request), id))) throw new AppError('NOT_FOUND');
  };

  app.get(
    '/api/cases/:id/award',
    { config: { access: { target: 'wf_casos', action: 'show' } }, schema: { tags, summary: "A case's award (null: none yet), the earlier ones it replaced, and its protocol's caps", params: s.idParams, response: { 200: s.caseAwardSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await assertCaseReadable(request, request.params.id);
      const [awards, def] = await Promise.all([awardsOfCase(app.db, actor, request.params.id), protocolDefinitionOfCase(app.db, actor, request.params.id)]);
      return { ...awards, caps: awardCapsOf(def), defaultPayeeKind: await defaultPayeeKind(app.db, request.params.id, def as Parameters<typeof defaultPayeeKind>[2]) };
    },
  );

  app.get(
    '/api/cases/:id/award/overlaps',
    {
      config: { access: { target: 'wf_casos', action: 'show' } },
      schema: { tags, summary: "Duplicate of benefits: other cases' awards for overlapping months at the same address and unit, or the same landlord and tenant (without months: the case's award's)", params: s.idParams, querystring: s.awardOverlapQuery, response: { 200: s.awardOverlapListSchema } },
    },
    async (request) => {
      await assertCaseReadable(request, request.params.id);
      return awardOverlaps(app.db, actorOf(request), request.params.id, request.query);
    },
  );

  app.put(
    '/api/cases/:id/payee',
    { config: PAGOS('update'), schema: { tags, summary: "Enter or correct a case's payee of a kind (bank details sealed; recorded in the history)", params: s.idParams, body: s.casePayeeBody, response: { 200: s.payeeSchema } } },
    async (request) => payeeView(await saveCasePayee(app.db, actorOf(request), request.params.id, request.body)),
  );

  app.get(
    '/api/payees',
    { config: PAGOS('show'), schema: { tags, summary: 'Payees, account and tax id masked', querystring: s.payeeListQuery, response: { 200: s.payeeListSchema } } },
    async (request) => listPayees(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/payees/:id',
    { config: PAGOS('show'), schema: { tags, summary: 'One payee, account and tax id masked', params: s.idParams, response: { 200: s.payeeSchema } } },
    async (request) => payeeView(await findPayee(app.db, actorOf(request), request.params.id)),
  );

  app.get(
    '/api/payees/:id/events',
    { config: PAGOS('show'), schema: { tags, summary: "A payee's own history (what happened to a payee on no case: saved, bank details read)", params: s.idParams, response: { 200: s.payeeEventListSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await findPayee(app.db, actor, request.params.id);
      return { items: await payeeEvents(app.db, actor, request.params.id) };
    },
  );

  app.get(
    '/api/payees/:id/bank-details',
    { config: { access: { target: 'pagos_cuentas', action: 'show' } }, schema: { tags, summary: "A payee's full bank details; the read is recorded in the history of the payee's cases", params: s.idParams, response: { 200: s.payeeBankDetailsSchema } } },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await readBankDetails(app.db, actorOf(request), request.params.id)),
  );

  app.get(
    '/api/payment-batches',
    { config: PAGOS('show'), schema: { tags, summary: 'Payment batches, newest first', querystring: s.batchListQuery, response: { 200: s.batchListSchema } } },
    async (request) => listBatches(app.db, actorOf(request), request.query),
  );

  app.post(
    '/api/payment-batches',
    { config: PAGOS('create'), schema: { tags, summary: 'Build a batch of the approved awards not in one yet (up to a day, of one method or both)', body: s.createBatchBody, response: { 201: s.batchDetailSchema } } },
    async (request, reply) => reply.status(201).send(await createBatch(app.db, actorOf(request), request.body)),
  );

  app.get(
    '/api/payment-batches/:id',
    { config: PAGOS('show'), schema: { tags, summary: 'A batch and its payments, grouped by payee', params: s.idParams, response: { 200: s.batchDetailSchema } } },
    async (request) => findBatchDetail(app.db, actorOf(request), request.params.id),
  );

  for (const [path, which, summary] of [
    ['nacha', 'nacha', "The batch's direct deposits as a NACHA file: the first export makes and keeps it, later ones return the same bytes"],
    ['checks', 'checks', "The batch's check register (CSV): made with the NACHA file at the first export, kept"],
  ] as const) {
    app.get(
      `/api/payment-batches/:id/${path}`,
      { config: PAGOS('export'), schema: { tags, summary, params: s.idParams } },
      async (request, reply) => {
        const file = await exportBatch(app.db, actorOf(request), request.params.id, which);
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(file.content);
      },
    );
  }

  app.post(
    '/api/payment-batches/:id/paid',
    { config: PAGOS('update'), schema: { tags, summary: 'Mark an exported batch paid: every payment and award paid, each case told, each payee mailed', params: s.idParams, body: s.markPaidBody, response: { 200: s.batchDetailSchema } } },
    async (request) => markBatchPaid(app.db, app.engine, actorOf(request), request.params.id, request.body.version),
  );

  app.get(
    '/api/payments/ach-settings',
    { config: PAGOS('show'), schema: { tags, summary: "The programme's ACH origin (null: not entered)", response: { 200: s.achSettingsSchema } } },
    async (request) => {
      const row = await achSettingsOf(app.db, actorOf(request));
      return { settings: row ? achSettingsView(row) : null };
    },
  );

  app.put(
    '/api/payments/ach-settings',
    { config: PAGOS('update'), schema: { tags, summary: "Enter or change the programme's ACH origin", body: s.achSettingsBody, response: { 200: s.achSettingsSchema } } },
    async (request) => {
      const actor = actorOf(request);
      await saveAchSettings(app.db, actor, request.body);
      const row = await achSettingsOf(app.db, actor);
      return { settings: row ? achSettingsView(row) : null };
    },
  );

  app.get(
    '/api/reports/payees',
    { config: { access: { target: 'reporte_beneficiarios', action: 'show' } }, schema: { tags, summary: "A year's total paid per payee and tax id; those at or over the reporting threshold marked", querystring: s.payeeReportQuery, response: { 200: s.payeeReportSchema } } },
    async (request) => ({
      year: request.query.year,
      threshold: PAYEE_REPORT_THRESHOLD_CENTS,
      items: await app.read(request, (db) => payeeReport(db, actorOf(request), request.query.year, PAYEE_REPORT_THRESHOLD_CENTS)),
    }),
  );

  app.get(
    '/api/reports/payees/export',
    { config: { access: { target: 'reporte_beneficiarios', action: 'export' } }, schema: { tags, summary: 'The payee report as an Excel (or CSV) file, headers in the reader language', querystring: s.payeeReportExportQuery } },
    async (request, reply) => {
      const { year, format } = request.query;
      const content = await app.read(request, (db) => payeeReportFile(db, actorOf(request), year, format));
      return reply
        .header('content-type', contentTypeOf(format))
        .header('content-disposition', `attachment; filename="payees-${year}.${format}"`)
        .header('cache-control', 'no-store')
        .send(content);
    },
  );
};
