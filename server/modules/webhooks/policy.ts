/**
 * Who may do what with webhooks. A tenant's subscriptions and deliveries
 * are read with menu_configuracion show (the routes declare it); every
 * change (create, edit, delete, rotate or reveal the secret, send a test
 * event, redeliver) takes menu_configuracion update. Another tenant's
 * subscription is not found (repo.ts reads the actor's tenant only).
 */
import type { WebhookActionName } from '../../../core/api/webhooks.js';
import { AppError } from '../../errors.js';
import { type Actor, can } from '../acl/policy.js';

const CHANGES: readonly WebhookActionName[] = ['edit', 'delete', 'test', 'rotate', 'revealSecret'];

export function webhookActions(actor: Actor): WebhookActionName[] {
  return can(actor, 'menu_configuracion', 'update') ? [...CHANGES] : [];
}

/**
 * Any delivery may be sent again: a done one (delivered or failed) as a new
 * delivery of the same event (the same webhook-id), a pending one at once
 * instead of at its next try.
 */
export function deliveryActions(actor: Actor): Array<'redeliver'> {
  return can(actor, 'menu_configuracion', 'update') ? ['redeliver'] : [];
}

export function assertWebhookChange(actor: Actor): void {
  if (!can(actor, 'menu_configuracion', 'update')) throw new AppError('FORBIDDEN');
}
