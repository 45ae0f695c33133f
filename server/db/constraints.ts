/**
 * Unique constraints as domain errors, in one place. A write that breaks one
 * throws PostgreSQL's unique violation (23505), naming the constraint;
 * `plugins/errors.ts` answers it with the code below, so no handler catches
 * and maps it by hand. A constraint not listed here stays an internal error:
 * a duplicate the code should have prevented (a number, a token) is a bug.
 */
import { AppError } from '../errors.js';

const duplicate = (field: string) => () => new AppError('DUPLICATE', { field });

const UNIQUE: Record<string, () => AppError> = {
  acl_roles_code: duplicate('code'),
  acl_actions_code: duplicate('code'),
  acl_modules_code: duplicate('code'),
  teams_name: duplicate('name'),
  team_members_unique: duplicate('userId'),
  masters_code: duplicate('code'),
  master_items_code: duplicate('code'),
  forms_code: duplicate('code'),
  external_hosts_unique: duplicate('host'),
  protocols_code: duplicate('code'),
  entities_slug_unique: duplicate('slug'),
  entities_docnumber_key: () => new AppError('AGENCY_DOCNUMBER_TAKEN'),
  users_email_unique: () => new AppError('EMAIL_TAKEN'),
  users_docnumber_unique: () => new AppError('DOCUMENT_TAKEN'),
  saved_searches_name: duplicate('name'),
  saved_reports_name: duplicate('name'),
  mail_templates_name: duplicate('name'),
  print_templates_name: duplicate('name'),
  // Two returns of one case at once: the second waits on the case's lock and is refused before this; the index is the backstop.
  case_corrections_one_open: () => new AppError('CORRECTION_OPEN'),
};

/** The domain error of a unique violation, or undefined for any other error. */
export function uniqueViolation(error: unknown): AppError | undefined {
  const e = error as { code?: unknown; constraint?: unknown };
  if (e?.code !== '23505' || typeof e.constraint !== 'string') return undefined;
  return UNIQUE[e.constraint]?.();
}
