import { ACTIONS, type Action, TARGETS, type Target } from '../../../core/targets.js';
import type { Db } from '../pool.js';

/** English names of the seeded catalogue (the screens translate system codes). */
const ACTION_NAMES: Record<Action, string> = {
  accept: 'Accept', reject: 'Reject', create: 'Create', update: 'Update', print: 'Print', confirm: 'Confirm',
  delete: 'Delete', show: 'Show', cancel: 'Cancel', export: 'Export', create_drafts: 'Create drafts', restart_task: 'Restart task',
};

type RoleRules = Partial<Record<Target, Action[]>>;
const CRUD: Action[] = ['show', 'create', 'update', 'delete'];

/** Roles every tenant starts with: the spec's super-admin ('Soporte') and guest ('invitado'). */
export const SYSTEM_ROLES = [
  { code: 'super-admin', name: 'Soporte', description: 'Support: every action on every module', super_admin: true },
  { code: 'invitado', name: 'Invitado', description: 'Guest: signs in, sees only the home page', super_admin: false },
] as const;

/** Demo roles with sensible rules for the rental-assistance example. */
export const DEMO_ROLES: Array<{ code: string; name: string; description: string; rules: RoleRules }> = [
  {
    code: 'coordinator',
    name: 'Coordinator',
    description: 'Runs the programme: cases, tasks, protocols, forms, teams, reports',
    rules: {
      wf_casos: ['show', 'create', 'update', 'export', 'print'], borradores: ['show', 'create', 'create_drafts'],
      admin_cases: ['show', 'update'], change_owner_case: ['update'], wf_casos_participantes: ['show', 'update'],
      wf_abrir_caso: ['confirm'], wf_completar_caso: ['confirm'], wf_cerrar_caso: ['confirm'], wf_activar_caso: ['confirm'],
      wf_tareas: ['show', 'create', 'update', 'accept', 'reject', 'restart_task'], menutareas: ['show'],
      admintasks: ['show', 'update', 'restart_task'], menuReportes: ['show'], excel_reports: ['show', 'export'],
      tareas_reports: ['show', 'export'], application_comments_reports: ['show'], user_comments_reports: ['show'],
      reporte_data_tape: ['show', 'update', 'export'], formularios: CRUD, menu_maestros: CRUD, definiciones: CRUD,
      departamentos: CRUD, municipios: CRUD, wf_protocolos: [...CRUD, 'export'], wf_equipos: CRUD,
      wf_equipos_integrantes: CRUD, menu_dashboards: ['show'], dashboard_comments: ['show', 'update', 'delete'],
      menu_configuracion: CRUD, plantillas_correo: CRUD, reenviarcorreos: ['show', 'update'],
      aplicacionessimilares: ['show'], historialaplicacion: ['show'],
      pagos: ['show', 'create', 'update', 'export'], pagos_cuentas: ['show'], reporte_beneficiarios: ['show', 'export'],
    },
  },
  {
    code: 'reviewer',
    name: 'Reviewer',
    description: 'Reviews documents and decides the tasks assigned to them',
    rules: {
      wf_casos: ['show'], menutareas: ['show'], wf_tareas: ['show', 'update', 'accept', 'reject'],
      historialaplicacion: ['show'], aplicacionessimilares: ['show'], menu_dashboards: ['show'],
      dashboard_comments: ['show'], menuReportes: ['show'], tareas_reports: ['show'],
    },
  },
  {
    code: 'applicant',
    name: 'Applicant',
    description: 'Applies for assistance and follows their applications',
    rules: { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] },
  },
];

/** The permission catalogue of a new tenant: every action and target of the spec, and the system roles. */
export async function seedEntityAcl(db: Db, entityId: number): Promise<void> {
  await db
    .insertInto('acl_actions')
    .values(ACTIONS.map((code) => ({ entity_id: entityId, code, name: ACTION_NAMES[code], system: true })))
    .onConflict((oc) => oc.columns(['entity_id', 'code']).doNothing())
    .execute();
  await db
    .insertInto('acl_modules')
    .values(TARGETS.map((code) => ({ entity_id: entityId, code, name: code, system: true })))
    .onConflict((oc) => oc.columns(['entity_id', 'code']).doNothing())
    .execute();
  await db
    .insertInto('acl_roles')
    .values(SYSTEM_ROLES.map((r) => ({ ...r, entity_id: entityId, system: true })))
    .onConflict((oc) => oc.columns(['entity_id', 'code']).doNothing())
    .execute();
}

/** Creates a role with its rules (codes resolved within the tenant). */
export async function createRoleWithRules(db: Db, entityId: number, role: { code: string; name: string; description: string; rules: RoleRules }): Promise<number> {
  const { id } = await db
    .insertInto('acl_roles')
    .values({ entity_id: entityId, code: role.code, name: role.name, description: role.description })
    .returning('id')
    .executeTakeFirstOrThrow();
  const modules = new Map((await db.selectFrom('acl_modules').where('entity_id', '=', entityId).select(['id', 'code']).execute()).map((m) => [m.code, m.id]));
  const actions = new Map((await db.selectFrom('acl_actions').where('entity_id', '=', entityId).select(['id', 'code']).execute()).map((a) => [a.code, a.id]));
  const rows = Object.entries(role.rules).flatMap(([target, list]) =>
    (list ?? []).map((action) => ({ entity_id: entityId, role_id: id, module_id: modules.get(target) as number, action_id: actions.get(action) as number })),
  );
  if (rows.length) await db.insertInto('acl_rules').values(rows).execute();
  return id;
}
