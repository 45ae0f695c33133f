/**
 * What changes teams across tables, as named verbs, one transaction each:
 * deleting a team (refused while a protocol names it or it holds open
 * tasks) and adding a member (the team and the user must be the tenant's).
 * Single-table writes (save a team, change or remove a membership) are
 * repo.ts functions.
 */
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import type { Doer } from '../acl/policy.js';
import { insertMember, isTeamOfTenant, isUserOfTenant, lockTeam, protocolsNameTeam, removeTeam } from './repo.js';
import type { MemberBody } from './schema.js';

/** Deletes a team nobody relies on; a team that protocols name or that holds open tasks stays (deactivate it instead). */
export function deleteTeam(db: Db, doer: Doer, teamId: number): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const team = await lockTeam(trx, doer, teamId);
    if (team.openTasks > 0 || (await protocolsNameTeam(trx, doer, team.id))) throw new AppError('IN_USE');
    await removeTeam(trx, doer, team.id);
  });
}

/** Puts a user of the tenant in a team of the tenant; returns the membership's id. */
export function addMember(db: Db, doer: Doer, member: MemberBody): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The team is held (FOR SHARE) so it cannot be deleted under the new membership.
    const team = await isTeamOfTenant(trx, doer, member.teamId);
    const user = await isUserOfTenant(trx, doer, member.userId);
    if (!team) throw new AppError('VALIDATION', {}, [{ path: 'teamId', message: 'validation.chooseOption' }]);
    if (!user) throw new AppError('VALIDATION', {}, [{ path: 'userId', message: 'validation.chooseOption' }]);
    return insertMember(trx, doer, member);
  });
}
