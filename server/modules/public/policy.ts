/**
 * What the public entry shows to anyone, signed in or not: the published
 * public protocols of active entities, and whether their project takes new
 * applications. Everything else (an inactive entity, a private or never
 * published protocol, another entity's protocol) is the same 404 as what
 * does not exist: the finders of repo.ts apply these conditions in the one
 * query that looks the record up, so "exists but private" takes the path of
 * "does not exist".
 */
import type { ExpressionBuilder } from 'kysely';
import type { ApplicationsState } from '../../../core/api/public.js';
import { newApplicationsOpen } from '../../../core/dates.js';
import type { Database } from '../../db/types.js';

type WithProtocol = ExpressionBuilder<Database & { p: Database['protocols'] }, 'p'>;
type WithEntity = ExpressionBuilder<Database & { e: Database['entities'] }, 'e'>;

/** A condition on `p` (protocols): public and published. */
export function publicProtocols() {
  return (eb: WithProtocol) => eb.and([eb('p.public', '=', true), eb('p.published_version', 'is not', null)]);
}

/** A condition on `e` (entities): active, with at least one published public protocol. */
export function publicEntities() {
  return (eb: WithEntity) =>
    eb.and([
      eb('e.active', '=', true),
      eb.exists(
        eb
          .selectFrom('protocols as p')
          .whereRef('p.entity_id', '=', 'e.id')
          .where((w) => publicProtocols()(w as never))
          .select('p.id'),
      ),
    ]);
}

/**
 * Whether the entity's project takes new applications now: the maintenance
 * flag first, then the deadline (US Eastern wall time) unless the project
 * still allows them, as `core/dates.ts` compares it for every new case.
 */
export function applicationsState(project: { maintenance: boolean; new_applications_deadline: string | null; allow_new_applications: boolean }, now: Date): ApplicationsState {
  if (project.maintenance) return 'maintenance';
  return newApplicationsOpen({ newApplicationsDeadline: project.new_applications_deadline, allowNewApplications: project.allow_new_applications }, now) ? 'open' : 'closed';
}

/** A logo the public pages may show: a path of this site or an https address; anything else is left out (the page shows its placeholder). */
export function publicLogo(logo: string | null): string | null {
  if (!logo) return null;
  return /^\/(?![/\\])/.test(logo) || /^https:\/\/[^\s]+$/i.test(logo) ? logo : null;
}
