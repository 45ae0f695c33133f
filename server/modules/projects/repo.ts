import type { ProjectSettings } from '../../../core/project.js';
import type { Db } from '../../db/pool.js';

/**
 * Project settings by uid. These are public on purpose (the login page shows
 * a project's title and colours before anyone signs in), so this read is not
 * tenant-scoped; it returns branding and public behaviour only.
 */
export async function findProjectSettings(db: Db, uid: string): Promise<ProjectSettings | undefined> {
  let query = db
    .selectFrom('projects')
    .innerJoin('entities', 'entities.id', 'projects.entity_id')
    .where('entities.active', '=', true)
    .selectAll('projects');
  query = uid === 'default' ? query.orderBy('projects.is_default', 'desc').orderBy('projects.id').limit(1) : query.where('projects.uid', '=', uid);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.uid,
    title: row.title,
    description: row.description,
    colors: { primary: row.color_primary, secondary: row.color_secondary, accent: row.color_accent, text: row.color_text },
    favicon: row.favicon,
    logo: row.logo,
    supportPhone: row.support_phone,
    timeZone: row.time_zone,
    language: row.language,
    idleTimeoutSeconds: row.idle_timeout_seconds,
    autosaveSeconds: row.autosave_seconds,
    newApplicationsDeadline: row.new_applications_deadline,
    allowNewApplications: row.allow_new_applications,
    maintenance: row.maintenance,
  };
}
