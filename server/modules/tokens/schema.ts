/** The API tokens routes' schemas: the contract is `core/api/tokens.ts`, which the browser shares. */
export {
  apiTokenListSchema,
  createdTokenSchema,
  createServiceTokenBody,
  createTokenBody,
  serviceAccountBody,
  serviceAccountListSchema,
  serviceAccountSchema,
  tokenParams,
} from '../../../core/api/tokens.js';
export { idParams } from '../../../core/api/list.js';
