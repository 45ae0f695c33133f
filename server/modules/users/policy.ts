/**
 * Who may do what to a user of the tenant. Routes check their target first
 * (`acl_usuarios`, `dashboard_blocked_users`); these answer for one user:
 * nobody deletes, deactivates or changes the role of their own account; a
 * super-admin role is given only by a super-admin; and a user holding a
 * super-admin role is changed, deleted or sent a reset link only by a
 * super-admin (otherwise an administrator could give such an account their
 * own email and take it over). The tenant is applied by repo.ts.
 */
import type { UserActionName } from '../../../core/api/users.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';

/** The user acted on: who, and whether their role is a super-admin one. */
export interface UserRecord {
  id: number;
  superAdmin: boolean;
}

export function userActions(actor: Actor, u: UserRecord): UserActionName[] {
  if (u.superAdmin && !actor.role.superAdmin) return [];
  const self = u.id === actor.userId;
  const out: UserActionName[] = [];
  if (can(actor, 'acl_usuarios', 'update')) {
    out.push('edit');
    if (!self) out.push('changeRole', 'deactivate');
  }
  if (can(actor, 'acl_usuarios', 'delete') && !self) out.push('delete');
  if (can(actor, 'acl_usuarios', 'update')) out.push('resetLink');
  // Unlocking is the blocked-users dashboard's right; a super-admin's account only by a super-admin (above).
  if (can(actor, 'dashboard_blocked_users', 'update')) out.push('unlock');
  return out;
}

export function assertUserAction(actor: Actor, u: UserRecord, action: UserActionName): void {
  if (!userActions(actor, u).includes(action)) throw new AppError('FORBIDDEN');
}

/** The role must be one of the tenant's (found by the caller), and a super-admin role is given only by a super-admin. */
export function assertRoleAssignable(actor: Actor, role: { superAdmin: boolean } | undefined): void {
  if (!role) throw new AppError('VALIDATION', {}, [{ path: 'roleId', message: 'validation.chooseOption' }]);
  if (role.superAdmin && !actor.role.superAdmin) throw new AppError('FORBIDDEN');
}

/** The roles an actor may hand out: every role of the tenant but the super-admin ones, unless the actor is a super-admin. */
export function assignableRoles<R extends { superAdmin: boolean }>(actor: Actor, roles: R[]): R[] {
  return roles.filter((r) => actor.role.superAdmin || !r.superAdmin);
}
