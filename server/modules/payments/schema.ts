/** The payments routes' schemas: the contract is `core/api/payments.ts`, which the browser shares. */
export {
  achSettingsBody,
  achSettingsSchema,
  awardOverlapListSchema,
  awardOverlapQuery,
  batchDetailSchema,
  batchListQuery,
  batchListSchema,
  caseAwardSchema,
  casePayeeBody,
  createBatchBody,
  markPaidBody,
  payeeBankDetailsSchema,
  payeeEventListSchema,
  payeeListQuery,
  payeeListSchema,
  payeeReportExportQuery,
  payeeReportQuery,
  payeeReportSchema,
  payeeSchema,
} from '../../../core/api/payments.js';
export { idParams } from '../../../core/api/list.js';
