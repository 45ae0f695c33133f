import { sql } from 'kysely';
import { hash } from '@node-rs/argon2';
import type { Db } from '../pool.js';
import { createRoleWithRules, DEMO_ROLES, seedEntityAcl } from './acl.js';
import { seedDemoForms } from './forms.js';
import { seedDemoMasterItems, seedEntityMasters } from './masters.js';
import { seedEntityMailTemplates } from './templates.js';
import { seedEntityPrintTemplates } from './print-templates.js';

export const DEMO_PASSWORD = 'Demo12345';

/** The demo logins, printed by `npm start` and listed in the README. */
export const DEMO_USERS = [
  { tenant: 0, email: 'admin@demo.test', name: 'Diana Admin', role: 'super-admin', docnumber: '1001' },
  { tenant: 0, email: 'coordinator@demo.test', name: 'Carla Coordinator', role: 'coordinator', docnumber: '1002' },
  { tenant: 0, email: 'reviewer@demo.test', name: 'Rafael Reviewer', role: 'reviewer', docnumber: '1003' },
  { tenant: 0, email: 'applicant@demo.test', name: 'Ana Applicant', role: 'applicant', docnumber: '1020304050' },
  { tenant: 1, email: 'admin@other.test', name: 'Otto Admin', role: 'super-admin', docnumber: '2001' },
  // The platform operator (/crear-entidad): a guest in the first tenant, so no tenant right comes with the account.
  { tenant: 0, email: 'operator@demo.test', name: 'Olga Operator', role: 'invitado', docnumber: '1009', operator: true },
] as const;

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
    const passwordHash = await hash(DEMO_PASSWORD);
    for (const [index, tenant] of DEMO_TENANTS.entries()) {
      const entity = await trx.insertInto('entities').values(tenant.entity).returning('id').executeTakeFirstOrThrow();
      await trx.insertInto('projects').values({ ...tenant.project, entity_id: entity.id }).execute();
      await seedEntityAcl(trx, entity.id);
      await seedEntityMasters(trx, entity.id);
      await seedEntityMailTemplates(trx, entity.id);
      await seedEntityPrintTemplates(trx, entity.id);
      await seedDemoMasterItems(trx, entity.id);
      await seedDemoForms(trx, entity.id);
      for (const role of DEMO_ROLES) await createRoleWithRules(trx, entity.id, role);
      const roles = new Map((await trx.selectFrom('acl_roles').where('entity_id', '=', entity.id).select(['id', 'code']).execute()).map((r) => [r.code, r.id]));
      for (const user of DEMO_USERS.filter((u) => u.tenant === index)) {
        await trx
          .insertInto('users')
          .values({
            entity_id: entity.id, email: user.email, name: user.name, docnumber: user.docnumber, role_id: roles.get(user.role) as number, password_hash: passwordHash,
            platform_operator: 'operator' in user && user.operator,
          })
          .execute();
      }
    }
    log(`seeded demo data: ${DEMO_TENANTS.map((t) => t.entity.name).join(', ')}`);
    return true;
  });
}
