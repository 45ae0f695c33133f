import type { TFunction } from 'i18next';
import i18n from '../../i18n/index.js';

/**
 * The seeded catalogue is stored with English names (actions) or the code
 * itself (modules). Shown to people, a seeded name is translated; a name an
 * administrator wrote is shown as written.
 */
/** `value` translated by `key` when it is still the seeded (English) text; otherwise as written. */
export function seededText(t: TFunction, key: string, value: string): string {
  return i18n.exists(key) && value === i18n.t(key, { lng: 'en' }) ? t(key) : value;
}

export function actionLabel(t: TFunction, action: { code: string; name: string }): string {
  return seededText(t, `aclAdmin.actionNames.${action.code}`, action.name);
}

export function moduleLabel(t: TFunction, module: { code: string; name: string }): string {
  const key = `aclAdmin.moduleNames.${module.code}`;
  return module.name === module.code && i18n.exists(key) ? t(key) : module.name;
}
