import { sql } from 'kysely';
import type { Db } from '../pool.js';

/**
 * Demo data for a newcomer: two tenants, so isolation can be seen at once.
 * Runs only on an empty database and inside one transaction, so a second run
 * or a crash half-way changes nothing.
 */
export const DEMO_TENANTS = [
  {
    entity: { docnumber: '900100200', name: 'Demo Housing Agency' },
    project: {
      uid: 'applications',
      title: 'Rental Assistance Program',
      description: 'Emergency rental assistance applications of the Demo Housing Agency.',
      support_phone: '+1 (787) 555-0100',
      new_applications_deadline: '2021-12-01T00:00:00',
      allow_new_applications: true,
      is_default: true,
    },
  },
  {
    entity: { docnumber: '900300400', name: 'Other Agency' },
    project: {
      uid: 'other',
      title: 'Title Clearance Office',
      description: 'Title clearance cases of the Other Agency.',
      support_phone: '+1 (787) 555-0199',
      color_primary: '#2E7D32',
      color_secondary: '#5D4037',
      language: 'es' as const,
      new_applications_deadline: null,
      allow_new_applications: true,
      is_default: false,
    },
  },
];

export async function seedDemo(db: Db, log: (msg: string) => void = () => {}): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Serialise concurrent starts against one database (several instances).
    await sql`select pg_advisory_xact_lock(7100001)`.execute(trx);
    const existing = await trx.selectFrom('entities').select('id').limit(1).executeTakeFirst();
    if (existing) return false;
    for (const tenant of DEMO_TENANTS) {
      const entity = await trx.insertInto('entities').values(tenant.entity).returning('id').executeTakeFirstOrThrow();
      await trx.insertInto('projects').values({ ...tenant.project, entity_id: entity.id }).execute();
    }
    log(`seeded demo data: ${DEMO_TENANTS.map((t) => t.entity.name).join(', ')}`);
    return true;
  });
}
