/**
 * The data tape's writes: its columns saved for a protocol of the tenant, or
 * put back to the default. Starting an export and the export's job are in
 * export.ts.
 */
import type { TapeColumn } from '../../../core/api/datatape.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { availableColumns } from './columns.js';
import { deleteConfig, findTapeProtocol, tapeConfig, upsertConfig } from './repo.js';

/**
 * Saves the protocol's columns (order and headers) for the tenant. Each
 * source must be one the protocol's published form offers: another is
 * DATA_TAPE_UNKNOWN_COLUMN (400), naming it, and nothing is saved.
 */
export async function saveTapeConfig(db: Db, actor: Actor, protocolId: number, columns: TapeColumn[]) {
  const protocol = await findTapeProtocol(db, actor, protocolId);
  const offered = new Set(availableColumns(protocol.form).map((c) => c.source));
  const unknown = columns.find((c) => !offered.has(c.source));
  if (unknown) throw new AppError('DATA_TAPE_UNKNOWN_COLUMN', { column: unknown.source });
  await upsertConfig(db, actor, protocol.id, columns);
  return tapeConfig(db, actor, protocol.id);
}

/** Forgets the protocol's saved columns: its tape is the default again. */
export async function resetTapeConfig(db: Db, actor: Actor, protocolId: number) {
  const protocol = await findTapeProtocol(db, actor, protocolId);
  await deleteConfig(db, actor, protocol.id);
  return tapeConfig(db, actor, protocol.id);
}
