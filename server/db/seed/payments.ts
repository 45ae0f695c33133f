import type { PayeeDetails } from '../../../core/payments.js';
import { actorForUser } from '../../modules/auth/sessions.js';
import { createBatch, exportBatch, markBatchPaid, saveAchSettings, savePayeeDetails } from '../../modules/payments/commands.js';
import { paymentsKeyPresent } from '../../modules/payments/crypto.js';
import type { Db } from '../pool.js';

/**
 * The demo's money (issue 23), after its six months of history: the agency's
 * ACH origin, the landlords of the awarded applications (a few property
 * companies and owners, each with a W-9 tax id when a payments key is at
 * hand), and one batch of what was approved more than a month ago, exported
 * and marked paid, so the payment pages and the payee report have something
 * to show; the awards of the last month wait for the coordinator's next batch.
 * Through the payments module's own verbs, as the coordinator.
 */
const LANDLORDS: Array<Omit<PayeeDetails, 'taxId'> & { taxId: string }> = [
  { name: 'Inmobiliaria Central LLC', email: 'arriendos@example.org', taxId: '271234567', method: 'ach', routingNumber: '021000021', accountNumber: '4401928374', accountType: 'checking', address: null },
  { name: 'Sunrise Property Management', email: 'ap@sunrise.example.org', taxId: '812345678', method: 'ach', routingNumber: '026009593', accountNumber: '993847561', accountType: 'checking', address: null },
  { name: 'Rosa Díaz', email: 'rosa.diaz@example.org', taxId: '123456789', method: 'check', routingNumber: null, accountNumber: null, accountType: null, address: { line1: '48 Calle Luna', line2: null, city: 'San Juan', state: 'PR', zip: '00901' } },
  { name: 'Harbor View Apartments', email: null, taxId: '452223333', method: 'ach', routingNumber: '121000358', accountNumber: '5566778899', accountType: 'savings', address: null },
  { name: 'Pedro Álvarez', email: 'pedro.alvarez@example.org', taxId: '998877665', method: 'check', routingNumber: null, accountNumber: null, accountType: null, address: { line1: '12 Ave. Ponce de León', line2: 'Apt 3', city: 'Santurce', state: 'PR', zip: '00907' } },
];

export async function seedDemoPayments(db: Db, log: (msg: string) => void = () => {}): Promise<void> {
  const entity = await db.selectFrom('entities').where('docnumber', '=', '900100200').select('id').executeTakeFirst();
  if (!entity) return;
  if (await db.selectFrom('payees').where('entity_id', '=', entity.id).select('id').executeTakeFirst()) return;
  const coordinatorId = (await db.selectFrom('users').where('email', '=', 'coordinator@demo.test').select('id').executeTakeFirstOrThrow()).id;
  const coordinator = await actorForUser(db, coordinatorId);
  // Without a key (an external database and no PAYMENTS_KEY) nothing secret can be kept: landlords paid by check, no tax id.
  const sealed = paymentsKeyPresent();
  await saveAchSettings(db, coordinator, {
    originatorName: 'DEMO HOUSING', companyId: '1900100200', odfiRouting: '021000021', immediateDestination: '021000021',
    immediateDestinationName: 'DEMO BANK', immediateOrigin: '900100200', immediateOriginName: 'DEMO HOUSING AGENCY', entryDescription: 'RENTASSIST',
  });
  const awards = await db.selectFrom('awards').where('entity_id', '=', entity.id).where('state', '=', 'approved').select(['id', 'case_id']).orderBy('id').execute();
  await db.transaction().execute(async (trx) => {
    for (const [k, a] of awards.entries()) {
      const l = LANDLORDS[k % LANDLORDS.length] as (typeof LANDLORDS)[number];
      const details: PayeeDetails = sealed
        ? l
        : { ...l, taxId: null, method: 'check', routingNumber: null, accountNumber: null, accountType: null, address: l.address ?? { line1: '1 Calle Sol', line2: null, city: 'San Juan', state: 'PR', zip: '00901' } };
      await savePayeeDetails(trx, coordinator, { ...details, entityId: entity.id, kind: 'landlord', caseId: a.case_id, partyId: null, userId: null });
    }
  });
  const monthAgo = new Date(Date.now() - 31 * 86_400_000).toISOString().slice(0, 10);
  const old = await db.selectFrom('awards').where('entity_id', '=', entity.id).where('state', '=', 'approved').where('approved_at', '<', new Date(`${monthAgo}T00:00:00Z`)).select('id').executeTakeFirst();
  if (!old) return;
  const batch = await createBatch(db, coordinator, { payDate: monthAgo, upTo: monthAgo });
  // Either export makes both files; without a key every landlord is paid by check and there is no ACH file.
  await exportBatch(db, coordinator, batch.id, batch.achCount > 0 ? 'nacha' : 'checks');
  const exported = await db.selectFrom('payment_batches').where('id', '=', batch.id).select('version').executeTakeFirstOrThrow();
  // The payees' emails of a month ago are not sent now.
  await markBatchPaid(db, { smtpConfigured: false }, coordinator, batch.id, exported.version);
  await db.deleteFrom('mail_outbox').where('entity_id', '=', entity.id).where('event', '=', 'payment_made').execute();
  log(`seeded the demo payments: ${awards.length} landlords' details, batch ${batch.number} paid (${batch.paymentCount} payments)`);
}
