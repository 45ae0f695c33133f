/**
 * The users API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which takes its types from them
 * through `Wire`).
 */
import { z } from 'zod';
import { listQuery, listResponse } from './list.js';

/**
 * What an actor may do on one user (the users module's policy.ts decides;
 * the web shows buttons from it). Nobody deletes, deactivates or changes
 * the role of their own account; only a super-admin changes, deletes or
 * sends a reset link to a user who holds a super-admin role.
 */
export const USER_ACTIONS = ['edit', 'changeRole', 'deactivate', 'delete', 'resetLink', 'unlock'] as const;
export type UserActionName = (typeof USER_ACTIONS)[number];

/** One user of the tenant (GET /api/users, /api/users/blocked, /api/users/:id). */
export const userSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  docnumber: z.string().nullable(),
  roleId: z.number(),
  roleName: z.string(),
  active: z.boolean(),
  locked: z.boolean(),
  lockedAt: z.date().nullable(),
  failedLogins: z.number(),
  language: z.enum(['en', 'es']),
  timeZone: z.string(),
  createdAt: z.date(),
  actions: z.array(z.enum(USER_ACTIONS)),
});
export const userListQuery = listQuery(['name', 'email', 'created_at', 'locked_at']).extend({
  locked: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
export const blockedUserListQuery = listQuery(['name', 'email', 'locked_at']);
export const userListSchema = listResponse(userSchema);

/** A role a user may be given by the caller. */
export const roleOptionSchema = z.object({ id: z.number(), code: z.string(), name: z.string(), superAdmin: z.boolean() });

/** GET /api/entity/plan: accounts used of the allowed number, disk used of the quota. */
export const planSchema = z.object({ plan: z.number(), accountLimit: z.number(), accountsUsed: z.number(), diskQuotaMb: z.number(), diskUsedMb: z.number() });

export const resetLinkSentSchema = z.object({ message: z.string() });
