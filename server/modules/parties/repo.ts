/**
 * The parties' SQL (issue 23). Every finder applies the tenant and the record
 * rule of policy.ts itself: staff reach a case's parties through the case's
 * visibility, a party reaches only their own rows, and the public link finds
 * its row by the token's hash alone (an active tenant, a case past its draft).
 * Rows become the API's shapes here.
 */
import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { CaseParty, MyPartyRow } from '../../../core/api/parties.js';
import type { PartyRole, PartyState } from '../../../core/parties.js';
import { REVIEW_ACTIONS } from '../../../core/cases/portal.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor, Doer } from '../acl/policy.js';
import { visibleCases } from '../cases/policy.js';
import { ownParties, partyActions } from './policy.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;

/** The SHA-256 of an invitation token (the only form in which it is kept). */
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** Columns of a party as the commands read it. */
const PARTY_COLUMNS = [
  'cp.id', 'cp.entity_id', 'cp.case_id', 'cp.role', 'cp.name', 'cp.email', 'cp.phone', 'cp.field', 'cp.state', 'cp.language', 'cp.user_id',
  'cp.invited_at', 'cp.link_expires_at', 'cp.link_used_at', 'cp.deadline_at', 'cp.joined_at', 'cp.submitted_at', 'cp.reminded_at',
  'cp.form_version_id', 'cp.data', 'cp.attestation_name', 'cp.attestation_text', 'cp.attested_at', 'cp.payee_id', 'cp.version',
] as const;

export interface PartyRow {
  id: number;
  entity_id: number;
  case_id: number;
  role: PartyRole;
  name: string;
  email: string;
  phone: string | null;
  field: string | null;
  state: PartyState;
  language: 'en' | 'es';
  user_id: number | null;
  invited_at: Date | null;
  link_expires_at: Date | null;
  link_used_at: Date | null;
  deadline_at: Date | null;
  joined_at: Date | null;
  submitted_at: Date | null;
  reminded_at: Date | null;
  form_version_id: number | null;
  data: Record<string, unknown>;
  attestation_name: string | null;
  attestation_date: string | null;
  attestation_text: string | null;
  attested_at: Date | null;
  payee_id: number | null;
  version: number;
}

const attestationDate = sql<string | null>`to_char(cp.attestation_date, 'YYYY-MM-DD')`.as('attestation_date');
const asRow = (r: unknown) => r as PartyRow;

// ---------------------------------------------------------------- writes

export interface NewParty {
  entityId: number;
  caseId: number;
  role: PartyRole;
  name: string;
  email: string;
  phone: string | null;
  field: string | null;
  language: 'en' | 'es';
  formVersionId: number | null;
  tokenHash: Buffer;
  invitedAt: Date;
  expiresAt: Date;
}

/** A party named in a submitted application, invited at once; an answer already made a party of that field is left (null). */
export async function insertInvitedParty(trx: Trx, p: NewParty): Promise<number | null> {
  const row = await trx
    .insertInto('case_parties')
    .values({
      entity_id: p.entityId, case_id: p.caseId, role: p.role, name: p.name, email: p.email, phone: p.phone, field: p.field, language: p.language,
      form_version_id: p.formVersionId, state: 'invited', token_hash: p.tokenHash, invited_at: p.invitedAt, link_expires_at: p.expiresAt, deadline_at: p.expiresAt,
    })
    .onConflict((oc) => oc.columns(['entity_id', 'case_id', 'field']).where('field', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export function updateParty(trx: Trx, id: number, set: Record<string, unknown>) {
  return trx
    .updateTable('case_parties')
    .set({ ...set, version: sql`version + 1`, updated_at: new Date() } as never)
    .where('id', '=', id)
    .returning(['id', 'version'])
    .executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------- staff

/** The case (past its draft) the staff member may read, locked or not; NOT_FOUND otherwise. */
export async function findStaffCase(db: Executor, actor: Actor, caseId: number, lock = false) {
  let q = db
    .selectFrom('cases as c')
    .where('c.id', '=', caseId)
    .where('c.entity_id', '=', actor.entityId)
    .where('c.state', '!=', 'DRAFT')
    .where(visibleCases(actor) as never)
    .select(['c.id', 'c.entity_id', 'c.project_id', 'c.protocol_version_id', 'c.owner_id', 'c.serial', 'c.state', 'c.data']);
  if (lock) q = q.forUpdate();
  const c = await q.executeTakeFirst();
  if (!c) throw new AppError('NOT_FOUND');
  return c;
}

/** GET /api/cases/:id/parties: the case's parties, as staff see them. */
export async function casePartiesOf(db: Db, actor: Actor, caseId: number): Promise<CaseParty[]> {
  const c = await findStaffCase(db, actor, caseId);
  const rows = await db
    .selectFrom('case_parties as cp')
    .leftJoin('users as u', 'u.id', 'cp.user_id')
    .where('cp.entity_id', '=', actor.entityId)
    .where('cp.case_id', '=', c.id)
    .select([...PARTY_COLUMNS, attestationDate, 'u.name as user_name', 'u.email as user_email'])
    .orderBy('cp.id')
    .execute();
  // Their role's forms as frozen, in one statement: the panel shows what they entered under the form's own labels.
  const versionIds = [...new Set(rows.flatMap((r) => (r.form_version_id === null ? [] : [r.form_version_id])))];
  const forms = new Map(
    (versionIds.length ? await db.selectFrom('form_versions').where('entity_id', '=', actor.entityId).where('id', 'in', versionIds).select(['id', 'definition']).execute() : []).map((f) => [f.id, f.definition]),
  );
  return rows.map((r) => {
    const p = asRow(r);
    return {
      id: p.id,
      caseId: p.case_id,
      role: p.role,
      name: p.name,
      email: p.email,
      phone: p.phone,
      field: p.field,
      state: p.state,
      user: p.user_id !== null && r.user_name !== null ? { id: p.user_id, name: r.user_name, email: r.user_email ?? '' } : null,
      invitedAt: p.invited_at,
      linkExpiresAt: p.link_used_at === null && p.state === 'invited' ? p.link_expires_at : null,
      deadlineAt: p.deadline_at,
      joinedAt: p.joined_at,
      submittedAt: p.submitted_at,
      lastRemindedAt: p.reminded_at,
      formVersionId: p.form_version_id,
      form: p.form_version_id === null ? null : (forms.get(p.form_version_id) ?? null),
      values: p.data ?? {},
      signature: signatureOf(p),
      payeeId: p.payee_id,
      actions: partyActions(actor, { state: p.state, caseState: c.state }),
    };
  });
}

/** One party of a case the staff member may read, locked; NOT_FOUND otherwise. */
export async function lockCaseParty(trx: Trx, actor: Actor, caseId: number, partyId: number): Promise<PartyRow> {
  await findStaffCase(trx, actor, caseId, true);
  const row = await trx
    .selectFrom('case_parties as cp')
    .where('cp.entity_id', '=', actor.entityId)
    .where('cp.case_id', '=', caseId)
    .where('cp.id', '=', partyId)
    .select([...PARTY_COLUMNS, attestationDate])
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return asRow(row);
}

export function signatureOf(p: Pick<PartyRow, 'attestation_name' | 'attestation_date' | 'attestation_text' | 'attested_at'>) {
  return p.attested_at && p.attestation_name !== null ? { name: p.attestation_name, date: p.attestation_date ?? '', text: p.attestation_text ?? '', at: p.attested_at } : null;
}

// ---------------------------------------------------------------- the link

/** The party a token names, with what the link's page shows; by the hash alone (the address names no tenant). */
export async function findInvitation(db: Executor, token: string, lock = false) {
  let q = db
    .selectFrom('case_parties as cp')
    .innerJoin('cases as c', (j) => j.onRef('c.id', '=', 'cp.case_id').onRef('c.entity_id', '=', 'cp.entity_id'))
    .innerJoin('entities as e', 'e.id', 'cp.entity_id')
    .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
    .innerJoin('projects as pr', 'pr.id', 'c.project_id')
    .where('cp.token_hash', '=', hashToken(token))
    .where('e.active', '=', true)
    .where('c.state', '!=', 'DRAFT')
    .select([
      ...PARTY_COLUMNS, attestationDate, 'c.serial', 'c.state as case_state', 'c.owner_id', 'e.name as entity_name', 'e.docnumber',
      'p.name as protocol_name', 'p.name_en as protocol_name_en', 'p.public_title_en', 'p.public_title_es', 'pr.uid as project_uid',
      sql<string>`coalesce(c.data->>'firstName', '')`.as('applicant_first_name'),
    ]);
  if (lock) q = q.forUpdate(['cp']);
  const row = await q.executeTakeFirst();
  return row && { ...row, party: asRow(row) };
}

export const programmeOf = (r: { protocol_name: string; protocol_name_en: string | null; public_title_en: string | null; public_title_es: string | null }) => ({
  es: r.public_title_es || r.protocol_name,
  en: r.public_title_en || r.protocol_name_en || r.protocol_name,
});

// ---------------------------------------------------------------- the party's own

const addressOf = sql<string | null>`nullif(trim(concat_ws(' ',
  coalesce(cp.data->>'propertyAddress', cp.data->>'address', c.data->>'propertyAddress', c.data->>'address', c.data->>'direccion'),
  coalesce(cp.data->>'unit', c.data->>'unit'))), '')`;

/** GET /api/parties/mine: every case the actor is a party of. */
export async function myParties(
  db: Db,
  actor: Actor,
  query: { page: number; limit: number; sortBy?: 'deadline_at' | 'submitted_at' | 'joined_at' | 'case_number'; descending?: boolean; search?: string; state?: PartyState },
): Promise<{ rows: Array<Omit<MyPartyRow, 'caseStatus'> & { caseId: number; caseState: string; reviewStarted: boolean }>; total: number }> {
  let q = db
    .selectFrom('case_parties as cp')
    .innerJoin('cases as c', (j) => j.onRef('c.id', '=', 'cp.case_id').onRef('c.entity_id', '=', 'cp.entity_id'))
    .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
    .where('cp.entity_id', '=', actor.entityId)
    .where(ownParties(actor) as never);
  if (query.state) q = q.where('cp.state', '=', query.state);
  if (query.search) {
    const like = `%${query.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q = q.where((eb) => eb.or([eb('c.serial', 'ilike', like), eb(sql`concat_ws(' ', c.data->>'firstName', c.data->>'lastName')`, 'ilike', like), eb(addressOf, 'ilike', like)]));
  }
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const sortColumn = query.sortBy === 'case_number' ? 'c.serial' : `cp.${query.sortBy ?? 'deadline_at'}`;
  const rows = await q
    .select([
      'cp.id', 'cp.role', 'cp.state', 'cp.deadline_at', 'cp.submitted_at', 'c.id as case_id', 'c.serial', 'c.state as case_state',
      'p.name as protocol_name', 'p.name_en as protocol_name_en', 'p.public_title_en', 'p.public_title_es',
      sql<string>`trim(concat_ws(' ', c.data->>'firstName', c.data->>'lastName'))`.as('applicant'),
      addressOf.as('address'),
      // The applicant portal's "in review": staff decided something on the case (core/cases/portal.ts REVIEW_ACTIONS).
      sql<boolean>`exists (select 1 from case_events e where e.entity_id = c.entity_id and e.case_id = c.id and e.action in (${sql.join(REVIEW_ACTIONS)}) and e.user_id is not null and e.user_id is distinct from c.owner_id)`.as('review_started'),
    ])
    .orderBy(sql.ref(sortColumn), sql.raw(query.descending ? 'desc nulls last' : 'asc nulls last'))
    .orderBy('cp.id', 'desc')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      role: r.role as PartyRole,
      state: r.state as PartyState,
      deadlineAt: r.deadline_at,
      submittedAt: r.submitted_at,
      caseNumber: r.serial,
      programme: programmeOf(r),
      applicantName: r.applicant,
      address: r.address,
      caseId: r.case_id,
      caseState: r.case_state,
      reviewStarted: r.review_started,
    })),
  };
}

/** One party row of the actor's own, with its case's facts; NOT_FOUND for anyone else's, a draft's, another tenant's. */
export async function findOwnParty(db: Executor, actor: Actor, id: number, lock = false) {
  let q = db
    .selectFrom('case_parties as cp')
    .innerJoin('cases as c', (j) => j.onRef('c.id', '=', 'cp.case_id').onRef('c.entity_id', '=', 'cp.entity_id'))
    .innerJoin('entities as e', 'e.id', 'cp.entity_id')
    .innerJoin('protocols as p', 'p.id', 'c.protocol_id')
    .where('cp.entity_id', '=', actor.entityId)
    .where('cp.id', '=', id)
    .where(ownParties(actor) as never)
    .where('c.state', '!=', 'DRAFT')
    .select([
      ...PARTY_COLUMNS, attestationDate, 'c.serial', 'c.state as case_state', 'c.owner_id', 'c.updated_at as case_updated_at', 'c.protocol_version_id', 'c.project_id',
      'e.name as entity_name', 'p.name as protocol_name', 'p.name_en as protocol_name_en', 'p.public_title_en', 'p.public_title_es',
      sql<string>`coalesce(c.data->>'firstName', '')`.as('applicant_first_name'),
    ]);
  if (lock) q = q.forUpdate(['cp']);
  const row = await q.executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return { ...row, party: asRow(row) };
}

/** The files the values name that are neither the party user's own uploads in the tenant nor already on their side. */
export async function foreignFiles(db: Executor, doer: Doer & { userId: number }, fileIds: string[], kept: Set<string>): Promise<string[]> {
  const asked = [...new Set(fileIds)].filter((id) => !kept.has(id));
  if (asked.length === 0) return [];
  const own = await db.selectFrom('files').where('entity_id', '=', doer.entityId).where('created_by', '=', doer.userId).where('id', 'in', asked).select('id').execute();
  const ok = new Set(own.map((f) => f.id));
  return asked.filter((id) => !ok.has(id));
}

// ---------------------------------------------------------------- the engine and the sweep

/** The parties of one role of a case (the engine's wait, the award's default payee). */
export function partiesOfRole(db: Executor, caseId: number, role: PartyRole) {
  return db.selectFrom('case_parties').where('case_id', '=', caseId).where('role', '=', role).select(['id', 'state', 'deadline_at', 'submitted_at']).execute();
}

/** Parties still to act whose reminder or deadline may be due, over every tenant, claimed (SKIP LOCKED) for one sweep. */
export function claimWaitingParties(trx: Trx, now: Date, limit: number) {
  return trx
    .selectFrom('case_parties as cp')
    .innerJoin('cases as c', (j) => j.onRef('c.id', '=', 'cp.case_id').onRef('c.entity_id', '=', 'cp.entity_id'))
    .where('cp.state', 'in', ['invited', 'joined'])
    .where('cp.deadline_at', 'is not', null)
    .where((eb) => eb.or([eb('cp.deadline_at', '<=', now), eb(sql`coalesce(cp.reminded_at, cp.invited_at)`, '<=', sql`${now}::timestamptz - interval '1 day'`)]))
    .select([...PARTY_COLUMNS, attestationDate, 'c.serial', 'c.state as case_state', 'c.protocol_version_id', 'c.project_id', 'c.owner_id'])
    .orderBy('cp.deadline_at')
    .limit(limit)
    .forUpdate(['cp'])
    .skipLocked()
    .execute();
}
