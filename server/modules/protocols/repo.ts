/**
 * The protocols' SQL. Every finder takes the actor (or, for the seed and
 * jobs, a system doer) and applies the tenant itself: a handler cannot reach
 * another tenant's protocol. Protocols have no record rules beyond the
 * tenant; the route's target (wf_protocolos) decides the rest. Rows are
 * mapped to the API's shapes here.
 */
import { sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { protocolBodySchema, protocolTasksQuery } from '../../../core/api/protocols.js';
import { PROTOCOL_TASK_GROUPS } from '../../../core/api/protocols.js';
import { type ProtocolDefinition, TASK_MAIL_EVENTS } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, paginate, type Page } from '../../lib/list.js';
import type { Actor, Doer } from '../acl/policy.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;
export type ProtocolBody = z.infer<typeof protocolBodySchema>;

/** Where the public page of a protocol is found: PUBLIC_URL/publico/<entity docnumber>/<code> (server/modules/public). */
export interface Urls {
  publicUrl: string;
}

// ---------------------------------------------------------------- reading

function protocols(db: Executor, doer: Doer) {
  return db
    .selectFrom('protocols as p')
    .innerJoin('forms as f', 'f.id', 'p.main_form_id')
    .where('p.entity_id', '=', doer.entityId)
    .select([
      'p.id', 'p.code', 'p.name', 'p.name_en', 'p.description', 'p.case_type', 'p.public', 'p.main_form_id', 'f.name as main_form_name', 'p.published_version', 'p.draft',
      'p.public_title_en', 'p.public_title_es', 'p.public_description_en', 'p.public_description_es', 'p.eligibility_en', 'p.eligibility_es',
      sql<number>`jsonb_array_length(p.draft->'tasks')`.as('tasks'),
      sql<number>`(select count(*) from cases c where c.protocol_id = p.id and c.state <> 'DRAFT')::int`.as('cases'),
    ]);
}
type ProtocolRow = Awaited<ReturnType<ReturnType<typeof protocols>['executeTakeFirstOrThrow']>>;

const summary = (actor: Actor, urls: Urls, p: ProtocolRow) => ({
  id: p.id,
  code: p.code,
  name: p.name,
  nameEn: p.name_en,
  description: p.description,
  caseType: p.case_type,
  public: p.public,
  mainFormId: p.main_form_id,
  mainFormName: p.main_form_name,
  publishedVersion: p.published_version,
  tasks: p.tasks,
  cases: p.cases,
  publicUrl: `${urls.publicUrl}/publico/${encodeURIComponent(actor.entity.docnumber)}/${p.code}`,
});

/** The protocol's public page texts (`/publico/{entity}/{code}`), as the editor shows them. */
const publicPageOf = (p: ProtocolRow) => ({
  titleEn: p.public_title_en,
  titleEs: p.public_title_es,
  descriptionEn: p.public_description_en,
  descriptionEs: p.public_description_es,
  eligibilityEn: p.eligibility_en,
  eligibilityEs: p.eligibility_es,
});

/** A protocol of the doer's tenant; NOT_FOUND otherwise. */
export async function findProtocol(db: Executor, doer: Doer, id: number): Promise<ProtocolRow> {
  const p = await protocols(db, doer).where('p.id', '=', id).executeTakeFirst();
  if (!p) throw new AppError('NOT_FOUND');
  return p;
}

export async function listProtocols(db: Db, actor: Actor, urls: Urls, query: Page & { search?: string; sortBy?: 'name' | 'code'; descending?: boolean }) {
  const { search, sortBy = 'name', descending } = query;
  let q = protocols(db, actor);
  if (search) q = q.where((eb) => eb.or([eb('p.name', 'ilike', containsPattern(search)), eb('p.name_en', 'ilike', containsPattern(search)), eb('p.code', 'ilike', containsPattern(search))]));
  q = q.orderBy(`p.${sortBy}`, descending ? 'desc' : 'asc').orderBy('p.id');
  const { rows, total } = await paginate(q, query);
  return { items: rows.map((r) => summary(actor, urls, r)), total };
}

/** The definition without what publishing adds (frozen form versions), to compare a draft with a version. */
const unfrozen = (d: unknown) =>
  JSON.stringify({
    ...(d as object),
    mainFormVersionId: undefined,
    tasks: (d as ProtocolDefinition).tasks.map((t) => ({ ...t, formVersionId: undefined })),
    parties: ((d as ProtocolDefinition).parties ?? []).map((p) => ({ ...p, formVersionId: undefined })),
  });

/** A protocol with its draft, its published versions, and whether the draft differs from the published one. */
export async function protocolDetail(db: Db, actor: Actor, urls: Urls, id: number) {
  const p = await findProtocol(db, actor, id);
  const versions = await db
    .selectFrom('protocol_versions as v')
    .leftJoin('users as u', 'u.id', 'v.published_by')
    .where('v.protocol_id', '=', p.id)
    .where('v.entity_id', '=', actor.entityId)
    .select(['v.version', 'v.published_at', 'u.name', 'v.definition'])
    .orderBy('v.version', 'desc')
    .execute();
  const published = versions.find((v) => v.version === p.published_version);
  return {
    ...summary(actor, urls, p),
    publicPage: publicPageOf(p),
    definition: p.draft,
    versions: versions.map((v) => ({ version: v.version, publishedAt: v.published_at, publishedBy: v.name })),
    changedSincePublished: !published || unfrozen(published.definition) !== unfrozen(p.draft),
  };
}

/** A protocol's tasks in one state group, newest first, with the count of every group. */
export async function protocolTasks(db: Db, actor: Actor, id: number, query: z.infer<typeof protocolTasksQuery>) {
  const p = await findProtocol(db, actor, id);
  const ofProtocol = db
    .selectFrom('tasks as t')
    .innerJoin('cases as c', 'c.id', 't.case_id')
    .where('c.protocol_id', '=', p.id)
    .where('t.entity_id', '=', actor.entityId);
  const counts = await ofProtocol
    .where('t.state', 'in', [...PROTOCOL_TASK_GROUPS])
    .select(['t.state', sql<number>`count(*)::int`.as('n')])
    .groupBy('t.state')
    .execute();
  const q = ofProtocol
    .leftJoin('users as u', 'u.id', 't.responsible_user_id')
    .leftJoin('teams as tm', 'tm.id', 't.responsible_team_id')
    .where('t.state', '=', query.state)
    .select(['t.id', 't.code', 't.name', 't.case_id', 'c.serial', 'u.name as responsible_name', 'tm.name as team_name', 't.due_at', 't.overdue'])
    .orderBy('t.id', 'desc');
  const { rows, total } = await paginate(q, query);
  return {
    counts: Object.fromEntries(PROTOCOL_TASK_GROUPS.map((s) => [s, counts.find((c) => c.state === s)?.n ?? 0])),
    items: rows.map((r) => ({ id: r.id, code: r.code, name: r.name, caseId: r.case_id, caseNumber: r.serial, responsibleName: r.responsible_name, teamName: r.team_name, dueAt: r.due_at, overdue: r.overdue })),
    total,
  };
}

// ---------------------------------------------------------------- what a definition names

/** Which of these ids are forms, teams or users of the doer's tenant. */
export async function knownIds(db: Executor, doer: Doer, table: 'forms' | 'teams' | 'users', ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom(table).where('entity_id', '=', doer.entityId).where('id', 'in', ids).select('id').execute();
  return new Set(rows.map((r) => r.id));
}

/** The tenant's email templates of the task events and its roles, for the task dialog's choices. */
export async function taskOptions(db: Executor, doer: Doer) {
  const [templates, roles] = await Promise.all([
    db
      .selectFrom('mail_templates')
      .where('entity_id', '=', doer.entityId)
      .where('event', 'in', [...TASK_MAIL_EVENTS])
      .select(['id', 'name', 'event', 'is_default'])
      .orderBy('name')
      .limit(500)
      .execute(),
    db.selectFrom('acl_roles').where('entity_id', '=', doer.entityId).select(['code', 'name']).orderBy('name').limit(500).execute(),
  ]);
  return { templates: templates.map((t) => ({ id: t.id, name: t.name, event: t.event, isDefault: t.is_default })), roles };
}

/** The event of each of `ids` that is an email template of the actor's tenant. */
export async function templateEvents(db: Executor, doer: Doer, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('mail_templates').where('entity_id', '=', doer.entityId).where('id', 'in', ids).select(['id', 'event']).execute();
  return new Map(rows.map((r) => [r.id, r.event]));
}

/** Which of `codes` are role codes of the actor's tenant. */
export async function knownRoleCodes(db: Executor, doer: Doer, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await db.selectFrom('acl_roles').where('entity_id', '=', doer.entityId).where('code', 'in', codes).select('code').execute();
  return new Set(rows.map((r) => r.code));
}

/** Refuses a main form that is not a form of the actor's tenant. */
export async function assertMainForm(db: Executor, doer: Doer, formId: number): Promise<void> {
  if (!(await knownIds(db, doer, 'forms', [formId])).has(formId)) throw new AppError('VALIDATION', {}, [{ path: 'mainFormId', message: 'validation.chooseOption' }]);
}

/** The tenant's teams by name and users by lower-cased email: how an imported protocol names its responsibles. */
export async function responsiblesByName(db: Executor, doer: Doer) {
  const [teams, users] = await Promise.all([
    db.selectFrom('teams').where('entity_id', '=', doer.entityId).select(['id', 'name']).execute(),
    db.selectFrom('users').where('entity_id', '=', doer.entityId).select(['id', 'email']).execute(),
  ]);
  return { teamsByName: new Map(teams.map((x) => [x.name, x.id])), usersByEmail: new Map(users.map((x) => [x.email.toLowerCase(), x.id])) };
}

// ---------------------------------------------------------------- writing

const columns = (b: Omit<ProtocolBody, 'definition'>, draft: ProtocolDefinition) => ({
  code: b.code, name: b.name, description: b.description, case_type: b.caseType, public: b.public, main_form_id: b.mainFormId, draft: JSON.stringify(draft),
  ...(b.nameEn !== undefined && { name_en: b.nameEn }),
  // A body without the public page leaves the saved one as it is.
  ...(b.publicPage && {
    public_title_en: b.publicPage.titleEn,
    public_title_es: b.publicPage.titleEs,
    public_description_en: b.publicPage.descriptionEn,
    public_description_es: b.publicPage.descriptionEs,
    eligibility_en: b.publicPage.eligibilityEn,
    eligibility_es: b.publicPage.eligibilityEs,
  }),
});

export async function insertProtocol(trx: Trx, doer: Doer, b: Omit<ProtocolBody, 'definition'>, draft: ProtocolDefinition): Promise<number> {
  const row = await trx.insertInto('protocols').values({ ...columns(b, draft), entity_id: doer.entityId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProtocol(trx: Trx, doer: Doer, id: number, b: Omit<ProtocolBody, 'definition'>, draft: ProtocolDefinition): Promise<void> {
  const res = await trx.updateTable('protocols').set({ ...columns(b, draft), updated_at: new Date() }).where('id', '=', id).where('entity_id', '=', doer.entityId).executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw new AppError('NOT_FOUND');
}

/** Deletes a protocol of the actor's tenant that no case uses (IN_USE otherwise). */
export async function deleteProtocol(db: Db, actor: Actor, id: number): Promise<void> {
  const p = await findProtocol(db, actor, id);
  const anyCase = await db.selectFrom('cases').where('protocol_id', '=', p.id).select('id').executeTakeFirst();
  if (anyCase) throw new AppError('IN_USE');
  await db.deleteFrom('protocols').where('id', '=', p.id).where('entity_id', '=', actor.entityId).execute();
}

export async function formCodesOf(trx: Trx, doer: Doer): Promise<Set<string>> {
  return new Set((await trx.selectFrom('forms').where('entity_id', '=', doer.entityId).select('code').execute()).map((x) => x.code));
}

// ---------------------------------------------------------------- publishing

/** The protocol's draft, locked for publishing; NOT_FOUND outside the doer's tenant. */
export async function lockProtocol(trx: Trx, doer: Doer, id: number) {
  const p = await trx.selectFrom('protocols').where('id', '=', id).where('entity_id', '=', doer.entityId).select(['id', 'draft', 'main_form_id']).forUpdate().executeTakeFirst();
  if (!p) throw new AppError('NOT_FOUND');
  return p;
}

/** The current version id of each of these forms of the tenant, by form id. */
export async function currentFormVersions(trx: Trx, doer: Doer, formIds: number[]): Promise<Map<number, number>> {
  const rows = await trx
    .selectFrom('forms as f')
    .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
    .where('f.entity_id', '=', doer.entityId)
    .where('f.id', 'in', formIds)
    .select(['f.id as form_id', 'v.id'])
    .execute();
  return new Map(rows.map((v) => [v.form_id, v.id]));
}

/** Form versions a published protocol points at: their form's next save makes a new version. */
export async function markFormVersionsInUse(trx: Trx, doer: Doer, versionIds: number[]): Promise<void> {
  if (versionIds.length === 0) return;
  await trx.updateTable('form_versions').set({ in_use: true }).where('entity_id', '=', doer.entityId).where('id', 'in', versionIds).execute();
}

/** Adds the next numbered version of a locked protocol and makes it the published one. */
export async function addProtocolVersion(trx: Trx, doer: Doer, protocolId: number, frozen: ProtocolDefinition, publishedBy: number | null): Promise<number> {
  const next = await trx
    .selectFrom('protocol_versions')
    .where('protocol_id', '=', protocolId)
    .select(sql<number>`coalesce(max(version), 0) + 1`.as('n'))
    .executeTakeFirstOrThrow();
  await trx.insertInto('protocol_versions').values({ entity_id: doer.entityId, protocol_id: protocolId, version: next.n, definition: JSON.stringify(frozen), published_by: publishedBy }).execute();
  await trx.updateTable('protocols').set({ published_version: next.n, updated_at: new Date() }).where('id', '=', protocolId).where('entity_id', '=', doer.entityId).execute();
  return next.n;
}

// ---------------------------------------------------------------- export

/** The protocol as one file: its forms by code (current versions), its responsibles by team name and user email. */
export async function protocolFile(db: Db, actor: Actor, id: number) {
  const p = await findProtocol(db, actor, id);
  const def = p.draft as ProtocolDefinition;
  const formIds = [...new Set([p.main_form_id, ...def.tasks.map((t) => t.formId).filter((x): x is number => x !== null)])];
  const forms = await db
    .selectFrom('forms as f')
    .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
    .where('f.id', 'in', formIds)
    .where('f.entity_id', '=', actor.entityId)
    .select(['f.id', 'f.code', 'v.definition'])
    .execute();
  const formCode = new Map(forms.map((f) => [f.id, f.code]));
  const teamIds = def.tasks.flatMap((t) => (t.responsible.kind === 'team' ? [t.responsible.teamId] : []));
  const userIds = def.tasks.flatMap((t) => (t.responsible.kind === 'user' ? [t.responsible.userId] : []));
  const teams = teamIds.length ? await db.selectFrom('teams').where('id', 'in', teamIds).where('entity_id', '=', actor.entityId).select(['id', 'name']).execute() : [];
  const users = userIds.length ? await db.selectFrom('users').where('id', 'in', userIds).where('entity_id', '=', actor.entityId).select(['id', 'email']).execute() : [];
  return {
    code: p.code,
    file: {
      format: 'casebook-protocol' as const,
      formatVersion: 1 as const,
      protocol: {
        code: p.code, name: p.name, nameEn: p.name_en, description: p.description, caseType: p.case_type, public: p.public, mainForm: formCode.get(p.main_form_id) as string, publicPage: publicPageOf(p),
        // Form ids become form codes; team and user ids are named in `teams` and `users`.
        definition: { ...def, mainFormVersionId: undefined, tasks: def.tasks.map((t) => ({ ...t, formVersionId: undefined, formId: t.formId === null ? null : formCode.get(t.formId) })) },
      },
      forms: forms.map((f) => ({ code: f.code, definition: f.definition })),
      teams: Object.fromEntries(teams.map((x) => [String(x.id), x.name])),
      users: Object.fromEntries(users.map((x) => [String(x.id), x.email])),
    },
  };
}

// ---------------------------------------------------------------- BPMN

/**
 * A version's definition (the draft without `version`) with the names of what
 * it points at: form codes, team names, user emails. NOT_FOUND for another
 * tenant's protocol or a version it does not have.
 */
export async function bpmnExportSource(db: Db, actor: Actor, id: number, version: number | undefined) {
  const p = await findProtocol(db, actor, id);
  let def = p.draft as ProtocolDefinition;
  if (version !== undefined) {
    const v = await db.selectFrom('protocol_versions').where('protocol_id', '=', p.id).where('entity_id', '=', actor.entityId).where('version', '=', version).select('definition').executeTakeFirst();
    if (!v) throw new AppError('NOT_FOUND');
    def = v.definition as ProtocolDefinition;
  }
  const formIds = [...new Set(def.tasks.flatMap((t) => (t.formId === null ? [] : [t.formId])))];
  const teamIds = [...new Set(def.tasks.flatMap((t) => (t.responsible.kind === 'team' ? [t.responsible.teamId] : [])))];
  const userIds = [...new Set(def.tasks.flatMap((t) => (t.responsible.kind === 'user' ? [t.responsible.userId] : [])))];
  const [forms, teams, users] = await Promise.all([
    formIds.length ? db.selectFrom('forms').where('entity_id', '=', actor.entityId).where('id', 'in', formIds).select(['id', 'code']).execute() : [],
    teamIds.length ? db.selectFrom('teams').where('entity_id', '=', actor.entityId).where('id', 'in', teamIds).select(['id', 'name']).execute() : [],
    userIds.length ? db.selectFrom('users').where('entity_id', '=', actor.entityId).where('id', 'in', userIds).select(['id', 'email']).execute() : [],
  ]);
  return {
    protocol: { code: p.code, name: p.name, nameEn: p.name_en },
    definition: def,
    names: {
      forms: new Map(forms.map((f) => [f.id, f.code])),
      teams: new Map(teams.map((x) => [x.id, x.name])),
      users: new Map(users.map((x) => [x.id, x.email])),
    },
  };
}

/** The tenant's forms by code. */
export async function formIdsByCode(db: Executor, doer: Doer, codes: string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db.selectFrom('forms').where('entity_id', '=', doer.entityId).where('code', 'in', codes).select(['id', 'code']).execute();
  return new Map(rows.map((r) => [r.code, r.id]));
}

/** Replaces the draft of a protocol locked by lockProtocol; its settings stay as they are. */
export async function replaceDraft(trx: Trx, doer: Doer, id: number, draft: ProtocolDefinition): Promise<void> {
  const res = await trx.updateTable('protocols').set({ draft: JSON.stringify(draft), updated_at: new Date() }).where('id', '=', id).where('entity_id', '=', doer.entityId).executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw new AppError('NOT_FOUND');
}
