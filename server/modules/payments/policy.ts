/**
 * Who may do what with payment batches. The routes check each route's
 * target (`pagos` show, create, update, export; `pagos_cuentas` show for a
 * payee's full bank details; `reporte_beneficiarios` for the payee report);
 * this says which of a batch's actions the reader has in its state, sent
 * with the batch so that the web shows buttons from it.
 */
import type { BatchState } from '../../../core/api/payments.js';
import { type Actor, can } from '../acl/policy.js';

export function batchActions(actor: Actor, state: BatchState): Array<'export' | 'markPaid'> {
  const actions: Array<'export' | 'markPaid'> = [];
  // Exporting an exported batch gives the same file again: allowed until it is paid (and after, as a download).
  if (can(actor, 'pagos', 'export')) actions.push('export');
  if (state === 'exported' && can(actor, 'pagos', 'update')) actions.push('markPaid');
  return actions;
}
