import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Db } from '../../server/db/pool.js';
import { hash } from '@node-rs/argon2';
import { createRoleWithRules, seedEntityAcl } from '../../server/db/seed/acl.js';
import { seedEntityMasters } from '../../server/db/seed/masters.js';
import { seedEntityMailTemplates } from '../../server/db/seed/templates.js';
import type { Entities, Projects, Users } from '../../server/db/types.js';

/** Row factories: each call makes a new, unique row; tests say only what matters to them. */
const unique = () => randomBytes(4).toString('hex');

/** A tenant with what every tenant starts with: the permission catalogue, system roles and masters. */
export async function makeEntity(db: Db, overrides: Partial<Insertable<Entities>> = {}) {
  const u = unique();
  const entity = await db
    .insertInto('entities')
    .values({ docnumber: `9${parseInt(u, 16)}`, name: `Agency ${u}`, ...overrides })
    .returningAll()
    .executeTakeFirstOrThrow();
  await seedEntityAcl(db, entity.id);
  await seedEntityMasters(db, entity.id);
  await seedEntityMailTemplates(db, entity.id);
  return entity;
}

/** A user with the given role code in the tenant (created with its rules when it does not exist). */
export async function makeUser(
  db: Db,
  entityId: number,
  options: { role?: string; rules?: Parameters<typeof createRoleWithRules>[2]['rules']; password?: string } & Partial<Insertable<Users>> = {},
) {
  const { role = 'invitado', rules, password = 'Passw0rd1', ...overrides } = options;
  let roleRow = await db.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', role).select('id').executeTakeFirst();
  if (!roleRow) roleRow = { id: await createRoleWithRules(db, entityId, { code: role, name: role, description: '', rules: rules ?? {} }) };
  const u = unique();
  return db
    .insertInto('users')
    .values({ entity_id: entityId, email: `user-${u}@example.test`, name: `User ${u}`, role_id: roleRow.id, password_hash: await hash(password), ...overrides })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeProject(db: Db, overrides: Partial<Insertable<Projects>> = {}) {
  const entityId = overrides.entity_id ?? (await makeEntity(db)).id;
  const u = unique();
  return db
    .insertInto('projects')
    .values({ uid: `p-${u}`, title: `Project ${u}`, ...overrides, entity_id: entityId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A form of the tenant with one version: a text field and a file field unless a definition is given. */
export async function makeForm(db: Db, entityId: number, options: { code?: string; definition?: Record<string, unknown> } = {}) {
  const u = unique();
  const definition = options.definition ?? {
    name: `Form ${u}`,
    fields: [
      { name: 'firstName', type: 'text', label: 'Nombre', label_en: 'First name' },
      { name: 'proof', type: 'file', label: 'Soporte', label_en: 'Proof' },
    ],
  };
  const form = await db
    .insertInto('forms')
    .values({ entity_id: entityId, code: options.code ?? `form-${u}`, name: String(definition.name ?? `Form ${u}`) })
    .returningAll()
    .executeTakeFirstOrThrow();
  const version = await db
    .insertInto('form_versions')
    .values({ entity_id: entityId, form_id: form.id, version: 1, definition: JSON.stringify(definition) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...form, versionId: version.id };
}

/** A protocol of the tenant published as version 1: one task without a form, for the case's owner, on its main form (made when not given). */
export async function makeProtocol(db: Db, entityId: number, options: { mainForm?: { id: number; versionId: number }; code?: string } = {}) {
  const u = unique();
  const mainForm = options.mainForm ?? (await makeForm(db, entityId));
  const draft = { start: ['review'], tasks: [{ code: 'review', name: 'Review', formId: null, responsible: { kind: 'owner' }, expirationDays: null, join: 'any', onAccept: [], onReject: null }] };
  const protocol = await db
    .insertInto('protocols')
    .values({ entity_id: entityId, code: options.code ?? `protocol-${u}`, name: `Protocol ${u}`, case_type: 'RADICACION_INTERNA', main_form_id: mainForm.id, draft: JSON.stringify(draft), published_version: 1 })
    .returningAll()
    .executeTakeFirstOrThrow();
  const version = await db
    .insertInto('protocol_versions')
    .values({ entity_id: entityId, protocol_id: protocol.id, version: 1, definition: JSON.stringify({ ...draft, mainFormVersionId: mainForm.versionId }) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...protocol, versionId: version.id, formVersionId: mainForm.versionId };
}

type CaseState = import('../../core/workflow/states.js').CaseState;

/**
 * A case of the protocol's tenant, owned by `ownerId`: a draft unless another
 * state is given (a case past the draft gets a number). Its participants are
 * added when given. No tasks are started.
 */
export async function makeCase(
  db: Db,
  protocol: { id: number; entity_id: number; versionId: number; formVersionId: number; case_type: string },
  options: { ownerId: number; projectId?: number; state?: CaseState; data?: Record<string, unknown>; participantIds?: number[] },
) {
  const projectId = options.projectId ?? (await makeProject(db, { entity_id: protocol.entity_id })).id;
  const state: CaseState = options.state ?? 'DRAFT';
  const u = unique();
  const c = await db
    .insertInto('cases')
    .values({
      entity_id: protocol.entity_id, project_id: projectId, protocol_id: protocol.id, protocol_version_id: protocol.versionId, form_version_id: protocol.formVersionId,
      owner_id: options.ownerId, case_type: protocol.case_type, state, data: JSON.stringify(options.data ?? {}),
      ...(state === 'DRAFT' ? {} : { serial: `2026-01-${u}`, serial_month: '2026-01', serial_seq: parseInt(u.slice(0, 7), 16) }),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (options.participantIds?.length) {
    await db.insertInto('case_participants').values(options.participantIds.map((user_id) => ({ case_id: c.id, user_id, entity_id: c.entity_id }))).execute();
  }
  return c;
}

/** A file row uploaded by `createdBy` in the tenant (nothing on disk: enough for links and their rules). */
export async function makeFile(db: Db, entityId: number, createdBy: number | null, overrides: { name?: string; public?: boolean } = {}) {
  return db
    .insertInto('files')
    .values({ id: crypto.randomUUID(), entity_id: entityId, name: 'proof.pdf', extension: 'pdf', mime: 'application/pdf', size: 10, sha256: '0'.repeat(64), public: false, created_by: createdBy, ...overrides })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A team of the tenant (least loaded, active unless told). */
export async function makeTeam(db: Db, entityId: number, overrides: { name?: string; assignment?: 'round_robin' | 'least_loaded'; active?: boolean; description?: string } = {}) {
  return db
    .insertInto('teams')
    .values({ name: `Team ${unique()}`, ...overrides, entity_id: entityId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A user's membership of a team (a member unless told). */
export async function makeTeamMember(db: Db, team: { id: number; entity_id: number }, userId: number, overrides: { role?: 'leader' | 'member'; active?: boolean } = {}) {
  return db
    .insertInto('team_members')
    .values({ role: 'member', ...overrides, entity_id: team.entity_id, team_id: team.id, user_id: userId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A published protocol whose cases run through the engine: its definition
 * checked and completed with the defaults as publishing does, frozen as
 * version 1 with its main form's version. One task 'review' for the case's
 * owner unless other tasks (without forms) are given; the main form is made
 * when not given.
 */
export async function makePublishedProtocol(
  db: Db,
  entityId: number,
  options: { mainForm?: { id: number; versionId: number }; start?: string[]; tasks?: Array<Record<string, unknown>>; parties?: Array<Record<string, unknown>>; freezeTaskForms?: boolean } = {},
) {
  const { parseProtocolDefinition } = await import('../../core/workflow/protocol.js');
  const u = unique();
  const mainForm = options.mainForm ?? (await makeForm(db, entityId));
  const draft = { start: options.start ?? ['review'], tasks: options.tasks ?? [{ code: 'review', name: 'Review', responsible: { kind: 'owner' } }], parties: options.parties ?? [] };
  const parsed = parseProtocolDefinition(draft);
  const formIds = options.freezeTaskForms ? [...new Set(parsed.tasks.flatMap((t) => (t.formId === null ? [] : [t.formId])))] : [];
  const current = new Map<number, number>();
  if (formIds.length) {
    const rows = await db
      .selectFrom('form_versions as v')
      .innerJoin('forms as f', 'f.id', 'v.form_id')
      .whereRef('v.version', '=', 'f.current_version')
      .where('f.entity_id', '=', entityId)
      .where('f.id', 'in', formIds)
      .select(['f.id as formId', 'v.id as versionId'])
      .execute();
    for (const r of rows) current.set(r.formId, r.versionId);
  }
  const definition = {
    ...parsed,
    mainFormVersionId: mainForm.versionId,
    tasks: options.freezeTaskForms ? parsed.tasks.map((t) => ({ ...t, formVersionId: t.formId === null ? undefined : current.get(t.formId) })) : parsed.tasks,
  };
  const protocol = await db
    .insertInto('protocols')
    .values({ entity_id: entityId, code: `protocol-${u}`, name: `Protocol ${u}`, case_type: 'RADICACION_INTERNA', main_form_id: mainForm.id, draft: JSON.stringify(draft), published_version: 1 })
    .returningAll()
    .executeTakeFirstOrThrow();
  const version = await db
    .insertInto('protocol_versions')
    .values({ entity_id: entityId, protocol_id: protocol.id, version: 1, definition: JSON.stringify(definition) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('form_versions').set({ in_use: true }).where('id', 'in', [mainForm.versionId, ...current.values()]).execute();
  return { ...protocol, versionId: version.id, formVersionId: mainForm.versionId };
}

/**
 * A task made by the engine, as people get them: a case of `protocol`
 * (makePublishedProtocol's, whose one task is for the case's owner, when
 * not given) owned by `ownerId` and submitted as the system, which starts
 * its first task. That task is then placed with `responsibleUserId` and
 * `teamId` when given (as an assignment would leave it), and accepted by the
 * system when `state` is 'ACCEPTED'.
 */
export async function makeTask(
  db: Db,
  entityId: number,
  options: { ownerId: number; protocol?: Awaited<ReturnType<typeof makePublishedProtocol>>; responsibleUserId?: number; teamId?: number | null; state?: 'PENDING' | 'ACCEPTED' },
) {
  // Imported here so that only the tests that make tasks load the engine.
  const { submitCase } = await import('../../server/modules/cases/commands.js');
  const { acceptTask } = await import('../../server/modules/workflow/engine.js');
  const env = { publicUrl: 'https://cases.example.org', smtpConfigured: false };
  const system = { system: true as const, entityId };
  const protocol = options.protocol ?? (await makePublishedProtocol(db, entityId));
  const c = await makeCase(db, protocol, { ownerId: options.ownerId });
  await submitCase(db, env, system, c.id);
  const first = await db.selectFrom('tasks').where('case_id', '=', c.id).orderBy('id').select('id').executeTakeFirstOrThrow();
  const placed: { responsible_user_id?: number; responsible_team_id?: number | null } = {};
  if (options.responsibleUserId !== undefined) placed.responsible_user_id = options.responsibleUserId;
  if (options.teamId !== undefined) placed.responsible_team_id = options.teamId;
  if (Object.keys(placed).length) await db.updateTable('tasks').set(placed).where('id', '=', first.id).execute();
  if (options.state === 'ACCEPTED') await acceptTask(db, env, system, first.id);
  return db.selectFrom('tasks').where('id', '=', first.id).selectAll().executeTakeFirstOrThrow();
}

/** A master of the tenant (no parent, private unless told). */
export async function makeMaster(db: Db, entityId: number, overrides: { code?: string; name?: string; public?: boolean; parent_id?: number | null; system?: boolean } = {}) {
  const u = unique();
  return db
    .insertInto('masters')
    .values({ code: `m${u}`, name: `Master ${u}`, ...overrides, entity_id: entityId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An item of a master (active, no parent unless told). */
export async function makeMasterItem(db: Db, master: { id: number; entity_id: number }, overrides: { code?: string; name?: string; name_en?: string; parent_item_id?: number | null; active?: boolean } = {}) {
  const u = unique();
  return db
    .insertInto('master_items')
    .values({ code: `i${u}`, name: `Item ${u}`, ...overrides, entity_id: master.entity_id, master_id: master.id })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A role of the tenant with its rules (target -> actions), not a system one. */
export async function makeRole(db: Db, entityId: number, options: { code?: string; name?: string; rules?: Parameters<typeof createRoleWithRules>[2]['rules'] } = {}) {
  const u = unique();
  const id = await createRoleWithRules(db, entityId, { code: options.code ?? `role-${u}`, name: options.name ?? `Role ${u}`, description: '', rules: options.rules ?? {} });
  return db.selectFrom('acl_roles').where('id', '=', id).selectAll().executeTakeFirstOrThrow();
}

/** An action of the tenant's permission catalogue, not a system one. */
export async function makeAclAction(db: Db, entityId: number, overrides: { code?: string; name?: string } = {}) {
  const u = unique();
  return db
    .insertInto('acl_actions')
    .values({ code: `action-${u}`, name: `Action ${u}`, ...overrides, entity_id: entityId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A published protocol whose tasks have forms, as publishing leaves it: like
 * makePublishedProtocol, and each task's form (`formId`) is frozen at its
 * current version (`formVersionId` in the version's definition, not in the
 * draft) and that version marked in use, so the engine gives the task its form.
 */
export function makePublishedProtocolWithForms(
  db: Db,
  entityId: number,
  options: { mainForm?: { id: number; versionId: number }; start: string[]; tasks: Array<Record<string, unknown>> },
) {
  return makePublishedProtocol(db, entityId, { ...options, freezeTaskForms: true });
}
