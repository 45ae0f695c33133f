/**
 * The BPMN 2.0 side of the protocols API, shared by the server (its routes
 * validate and serialise with these) and the browser:
 *
 * - `GET /api/protocols/:id/bpmn?version=N` answers the version (the draft
 *   without `version`) as BPMN 2.0 XML.
 * - `POST /api/protocols/:id/bpmn?dropUnsupported=true|false` takes a BPMN
 *   2.0 file as the raw body and makes it the protocol's draft. What the
 *   engine cannot run (timers, messages, script and service tasks ...) is
 *   refused with 422, one detail per element whose `path` is
 *   `unsupported.<element id>`, unless `dropUnsupported=true`; any other
 *   problem is a detail whose path is the element's id.
 */
import { z } from 'zod';
import { protocolDetailSchema } from './protocols.js';

/** The largest BPMN file the import reads (413 past it). */
export const BPMN_MAX_BYTES = 5 * 1024 * 1024;

/** Where an element the engine cannot run is named in a 422's details: `unsupported.<element id>`. */
export const BPMN_UNSUPPORTED_PREFIX = 'unsupported.';

export const bpmnExportQuery = z.strictObject({
  /** A published version's number; absent: the draft. */
  version: z.coerce.number().int().min(1).max(1_000_000).optional(),
});

export const bpmnImportQuery = z.strictObject({
  /** `true`: drop what the engine cannot run (the answer lists it) instead of refusing the file. */
  dropUnsupported: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .default(false),
});

/** One element of the file left out of the imported draft. */
export const bpmnDroppedSchema = z.object({ id: z.string(), type: z.string(), message: z.string() });

/** The protocol with its new draft, and what of the file was dropped. */
export const bpmnImportResultSchema = protocolDetailSchema.extend({ dropped: z.array(bpmnDroppedSchema) });
