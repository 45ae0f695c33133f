/** The agencies routes' schemas, shared with the browser from `core/api/agencies.ts`. */
export {
  agencyCreateBody,
  agencyListQuery,
  agencyListSchema,
  agencySchema,
  agencyUpdateBody,
  confirmBody,
  confirmedSchema,
  registrationBody,
} from '../../../core/api/agencies.js';
export { idParams } from '../../../core/api/list.js';
export { messageSchema } from '../../../core/api/auth.js';
