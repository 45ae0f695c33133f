/**
 * Returned for correction (issue 18), as named verbs, one transaction each
 * with the case locked through repo.ts (so visibility holds) and checked by
 * policy.ts:
 *
 * - `returnForCorrection`: staff who may change an open application's data
 *   send it back to its applicant with a reason and the form's fields and
 *   checklist documents to fix; the applicant is told (`case_returned`, with
 *   the reason and a link to the correction page).
 * - `resubmitCorrection`: the applicant changes only what was asked (any
 *   other changed field is refused, naming it, and nothing is saved), gives
 *   a file for each asked document, and sends it back: the data is checked
 *   by the form's shared validator, every changed field goes to the history,
 *   the documents are marked received in the checklist (and added to the
 *   form's file field), and whoever asked is told (`case_resubmitted`).
 * - `cancelCorrection`: staff withdraw the request.
 *
 * The workflow is not touched: its open tasks stay where they were, with
 * their responsibles, so it goes on from there after the resubmission.
 * Staff may keep working on them meanwhile; the case page says that the
 * applicant is correcting it.
 */
import type { Transaction } from 'kysely';
import { changedNames, correctableFields, fieldLabel, sameValue } from '../../../core/cases/correction.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { checklistCodesAmong, insertMarks } from '../comments/repo.js';
import { notify } from '../notifications/commands.js';
import type { EngineEnv } from '../workflow/engine.js';
import { validateCaseData } from './commands.js';
import { recordEvent } from './history.js';
import { assertCaseAction, isStaff } from './policy.js';
import {
  type CaseRow,
  caseFormOf,
  caseProtocolDefinition,
  checklistNames,
  endCorrection,
  insertCorrection,
  lockCase,
  lockOpenCorrection,
  ownUploads,
  touchCase,
  updateCaseData,
} from './repo.js';

type Trx = Transaction<Database>;
type Lang = 'en' | 'es';
type FileRef = { id: string; name: string; size?: number };

interface Issue {
  path: string;
  message: string;
  params?: Record<string, unknown>;
}

const refuse = (issues: Issue[]) => new AppError('VALIDATION', {}, issues);

/** The correction page's address, for the applicant's email (under PUBLIC_URL) and the browser. */
export const correctionPath = (caseId: number) => `/cases/${caseId}/correct`;

/**
 * Where the files given for asked documents go in the data: the protocol's
 * documents field when it names a file field of the form, else the form's
 * first file field; none when the form has no file field (the checklist
 * marks then hold the files).
 */
async function documentsFieldOf(trx: Trx, c: CaseRow, def: FormDefinition): Promise<string | null> {
  const files = correctableFields(def.fields).filter((f) => f.type === 'file');
  const named = (await caseProtocolDefinition(trx, c))?.requiredDocumentsField;
  if (named && files.some((f) => f.name === named)) return named;
  return files[0]?.name ?? null;
}

/** Staff send an open application back to its applicant. Returns the new version of the case. */
export async function returnForCorrection(
  db: Db,
  env: EngineEnv,
  actor: Actor,
  caseId: number,
  input: { reason: string; fields: string[]; documents: string[]; version: number; lang: Lang },
): Promise<number> {
  // Returning is staff work, as correcting the data is: anyone else is refused before the case is even looked up.
  if (!isStaff(actor)) throw new AppError('FORBIDDEN');
  const version = await db.transaction().execute(async (trx) => {
    const c = await lockCase(trx, actor, caseId);
    const open = await lockOpenCorrection(trx, c);
    assertCaseAction(actor, { state: c.state, ownerId: c.owner_id, correctionOpen: open !== undefined }, 'returnForCorrection');
    if (c.version !== input.version) throw new AppError('STALE_DRAFT');

    const { def } = await caseFormOf(trx, c.id);
    const correctable = correctableFields(def.fields);
    const asked = new Set(input.fields);
    const unknown = [...asked].filter((name) => !correctable.some((f) => f.name === name));
    const codes = [...new Set(input.documents)];
    const known = new Set(await checklistCodesAmong(trx, actor, codes));
    const issues: Issue[] = [
      ...unknown.map((name) => ({ path: 'fields', message: 'caseCorrection.errors.unknownField', params: { name } })),
      ...codes.filter((code) => !known.has(code)).map((code) => ({ path: 'documents', message: 'caseCorrection.errors.unknownDocument', params: { code } })),
    ];
    if (issues.length) throw refuse(issues);
    // Kept in the form's order, as the applicant will meet them.
    const fields = correctable.filter((f) => asked.has(f.name)).map((f) => f.name);

    const id = await insertCorrection(trx, { entityId: c.entity_id, caseId: c.id, requestedBy: actor.userId, reason: input.reason, fields, documents: codes });
    // The documents' names as they are now, for the history to show.
    const names = await checklistNames(trx, c.entity_id, codes);
    await recordEvent(trx, {
      entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'correction_requested', type: 'case',
      detail: { correction: id, reason: input.reason, fields, documents: codes, documentNames: codes.map((code) => names.get(code) ?? code) },
    });
    await notify(trx, env, { event: 'case_returned', entityId: c.entity_id, caseId: c.id, byUserId: actor.userId, to: [c.owner_id], reason: input.reason, link: correctionPath(c.id) });
    return touchCase(trx, c.id);
  });
  env.afterMail?.();
  return version;
}

/** Staff withdraw the open request; the applicant's page stops asking and they are told (`correction_cancelled`). Returns the new version of the case. */
export async function cancelCorrection(db: Db, env: EngineEnv, actor: Actor, caseId: number): Promise<number> {
  if (!isStaff(actor)) throw new AppError('FORBIDDEN');
  const version = await db.transaction().execute(async (trx) => {
    const c = await lockCase(trx, actor, caseId);
    const open = await lockOpenCorrection(trx, c);
    assertCaseAction(actor, { state: c.state, ownerId: c.owner_id, correctionOpen: open !== undefined }, 'cancelCorrection');
    const correction = open as NonNullable<typeof open>;
    await endCorrection(trx, correction.id, { state: 'cancelled', by: actor.userId });
    await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'correction_cancelled', type: 'case', detail: { correction: correction.id } });
    // The applicant was asked by email: they are told by email that they need not act.
    await notify(trx, env, { event: 'correction_cancelled', entityId: c.entity_id, caseId: c.id, byUserId: actor.userId, to: [c.owner_id] });
    return touchCase(trx, c.id);
  });
  env.afterMail?.();
  return version;
}

/**
 * The applicant sends the corrected application back. `data` may hold the
 * whole application or only the asked fields: a name it does not hold keeps
 * its saved value, and a field that was not asked may not differ from it.
 * Returns the new version of the case.
 */
export async function resubmitCorrection(
  db: Db,
  env: EngineEnv,
  actor: Actor,
  caseId: number,
  input: { data: Record<string, unknown>; documents: Array<{ code: string; files: FileRef[] }>; version: number; lang: Lang },
): Promise<number> {
  const version = await db.transaction().execute(async (trx) => {
    const c = await lockCase(trx, actor, caseId);
    const open = await lockOpenCorrection(trx, c);
    assertCaseAction(actor, { state: c.state, ownerId: c.owner_id, correctionOpen: open !== undefined }, 'resubmit');
    const correction = open as NonNullable<typeof open>;
    if (c.version !== input.version) throw new AppError('STALE_DRAFT');

    const { versionId, def } = await caseFormOf(trx, c.id);
    const byName = new Map(correctableFields(def.fields).map((f) => [f.name, f]));
    const label = (name: string) => {
      const f = byName.get(name);
      return f ? fieldLabel(f, input.lang) : name;
    };
    const asked = new Set(correction.fields);

    // Only the asked fields may change: anything else is refused, naming each field, before anything is written.
    const notAsked = changedNames(c.data, input.data).filter((name) => !asked.has(name));
    if (notAsked.length) throw refuse(notAsked.map((name) => ({ path: name, message: 'caseCorrection.errors.notAsked', params: { field: label(name) } })));

    // Each asked document needs its files (the applicant's own uploads); nothing else may be given.
    const names = await checklistNames(trx, c.entity_id, correction.documents);
    const given = new Map<string, FileRef[]>();
    for (const d of input.documents) given.set(d.code, [...(given.get(d.code) ?? []), ...d.files]);
    const documentIssues: Issue[] = [];
    for (const code of given.keys()) {
      if (!correction.documents.includes(code)) documentIssues.push({ path: 'documents', message: 'caseCorrection.errors.documentNotAsked', params: { name: names.get(code) ?? code } });
    }
    for (const code of correction.documents) {
      if (!given.get(code)?.length) documentIssues.push({ path: `documents.${code}`, message: 'caseCorrection.errors.documentMissing', params: { name: names.get(code) ?? code } });
    }
    const ids = [...new Set([...given.values()].flat().map((f) => f.id))];
    const stored = new Map((await ownUploads(trx, actor, ids)).map((f) => [f.id, f]));
    for (const [code, files] of given) {
      if (correction.documents.includes(code) && files.some((f) => !stored.has(f.id))) {
        documentIssues.push({ path: `documents.${code}`, message: 'caseCorrection.errors.unknownFile', params: { name: names.get(code) ?? code } });
      }
    }
    if (documentIssues.length) throw refuse(documentIssues);
    // The stored name and size, whatever the request said of them.
    const uploads: Record<string, FileRef[]> = Object.fromEntries(
      correction.documents.map((code) => [code, [...new Set((given.get(code) ?? []).map((f) => f.id))].map((id) => ({ id, name: stored.get(id)?.name ?? '', size: stored.get(id)?.size }))]),
    );

    // The asked fields take the new values; the documents join the form's file field; the rest stays as saved.
    const merged: Record<string, unknown> = { ...c.data };
    for (const name of asked) if (Object.hasOwn(input.data, name)) merged[name] = input.data[name];
    const filesField = correction.documents.length ? await documentsFieldOf(trx, c, def) : null;
    if (filesField) {
      const current = Array.isArray(merged[filesField]) ? (merged[filesField] as FileRef[]) : [];
      const added = Object.values(uploads).flat().filter((f) => !current.some((x) => x.id === f.id));
      merged[filesField] = [...current, ...added];
    }
    const clean = await validateCaseData(trx, c.entity_id, versionId, merged, actor.role.code, input.lang);
    const next: Record<string, unknown> = { ...c.data };
    for (const name of [...asked, ...(filesField ? [filesField] : [])]) {
      if (Object.hasOwn(clean, name)) next[name] = clean[name];
      else delete next[name];
    }

    const changed = [...new Set([...Object.keys(c.data), ...Object.keys(next)])].filter((k) => !sameValue(c.data[k], next[k])).sort();
    for (const field of changed) {
      await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'field_changed', type: 'field', detail: { field, from: c.data[field] ?? null, to: next[field] ?? null } });
    }
    const saved = await updateCaseData(trx, c.id, next);
    for (const [code, files] of Object.entries(uploads)) {
      for (const f of files) await insertMarks(trx, { entityId: c.entity_id, caseId: c.id, commentId: null, userId: actor.userId, fileId: f.id }, [{ code, mark: 'received' }]);
    }
    await endCorrection(trx, correction.id, { state: 'resubmitted', uploads });
    await recordEvent(trx, {
      entityId: c.entity_id, caseId: c.id, doer: actor, number: c.serial, action: 'correction_resubmitted', type: 'case',
      detail: { correction: correction.id, fields: changed, documents: correction.documents },
    });
    if (correction.requested_by) {
      await notify(trx, env, { event: 'case_resubmitted', entityId: c.entity_id, caseId: c.id, byUserId: actor.userId, to: [correction.requested_by] });
    }
    return saved;
  });
  env.afterMail?.();
  return version;
}
