/**
 * The case list's current result as a CSV or Excel file: at once for small
 * results, or in the background with progress (`startExport`). Cells that a
 * spreadsheet would run as formulas are neutralised by lib/csv and lib/xlsx.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { errorCatalog } from '../../../core/errors.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { toCsv } from '../../lib/csv.js';
import { type Cell, toXlsx } from '../../lib/xlsx.js';
import type { Actor } from '../acl/policy.js';
import { checkFilters, countForExport, exportBatch, insertExport, mainFormFields, updateExport } from './repo.js';
import type { ExportQuery } from './schema.js';

export const EXPORT_LIMIT = 100_000;
const EXPORT_BATCH = 2_000;
export type ExportFormat = 'csv' | 'xlsx';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const contentTypeOf = (format: ExportFormat) => (format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE);
export const exportName = (format: ExportFormat) => `cases-${new Date().toISOString().slice(0, 10)}.${format}`;

/**
 * The current result as a table: case columns, then the form fields (those
 * of the protocol asked for, else the union of the first rows' keys).
 * Rows come in batches, newest first, so a long export reports progress.
 */
export async function exportTable(db: Db, actor: Actor, query: ExportQuery, onBatch: (done: number, total: number) => Promise<void> = async () => {}) {
  const total = await countForExport(db, actor, query, EXPORT_LIMIT);
  const rows: Awaited<ReturnType<typeof exportBatch>> = [];
  let lastId: number | null = null;
  await onBatch(0, total);
  while (rows.length < total) {
    const batch = await exportBatch(db, actor, query, lastId, Math.min(EXPORT_BATCH, total - rows.length));
    if (batch.length === 0) break;
    rows.push(...batch);
    lastId = batch[batch.length - 1].id;
    await onBatch(rows.length, total);
  }
  let fields = query.protocolId ? ((await mainFormFields(db, actor, query.protocolId)) ?? []) : [];
  if (!query.protocolId) {
    const scalar = new Set<string>();
    const nested = new Set<string>();
    for (const r of rows.slice(0, 1000)) for (const [k, v] of Object.entries(r.data as object)) (Array.isArray(v) && v.some((x) => typeof x === 'object') ? nested : scalar).add(k);
    fields = [...scalar].filter((k) => !nested.has(k)).sort();
  }
  const header = ['number', 'state', 'protocol', 'applicant', 'owner', 'docDate', 'possibleDuplicated', ...fields];
  const body = rows.map((r) => [
    r.serial, r.state, r.protocol_name, r.applicant, r.owner_name, r.doc_date, r.possible_duplicated,
    ...fields.map((k) => {
      const v = (r.data as Record<string, unknown>)[k];
      return Array.isArray(v) ? v.join('; ') : (v as string | number | boolean | null | undefined);
    }),
  ]);
  return { header, body };
}

export function fileOf(format: ExportFormat, table: { header: string[]; body: unknown[][] }): Buffer {
  return format === 'csv' ? Buffer.from(toCsv(table.header, table.body), 'utf8') : toXlsx(table.header, table.body as Cell[][], 'Cases');
}

/** Starts an export in the background and returns its id; bad filters are refused now, not reported later by a failed job. */
export async function startExport(db: Db, log: FastifyBaseLogger, actor: Actor, input: { format: ExportFormat; query: ExportQuery }): Promise<string> {
  await checkFilters(db, actor, input.query);
  const id = randomBytes(18).toString('base64url');
  await insertExport(db, actor, id, input.format);
  const run = async () => {
    const table = await exportTable(db, actor, input.query, (done, total) => updateExport(db, id, { done, total }));
    await updateExport(db, id, { state: 'done', content: fileOf(input.format, table), filename: exportName(input.format) });
  };
  run().catch(async (e) => {
    log.error({ err: e }, 'case export failed');
    await updateExport(db, id, { state: 'failed', error: e instanceof AppError ? e.key : errorCatalog.INTERNAL.key });
  });
  return id;
}
