/**
 * The forms API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which takes its types from them
 * through `Wire`). Request-only schemas that the browser never builds live in
 * `server/modules/forms/schema.ts`.
 */
import { z } from 'zod';
import { formDataSchema } from '../forms/data.js';
import { listQuery, listResponse } from './list.js';

const formCode = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'masters.badCode');

/** One form of the list (GET /api/forms). */
export const formSummarySchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.number(),
  /** How many fields hold a value or show text. */
  fields: z.number(),
  updatedAt: z.date(),
});

export const formListQuery = listQuery(['name', 'code', 'updated_at']);
export const formListSchema = listResponse(formSummarySchema);

/** One form with a version's definition (GET /api/forms/:id, and what every write answers). */
export const formViewSchema = formSummarySchema.extend({
  definition: z.unknown(),
  /** A task or case uses this version: saving makes a new one. */
  inUse: z.boolean(),
});

/** POST /api/forms; the definition is checked by the server (core/forms/definition.ts). */
export const createFormBody = z.object({ code: formCode, definition: z.unknown() });
/** PUT /api/forms/:id. */
export const saveFormBody = z.object({ definition: z.unknown(), code: formCode.optional() });

/** POST /api/forms/:id/check: values checked by the server's copy of the validator. */
export const checkValuesBody = z.object({ values: formDataSchema, version: z.number().int().positive().optional() });
export const checkedValuesSchema = z.object({ values: z.record(z.string(), z.unknown()) });

/** A choice of a select whose options the server gives (masters, external lists). */
export const fieldOptionSchema = z.object({ value: z.string(), label: z.string() });
export const fieldOptionsSchema = z.object({ options: z.array(fieldOptionSchema) });

/** A host a tenant allows forms to fetch external option lists from. */
export const externalHostSchema = z.object({ id: z.number(), host: z.string(), createdAt: z.date() });
export const externalHostBody = z.object({ host: z.string().trim().toLowerCase().regex(/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/, 'forms.badHost') });
