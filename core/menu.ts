import { newApplicationsOpen } from './dates.js';
import type { Target } from './targets.js';

/** One entry of the side menu. `labelKey` is an i18n key under `menu.`. */
export interface MenuLink {
  kind: 'link';
  id: string;
  labelKey: string;
  path: string;
  /** The permission target; 'platform_operator' for the operator's entries, which no tenant rule grants. */
  target: Target | 'platform_operator';
}

export interface MenuGroup {
  kind: 'group';
  id: string;
  labelKey: string;
  target: Target;
  children: MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

const link = (id: string, path: string, target: Target): MenuLink => ({
  kind: 'link',
  id,
  labelKey: `menu.${id}`,
  path,
  target,
});

/** The side menu of the spec (section 2), in its order, before any permission is applied. */
export const MENU: readonly MenuEntry[] = [
  link('cases', '/cases', 'wf_casos'),
  link('drafts', '/cases/drafts', 'borradores'),
  link('adminCases', '/admin-cases', 'admin_cases'),
  link('pendings', '/pendings', 'menutareas'),
  link('tasks', '/tasks', 'wf_tareas'),
  link('reports', '/reportes', 'menuReportes'),
  // Issue 23: the yearly payee report (beside the reports) and the payment batches.
  link('payeeReport', '/reportes/beneficiarios', 'reporte_beneficiarios'),
  link('payments', '/pagos', 'pagos'),
  link('forms', '/formularios', 'formularios'),
  link('masters', '/main', 'menu_maestros'),
  link('protocols', '/protocolos', 'wf_protocolos'),
  link('teams', '/equipos', 'wf_equipos'),
  link('teamMembers', '/integrantes-equipos', 'wf_equipos_integrantes'),
  link('definitions', '/main/definiciones', 'definiciones'),
  {
    kind: 'group',
    id: 'dashboard',
    labelKey: 'menu.dashboard',
    target: 'menu_dashboards',
    children: [
      link('comments', '/dashboard/comments', 'dashboard_comments'),
      link('blockedUsers', '/dashboard/blocked-users', 'dashboard_blocked_users'),
    ],
  },
  {
    kind: 'group',
    id: 'permissions',
    labelKey: 'menu.permissions',
    target: 'menu_permisos',
    children: [
      link('aclActions', '/main/acl_acciones/', 'acl_acciones'),
      link('aclModules', '/main/acl_objetos/', 'acl_objetos'),
      link('aclRoles', '/main/acl_roles/', 'acl_roles'),
      link('aclRules', '/main/acl_reglas/', 'acl_reglas'),
      link('aclUsers', '/acl/users', 'acl_usuarios'),
      link('serviceAccounts', '/acl/service-accounts', 'acl_usuarios'),
    ],
  },
  {
    kind: 'group',
    id: 'settings',
    labelKey: 'menu.settings',
    target: 'menu_configuracion',
    children: [
      link('emailTemplates', '/plantillas-correo', 'plantillas_correo'),
      link('application', '/configuracion', 'menu_configuracion'),
      link('printTemplates', '/configuracion/plantillas', 'menu_configuracion'),
      link('calendar', '/configuracion/calendario', 'menu_configuracion'),
      link('webhooks', '/configuracion/webhooks', 'menu_configuracion'),
      link('achSettings', '/configuracion/pagos', 'pagos'),
      link('gallery', '/vainilla-apps', 'menu_configuracion'),
      link('mailOutbox', '/configuracion/correos', 'reenviarcorreos'),
    ],
  },
];

/** The platform operator's entries (issue 20): shown to operators, above whatever their tenant's rules show. */
export const OPERATOR_MENU: readonly MenuLink[] = [
  { kind: 'link', id: 'agencies', labelKey: 'agencies.menu', path: '/crear-entidad', target: 'platform_operator' },
];

export interface MenuInput {
  /** The targets the user is permitted (from the session). */
  targets: Iterable<string>;
  /** Project settings that decide whether Drafts stays. */
  newApplicationsDeadline: string | null;
  allowNewApplications: boolean;
  now: Date;
  /** A platform operator (the session's `user.operator`): the agencies entry too. */
  operator?: boolean;
}

/**
 * The menu one user sees: links whose target they hold, groups whose target
 * they hold and that keep at least one permitted child, and Drafts only while
 * new applications are open.
 */
export function buildMenu(input: MenuInput): MenuEntry[] {
  const allowed = new Set(input.targets);
  const draftsOpen = newApplicationsOpen(input, input.now);
  const visible = (l: MenuLink) => allowed.has(l.target) && (l.id !== 'drafts' || draftsOpen);
  const out: MenuEntry[] = [];
  for (const entry of MENU) {
    if (entry.kind === 'link') {
      if (visible(entry)) out.push(entry);
      continue;
    }
    const children = entry.children.filter(visible);
    if (children.length > 0 && allowed.has(entry.target)) out.push({ ...entry, children });
  }
  if (input.operator) out.push(...OPERATOR_MENU);
  return out;
}
