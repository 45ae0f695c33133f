/**
 * The agencies' SQL: pending registrations (by their hashed token), what an
 * agency's docnumber and public address (slug) collide with, and the
 * operator's list and record. Every finder of the operator takes the actor
 * and checks it is one (policy.ts): a tenant's user reads nothing here.
 */
import { type Selectable, sql, type Transaction } from 'kysely';
import { AGENCY_PLANS, type AgencyPlanName, planName } from '../../../core/agencies.js';
import type { z } from 'zod';
import type { agencyListQuery } from '../../../core/api/agencies.js';
import type { Db } from '../../db/pool.js';
import type { Database, Entities } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { containsPattern, paginate } from '../../lib/list.js';
import type { Actor } from '../acl/policy.js';
import { assertOperator } from './policy.js';

type Executor = Db | Transaction<Database>;

// ---------------------------------------------------------------- names

/** The public address an agency named `name` gets (as migration 0022's `entity_slug` makes it, before any suffix); '' when the name has no letters or digits. */
export async function slugOf(db: Executor, name: string): Promise<string> {
  const { rows } = await sql<{ base: string }>`
    select trim(both '-' from left(trim(both '-' from regexp_replace(search_fold(${name}), '[^a-z0-9]+', '-', 'g')), 40)) as base`.execute(db);
  return rows[0]?.base ?? '';
}

/** What of an agency's identity another entity already holds: its docnumber first, then its address. */
export async function takenBy(db: Executor, docnumber: string, slug: string, exceptId?: number): Promise<'docnumber' | 'slug' | null> {
  let q = db
    .selectFrom('entities')
    .where((eb) => eb.or([eb(sql<string>`lower(docnumber)`, '=', docnumber.toLowerCase()), ...(slug ? [eb('slug', '=', slug)] : [])]))
    .select(['docnumber', 'slug']);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const rows = await q.execute();
  if (rows.some((r) => r.docnumber.toLowerCase() === docnumber.toLowerCase())) return 'docnumber';
  if (slug && rows.some((r) => r.slug === slug)) return 'slug';
  return null;
}

export async function assertIdentityFree(db: Executor, docnumber: string, slug: string, exceptId?: number): Promise<void> {
  const taken = await takenBy(db, docnumber, slug, exceptId);
  if (taken === 'docnumber') throw new AppError('AGENCY_DOCNUMBER_TAKEN', { docnumber });
  if (taken === 'slug') throw new AppError('AGENCY_NAME_TAKEN');
}

/** A project uid for the new agency's project: its address, or made unique with its id. */
export async function freeProjectUid(db: Executor, slug: string, entityId: number): Promise<string> {
  const base = slug && /^[a-z0-9]/.test(slug) ? slug.slice(0, 63) : `agency-${entityId}`;
  const taken = await db.selectFrom('projects').where('uid', '=', base).select('id').executeTakeFirst();
  return taken ? `${base.slice(0, 40)}-${entityId}` : base;
}

// ---------------------------------------------------------------- registrations

export interface NewRegistration {
  tokenHash: string;
  docnumber: string;
  name: string;
  slug: string;
  plan: 'standard' | 'premium';
  adminName: string;
  adminEmail: string;
  passwordHash: string;
  language: 'en' | 'es';
  expiresAt: Date;
}

export async function insertRegistration(db: Executor, r: NewRegistration): Promise<number> {
  const row = await db
    .insertInto('agency_registrations')
    .values({
      token_hash: r.tokenHash, docnumber: r.docnumber, name: r.name, slug: r.slug, plan: r.plan, admin_name: r.adminName,
      admin_email: r.adminEmail, password_hash: r.passwordHash, language: r.language, expires_at: r.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The registration of a link, locked for the transaction that uses it (a second click waits, then finds it used). */
export async function lockRegistration(trx: Transaction<Database>, tokenHash: string) {
  return trx.selectFrom('agency_registrations').where('token_hash', '=', tokenHash).selectAll().forUpdate().executeTakeFirst();
}

export async function markRegistrationUsed(trx: Transaction<Database>, id: number, entityId: number): Promise<void> {
  await trx.updateTable('agency_registrations').set({ used_at: new Date(), entity_id: entityId }).where('id', '=', id).execute();
}

/** Registrations sent to one address in the last hour (the form must not flood a mailbox). */
export async function recentRegistrations(db: Executor, email: string): Promise<number> {
  const { n } = await db
    .selectFrom('agency_registrations')
    .where(sql<string>`lower(admin_email)`, '=', email.toLowerCase())
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

// ---------------------------------------------------------------- the operator's list

type AgencyRow = Selectable<Entities> & { accounts_used: number | string };

function present(row: AgencyRow) {
  return {
    id: row.id,
    docnumber: row.docnumber,
    name: row.name,
    slug: row.slug,
    active: row.active,
    plan: planName(row.plan),
    accountLimit: row.account_limit,
    diskQuotaMb: row.disk_quota_mb,
    accountsUsed: Number(row.accounts_used),
    createdAt: row.created_at,
  };
}

function agencies(db: Executor) {
  return db
    .selectFrom('entities as e')
    .selectAll('e')
    .select((eb) => eb.selectFrom('users as u').whereRef('u.entity_id', '=', 'e.id').select((x) => x.fn.countAll<number>().as('n')).as('accounts_used'));
}

const SORTS = { name: 'e.name', docnumber: 'e.docnumber', created_at: 'e.created_at', plan: 'e.plan' } as const;

export async function listAgencies(db: Db, actor: Actor, query: z.output<typeof agencyListQuery>) {
  assertOperator(actor);
  let q = agencies(db);
  if (query.search) {
    const pattern = containsPattern(query.search);
    q = q.where((eb) => eb.or([eb('e.name', 'ilike', pattern), eb('e.docnumber', 'ilike', pattern), eb('e.slug', 'ilike', pattern)]));
  }
  if (query.state) q = q.where('e.active', '=', query.state === 'active');
  if (query.plan) q = q.where('e.plan', '=', AGENCY_PLANS[query.plan as AgencyPlanName].plan);
  const sort = SORTS[query.sortBy ?? 'name'];
  q = q.orderBy(sort, query.descending ? 'desc' : 'asc').orderBy('e.id');
  const { rows, total } = await paginate(q, query);
  return { items: rows.map((r) => present(r as AgencyRow)), total };
}

export async function findAgency(db: Executor, actor: Actor, id: number) {
  assertOperator(actor);
  const row = await agencies(db).where('e.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return present(row as AgencyRow);
}

export async function lockAgency(trx: Transaction<Database>, actor: Actor, id: number) {
  assertOperator(actor);
  const row = await trx.selectFrom('entities').where('id', '=', id).selectAll().forUpdate().executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}
