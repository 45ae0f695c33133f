/**
 * The teams API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which takes its types from them
 * through `Wire`).
 */
import { z } from 'zod';
import { listQuery, listResponse } from './list.js';

export const TEAM_ASSIGNMENTS = ['round_robin', 'least_loaded'] as const;
export const TEAM_MEMBER_ROLES = ['leader', 'member'] as const;

/** A team, with its active members and open tasks counted. */
export const teamSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  assignment: z.enum(TEAM_ASSIGNMENTS),
  active: z.boolean(),
  members: z.number(),
  openTasks: z.number(),
});
export const teamListQuery = listQuery(['name']);
export const teamListSchema = listResponse(teamSchema);

/** One membership: a user in a team, as leader or member. */
export const teamMemberSchema = z.object({
  id: z.number(),
  teamId: z.number(),
  teamName: z.string(),
  userId: z.number(),
  userName: z.string(),
  userEmail: z.string(),
  role: z.enum(TEAM_MEMBER_ROLES),
  active: z.boolean(),
});
export const teamMemberListQuery = listQuery(['user_name', 'team_name']).extend({ teamId: z.coerce.number().int().positive().optional() });
export const teamMemberListSchema = listResponse(teamMemberSchema);

/** An active user of the tenant who can join a team. */
export const teamUserOptionSchema = z.object({ id: z.number(), name: z.string(), email: z.string() });
