import type { ProjectSettings } from '../../../core/project.js';
import type { Db } from '../../db/pool.js';
import { entityFolder } from '../files/storage.js';

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
    blockIndexing: row.block_indexing,
  };
}

/**
 * A project's logo or favicon file (`<file id>.<ext>`), only while the
 * project names it and its tenant is active: an old image, or any other file
 * of the tenant, is not found here.
 */
export async function findBrandingFile(db: Db, uid: string, fileId: string, ext: string) {
  const row = await db
    .selectFrom('projects as p')
    .innerJoin('entities as e', 'e.id', 'p.entity_id')
    .innerJoin('files as f', (j) => j.on((eb) => eb.and([eb('f.entity_id', '=', eb.ref('p.entity_id')), eb('f.id', '=', fileId)])))
    .where('p.uid', '=', uid)
    .where('e.active', '=', true)
    .where((eb) => eb.or([eb('p.logo_file_id', '=', fileId), eb('p.favicon_file_id', '=', fileId)]))
    .where('f.extension', '=', ext)
    .select(['f.id', 'f.extension', 'f.mime', 'f.size', 'e.name', 'e.docnumber'])
    .executeTakeFirst();
  return row && { id: row.id, extension: row.extension, mime: row.mime, size: row.size, folder: entityFolder({ name: row.name, docnumber: row.docnumber }) };
}

/** Whether the entity (by docnumber or slug, as the public entry names it) asks search engines not to index it: its default project's flag. */
export async function indexingBlockedFor(db: Db, entityKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('entities as e')
    .where((eb) => eb.or([eb('e.docnumber', '=', entityKey), eb('e.slug', '=', entityKey.toLowerCase())]))
    .select((eb) =>
      eb
        .selectFrom('projects as p')
        .whereRef('p.entity_id', '=', 'e.id')
        .orderBy('p.is_default', 'desc')
        .orderBy('p.id')
        .limit(1)
        .select('p.block_indexing')
        .as('blocked'),
    )
    .executeTakeFirst();
  return row?.blocked === true;
}
