/**
 * One project's settings as its tenant's administrators see and change them
 * (`/configuracion`). A tenant may have several projects: without a uid the
 * tenant's default project (marked default, else its oldest), with one a
 * project of the SAME tenant; another tenant's uid is not found, as a uid
 * that does not exist.
 *
 * Saving updates the `projects` row, whose trigger (migration 0028)
 * announces `project` to the tenant's sockets at commit: every open page
 * refetches the public settings and re-themes.
 */
import type { Selectable, Transaction } from 'kysely';
import type { ApplicationSettingsBody, ApplicationSettingsView } from '../../../core/api/applicationSettings.js';
import type { Db } from '../../db/pool.js';
import type { Database, Projects } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Doer } from '../acl/policy.js';

type Executor = Db | Transaction<Database>;
type ProjectRow = Selectable<Projects>;

/** The project a request names: `uid` of the actor's tenant, or the tenant's default; locked for update inside a transaction. */
async function projectRow(db: Executor, doer: Doer, uid: string | undefined, lock = false) {
  let query = db.selectFrom('projects').where('entity_id', '=', doer.entityId).selectAll();
  query = uid ? query.where('uid', '=', uid) : query.orderBy('is_default', 'desc').orderBy('id').limit(1);
  if (lock) query = query.forUpdate();
  const row: ProjectRow | undefined = await query.executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export const lockProject = (trx: Transaction<Database>, doer: Doer, uid: string | undefined) => projectRow(trx, doer, uid, true);

function present(row: ProjectRow, projects: ApplicationSettingsView['projects']): ApplicationSettingsView {
  return {
    project: row.uid,
    projects,
    title: row.title,
    description: row.description,
    colors: { primary: row.color_primary, secondary: row.color_secondary, accent: row.color_accent, text: row.color_text },
    logo: row.logo,
    favicon: row.favicon,
    supportPhone: row.support_phone,
    language: row.language,
    timeZone: row.time_zone,
    idleTimeoutSeconds: row.idle_timeout_seconds,
    autosaveSeconds: row.autosave_seconds,
    newApplicationsDeadline: row.new_applications_deadline,
    allowNewApplications: row.allow_new_applications,
    maintenance: row.maintenance,
    blockIndexing: row.block_indexing,
  };
}

export async function findApplicationSettings(db: Executor, doer: Doer, uid: string | undefined): Promise<ApplicationSettingsView> {
  const row = await projectRow(db, doer, uid);
  const projects = await db
    .selectFrom('projects')
    .where('entity_id', '=', doer.entityId)
    .select(['uid', 'title', 'is_default'])
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .limit(100)
    .execute();
  return present(row, projects.map((p) => ({ uid: p.uid, title: p.title, isDefault: p.is_default })));
}

/** The deadline as stored: a wall clock with seconds. */
const withSeconds = (deadline: string | null) => (deadline && deadline.length === 16 ? `${deadline}:00` : deadline);

/** Saves every setting of the page at once (the body was checked whole: a bad value saves nothing). */
export async function saveApplicationSettings(db: Db, doer: Doer, uid: string | undefined, body: ApplicationSettingsBody): Promise<ApplicationSettingsView> {
  await db.transaction().execute(async (trx) => {
    const row = await lockProject(trx, doer, uid);
    await trx
      .updateTable('projects')
      .set({
        title: body.title,
        description: body.description,
        color_primary: body.colors.primary.toUpperCase(),
        color_secondary: body.colors.secondary.toUpperCase(),
        color_accent: body.colors.accent.toUpperCase(),
        color_text: body.colors.text.toUpperCase(),
        support_phone: body.supportPhone,
        language: body.language,
        time_zone: body.timeZone,
        idle_timeout_seconds: body.idleTimeoutSeconds,
        autosave_seconds: body.autosaveSeconds,
        new_applications_deadline: withSeconds(body.newApplicationsDeadline),
        allow_new_applications: body.allowNewApplications,
        maintenance: body.maintenance,
        block_indexing: body.blockIndexing,
      })
      .where('id', '=', row.id)
      .execute();
  });
  return findApplicationSettings(db, doer, uid);
}
