/**
 * Who may do what with email templates. Every template of the tenant is
 * visible to whoever holds plantillas_correo show (the routes declare it);
 * the actions on one follow the role's create/update/delete, and the
 * default of an event stays until another template is made the default, so
 * notifications always have one to send.
 */
import type { TemplateActionName } from '../../../core/api/templates.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';

export function templateActions(actor: Actor, t: { isDefault: boolean }): TemplateActionName[] {
  const out: TemplateActionName[] = [];
  if (can(actor, 'plantillas_correo', 'update')) out.push('edit');
  if (can(actor, 'plantillas_correo', 'update') && !t.isDefault) out.push('makeDefault');
  if (can(actor, 'plantillas_correo', 'delete') && !t.isDefault) out.push('delete');
  return out;
}

export function assertTemplateAction(actor: Actor, t: { isDefault: boolean }, action: TemplateActionName): void {
  if (templateActions(actor, t).includes(action)) return;
  if (action === 'delete' && t.isDefault && can(actor, 'plantillas_correo', 'delete')) throw new AppError('TEMPLATE_IS_DEFAULT');
  throw new AppError('FORBIDDEN');
}
