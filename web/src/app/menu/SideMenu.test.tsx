// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, test } from 'vitest';
import { buildMenu, type MenuEntry } from '../../../../core/menu.js';
import { TARGETS } from '../../../../core/targets.js';
import '../../test/utils.js';
import { appRoutes } from '../router.js';
import { collectRoutePatterns, isImplemented, RoutePatternsContext } from './implementedRoutes.js';
import { SideMenu } from './SideMenu.js';

const fullMenu = buildMenu({
  targets: TARGETS,
  newApplicationsDeadline: null,
  allowNewApplications: true,
  now: new Date(),
});

function renderMenu(entries: MenuEntry[], patterns: readonly string[], path = '/home') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <RoutePatternsContext value={patterns}>
        <SideMenu entries={entries} />
      </RoutePatternsContext>
    </MemoryRouter>,
  );
}

describe('route patterns', () => {
  test('are read from the app router, without the 404 catch-all', () => {
    expect(collectRoutePatterns(appRoutes)).toEqual([
      '/',
      '/home',
      '/profile',
      '/cases',
      '/admin-cases',
      '/cases/new',
      '/cases/drafts',
      '/cases/imports',
      '/cases/:id',
      '/cases/:id/correct',
      '/partes',
      '/partes/:id',
      '/main/acl_acciones',
      '/main/acl_objetos',
      '/main/acl_roles',
      '/main/acl_reglas',
      '/acl/users',
      '/acl/service-accounts',
      '/dashboard/comments',
      '/plantillas-correo',
      '/plantillas-correo/nuevo',
      '/plantillas-correo/:id',
      '/dashboard/blocked-users',
      '/formularios',
      '/formularios/nuevo',
      '/formularios/:id',
      '/main',
      '/main/funciones',
      '/main/definiciones',
      '/main/departamentos',
      '/main/municipios',
      '/main/:id',
      '/equipos',
      '/integrantes-equipos',
      '/protocolos',
      '/protocolos/tareas',
      '/protocolos/nuevo',
      '/protocolos/:id',
      '/tasks',
      '/tasks/case/:caseId',
      '/tasks/:id',
      '/tareas',
      '/tareas/nuevo',
      '/pendings',
      '/admin-tasks',
      '/reportes',
      '/reportes/data-tape',
      '/reportes/beneficiarios',
      '/pagos',
      '/pagos/:id',
      '/configuracion/pagos',
      '/configuracion',
      '/configuracion/calendario',
      '/configuracion/webhooks',
      '/configuracion/correos',
      '/crear-entidad',
      '/crear-entidad/:id',
      '/configuracion/plantillas',
      '/configuracion/plantillas/:id',
      '/vainilla-apps',
      '/vainilla/registrar-proyecto',
      '/vainilla/confirmar-proyecto/:id?',
      '/login',
      '/login/:id',
      '/login2',
      '/login2/:id',
      '/user/create-account',
      '/user/create-account/:id',
      '/user/recovery-password',
      '/change-password/:token?',
      '/registro-entidad',
      '/registro-entidad-premium',
      '/registro-entidad/confirmar/:token',
      '/publico',
      '/publico/:entity',
      '/publico/:entity/:code',
      '/landing/:docnumber/:name/:code',
      '/partes/invitacion/:token',
      '/404',
    ]);
  });

  test('isImplemented matches parameters and trailing slashes, and nothing else', () => {
    const patterns = ['/home', '/cases/:id', '/main/acl_roles'];
    expect(isImplemented('/cases/42', patterns)).toBe(true);
    expect(isImplemented('/main/acl_roles/', patterns)).toBe(true);
    expect(isImplemented('/cases', patterns)).toBe(false);
    expect(isImplemented('/tasks', patterns)).toBe(false);
  });
});

describe('SideMenu', () => {
  test('an entry without a page is disabled', () => {
    renderMenu(fullMenu, collectRoutePatterns(appRoutes).filter((p) => p !== '/configuracion'));
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const application = screen.getByRole('button', { name: 'Application' });
    expect(application).toHaveAttribute('aria-disabled', 'true');
    expect(application).toHaveAttribute('tabindex', '-1');
  });

  test('with the real routes every entry of the full menu is a link, Forms, Masters, Definitions, Reports and Application among them', () => {
    renderMenu(fullMenu, collectRoutePatterns(appRoutes));
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(screen.queryByRole('button', { name: 'Application' })).toBeNull();
    const links = screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual(
      expect.arrayContaining([
        ['Application', '/configuracion'],
        ['Applications', '/cases'],
        ['Drafts', '/cases/drafts'],
        ['Reports', '/reportes'],
        ['Forms', '/formularios'],
        ['Masters', '/main'],
        ['Definitions', '/main/definiciones'],
      ]),
    );
  });

  test('with the real routes the permission and blocked-users screens are links', () => {
    renderMenu(fullMenu, collectRoutePatterns(appRoutes));
    fireEvent.click(screen.getByRole('button', { name: 'Permissions' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dashboard' }));
    const links = screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual(
      expect.arrayContaining([
        ['Unlock users', '/dashboard/blocked-users'],
        ['Comments', '/dashboard/comments'],
        ['Actions', '/main/acl_acciones/'],
        ['Modules', '/main/acl_objetos/'],
        ['Roles', '/main/acl_roles/'],
        ['Rules', '/main/acl_reglas/'],
        ['Users', '/acl/users'],
      ]),
    );
  });

  test('an entry whose page is routed is a link, highlighted on its page', () => {
    renderMenu(fullMenu, ['/home', '/cases', '/cases/:id'], '/cases/42');
    const cases = screen.getByRole('link', { name: 'Applications' });
    expect(cases).toHaveAttribute('href', '/cases');
    expect(cases).toHaveAttribute('aria-current', 'page');
    expect(cases).toHaveClass('Mui-selected');
    expect(screen.getByRole('button', { name: 'Tasks' })).toHaveAttribute('aria-disabled', 'true');
  });

  test('groups open and close, and their children follow the same rule', () => {
    renderMenu(fullMenu, ['/acl/users']);
    const group = screen.getByRole('button', { name: 'Permissions' });
    expect(group).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(group);
    expect(group).toHaveAttribute('aria-expanded', 'true');
    const list = document.getElementById(group.getAttribute('aria-controls') ?? '');
    expect(list).not.toBeNull();
    const users = within(list as HTMLElement).getByRole('link', { name: 'Users' });
    expect(users).toHaveAttribute('href', '/acl/users');
    expect(within(list as HTMLElement).getByRole('button', { name: 'Roles' })).toHaveAttribute('aria-disabled', 'true');
  });

  test('a group holding the current page starts open', () => {
    renderMenu(fullMenu, ['/dashboard/comments'], '/dashboard/comments');
    expect(screen.getByRole('button', { name: 'Dashboard' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Comments' })).toHaveAttribute('aria-current', 'page');
  });

  test('shows only what the user may see, in the spec order', () => {
    const menu = buildMenu({
      targets: ['wf_casos', 'borradores', 'wf_tareas'],
      newApplicationsDeadline: '2021-12-01T00:00:00',
      allowNewApplications: false,
      now: new Date('2026-01-01T00:00:00Z'),
    });
    renderMenu(menu, []);
    const labels = screen.getAllByRole('button').map((b) => b.textContent);
    // Drafts is gone: the deadline passed and new applications are not allowed.
    expect(labels).toEqual(['Applications', 'Tasks']);
  });
});
