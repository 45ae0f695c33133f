/**
 * What changes tasks, as named verbs. The single-task verbs are the engine's
 * (workflow/engine.ts: accept, reject, restart, assign, save the form, an
 * ad-hoc task), each one transaction with the task locked through repo.ts (so
 * visibility holds) and checked by policy.ts; they are re-exported here so
 * REST, jobs and the seed find every task verb in one place. The bulk verbs
 * run the single-task verb on each task.
 */
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import type { Actor } from '../acl/policy.js';
import { assignTask, type EngineEnv, restartTask } from '../workflow/engine.js';

export { acceptTask, assignTask, createAdhocTask, rejectTask, restartTask, saveTaskData } from '../workflow/engine.js';

type Lang = 'en' | 'es';

/**
 * One by one, each in its own transaction: one task that cannot move does not
 * stop the others; why each of those could not is told in the caller's language.
 */
async function eachTask(ids: number[], run: (id: number) => Promise<unknown>, lang: Lang) {
  const done: number[] = [];
  const failed: Array<{ id: number; message: string }> = [];
  for (const id of ids) {
    try {
      await run(id);
      done.push(id);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      failed.push({ id, message: translate(lang, e.key, e.params) });
    }
  }
  return { done, failed };
}

/** Gives many tasks to a user or a team (task administration). */
export function bulkAssignTasks(db: Db, env: EngineEnv, actor: Actor, input: { ids: number[]; userId?: number; teamId?: number; lang: Lang }) {
  return eachTask(input.ids, (id) => assignTask(db, env, actor, id, { userId: input.userId, teamId: input.teamId }), input.lang);
}

/** Gives many decided tasks back to work (task administration). */
export function bulkRestartTasks(db: Db, env: EngineEnv, actor: Actor, input: { ids: number[]; lang: Lang }) {
  return eachTask(input.ids, (id) => restartTask(db, env, actor, id), input.lang);
}
