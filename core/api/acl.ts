/**
 * The access-control API's contract, shared by the server (its routes
 * validate and serialise with these) and the browser (which takes its types
 * from them through `Wire`).
 */
import { z } from 'zod';
import { listQuery, listResponse } from './list.js';

/**
 * What an actor may do on one row of a catalogue (actions, modules, roles;
 * the acl module's policy.ts decides; the web shows buttons from it). A
 * system row keeps its code and stays; a role that users hold stays.
 */
export const CATALOG_ACTIONS = ['edit', 'changeCode', 'delete'] as const;
export type CatalogActionName = (typeof CATALOG_ACTIONS)[number];

/** One action or module (GET /api/acl/actions, /api/acl/modules). */
export const catalogItemSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  system: z.boolean(),
  createdAt: z.date(),
  actions: z.array(z.enum(CATALOG_ACTIONS)),
});
/** One role (GET /api/acl/roles): also whether it may do everything, and how many users hold it. */
export const roleItemSchema = catalogItemSchema.extend({ superAdmin: z.boolean(), users: z.number() });
export const catalogListQuery = listQuery(['code', 'name', 'created_at']);
export const catalogListSchema = listResponse(catalogItemSchema);
export const roleListSchema = listResponse(roleItemSchema);

/** A role whose rules can be edited. */
export const ruleRoleSchema = z.object({ id: z.number(), code: z.string(), name: z.string() });

/** GET /api/acl/roles/:id/rules: the role, every module and action of the tenant, and what the role is granted. */
export const roleRulesSchema = z.object({
  role: z.object({ id: z.number(), code: z.string(), name: z.string(), superAdmin: z.boolean() }),
  modules: z.array(z.object({ id: z.number(), code: z.string(), name: z.string() })),
  actions: z.array(z.object({ id: z.number(), code: z.string(), name: z.string() })),
  /** module code -> action codes granted */
  granted: z.record(z.string(), z.array(z.string())),
});
