/**
 * Agencies, as named verbs: register one (a pending registration and its
 * emailed link), confirm it (the whole tenant in one transaction, its
 * administrator signed in), and the operator's create and update. A tenant
 * starts as the demo's do (server/db/seed/demo.ts): the permission
 * catalogue and roles, the system masters, the default mail templates, a
 * default project named after the agency, and its print templates.
 */
import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import { AGENCY_PLANS, type AgencyPlanName, REGISTRATION_HOURS } from '../../../core/agencies.js';
import type { agencyCreateBody, agencyUpdateBody, registrationBody } from '../../../core/api/agencies.js';
import type { Db } from '../../db/pool.js';
import { createRoleWithRules, DEMO_ROLES, seedEntityAcl } from '../../db/seed/acl.js';
import { seedEntityDefaultItems, seedEntityMasters } from '../../db/seed/masters.js';
import { seedEntityPrintTemplates } from '../../db/seed/print-templates.js';
import { seedEntityMailTemplates } from '../../db/seed/templates.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import type { Actor } from '../acl/policy.js';
import { sendResetLink } from '../auth/commands.js';
import { accountByEmail } from '../auth/repo.js';
import { createSession } from '../auth/sessions.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { queueMail } from '../mail/outbox.js';
import { assertMayChangeState, assertOperator } from './policy.js';
import {
  assertIdentityFree,
  freeProjectUid,
  insertRegistration,
  lockAgency,
  lockRegistration,
  markRegistrationUsed,
  recentRegistrations,
  slugOf,
} from './repo.js';

type Trx = Transaction<Database>;
type RegistrationInput = Omit<z.output<typeof registrationBody>, 'captcha' | 'passwordConfirm'>;
interface MailEnv {
  publicUrl: string;
  smtpConfigured: boolean;
}

/** Registrations (and warnings) sent to one address in an hour, at most. */
const REGISTRATIONS_PER_HOUR = 5;

/**
 * Keeps a pending registration and emails its link in the registrant's
 * language. A docnumber or public address an entity already holds is
 * refused (409) before anything is kept. An address that already has an
 * account is told so by email, and nothing is kept: the answer is the same
 * as for a new address, so that the form tells nobody which addresses have
 * accounts.
 */
export async function registerAgency(db: Db, input: RegistrationInput, mail: MailEnv): Promise<void> {
  const slug = await slugOf(db, input.name);
  await assertIdentityFree(db, input.docnumber, slug);
  // Hashed whatever follows, so a known address answers as slowly as a new one.
  const passwordHash = await hash(input.password);
  const email = input.email.trim();
  if ((await recentRegistrations(db, email)) >= REGISTRATIONS_PER_HOUR) return;
  const { token, hash: tokenHash } = newToken();
  const lang = input.language;
  await db.transaction().execute(async (trx) => {
    const owner = await accountByEmail(trx, email);
    if (owner) {
      await queueMail(
        trx,
        {
          entityId: null,
          to: owner.email,
          subject: translate(owner.language, 'agencyMail.exists.subject'),
          text: translate(owner.language, 'agencyMail.exists.body', { name: input.adminName, agency: input.name, link: `${mail.publicUrl}/user/recovery-password` }),
        },
        mail.smtpConfigured,
      );
      // Counted like a registration, so the warnings stop too.
      await insertRegistration(trx, { ...registration(input, slug, email, passwordHash, newToken().hash), expiresAt: new Date() });
      return;
    }
    await insertRegistration(trx, registration(input, slug, email, passwordHash, tokenHash));
    await queueMail(
      trx,
      {
        entityId: null,
        to: email,
        subject: translate(lang, 'agencyMail.confirm.subject', { agency: input.name }),
        text: translate(lang, 'agencyMail.confirm.body', {
          name: input.adminName,
          agency: input.name,
          docnumber: input.docnumber,
          plan: translate(lang, `agencies.plans.${input.plan}`),
          link: `${mail.publicUrl}/registro-entidad/confirmar/${token}`,
          hours: REGISTRATION_HOURS,
        }),
      },
      mail.smtpConfigured,
    );
  });
}

function registration(input: RegistrationInput, slug: string, email: string, passwordHash: string, tokenHash: string) {
  return {
    tokenHash,
    docnumber: input.docnumber,
    name: input.name,
    slug,
    plan: input.plan as AgencyPlanName,
    adminName: input.adminName,
    adminEmail: email,
    passwordHash,
    language: input.language,
    expiresAt: new Date(Date.now() + REGISTRATION_HOURS * 3600_000),
  };
}

export interface TenantInput {
  docnumber: string;
  name: string;
  /** The public address; empty lets the database choose one from the name. */
  slug: string;
  plan: AgencyPlanName;
  accountLimit?: number;
  diskQuotaMb?: number;
  active?: boolean;
  language: 'en' | 'es';
}

/**
 * A tenant as every tenant starts (the demo's shape, without its sample
 * data), inside the caller's transaction: the entity, the permission
 * catalogue and roles, the masters, the mail and print templates, and a
 * default project named after it. The caller's transaction makes it all or
 * nothing.
 */
export async function provisionTenant(trx: Trx, input: TenantInput): Promise<{ entityId: number; projectId: number; projectUid: string }> {
  await assertIdentityFree(trx, input.docnumber, input.slug);
  const plan = AGENCY_PLANS[input.plan];
  const entity = await trx
    .insertInto('entities')
    .values({
      docnumber: input.docnumber,
      name: input.name,
      ...(input.slug ? { slug: input.slug } : {}),
      active: input.active ?? true,
      plan: plan.plan,
      account_limit: input.accountLimit ?? plan.accountLimit,
      disk_quota_mb: input.diskQuotaMb ?? plan.diskQuotaMb,
    })
    .returning(['id', 'slug'])
    .executeTakeFirstOrThrow();
  const uid = await freeProjectUid(trx, entity.slug, entity.id);
  // Title, default colours (the table's defaults), the registrant's language; never the default project of the whole server.
  const project = await trx
    .insertInto('projects')
    .values({ entity_id: entity.id, uid, title: input.name, language: input.language, is_default: false })
    .returning('id')
    .executeTakeFirstOrThrow();
  await seedEntityAcl(trx, entity.id);
  await seedEntityMasters(trx, entity.id);
  await seedEntityDefaultItems(trx, entity.id);
  await seedEntityMailTemplates(trx, entity.id);
  for (const role of DEMO_ROLES) await createRoleWithRules(trx, entity.id, role);
  await seedEntityPrintTemplates(trx, entity.id);
  return { entityId: entity.id, projectId: project.id, projectUid: uid };
}

/**
 * Uses a registration link: in one transaction the tenant (provisionTenant),
 * its administrator with the super-admin role, the link marked used, and the
 * administrator's session. A link used before is REGISTRATION_USED, an
 * expired one REGISTRATION_EXPIRED; a docnumber or address taken since, or
 * any failure on the way, leaves nothing behind.
 */
export async function confirmRegistration(db: Db, token: string): Promise<{ sessionToken: string; entity: { docnumber: string; name: string }; project: string }> {
  return db.transaction().execute(async (trx) => {
    const reg = await lockRegistration(trx, hashToken(token));
    if (!reg) throw new AppError('REGISTRATION_NOT_FOUND');
    if (reg.used_at) throw new AppError('REGISTRATION_USED');
    if (reg.expires_at.getTime() <= Date.now()) throw new AppError('REGISTRATION_EXPIRED');
    const tenant = await provisionTenant(trx, { docnumber: reg.docnumber, name: reg.name, slug: reg.slug, plan: reg.plan, language: reg.language });
    const role = await trx.selectFrom('acl_roles').where('entity_id', '=', tenant.entityId).where('code', '=', 'super-admin').select('id').executeTakeFirstOrThrow();
    const user = await trx
      .insertInto('users')
      .values({ entity_id: tenant.entityId, email: reg.admin_email, name: reg.admin_name, role_id: role.id, password_hash: reg.password_hash, language: reg.language })
      .returning('id')
      .executeTakeFirstOrThrow();
    await markRegistrationUsed(trx, reg.id, tenant.entityId);
    const project = await trx.selectFrom('projects').where('id', '=', tenant.projectId).select('idle_timeout_seconds').executeTakeFirstOrThrow();
    const sessionToken = await createSession(trx, user.id, tenant.projectId, project.idle_timeout_seconds);
    return { sessionToken, entity: { docnumber: reg.docnumber, name: reg.name }, project: tenant.projectUid };
  });
}

// ---------------------------------------------------------------- the operator

/**
 * The operator's new agency (provisionTenant) and its first administrator,
 * in one transaction; then the administrator is emailed a link to choose a
 * password (the password-reset link: until then the account has a random
 * password nobody knows). An email already taken is EMAIL_TAKEN, nothing made.
 */
export async function createAgency(db: Db, actor: Actor, body: z.output<typeof agencyCreateBody>, mail: MailEnv): Promise<number> {
  assertOperator(actor);
  const unusable = await hash(randomBytes(32).toString('base64url'));
  const admin = await db.transaction().execute(async (trx) => {
    const slug = await slugOf(trx, body.name);
    const tenant = await provisionTenant(trx, {
      docnumber: body.docnumber,
      name: body.name,
      slug,
      plan: body.plan as AgencyPlanName,
      accountLimit: body.accountLimit,
      diskQuotaMb: body.diskQuotaMb,
      active: body.active,
      language: actor.language,
    });
    const role = await trx.selectFrom('acl_roles').where('entity_id', '=', tenant.entityId).where('code', '=', 'super-admin').select('id').executeTakeFirstOrThrow();
    return trx
      .insertInto('users')
      .values({ entity_id: tenant.entityId, email: body.adminEmail, name: body.adminName, role_id: role.id, password_hash: unusable, language: actor.language })
      .returning(['id', 'entity_id', 'email', 'name', 'language'])
      .executeTakeFirstOrThrow();
  });
  await sendResetLink(db, admin, mail.publicUrl, mail.smtpConfigured);
  return admin.entity_id;
}

/**
 * Name, state, plan and limits. Deactivating an agency ends its users'
 * sessions at their next request and refuses their sign-in, and its public
 * pages answer 404 (all of which follow `entities.active`).
 */
export async function updateAgency(db: Db, actor: Actor, id: number, body: z.output<typeof agencyUpdateBody>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await lockAgency(trx, actor, id);
    assertMayChangeState(actor, id, body.active, current.active);
    await trx
      .updateTable('entities')
      .set({ name: body.name, active: body.active, plan: AGENCY_PLANS[body.plan as AgencyPlanName].plan, account_limit: body.accountLimit, disk_quota_mb: body.diskQuotaMb })
      .where('id', '=', id)
      .execute();
    // Signed-in users of a deactivated agency are sent away at once, not at their next request only.
    if (!body.active && current.active) await trx.deleteFrom('sessions').where('user_id', 'in', (eb) => eb.selectFrom('users').where('entity_id', '=', id).select('id')).execute();
  });
}
