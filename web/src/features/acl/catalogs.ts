import type { TFunction } from 'i18next';
import type { Target } from '../../../../core/targets.js';
import type { CatalogItem } from './api.js';
import { actionLabel, moduleLabel, seededText } from './names.js';

export type CatalogKind = 'actions' | 'modules' | 'roles';

export interface CatalogConfig {
  kind: CatalogKind;
  target: Target;
  titleKey: string;
  /** The name people read (seeded names translated). */
  label: (t: TFunction, item: CatalogItem) => string;
  /** The description people read (seeded ones translated). */
  describe: (t: TFunction, item: CatalogItem) => string;
}

const asWritten = (_t: TFunction, item: CatalogItem) => item.description;

export const CATALOGS: Record<CatalogKind, CatalogConfig> = {
  actions: {
    kind: 'actions',
    target: 'acl_acciones',
    titleKey: 'menu.aclActions',
    label: actionLabel,
    describe: asWritten,
  },
  modules: {
    kind: 'modules',
    target: 'acl_objetos',
    titleKey: 'menu.aclModules',
    label: moduleLabel,
    describe: asWritten,
  },
  roles: {
    kind: 'roles',
    target: 'acl_roles',
    titleKey: 'menu.aclRoles',
    label: (_t, item) => item.name,
    // The system roles come with a description of what they are.
    describe: (t, item) => (item.system ? seededText(t, `aclAdmin.roleDescriptions.${item.code}`, item.description) : item.description),
  },
};
