/**
 * Who may do what with print templates. Every template of the tenant is
 * visible to whoever holds menu_configuracion show (the routes declare it);
 * editing follows the role's update, deleting its delete, and a built-in
 * template (the complete application, the notification letter) is edited
 * but never deleted, so every tenant keeps one to print. Printing a case is
 * wf_casos print (the spec's catalogue action) plus reading the case
 * (repo.ts applies the case page's visibility).
 */
import type { PrintTemplateActionName } from '../../../core/api/printing.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';

export function printTemplateActions(actor: Actor, t: { builtin: string | null }): PrintTemplateActionName[] {
  const out: PrintTemplateActionName[] = [];
  if (can(actor, 'menu_configuracion', 'update')) out.push('edit');
  if (can(actor, 'menu_configuracion', 'delete') && !t.builtin) out.push('delete');
  return out;
}

export function assertPrintTemplateAction(actor: Actor, t: { builtin: string | null }, action: PrintTemplateActionName): void {
  if (printTemplateActions(actor, t).includes(action)) return;
  if (action === 'delete' && t.builtin && can(actor, 'menu_configuracion', 'delete')) throw new AppError('SYSTEM_RECORD');
  throw new AppError('FORBIDDEN');
}
