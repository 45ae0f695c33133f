import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/app.js';
import { makeEntity, makeTask, makeTeam, makeTeamMember, makeUser } from '../../../tests/support/factories.js';
import { type DbHandle, openDb } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { actorForUser } from '../auth/sessions.js';
import { acceptTask, assignTask, type EngineEnv, restartTask } from '../workflow/engine.js';
import { findTaskDetail, listTasks, lockTask } from './repo.js';

/**
 * The task policy as a table: role x relation to the task x action -> 'ok'
 * or the refusal's code, each row acted out through the engine's commands
 * and the finders (what REST, jobs and the seed all call), on a task made
 * for it by factories. Where the actor may read the task, the actions sent
 * with it must say the same as the command.
 *
 * Relations: the task's responsible user; an active member of its team; the
 * leader of its team; none of these (the case is another person's). Another
 * user of the tenant is the responsible in every relation but the first.
 */
const RULES = {
  // Task administration on top of a reviewer's rights.
  admin: { wf_tareas: ['show', 'update', 'accept', 'reject'], admintasks: ['show', 'update', 'restart_task'], menutareas: ['show'] },
  // Decides the tasks of its teams; restart_task lets it give back its own decided tasks.
  reviewer: { wf_tareas: ['show', 'update', 'accept', 'reject', 'restart_task'], menutareas: ['show'], wf_casos: ['show'] },
  // No task rights: sees its own cases, and a task only when it is its own or its team's.
  applicant: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
} as const;
type Role = keyof typeof RULES;
type Relation = 'responsible' | 'member' | 'leader' | 'none';
type Action = 'decide' | 'restart' | 'assign' | 'read';

const TABLE: Array<[Role, Relation, Action, string]> = [
  ['admin', 'responsible', 'decide', 'ok'],
  ['admin', 'responsible', 'restart', 'ok'],
  ['admin', 'responsible', 'assign', 'ok'],
  ['admin', 'responsible', 'read', 'ok'],
  ['admin', 'member', 'decide', 'ok'],
  ['admin', 'member', 'restart', 'ok'],
  ['admin', 'member', 'assign', 'ok'],
  ['admin', 'member', 'read', 'ok'],
  ['admin', 'leader', 'decide', 'ok'],
  ['admin', 'leader', 'restart', 'ok'],
  ['admin', 'leader', 'assign', 'ok'],
  ['admin', 'leader', 'read', 'ok'],
  ['admin', 'none', 'decide', 'ok'],
  ['admin', 'none', 'restart', 'ok'],
  ['admin', 'none', 'assign', 'ok'],
  ['admin', 'none', 'read', 'ok'],

  ['reviewer', 'responsible', 'decide', 'ok'],
  ['reviewer', 'responsible', 'restart', 'ok'],
  ['reviewer', 'responsible', 'assign', 'ok'],
  ['reviewer', 'responsible', 'read', 'ok'],
  ['reviewer', 'member', 'decide', 'ok'],
  ['reviewer', 'member', 'restart', 'ok'],
  ['reviewer', 'member', 'assign', 'FORBIDDEN'],
  ['reviewer', 'member', 'read', 'ok'],
  ['reviewer', 'leader', 'decide', 'ok'],
  ['reviewer', 'leader', 'restart', 'ok'],
  ['reviewer', 'leader', 'assign', 'ok'],
  ['reviewer', 'leader', 'read', 'ok'],
  ['reviewer', 'none', 'decide', 'TASK_NOT_YOURS'],
  ['reviewer', 'none', 'restart', 'FORBIDDEN'],
  ['reviewer', 'none', 'assign', 'FORBIDDEN'],
  ['reviewer', 'none', 'read', 'ok'],

  ['applicant', 'responsible', 'decide', 'FORBIDDEN'],
  ['applicant', 'responsible', 'restart', 'FORBIDDEN'],
  ['applicant', 'responsible', 'assign', 'FORBIDDEN'],
  ['applicant', 'responsible', 'read', 'ok'],
  ['applicant', 'member', 'decide', 'FORBIDDEN'],
  ['applicant', 'member', 'restart', 'FORBIDDEN'],
  ['applicant', 'member', 'assign', 'FORBIDDEN'],
  ['applicant', 'member', 'read', 'ok'],
  ['applicant', 'leader', 'decide', 'FORBIDDEN'],
  ['applicant', 'leader', 'restart', 'FORBIDDEN'],
  ['applicant', 'leader', 'assign', 'ok'],
  ['applicant', 'leader', 'read', 'ok'],
  ['applicant', 'none', 'decide', 'NOT_FOUND'],
  ['applicant', 'none', 'restart', 'NOT_FOUND'],
  ['applicant', 'none', 'assign', 'NOT_FOUND'],
  ['applicant', 'none', 'read', 'NOT_FOUND'],
];

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let h: DbHandle;
let entityId: number;
/** The case's owner (the task's case is never the actor's) and the responsible when the actor is not. */
let owner: number;
let worker: number;
const env: EngineEnv = { publicUrl: 'https://cases.example.org', smtpConfigured: false };

beforeAll(async () => {
  database = await createTestDatabase();
  h = openDb(database.url, { max: 5 });
  entityId = (await makeEntity(h.db)).id;
  owner = (await makeUser(h.db, entityId, { role: 'applicant', rules: RULES.applicant as never })).id;
  worker = (await makeUser(h.db, entityId, { role: 'reviewer', rules: RULES.reviewer as never })).id;
});
afterAll(async () => {
  await h?.close();
  await database?.drop();
});

const outcome = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
};

/** A task standing to a new user of `role` as `relation`: pending, or decided for a restart. */
async function setUp(role: Role, relation: Relation, action: Action): Promise<{ actor: Actor; taskId: number }> {
  const user = (await makeUser(h.db, entityId, { role, rules: RULES[role] as never })).id;
  const team = await makeTeam(h.db, entityId);
  await makeTeamMember(h.db, team, worker);
  if (relation === 'member' || relation === 'leader') await makeTeamMember(h.db, team, user, { role: relation });
  const task = await makeTask(h.db, entityId, {
    ownerId: owner,
    responsibleUserId: relation === 'responsible' ? user : worker,
    teamId: team.id,
    state: action === 'restart' ? 'ACCEPTED' : 'PENDING',
  });
  return { actor: await actorForUser(h.db, user), taskId: task.id };
}

const DETAIL_ACTION = { decide: 'accept', restart: 'restart', assign: 'assign' } as const;

describe('the task policy', () => {
  it.each(TABLE)('%s, %s of the task: %s -> %s', async (role, relation, action, expected) => {
    const { actor, taskId } = await setUp(role, relation, action);
    const state = async () => (await h.db.selectFrom('tasks').where('id', '=', taskId).select(['state', 'responsible_user_id']).executeTakeFirstOrThrow());
    const before = await state();

    if (action === 'read') {
      expect(await outcome(findTaskDetail(h.db, actor, taskId))).toBe(expected);
      const listed = (await listTasks(h.db, actor, { page: 1, limit: 20, sortBy: 'created_at' })).items.map((x) => x.id);
      expect(listed.includes(taskId)).toBe(expected === 'ok');
      return;
    }

    // What the task's page would show, when the actor may read it: the same answer as the command.
    const detail = await findTaskDetail(h.db, actor, taskId).catch(() => null);
    if (detail) expect(detail.actions.includes(DETAIL_ACTION[action])).toBe(expected === 'ok');
    else expect(expected).toBe('NOT_FOUND');

    const run =
      action === 'decide'
        ? acceptTask(h.db, env, actor, taskId, { data: {} })
        : action === 'restart'
          ? restartTask(h.db, env, actor, taskId)
          : assignTask(h.db, env, actor, taskId, { userId: owner });
    expect(await outcome(run)).toBe(expected);

    const after = await state();
    if (expected !== 'ok') expect(after).toEqual(before);
    else if (action === 'decide') expect(after.state).toBe('ACCEPTED');
    else if (action === 'restart') expect(after.state).toBe('PENDING');
    else expect(after.responsible_user_id).toBe(owner);
  });
});

describe('the system', () => {
  it('locks any task of its tenant, and none of another', async () => {
    const task = await makeTask(h.db, entityId, { ownerId: owner });
    const other = (await makeEntity(h.db)).id;
    const lock = (tenant: number) => h.db.transaction().execute((trx) => lockTask(trx, { system: true, entityId: tenant }, task.id));
    expect(await outcome(lock(entityId))).toBe('ok');
    expect(await outcome(lock(other))).toBe('NOT_FOUND');
  });
});
