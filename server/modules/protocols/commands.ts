/**
 * What changes protocols, as named verbs: create and save a draft (checked
 * against the tenant's forms, teams and users), publish it, and import an
 * exported protocol with its forms. Each is one transaction taking the actor
 * first; REST routes and the seed call these same functions.
 *
 * Publishing freezes the draft as a numbered version with the current
 * versions of its forms, which become "in use" (their next save makes a new
 * version), so running cases keep what they started with.
 */
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { protocolFileSchema } from '../../../core/api/protocols.js';
import { type FormDefinition, FormDefinitionError, parseFormDefinition } from '../../../core/forms/definition.js';
import { parseProtocolDefinition, type ProtocolDefinition, ProtocolDefinitionError, type ProtocolProblem } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import type { Actor, Doer } from '../acl/policy.js';
import { insertForm } from '../forms/repo.js';
import { BPMN_UNSUPPORTED_PREFIX } from '../../../core/api/protocolBpmn.js';
import { protocolToBpmn } from './bpmn-export.js';
import { BpmnFileError, type BpmnNote, convertBpmn, readBpmnFile, readUpload } from './bpmn-import.js';
import {
  addProtocolVersion,
  assertMainForm,
  bpmnExportSource,
  currentFormVersions,
  findProtocol,
  formCodesOf,
  formIdsByCode,
  insertProtocol,
  knownIds,
  lockProtocol,
  markFormVersionsInUse,
  type ProtocolBody,
  knownRoleCodes,
  replaceDraft,
  responsiblesByName,
  templateEvents,
  updateProtocol,
} from './repo.js';

type Trx = Transaction<Database>;
type Lang = 'en' | 'es';

function toAppError(problems: ProtocolProblem[], lang: Lang): AppError {
  return new AppError('UNPROCESSABLE', {}, problems.map((p) => ({ path: p.path, message: translate(lang, p.reason, p.params) })));
}

/** Parses a definition and checks that what it names exists in the tenant; a 422 lists every problem. */
export async function checkProtocolDefinition(trx: Trx, doer: Doer, input: unknown, lang: Lang): Promise<ProtocolDefinition> {
  let def: ProtocolDefinition;
  try {
    def = parseProtocolDefinition(input);
  } catch (e) {
    if (!(e instanceof ProtocolDefinitionError)) throw e;
    throw toAppError(e.problems, lang);
  }
  const formIds = [...new Set([...def.tasks, ...def.parties].map((t) => t.formId).filter((id): id is number => id !== null))];
  const teamIds = [...new Set(def.tasks.flatMap((t) => (t.responsible.kind === 'team' ? [t.responsible.teamId] : [])))];
  const userIds = [...new Set(def.tasks.flatMap((t) => (t.responsible.kind === 'user' ? [t.responsible.userId] : [])))];
  const templateIds = [...new Set(def.tasks.flatMap((t) => Object.values(t.mailTemplates ?? {})))];
  const roleCodes = [...new Set(def.tasks.flatMap((t) => (t.escalation ? [t.escalation.role] : [])))];
  const [forms, teams, users, templates, roles] = await Promise.all([
    knownIds(trx, doer, 'forms', formIds),
    knownIds(trx, doer, 'teams', teamIds),
    knownIds(trx, doer, 'users', userIds),
    templateEvents(trx, doer, templateIds),
    knownRoleCodes(trx, doer, roleCodes),
  ]);
  const problems: ProtocolProblem[] = [];
  for (const p of def.parties) {
    if (p.formId !== null && !forms.has(p.formId)) problems.push({ path: `parties.${p.role}.formId`, reason: 'protocols.def.unknownForm' });
  }
  for (const t of def.tasks) {
    if (t.formId !== null && !forms.has(t.formId)) problems.push({ path: `tasks.${t.code}.formId`, reason: 'protocols.def.unknownForm' });
    if (t.responsible.kind === 'team' && !teams.has(t.responsible.teamId)) problems.push({ path: `tasks.${t.code}.responsible`, reason: 'protocols.def.unknownTeam' });
    if (t.responsible.kind === 'user' && !users.has(t.responsible.userId)) problems.push({ path: `tasks.${t.code}.responsible`, reason: 'protocols.def.unknownUser' });
    for (const [event, id] of Object.entries(t.mailTemplates ?? {})) {
      if (templates.get(id) !== event) problems.push({ path: `tasks.${t.code}.mailTemplates.${event}`, reason: 'protocols.def.unknownTemplate' });
    }
    if (t.escalation && !roles.has(t.escalation.role)) problems.push({ path: `tasks.${t.code}.escalation.role`, reason: 'protocols.def.unknownRole' });
  }
  if (problems.length) throw toAppError(problems, lang);
  return def;
}

/** A new protocol whose draft is checked; not published. */
export async function createProtocol(db: Db, actor: Actor, body: ProtocolBody, lang: Lang): Promise<number> {
  await assertMainForm(db, actor, body.mainFormId);
  return db.transaction().execute(async (trx) => insertProtocol(trx, actor, body, await checkProtocolDefinition(trx, actor, body.definition, lang)));
}

/** Saves a protocol's draft and settings; published versions do not change. */
export async function saveProtocol(db: Db, actor: Actor, id: number, body: ProtocolBody, lang: Lang): Promise<void> {
  await findProtocol(db, actor, id);
  await assertMainForm(db, actor, body.mainFormId);
  await db.transaction().execute(async (trx) => updateProtocol(trx, actor, id, body, await checkProtocolDefinition(trx, actor, body.definition, lang)));
}

/**
 * Freezes the draft as the next version, with the current versions of its
 * forms. In the caller's transaction when given one (the seed creates and
 * publishes at once), in its own otherwise.
 */
export async function publishProtocol(db: Db | Trx, doer: Doer, protocolId: number, lang: Lang): Promise<number> {
  if (!db.isTransaction) return db.transaction().execute((trx) => publishProtocol(trx, doer, protocolId, lang));
  const trx = db as Trx;
  const protocol = await lockProtocol(trx, doer, protocolId);
  const def = await checkProtocolDefinition(trx, doer, protocol.draft, lang);
  const formIds = [...new Set([protocol.main_form_id, ...[...def.tasks, ...def.parties].map((t) => t.formId).filter((id): id is number => id !== null)])];
  const current = await currentFormVersions(trx, doer, formIds);
  const mainFormVersionId = current.get(protocol.main_form_id);
  if (!mainFormVersionId) throw new AppError('UNPROCESSABLE', {}, [{ path: 'mainFormId', message: translate(lang, 'protocols.def.unknownForm') }]);
  const frozen: ProtocolDefinition = {
    ...def,
    mainFormVersionId,
    tasks: def.tasks.map((t) => ({ ...t, formVersionId: t.formId === null ? undefined : current.get(t.formId) })),
    // Each party role's form is frozen as the tasks' are (issue 23).
    parties: def.parties.map((p) => ({ ...p, formVersionId: p.formId === null ? undefined : current.get(p.formId) })),
  };
  await markFormVersionsInUse(trx, doer, [...current.values()]);
  return addProtocolVersion(trx, doer, protocolId, frozen, 'system' in doer ? null : doer.userId);
}

export type ProtocolFile = z.infer<typeof protocolFileSchema>;

/**
 * Imports an exported protocol with its forms: all of it, or nothing. Forms
 * whose code the tenant uses already get a suffix (an import never
 * overwrites); responsibles are found by team name and user email. The
 * protocol comes in unpublished.
 */
export async function importProtocol(db: Db, actor: Actor, f: ProtocolFile, lang: Lang): Promise<number> {
  const problems: Array<{ path: string; message: string }> = [];
  const forms = new Map<string, FormDefinition>();
  f.forms.forEach((form, i) => {
    try {
      forms.set(form.code, parseFormDefinition(form.definition));
    } catch (e) {
      if (!(e instanceof FormDefinitionError)) throw e;
      for (const p of e.problems) problems.push({ path: `forms.${i}.${p.path}`, message: translate(lang, p.reason, p.params) });
    }
  });
  const def = f.protocol.definition as { tasks?: Array<Record<string, unknown>> } & Record<string, unknown>;
  if (!forms.has(f.protocol.mainForm)) problems.push({ path: 'protocol.mainForm', message: translate(lang, 'protocols.def.unknownForm') });
  const { teamsByName, usersByEmail } = await responsiblesByName(db, actor);
  for (const [i, t] of (Array.isArray(def?.tasks) ? def.tasks : []).entries()) {
    if (t.formId !== null && t.formId !== undefined && !forms.has(String(t.formId))) problems.push({ path: `protocol.definition.tasks.${i}.formId`, message: translate(lang, 'protocols.def.unknownForm') });
    const r = t.responsible as { kind?: string; teamId?: number; userId?: number } | undefined;
    if (r?.kind === 'team' && !teamsByName.has(f.teams[String(r.teamId)] ?? '')) problems.push({ path: `protocol.definition.tasks.${i}.responsible`, message: translate(lang, 'protocols.def.unknownTeam') });
    if (r?.kind === 'user' && !usersByEmail.has((f.users[String(r.userId)] ?? '').toLowerCase())) problems.push({ path: `protocol.definition.tasks.${i}.responsible`, message: translate(lang, 'protocols.def.unknownUser') });
  }
  if (problems.length) throw new AppError('UNPROCESSABLE', {}, problems);
  return db.transaction().execute(async (trx) => {
    const taken = await formCodesOf(trx, actor);
    const newIds = new Map<string, number>();
    for (const [codeIn, formDef] of forms) {
      let code = codeIn;
      for (let n = 2; taken.has(code); n++) code = `${codeIn}-${n}`.slice(0, 63);
      taken.add(code);
      newIds.set(codeIn, await insertForm(trx, actor, code, formDef));
    }
    const mapped = {
      ...def,
      tasks: (def.tasks ?? []).map((t) => {
        const r = t.responsible as { kind: string; teamId?: number; userId?: number };
        const responsible =
          r.kind === 'team' ? { kind: 'team', teamId: teamsByName.get(f.teams[String(r.teamId)]) } : r.kind === 'user' ? { kind: 'user', userId: usersByEmail.get(f.users[String(r.userId)].toLowerCase()) } : r;
        // Email templates are the other tenant's: the imported tasks send this tenant's defaults.
        const { mailTemplates: _theirs, ...task } = t;
        return { ...task, formId: t.formId === null || t.formId === undefined ? null : newIds.get(String(t.formId)), responsible };
      }),
    };
    const checked = await checkProtocolDefinition(trx, actor, mapped, lang);
    const p = f.protocol;
    return insertProtocol(
      trx,
      actor,
      { code: p.code, name: p.name, nameEn: p.nameEn, description: p.description, caseType: p.caseType, public: p.public, mainFormId: newIds.get(p.mainForm) as number, publicPage: p.publicPage },
      checked,
    );
  });
}

// ---------------------------------------------------------------- BPMN 2.0

/** A version of a protocol (the draft without `version`) as BPMN 2.0 XML, with the file name to give it. */
export async function exportProtocolBpmn(db: Db, actor: Actor, id: number, version: number | undefined, lang: Lang): Promise<{ fileName: string; xml: string }> {
  const { protocol, definition, names } = await bpmnExportSource(db, actor, id, version);
  const xml = await protocolToBpmn(
    definition,
    { formCode: (x) => names.forms.get(x), teamName: (x) => names.teams.get(x), userEmail: (x) => names.users.get(x) },
    { code: protocol.code, name: protocol.name, endName: translate(lang, 'bpmn.endEvent') },
  );
  return { fileName: `${protocol.code}-${version === undefined ? 'draft' : `v${version}`}.bpmn`, xml };
}

type Detail = { path: string; message: string };

/** A file refused as a whole: 413 past the size cap, 400 otherwise, naming the reason. */
function fileError(e: BpmnFileError, lang: Lang): AppError {
  const detail = [{ path: 'file', message: translate(lang, `bpmn.file.${e.reason}`, e.params) }];
  return new AppError(e.reason === 'tooLarge' ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION', {}, detail);
}

const described = (notes: BpmnNote[], lang: Lang, prefix = ''): Detail[] => notes.map((n) => ({ path: `${prefix}${n.id}`, message: translate(lang, n.reason, n.params) }));

/**
 * Makes a BPMN 2.0 file the draft of a protocol of the actor's tenant (a new
 * version once published; running cases keep theirs). All of it or nothing,
 * in one transaction: a file that cannot be read is 400 (413 past the size
 * cap); one with problems, or with elements the engine cannot run and no
 * `drop`, is 422 naming every element (those that `drop` would leave out as
 * `unsupported.<id>`). Returns what was dropped.
 */
export async function importProtocolBpmn(
  db: Db,
  actor: Actor,
  id: number,
  /** The file: its bytes, or the request's body, read up to the size cap. */
  file: Uint8Array | AsyncIterable<Uint8Array | string>,
  options: { drop: boolean; lang: Lang },
): Promise<Array<{ id: string; type: string; message: string }>> {
  const { lang } = options;
  let converted: ReturnType<typeof convertBpmn>;
  try {
    const bytes = file instanceof Uint8Array ? file : await readUpload(file);
    await findProtocol(db, actor, id);
    converted = convertBpmn(await readBpmnFile(bytes));
  } catch (e) {
    if (e instanceof BpmnFileError) throw fileError(e, lang);
    throw e;
  }
  const unsupported = described(converted.unsupported, lang, BPMN_UNSUPPORTED_PREFIX);
  const refuse = (problems: Detail[]) => new AppError('UNPROCESSABLE', {}, [...problems, ...unsupported]);
  if (converted.problems.length) throw refuse(described(converted.problems, lang));

  return db.transaction().execute(async (trx) => {
    const locked = await lockProtocol(trx, actor, id);
    // Forms by code, teams by name, users by email, in the actor's tenant.
    const formCodes = [...new Set(converted.tasks.flatMap((t) => (t.form === null ? [] : [t.form])))];
    const [forms, { teamsByName, usersByEmail }] = await Promise.all([formIdsByCode(trx, actor, formCodes), responsiblesByName(trx, actor)]);
    const problems: BpmnNote[] = [];
    const tasks = converted.tasks.map((t) => {
      const at = { id: t.elementId, type: 'bpmn:userTask' };
      let formId: number | null = null;
      if (t.form !== null) {
        formId = forms.get(t.form) ?? null;
        if (formId === null) problems.push({ ...at, reason: 'bpmn.unknownForm', params: { id: t.elementId, form: t.form } });
      }
      let responsible: Record<string, unknown> = t.responsible;
      if (t.responsible.kind === 'team') {
        const teamId = teamsByName.get(t.responsible.team);
        if (teamId === undefined) problems.push({ ...at, reason: 'bpmn.unknownTeam', params: { id: t.elementId, team: t.responsible.team } });
        responsible = { kind: 'team', teamId };
      } else if (t.responsible.kind === 'user') {
        const userId = usersByEmail.get(t.responsible.email.toLowerCase());
        if (userId === undefined) problems.push({ ...at, reason: 'bpmn.unknownUser', params: { id: t.elementId, email: t.responsible.email } });
        responsible = { kind: 'user', userId };
      }
      const { elementId: _element, form: _form, ...rest } = t;
      return { ...rest, formId, responsible };
    });
    if (problems.length) throw refuse(described(problems, lang));

    // What the file does not say about the main form's fields stays as the draft has it.
    const current = locked.draft as ProtocolDefinition;
    // The parties (their forms, attestations and deadlines) are not in a BPMN file: the draft's stay.
    const settings = converted.settings ?? {
      duplicateFields: current.duplicateFields ?? [],
      requiredDocumentsField: current.requiredDocumentsField ?? null,
      pendingColumns: current.pendingColumns,
      awardCaps: current.awardCaps ?? null,
    };
    let def: ProtocolDefinition;
    try {
      def = parseProtocolDefinition({ start: converted.start, tasks, ...settings, parties: current.parties ?? [] });
    } catch (e) {
      if (!(e instanceof ProtocolDefinitionError)) throw e;
      const elementOf = new Map(converted.tasks.map((t) => [t.code, t.elementId]));
      throw refuse(
        e.problems.map((p) => {
          const code = /^tasks\.([^.]+)/.exec(p.path)?.[1];
          const element = (code && elementOf.get(code)) || p.path;
          return { path: element, message: translate(lang, 'bpmn.inElement', { id: element, message: { key: p.reason, params: p.params } }) };
        }),
      );
    }
    if (unsupported.length && !options.drop) throw new AppError('UNPROCESSABLE', {}, unsupported);
    await replaceDraft(trx, actor, id, await checkProtocolDefinition(trx, actor, def, lang));
    return converted.unsupported.map((u) => ({ id: u.id, type: u.type, message: translate(lang, u.reason, u.params) }));
  });
}
