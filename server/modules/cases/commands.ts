/**
 * What changes cases, as named verbs: start, save and submit a draft; open,
 * complete, close and re-enable a case; correct its data; change its owner
 * and participants; the bulk versions of close and reassign (which run the
 * single-case command on each). Each is one transaction with the case locked
 * through repo.ts (so visibility holds) and checked by policy.ts; REST
 * routes, jobs, the import and the seed call these same functions.
 *
 * Submitting checks the values with the server's validator, gives the case
 * its number (serialByMonth, unique per project and month under
 * concurrency) and starts the protocol's first tasks through the engine.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { sql, type Transaction } from 'kysely';
import { newApplicationsOpen } from '../../../core/dates.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import { validateForm } from '../../../core/forms/validator.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { type Actor, can, type Doer } from '../acl/policy.js';
import { masterOptionValues } from '../forms/options.js';
import { notify } from '../notifications/commands.js';
import { inviteCaseParties } from '../parties/commands.js';
import { closeOpenTasks, type EngineEnv, startWorkflow } from '../workflow/engine.js';
import { recordEvent } from './history.js';
import { assertCaseAction, isStaff, TRANSITIONS } from './policy.js';
import {
  activeUserOfTenant,
  type CaseRow,
  caseFormVersion,
  countUsersOfTenant,
  isStartable,
  lockCase,
  lockOwnDraft,
  projectOf,
  replaceParticipants,
  setOwner,
  updateCaseData,
  userName,
} from './repo.js';
import { setCaseState } from './transitions.js';

dayjs.extend(utc);
dayjs.extend(timezone);

type Trx = Transaction<Database>;
type Lang = 'en' | 'es';

// ---------------------------------------------------------------- drafts and submitting

/** The next application number of a project's month, e.g. 2026-11-000042 (the month in the project's time zone). */
export async function nextSerial(trx: Trx, projectId: number, timeZone: string, now = new Date()): Promise<{ serial: string; month: string; seq: number }> {
  const month = dayjs(now).tz(timeZone).format('YYYY-MM');
  // One statement: concurrent submissions queue on the counter row, never share a number.
  const row = await trx
    .insertInto('case_counters')
    .values({ project_id: projectId, month, last: 1 })
    .onConflict((oc) => oc.columns(['project_id', 'month']).doUpdateSet({ last: sql`case_counters.last + 1` }))
    .returning('last')
    .executeTakeFirstOrThrow();
  return { serial: `${month}-${String(row.last).padStart(6, '0')}`, month, seq: row.last };
}

export interface CreateDraftInput {
  protocolId: number;
  projectId: number;
  ownerId: number;
  data?: Record<string, unknown>;
  externalRef?: string | null;
}

/** A draft of a case: the protocol must be published (spec: a protocol must exist before cases are created). */
export async function createDraft(trx: Trx, doer: Doer, input: CreateDraftInput): Promise<number> {
  const protocol = await trx
    .selectFrom('protocols as p')
    .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .where('p.id', '=', input.protocolId)
    .where('p.entity_id', '=', doer.entityId)
    .select(['p.id', 'p.case_type', 'p.public', 'v.id as version_id', 'v.definition'])
    .executeTakeFirst();
  if (!protocol) throw new AppError('PROTOCOL_NOT_PUBLISHED');
  // A public protocol's applications that the public start themselves (issue 18's public entry) are public ones,
  // whatever type the protocol gives the cases staff open for it.
  const fromThePublic = protocol.public && !('system' in doer) && !isStaff(doer);
  const def = protocol.definition as ProtocolDefinition;
  if (!def.mainFormVersionId) throw new AppError('PROTOCOL_NOT_PUBLISHED');
  const row = await trx
    .insertInto('cases')
    .values({
      entity_id: doer.entityId,
      project_id: input.projectId,
      protocol_id: protocol.id,
      protocol_version_id: protocol.version_id,
      form_version_id: def.mainFormVersionId,
      owner_id: input.ownerId,
      case_type: fromThePublic ? 'RADICACION_PUBLICA' : protocol.case_type,
      data: JSON.stringify(input.data ?? {}),
      external_ref: input.externalRef ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordEvent(trx, { entityId: doer.entityId, caseId: row.id, doer, number: null, action: 'case_created', type: 'case', detail: { fields: changedFields({}, input.data ?? {}) } });
  return row.id;
}

/**
 * A person starts an application of their project, when applications are
 * open and the protocol is one they may start.
 */
export async function startDraft(db: Db, actor: Actor, input: { protocolId: number; data: Record<string, unknown> }): Promise<number> {
  const project = await projectOf(db, actor);
  if (project.maintenance) throw new AppError('MAINTENANCE');
  if (!newApplicationsOpen({ newApplicationsDeadline: project.new_applications_deadline, allowNewApplications: project.allow_new_applications }, new Date())) throw new AppError('APPLICATIONS_CLOSED');
  if (!(await isStartable(db, actor, input.protocolId))) throw new AppError('NOT_FOUND');
  return db.transaction().execute((trx) => createDraft(trx, actor, { protocolId: input.protocolId, projectId: project.id, ownerId: actor.userId, data: input.data }));
}

/**
 * The fields whose values differ. Empty values ('', null, false, [] or
 * missing) count as equal, so a form's untouched defaults are no change.
 */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const empty = (v: unknown) => v === undefined || v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0);
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => !(empty(before[k]) && empty(after[k])) && JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .sort();
}

/**
 * Saves a draft of `ownerId` as typed (it is checked only when submitted).
 * With `version`, a draft saved elsewhere since is refused (STALE_DRAFT) and
 * nothing is written. The history records which fields changed.
 */
export async function saveDraft(
  trx: Trx,
  doer: Doer,
  caseId: number,
  input: { ownerId: number; data: Record<string, unknown>; version?: number },
): Promise<{ version: number; updatedAt: Date }> {
  const c = await lockOwnDraft(trx, doer, caseId, input.ownerId);
  if (input.version !== undefined && input.version !== c.version) throw new AppError('STALE_DRAFT');
  const fields = changedFields(c.data, input.data);
  const row = await trx
    .updateTable('cases')
    .set({ data: JSON.stringify(input.data), version: sql`version + 1`, updated_at: new Date() })
    .where('id', '=', c.id)
    .returning(['version', 'updated_at'])
    .executeTakeFirstOrThrow();
  if (fields.length) await recordEvent(trx, { entityId: doer.entityId, caseId: c.id, doer, number: null, action: 'draft_saved', type: 'case', detail: { fields } });
  return { version: row.version, updatedAt: row.updated_at };
}

/** The owner saves their own draft (autosave). */
export function saveOwnDraft(db: Db, actor: Actor, caseId: number, input: { data: Record<string, unknown>; version?: number }): Promise<{ version: number; updatedAt: Date }> {
  return db.transaction().execute((trx) => saveDraft(trx, actor, caseId, { ownerId: actor.userId, ...input }));
}

/** Checks the main form's values as the server gate; returns them cleaned. */
export async function validateCaseData(trx: Trx, entityId: number, formVersionId: number, data: Record<string, unknown>, role: string | undefined, lang: Lang): Promise<Record<string, unknown>> {
  const form = await trx.selectFrom('form_versions').where('id', '=', formVersionId).select('definition').executeTakeFirstOrThrow();
  const def = form.definition as FormDefinition;
  const result = validateForm(def, data, { role, options: await masterOptionValues(trx, entityId, def) });
  if (!result.success) throw new AppError('VALIDATION', {}, result.issues.map((i) => ({ path: i.path, message: translate(lang, i.key, i.params) })));
  return result.data;
}

/** Opens a draft: deadline, validation, required documents, number, start tasks. */
export async function submitCaseInTrx(
  trx: Trx,
  env: EngineEnv,
  doer: Doer,
  caseId: number,
  /** `announce: false`: the owner is not told that it arrived (a CSV import, whose owner is the staff member importing). */
  input: { data?: Record<string, unknown>; lang?: Lang; now?: Date; announce?: boolean } = {},
): Promise<CaseRow> {
  const c = await lockCase(trx, doer, caseId);
  if (c.state !== 'DRAFT') throw new AppError('INVALID_TRANSITION', { state: c.state, action: 'submit' });
  const project = await trx.selectFrom('projects').where('id', '=', c.project_id).select(['time_zone', 'new_applications_deadline', 'allow_new_applications', 'maintenance']).executeTakeFirstOrThrow();
  const now = input.now ?? new Date();
  // An import (announce: false) is staff moving records in, not the public form: maintenance does not stop it.
  if (project.maintenance && input.announce !== false) throw new AppError('MAINTENANCE');
  if (!newApplicationsOpen({ newApplicationsDeadline: project.new_applications_deadline, allowNewApplications: project.allow_new_applications }, now)) {
    throw new AppError('APPLICATIONS_CLOSED');
  }
  const role = 'system' in doer ? undefined : doer.role.code;
  const formVersionId = await caseFormVersion(trx, c.id);
  const data = await validateCaseData(trx, doer.entityId, formVersionId, input.data ?? c.data, role, input.lang ?? 'en');
  const def = (await trx.selectFrom('protocol_versions').where('id', '=', c.protocol_version_id as number).select('definition').executeTakeFirstOrThrow()).definition as ProtocolDefinition;
  if (def.requiredDocumentsField) {
    const files = data[def.requiredDocumentsField];
    if (!Array.isArray(files) || files.length === 0) throw new AppError('DOCUMENTS_REQUIRED');
  }
  const possibleDuplicated = await checkDuplicates(trx, c, def, data);
  const { serial, month, seq } = await nextSerial(trx, c.project_id, project.time_zone, now);
  await trx
    .updateTable('cases')
    .set({ state: 'PENDING', serial, serial_month: month, serial_seq: seq, doc_date: now, data: JSON.stringify(data), possible_duplicated: possibleDuplicated, version: sql`version + 1`, updated_at: now })
    .where('id', '=', c.id)
    .execute();
  const opened: CaseRow = { ...c, state: 'PENDING', serial, data };
  await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer, number: serial, action: 'case_submit', type: 'case', detail: { from: 'DRAFT', to: 'PENDING' } });
  await startWorkflow(trx, env, doer, opened);
  // Issue 23: the other parties the application names (a landlord ...) are invited by email, in this transaction.
  await inviteCaseParties(trx, env, doer, opened, def, formVersionId, data, now);
  // The applicant hears that it arrived, also when they submitted it themselves.
  if (c.owner_id && input.announce !== false) await notify(trx, env, { event: 'application_submitted', entityId: c.entity_id, caseId: c.id, to: [c.owner_id], notifyDoer: true });
  return opened;
}

/**
 * The protocol names the fields that identify an applicant. All of them equal
 * to another open or decided case of the protocol: refused ('already
 * exists'). The most specific one (the last named) equal, or the same first
 * and last name: saved, flagged as a possible duplicate.
 */
async function checkDuplicates(trx: Trx, c: CaseRow, def: ProtocolDefinition, data: Record<string, unknown>): Promise<boolean> {
  const fields = def.duplicateFields.filter((f) => data[f] !== undefined && data[f] !== null && data[f] !== '');
  if (fields.length === 0 || fields.length < def.duplicateFields.length) return false;
  const others = () => trx.selectFrom('cases').where('entity_id', '=', c.entity_id).where('protocol_id', '=', c.protocol_id).where('id', '<>', c.id).where('state', '<>', 'DRAFT');
  const all = Object.fromEntries(fields.map((f) => [f, data[f]]));
  const exact = await others().where(sql<boolean>`data @> ${JSON.stringify(all)}::jsonb`).select('id').limit(1).executeTakeFirst();
  if (exact) throw new AppError('DUPLICATE_CASE');
  const last = fields[fields.length - 1];
  const near: Array<Record<string, unknown>> = [{ [last]: data[last] }];
  if (data.firstName && data.lastName) near.push({ firstName: data.firstName, lastName: data.lastName });
  const similar = await others()
    .where((eb) => eb.or(near.map((n) => sql<boolean>`data @> ${JSON.stringify(n)}::jsonb`)))
    .select('id')
    .limit(1)
    .executeTakeFirst();
  return !!similar;
}

export async function submitCase(db: Db, env: EngineEnv, doer: Doer, caseId: number, input: { data?: Record<string, unknown>; lang?: Lang; now?: Date } = {}): Promise<CaseRow> {
  const c = await db.transaction().execute((trx) => submitCaseInTrx(trx, env, doer, caseId, input));
  env.afterMail?.();
  return c;
}

/** The owner submits their own draft; anyone else's draft is NOT_FOUND, as reading it would be. */
export async function submitDraft(db: Db, env: EngineEnv, actor: Actor, draftId: number, input: { data?: Record<string, unknown>; lang: Lang }): Promise<CaseRow> {
  const c = await db.transaction().execute(async (trx) => {
    await lockOwnDraft(trx, actor, draftId, actor.userId);
    return submitCaseInTrx(trx, env, actor, draftId, input);
  });
  env.afterMail?.();
  return c;
}

// ---------------------------------------------------------------- one case

/**
 * Open, complete, close or re-enable a case. Completing or closing ends
 * whatever work is still open on it. Returns the state reached.
 */
export async function changeCaseState(
  trx: Trx,
  env: EngineEnv,
  actor: Actor,
  caseId: number,
  name: (typeof TRANSITIONS)[number]['name'],
  input: { reason?: string; lang?: Lang } = {},
): Promise<string> {
  const c = await lockCase(trx, actor, caseId);
  assertCaseAction(actor, c, name);
  const { transition } = TRANSITIONS.find((t) => t.name === name) as (typeof TRANSITIONS)[number];
  if (transition === 'submit') return (await submitCaseInTrx(trx, env, actor, c.id, { lang: input.lang })).state;
  if (transition === 'close' || transition === 'complete') await closeOpenTasks(trx, c, actor);
  await setCaseState(trx, env, c, transition, actor, input.reason ? { reason: input.reason } : {});
  return c.state;
}

/** A person asks for a transition of one case; what it queued (mail) is sent after the commit. */
export async function requestTransition(db: Db, env: EngineEnv, actor: Actor, caseId: number, name: (typeof TRANSITIONS)[number]['name'], input: { reason?: string; lang?: Lang } = {}): Promise<string> {
  const state = await db.transaction().execute((trx) => changeCaseState(trx, env, actor, caseId, name, input));
  env.afterMail?.();
  return state;
}

/** Staff correct an open application's data: checked by its form, every changed field in the history. */
export async function correctData(db: Db, actor: Actor, caseId: number, input: { data: Record<string, unknown>; version: number; lang: Lang }): Promise<number> {
  // Correcting is staff work: anyone else is refused before the case is even looked up.
  if (!isStaff(actor)) throw new AppError('FORBIDDEN');
  return db.transaction().execute(async (trx) => {
    const c = await lockCase(trx, actor, caseId);
    if (c.version !== input.version) throw new AppError('STALE_DRAFT');
    assertCaseAction(actor, c, 'editData');
    const clean = await validateCaseData(trx, actor.entityId, await caseFormVersion(trx, c.id), input.data, actor.role.code, input.lang);
    const changed = [...new Set([...Object.keys(c.data), ...Object.keys(clean)])].filter((k) => JSON.stringify(c.data[k]) !== JSON.stringify(clean[k]));
    for (const field of changed) {
      await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'field_changed', type: 'field', detail: { field, from: c.data[field] ?? null, to: clean[field] ?? null } });
    }
    return updateCaseData(trx, c.id, clean);
  });
}

/** Gives a case to another active user of the tenant; the history keeps both names as they were. */
export async function changeOwner(db: Db, actor: Actor, caseId: number, userId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const c = await lockCase(trx, actor, caseId);
    assertCaseAction(actor, c, 'changeOwner');
    await giveTo(trx, actor, c, await newOwnerOf(trx, actor, userId));
  });
}

async function giveTo(trx: Trx, actor: Actor, c: CaseRow, user: { id: number; name: string }): Promise<void> {
  await setOwner(trx, c.id, user.id);
  const detail = { from: c.owner_id, to: user.id, fromName: await userName(trx, c.owner_id), toName: user.name };
  await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'owner_changed', type: 'case', detail });
}

/** The user a case is given to: an active user of the actor's tenant (a field error otherwise). */
async function newOwnerOf(db: Db | Trx, actor: Actor, userId: number): Promise<{ id: number; name: string }> {
  const user = await activeUserOfTenant(db, actor, userId);
  if (!user) throw new AppError('VALIDATION', {}, [{ path: 'userId', message: 'validation.chooseOption' }]);
  return user;
}

export async function setParticipants(db: Db, actor: Actor, caseId: number, userIds: number[]): Promise<number[]> {
  const ids = [...new Set(userIds)];
  await db.transaction().execute(async (trx) => {
    const c = await lockCase(trx, actor, caseId);
    assertCaseAction(actor, c, 'participants');
    if ((await countUsersOfTenant(trx, actor, ids)) !== ids.length) throw new AppError('VALIDATION', {}, [{ path: 'userIds', message: 'validation.chooseOption' }]);
    await replaceParticipants(trx, c, ids);
    await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'participants_changed', type: 'case', detail: { userIds: ids } });
  });
  return ids;
}

// ---------------------------------------------------------------- many cases

export interface BulkResult {
  done: number[];
  failed: Array<{ id: number; message: string }>;
}

/** Runs a single-case command on each case in its own transaction; refusals are reported in the caller's language, others stop. */
async function eachCase(db: Db, ids: number[], lang: Lang, run: (trx: Trx, id: number) => Promise<unknown>): Promise<BulkResult> {
  const result: BulkResult = { done: [], failed: [] };
  for (const id of ids) {
    try {
      await db.transaction().execute((trx) => run(trx, id));
      result.done.push(id);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      result.failed.push({ id, message: translate(lang, e.key, e.params) });
    }
  }
  return result;
}

export async function bulkClose(db: Db, env: EngineEnv, actor: Actor, input: { ids: number[]; reason?: string; lang: Lang }): Promise<BulkResult> {
  if (!can(actor, 'wf_cerrar_caso', 'confirm')) throw new AppError('FORBIDDEN');
  return eachCase(db, input.ids, input.lang, (trx, id) => changeCaseState(trx, env, actor, id, 'close', { reason: input.reason }));
}

export async function bulkReassign(db: Db, actor: Actor, input: { ids: number[]; userId: number; lang: Lang }): Promise<BulkResult> {
  const user = await newOwnerOf(db, actor, input.userId);
  // Reassigning is case administration (the route's target), which holds this right whatever the role says of change_owner_case.
  return eachCase(db, input.ids, input.lang, async (trx, id) => giveTo(trx, actor, await lockCase(trx, actor, id), user));
}
