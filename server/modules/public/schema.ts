/**
 * The public entry's request and response schemas, all from
 * `core/api/public.ts`, which the browser shares.
 */
export {
  publicEntityListQuery,
  publicEntityListSchema,
  publicEntityParams,
  publicEntitySchema,
  publicProgrammeDetailSchema,
  publicProtocolParams,
} from '../../../core/api/public.js';
