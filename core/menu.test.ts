import { describe, expect, it } from 'vitest';
import { buildMenu, MENU, type MenuEntry } from './menu.js';
import { TARGETS } from './targets.js';

const open = { newApplicationsDeadline: null, allowNewApplications: true, now: new Date('2026-01-01T00:00:00Z') };
const ids = (menu: MenuEntry[]) => menu.flatMap((e) => (e.kind === 'link' ? [e.id] : [`${e.id}:[${e.children.map((c) => c.id).join(',')}]`]));

describe('buildMenu', () => {
  it('keeps the spec order with every target granted', () => {
    expect(ids(buildMenu({ ...open, targets: TARGETS }))).toEqual([
      'cases', 'drafts', 'adminCases', 'pendings', 'tasks', 'reports', 'payeeReport', 'payments', 'forms', 'masters',
      'protocols', 'teams', 'teamMembers', 'definitions',
      'dashboard:[comments,blockedUsers]',
      'permissions:[aclActions,aclModules,aclRoles,aclRules,aclUsers,serviceAccounts]',
      'settings:[emailTemplates,application,printTemplates,calendar,webhooks,achSettings,gallery,mailOutbox]',
    ]);
  });

  it('shows nothing to a user without targets', () => {
    expect(buildMenu({ ...open, targets: [] })).toEqual([]);
  });

  it('shows a link only when its target is granted', () => {
    expect(ids(buildMenu({ ...open, targets: ['wf_tareas', 'menutareas'] }))).toEqual(['pendings', 'tasks']);
  });

  it('hides a group whose children are all forbidden, even when the group target is granted', () => {
    expect(ids(buildMenu({ ...open, targets: ['menu_permisos', 'menu_dashboards'] }))).toEqual([]);
  });

  it('hides a group whose target is not granted, even with permitted children', () => {
    expect(ids(buildMenu({ ...open, targets: ['acl_roles', 'acl_usuarios'] }))).toEqual([]);
  });

  it('keeps only the permitted children of a shown group', () => {
    expect(ids(buildMenu({ ...open, targets: ['menu_permisos', 'acl_roles', 'acl_usuarios'] }))).toEqual(['permissions:[aclRoles,aclUsers,serviceAccounts]']);
  });

  it('shows the Configuración group with Aplicativo, the business calendar and the webhooks (their target is the group target)', () => {
    expect(ids(buildMenu({ ...open, targets: ['menu_configuracion'] }))).toEqual(['settings:[application,printTemplates,calendar,webhooks,gallery]']);
  });

  describe('Drafts and the new-applications deadline (US Eastern wall time)', () => {
    const base = { targets: ['borradores', 'wf_casos'], newApplicationsDeadline: '2021-12-01T00:00:00' };
    it('stays before the deadline', () => {
      // 2021-11-30 23:59 in New York is 04:59 UTC on Dec 1st.
      const menu = buildMenu({ ...base, allowNewApplications: false, now: new Date('2021-12-01T04:59:00Z') });
      expect(ids(menu)).toEqual(['cases', 'drafts']);
    });
    it('goes once the deadline has passed in US Eastern time', () => {
      const menu = buildMenu({ ...base, allowNewApplications: false, now: new Date('2021-12-01T05:00:00Z') });
      expect(ids(menu)).toEqual(['cases']);
    });
    it('stays after the deadline while new applications are allowed', () => {
      const menu = buildMenu({ ...base, allowNewApplications: true, now: new Date('2030-01-01T00:00:00Z') });
      expect(ids(menu)).toEqual(['cases', 'drafts']);
    });
    it('stays when there is no deadline', () => {
      const menu = buildMenu({ ...base, newApplicationsDeadline: null, allowNewApplications: false, now: new Date('2030-01-01T00:00:00Z') });
      expect(ids(menu)).toEqual(['cases', 'drafts']);
    });
  });

  it('is pure: the spec menu is not changed by building', () => {
    const before = JSON.stringify(MENU);
    buildMenu({ ...open, targets: ['menu_permisos', 'acl_roles'] });
    expect(JSON.stringify(MENU)).toBe(before);
  });

  it('gives every entry a label key under menu. and every link a path', () => {
    for (const e of MENU) {
      expect(e.labelKey).toMatch(/^menu\.\w+$/);
      if (e.kind === 'link') expect(e.path).toMatch(/^\//);
      else for (const c of e.children) expect(c.path).toMatch(/^\//);
    }
  });
});
