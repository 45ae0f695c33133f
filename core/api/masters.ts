/**
 * The masters API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which takes its types from them
 * through `Wire`).
 */
import { z } from 'zod';
import { listQuery, listResponse } from './list.js';

/**
 * What an actor may do on one master (the masters module's policy.ts
 * decides; the web shows buttons from it): change or delete the master
 * itself, and add (or import), change or delete its items.
 */
export const MASTER_ACTIONS = ['edit', 'delete', 'addItems', 'editItems', 'deleteItems'] as const;
export type MasterActionName = (typeof MASTER_ACTIONS)[number];

/** One master (GET /api/masters, GET /api/masters/:code). */
export const masterSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  public: z.boolean(),
  parentCode: z.string().nullable(),
  /** Seeded with every tenant: its code cannot change and it cannot be deleted. */
  system: z.boolean(),
  items: z.number(),
  publicUrl: z.string().nullable(),
  actions: z.array(z.enum(MASTER_ACTIONS)),
});
export const masterListQuery = listQuery(['code', 'name']);
export const masterListSchema = listResponse(masterSchema);

/** One item of a master (GET /api/masters/:code/items). */
export const masterItemSchema = z.object({
  id: z.number(),
  code: z.string(),
  /** The Spanish name (as a form field's `label`), shown when the English one is empty. */
  name: z.string(),
  /** The English name; '' when there is none. */
  nameEn: z.string(),
  parentCode: z.string().nullable(),
  parentName: z.string().nullable(),
  active: z.boolean(),
  extra: z.record(z.string(), z.unknown()),
});
export const masterItemListQuery = listQuery(['code', 'name']).extend({
  parent: z.string().max(60).optional(),
  active: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
export const masterItemListSchema = listResponse(masterItemSchema);

/** What a CSV import did, or would do on a dry run. */
export const masterImportSchema = z.object({
  dryRun: z.boolean(),
  created: z.number(),
  updated: z.number(),
  errors: z.array(z.object({ line: z.number(), column: z.string().nullable(), message: z.string() })),
});

/** A public master's active items (GET /api/public/masters/:entity/:code), as public forms read them. */
export const publicMasterSchema = z.object({ info: z.array(z.object({ code: z.string(), name: z.string(), parent: z.string().nullable() })) });
