/**
 * The public entry's contract (`/publico/{entity?}/{protocol?}`), shared by
 * the server (server/modules/public validates and serialises with these)
 * and the browser (web/src/features/public). Anyone may read these answers,
 * signed in or not: they hold what an entity publishes about its programmes
 * and nothing else (no ids of people, no forms, no tasks).
 */
import { z } from 'zod';
import { listQuery, listResponse } from './list.js';

/**
 * Whether the entity takes new applications now: `closed` after its
 * project's deadline (US Eastern) without the allow flag, `maintenance`
 * while its project's maintenance flag is on (that one wins).
 */
export const APPLICATION_STATES = ['open', 'closed', 'maintenance'] as const;
export type ApplicationsState = (typeof APPLICATION_STATES)[number];

/** A text in both languages; either may be empty (the browser then shows the other). */
const bilingual = z.object({ en: z.string(), es: z.string() });
export type Bilingual = z.infer<typeof bilingual>;

/** An entity as its public pages name it. `logo` is its project's logo, when it has one. */
export const publicEntityRefSchema = z.object({
  slug: z.string(),
  docnumber: z.string(),
  name: z.string(),
  logo: z.string().nullable(),
});

/** GET /api/public/entities: the active entities with at least one published public protocol. */
export const publicEntityListQuery = listQuery(['name']);
export const publicEntityListSchema = listResponse(publicEntityRefSchema.extend({ programmes: z.number().int() }));

/** A published public protocol as its public page shows it; `name` is the title when neither language has one. */
export const publicProgrammeSchema = z.object({
  code: z.string(),
  name: z.string(),
  title: bilingual,
  description: bilingual,
  eligibility: bilingual,
});

/** The entity of a public page with its project (the `/login/{project}` and sign-up of its applicants). */
const entityWithProject = publicEntityRefSchema.extend({ project: z.string(), applications: z.enum(APPLICATION_STATES) });

/** GET /api/public/entities/:entity: the entity and its programmes. */
export const publicEntitySchema = entityWithProject.extend({ programmes: z.array(publicProgrammeSchema) });

/** GET /api/public/entities/:entity/protocols/:code: one programme; `id` is what /cases/new?protocol= takes. */
export const publicProgrammeDetailSchema = publicProgrammeSchema.extend({ id: z.number(), entity: entityWithProject });

/** An entity in a public address: its docnumber or its slug. */
const entityParam = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'validation.pattern');
export const publicEntityParams = z.strictObject({ entity: entityParam });
export const publicProtocolParams = z.strictObject({ entity: entityParam, code: z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, 'validation.pattern') });
