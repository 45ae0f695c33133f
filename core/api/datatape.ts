/**
 * The data tape's contract (target `reporte_data_tape`): every application of
 * a protocol, one row each, with the case's own columns and every field of
 * its form flattened; a field of a repeat group becomes one numbered column
 * per row (`members_1_name`, `members_2_name`, ...). The columns and their
 * headers (Spanish `header`, English `header_en`) are saved per tenant and
 * protocol; the file (CSV or Excel) is made by a background job with
 * progress, then downloaded.
 */
import { z } from 'zod';

/** The case's own columns a data tape may hold, besides the form's fields. */
export const CASE_COLUMNS = ['number', 'state', 'createdAt', 'submittedAt', 'updatedAt', 'closedAt', 'applicant', 'ownerName', 'ownerEmail'] as const;
export type CaseColumn = (typeof CASE_COLUMNS)[number];

/**
 * Where a column's values come from: `case:<column>` (CASE_COLUMNS), or
 * `field:<name>` for a field of the form, `field:<group>.<name>` for a field
 * of a repeat group's rows (`field:<group>.<inner>.<name>` in a group inside
 * a group).
 */
export const COLUMN_SOURCE = /^(case:[A-Za-z]{1,40}|field:[A-Za-z_][A-Za-z0-9_]{0,62}(\.[A-Za-z_][A-Za-z0-9_]{0,62}){0,2})$/;

/** Excel's widest sheet: a tape whose repeat groups would flatten wider is refused. */
export const MAX_TAPE_COLUMNS = 16_384;
/** Columns a configuration may list (before repeat groups are numbered). */
export const MAX_CONFIG_COLUMNS = 1_000;

export const TAPE_FORMATS = ['csv', 'xlsx'] as const;
/** The file's first row: the Spanish or English headers, or the flattened keys (`case_number`, `members_1_name`). */
export const TAPE_HEADERS = ['es', 'en', 'keys'] as const;
export const TAPE_STATES = ['running', 'done', 'failed'] as const;

const header = z.string().trim().min(1, 'validation.required').max(200);

export const tapeColumnSchema = z.strictObject({
  source: z.string().regex(COLUMN_SOURCE, 'dataTape.errors.badSource'),
  /** The Spanish header. */
  header,
  header_en: header,
});
export type TapeColumn = z.infer<typeof tapeColumnSchema>;

/** PUT /api/data-tape/protocols/:protocolId/config: the columns in order (each source once). */
export const tapeConfigBody = z.strictObject({
  columns: z
    .array(tapeColumnSchema)
    .min(1, 'dataTape.errors.noColumns')
    .max(MAX_CONFIG_COLUMNS)
    .superRefine((columns, ctx) => {
      const seen = new Set<string>();
      columns.forEach((c, i) => {
        if (seen.has(c.source)) ctx.addIssue({ code: 'custom', path: [i, 'source'], message: 'dataTape.errors.duplicateColumn' });
        seen.add(c.source);
      });
    }),
});

/** A column the protocol's form offers, with its default headers. */
export const availableColumnSchema = z.object({
  source: z.string(),
  header: z.string(),
  header_en: z.string(),
  kind: z.enum(['case', 'field']),
  /** The field's type (text, number, select ...); null for the case's columns. */
  type: z.string().nullable(),
  /** For a field of a repeat group: the group's path (`members`, or `members.children`), whose rows number the columns. */
  repeat: z.string().nullable(),
});

export const tapeConfigSchema = z.object({
  protocolId: z.number(),
  protocolName: z.string(),
  /** The saved columns, or the default (every column available, in form order) when none are saved. */
  columns: z.array(tapeColumnSchema),
  available: z.array(availableColumnSchema),
  saved: z.boolean(),
  updatedAt: z.date().nullable(),
  updatedBy: z.string().nullable(),
});

export const tapeProtocolsSchema = z.object({
  items: z.array(z.object({ id: z.number(), code: z.string(), name: z.string(), saved: z.boolean() })),
});

/** POST /api/data-tape/exports. `headers` defaults to the caller's language. */
export const startTapeBody = z.strictObject({
  protocolId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  format: z.enum(TAPE_FORMATS),
  headers: z.enum(TAPE_HEADERS).optional(),
});

export const tapeExportSchema = z.object({
  id: z.string(),
  protocolId: z.number(),
  protocolName: z.string(),
  format: z.enum(TAPE_FORMATS),
  headers: z.enum(TAPE_HEADERS),
  state: z.enum(TAPE_STATES),
  /** Applications written so far, of `total`. */
  done: z.number(),
  total: z.number(),
  /** The file's columns once known (repeat groups numbered). */
  columns: z.number(),
  filename: z.string().nullable(),
  /** The file's size once done. */
  bytes: z.number().nullable(),
  /** Why it failed, in the caller's language. */
  error: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export const tapeExportListSchema = z.object({ items: z.array(tapeExportSchema) });
