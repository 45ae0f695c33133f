/** Spec section 6: every permission target (a module in the ACL screens). */
export const TARGETS = [
  'wf_casos', 'borradores', 'wf_tareas', 'menutareas', 'admintasks', 'admin_cases',
  'change_owner_case', 'wf_equipos', 'wf_protocolos', 'wf_equipos_integrantes',
  'wf_casos_participantes', 'definiciones', 'departamentos', 'municipios', 'formularios',
  'menu_configuracion', 'plantillas_correo', 'reenviarcorreos', 'wf_abrir_caso',
  'wf_completar_caso', 'wf_cerrar_caso', 'wf_activar_caso', 'menu_dashboards',
  'dashboard_comments', 'dashboard_blocked_users', 'excel_reports', 'tareas_reports',
  'application_comments_reports', 'user_comments_reports', 'reporte_data_tape',
  'menu_permisos', 'menu_maestros', 'menuReportes', 'acl_objetos', 'acl_acciones',
  'acl_usuarios', 'acl_roles', 'acl_reglas', 'aplicacionessimilares', 'historialaplicacion',
  // Issue 23: payment batches, a payee's full bank details, the yearly payee report.
  'pagos', 'pagos_cuentas', 'reporte_beneficiarios',
] as const;

export type Target = (typeof TARGETS)[number];

/** Spec section 4: every action a rule may grant. */
export const ACTIONS = [
  'accept', 'reject', 'create', 'update', 'print', 'confirm', 'delete', 'show',
  'cancel', 'export', 'create_drafts', 'restart_task',
] as const;

export type Action = (typeof ACTIONS)[number];
