/**
 * The webhooks routes' request and response schemas, all from
 * `core/api/webhooks.ts`, which the browser shares (the page validates with
 * the same rules).
 */
import { z } from 'zod';

export {
  deliveryListQuery,
  deliveryListSchema,
  deliveryParams,
  deliverySchema,
  webhookBody,
  webhookListQuery,
  webhookListSchema,
  webhookParams,
  webhookProtocolSchema,
  webhookSchema,
  webhookSecretSchema,
  webhookUpdateBody,
  webhookWithSecretSchema,
} from '../../../core/api/webhooks.js';

export const noContent = z.null();
