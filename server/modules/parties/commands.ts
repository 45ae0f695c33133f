/**
 * What changes a case's parties (issue 23), as named verbs, each one
 * transaction taking the actor (or the system) first:
 *
 * - `inviteCaseParties`: inside a case's submission (cases/commands.ts
 *   `submitCaseInTrx`), each answer of a "party" field whose role the
 *   protocol lists becomes a party, invited by email with a single-use link
 *   (256 random bits, kept as SHA-256) that ends at their role's deadline.
 * - `resendInvitation`: staff send a new link; the old one is dead.
 * - `acceptInvitation`: a signed-in user of the tenant becomes the party; the
 *   link is spent (a second use is 410, nothing changes).
 * - `savePartyForm`, `submitParty`: the party's draft and their submission
 *   (values checked with their role's frozen form, their own uploads only,
 *   the attestation's name, payment details for a paid role through the
 *   payments module's `savePayeeDetails`), recorded in the case history and
 *   told to the staff working the case.
 * - `sweepParties`: the minute job: reminders every `remindEveryDays`, and at
 *   the deadline the party expires (history; `party_deadline_pay_tenant`
 *   when the protocol pays the tenant then).
 * The engine's wait and the award's default payee read where a case's
 * parties stand through waiting.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { type PartyInvitation, type PartyPage, partyInvitationPath, roleIsPaid, type SubmitPartyBody } from '../../../core/api/parties.js';
import { formatDate } from '../../../core/dates.js';
import { partyAnswers } from '../../../core/forms/data.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import { validateForm } from '../../../core/forms/validator.js';
import type { PartyRole } from '../../../core/parties.js';
import { maskAccount, payeeDetailsSchema } from '../../../core/payments.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import type { Actor, Doer } from '../acl/policy.js';
import { recordEvent } from '../cases/history.js';
import { timelineOf } from '../cases/portal.js';
import { masterOptionValues } from '../forms/options.js';
import { queueMail } from '../mail/outbox.js';
import { notify, type NotifyEnv } from '../notifications/commands.js';
import { caseNoticeFacts } from '../notifications/repo.js';
import { savePayeeDetails } from '../payments/commands.js';
import { renderTemplate } from '../templates/commands.js';
import { assertMayManageParties, assertMayWork, partyPageActions } from './policy.js';
import {
  findInvitation,
  findOwnParty,
  foreignFiles,
  hashToken,
  insertInvitedParty,
  lockCaseParty,
  type PartyRow,
  programmeOf,
  signatureOf,
  claimWaitingParties,
  updateParty,
} from './repo.js';

type Trx = Transaction<Database>;
type Lang = 'en' | 'es';
export interface PartiesEnv extends NotifyEnv {
  afterMail?: () => void;
}

const DAY = 24 * 3600 * 1000;
const newToken = () => randomBytes(32).toString('base64url');
type PartySetting = ProtocolDefinition['parties'][number];
const settingOf = (def: ProtocolDefinition, role: PartyRole): PartySetting | undefined => (def.parties ?? []).find((p) => p.role === role);

async function protocolDef(db: Db | Trx, versionId: number | null): Promise<ProtocolDefinition> {
  if (!versionId) throw new AppError('NOT_FOUND');
  const row = await db.selectFrom('protocol_versions').where('id', '=', versionId).select('definition').executeTakeFirstOrThrow();
  return row.definition as ProtocolDefinition;
}

async function projectFacts(db: Db | Trx, projectId: number) {
  return db.selectFrom('projects').where('id', '=', projectId).select(['language', 'time_zone']).executeTakeFirstOrThrow();
}

/** The invitation (or a reminder) in the party's language, queued in the caller's transaction. */
async function mailParty(
  trx: Trx,
  env: NotifyEnv,
  p: Pick<PartyRow, 'id' | 'entity_id' | 'case_id' | 'role' | 'name' | 'email' | 'language' | 'user_id' | 'deadline_at'>,
  event: 'party_invited' | 'party_reminder',
  link: string,
  timeZone: string,
): Promise<void> {
  const c = await caseNoticeFacts(trx, p.entity_id, p.case_id);
  const lang = p.language;
  const mail = await renderTemplate(trx, p.entity_id, event, lang, {
    recipientName: p.name,
    caseNumber: c.serial ?? `#${c.id}`,
    applicantFirstName: c.firstName,
    applicantName: c.firstName,
    programTitle: c.title,
    supportPhone: c.supportPhone,
    dueDate: p.deadline_at ? formatDate(p.deadline_at, timeZone) : '',
    partyRole: translate(lang, `parties.role.${p.role}`),
    recordLink: `${env.publicUrl}${link}`,
  });
  await queueMail(trx, { entityId: p.entity_id, to: p.email, subject: mail.subject, html: mail.html, text: mail.text, caseId: p.case_id, userId: p.user_id, event }, env.smtpConfigured);
}

// ---------------------------------------------------------------- invitations

/**
 * Invites the parties a submitted application names (the caller's
 * transaction: the case's submission). Answers of a role the protocol does
 * not list are left as answers. Returns the parties made.
 */
export async function inviteCaseParties(
  trx: Trx,
  env: NotifyEnv,
  doer: Doer,
  c: { id: number; entity_id: number; project_id: number; serial: string | null },
  def: ProtocolDefinition,
  formVersionId: number,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<number[]> {
  if (!def.parties?.length) return [];
  const form = await formOf(trx, formVersionId);
  const answers = partyAnswers(form?.definition.fields ?? [], data).filter((a) => settingOf(def, a.role));
  if (answers.length === 0) return [];
  const project = await projectFacts(trx, c.project_id);
  const made: number[] = [];
  for (const a of answers) {
    const setting = settingOf(def, a.role) as PartySetting;
    const token = newToken();
    const expiresAt = new Date(now.getTime() + setting.deadlineDays * DAY);
    const language = project.language as Lang;
    const id = await insertInvitedParty(trx, {
      entityId: c.entity_id, caseId: c.id, role: a.role, name: a.name, email: a.email, phone: a.phone, field: a.field, language,
      formVersionId: setting.formVersionId ?? null, tokenHash: hashToken(token), invitedAt: now, expiresAt,
    });
    if (id === null) continue;
    made.push(id);
    await recordEvent(trx, { entityId: c.entity_id, caseId: c.id, doer, number: c.serial, action: 'party_invited', type: 'case', detail: { party: id, role: a.role, name: a.name } });
    await mailParty(trx, env, { id, entity_id: c.entity_id, case_id: c.id, role: a.role, name: a.name, email: a.email, language, user_id: null, deadline_at: expiresAt }, 'party_invited', partyInvitationPath(token), project.time_zone);
  }
  return made;
}

/** Staff send a party a new link (the old one stops working); an expired party gets a new deadline from now. */
export async function resendInvitation(db: Db, env: PartiesEnv, actor: Actor, caseId: number, partyId: number, now = new Date()): Promise<void> {
  assertMayManageParties(actor);
  await db.transaction().execute(async (trx) => {
    const p = await lockCaseParty(trx, actor, caseId, partyId);
    const c = await trx.selectFrom('cases').where('id', '=', p.case_id).select(['state', 'serial', 'protocol_version_id', 'project_id']).executeTakeFirstOrThrow();
    if (c.state !== 'PENDING' || p.state === 'submitted' || p.state === 'joined') throw new AppError('PARTY_NOT_INVITABLE');
    const setting = settingOf(await protocolDef(trx, c.protocol_version_id), p.role);
    const renewed = p.state === 'expired' || !p.deadline_at || p.deadline_at <= now;
    const deadline = renewed ? new Date(now.getTime() + (setting?.deadlineDays ?? 14) * DAY) : (p.deadline_at as Date);
    const token = newToken();
    await updateParty(trx, p.id, {
      state: 'invited', token_hash: hashToken(token), invited_at: p.invited_at ?? now, link_expires_at: deadline, link_used_at: null, deadline_at: deadline,
      expired_at: null, reminded_at: now,
    });
    await recordEvent(trx, { entityId: p.entity_id, caseId: p.case_id, doer: actor, number: c.serial, action: 'party_reinvited', type: 'case', detail: { party: p.id, role: p.role, name: p.name } });
    const project = await projectFacts(trx, c.project_id);
    await mailParty(trx, env, { ...p, deadline_at: deadline }, 'party_invited', partyInvitationPath(token), project.time_zone);
  });
  env.afterMail?.();
}

/** The party a live link names, or the link's own refusal: unknown 404, spent 410 PARTY_LINK_USED, past its end 410 PARTY_LINK_EXPIRED. */
function liveInvitation<T extends { party: PartyRow; case_state: string }>(row: T | undefined, now: Date): T {
  if (!row) throw new AppError('NOT_FOUND');
  const p = row.party;
  if (p.link_used_at || p.state === 'joined' || p.state === 'submitted') throw new AppError('PARTY_LINK_USED');
  if (p.state === 'expired' || !p.link_expires_at || p.link_expires_at <= now || row.case_state !== 'PENDING') throw new AppError('PARTY_LINK_EXPIRED');
  return row;
}

/** GET /api/parties/invitations/:token: who invites whom (the applicant's first name only). */
export async function invitationOf(db: Db, token: string, now = new Date()): Promise<PartyInvitation> {
  const row = liveInvitation(await findInvitation(db, token), now);
  return {
    entity: { name: row.entity_name, docnumber: row.docnumber },
    project: row.project_uid,
    programme: programmeOf(row),
    role: row.party.role,
    caseNumber: row.serial,
    applicantFirstName: row.applicant_first_name,
    partyName: row.party.name,
    email: row.party.email,
    expiresAt: row.party.link_expires_at as Date,
    valid: true,
  };
}

/** The signed-in user becomes the party the link names; the link is spent. Another tenant's user is told nothing (404). */
export async function acceptInvitation(db: Db, actor: Actor, token: string, now = new Date()): Promise<{ partyId: number; caseId: number }> {
  return db.transaction().execute(async (trx) => {
    const row = liveInvitation(await findInvitation(trx, token, true), now);
    const p = row.party;
    if (p.entity_id !== actor.entityId) throw new AppError('NOT_FOUND');
    // The applicant cannot stand in for their own landlord.
    if (row.owner_id === actor.userId) throw new AppError('PARTY_IS_APPLICANT');
    // The hash stays: the spent link then answers 410, not 404.
    await updateParty(trx, p.id, { state: 'joined', user_id: actor.userId, link_used_at: now, joined_at: now });
    await recordEvent(trx, { entityId: p.entity_id, caseId: p.case_id, doer: actor, number: row.serial, action: 'party_joined', type: 'case', detail: { party: p.id, role: p.role } });
    return { partyId: p.id, caseId: p.case_id };
  });
}

// ---------------------------------------------------------------- the party's side

async function formOf(db: Db | Trx, versionId: number | null): Promise<{ versionId: number; definition: FormDefinition } | null> {
  if (!versionId) return null;
  const row = await db.selectFrom('form_versions').where('id', '=', versionId).select(['id', 'definition']).executeTakeFirst();
  return row ? { versionId: row.id, definition: row.definition as FormDefinition } : null;
}

/** GET /api/parties/:id: the party's own side of a case. */
export async function partyPage(db: Db, actor: Actor, id: number, now = new Date()): Promise<PartyPage> {
  const row = await findOwnParty(db, actor, id);
  const p = row.party;
  const [timeline, form, def, payee] = await Promise.all([
    timelineOf(db, actor.entityId, { id: p.case_id, state: row.case_state, owner_id: row.owner_id, updated_at: row.case_updated_at }),
    formOf(db, p.form_version_id),
    protocolDef(db, row.protocol_version_id),
    p.payee_id
      ? db.selectFrom('payees').where('entity_id', '=', actor.entityId).where('id', '=', p.payee_id).select(['method', 'account_last4']).executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  const setting = settingOf(def, p.role);
  return {
    id: p.id,
    role: p.role,
    state: p.state,
    name: p.name,
    email: p.email,
    phone: p.phone,
    deadlineAt: p.deadline_at,
    submittedAt: p.submitted_at,
    case: {
      number: row.serial,
      state: row.case_state as PartyPage['case']['state'],
      programme: programmeOf(row),
      entity: { name: row.entity_name },
      applicantFirstName: row.applicant_first_name,
    },
    timeline,
    form,
    values: p.data ?? {},
    attestation: { en: setting?.attestation.en ?? '', es: setting?.attestation.es ?? '' },
    paymentRequired: roleIsPaid(p.role),
    payment: payee ? { method: payee.method as 'ach' | 'check', account: payee.account_last4 ? maskAccount(payee.account_last4) : null } : null,
    signature: signatureOf(p),
    actions: partyPageActions({ state: p.state, caseState: row.case_state, deadlineAt: p.deadline_at }, now),
  };
}

/** The file ids a form's values hold (`{ id }` at any depth, as file fields keep them). */
function fileIdsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) fileIdsIn(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.id === 'string' && typeof o.name === 'string') out.push(o.id);
    else for (const v of Object.values(o)) fileIdsIn(v, out);
  }
  return out;
}

/** A party may put on their side only files they uploaded themselves in the tenant (or already there): any other id is refused. */
async function assertOwnFiles(trx: Trx, actor: Actor, p: PartyRow, values: Record<string, unknown>, lang: Lang): Promise<void> {
  const foreign = await foreignFiles(trx, actor, fileIdsIn(values), new Set(fileIdsIn(p.data ?? {})));
  if (foreign.length) throw new AppError('VALIDATION', {}, [{ path: 'values', message: translate(lang, 'parties.errors.notYourFile') }]);
}

/** PUT /api/parties/:id/form: the party's draft, as typed (checked when submitted). */
export async function savePartyForm(db: Db, actor: Actor, id: number, values: Record<string, unknown>, lang: Lang, now = new Date()): Promise<{ id: number; values: Record<string, unknown> }> {
  return db.transaction().execute(async (trx) => {
    const row = await findOwnParty(trx, actor, id, true);
    assertMayWork({ state: row.party.state, caseState: row.case_state, deadlineAt: row.party.deadline_at }, now);
    await assertOwnFiles(trx, actor, row.party, values, lang);
    await updateParty(trx, row.party.id, { data: JSON.stringify(values) });
    return { id: row.party.id, values };
  });
}

/** Names compared as people type them: case, accents' absence aside, and spaces do not count. */
export const sameName = (a: string, b: string) => {
  const norm = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[\s.,'’-]+/g, '');
  return norm(a) !== '' && norm(a) === norm(b);
};

/** POST /api/parties/:id/submit: the party's side, checked, signed and sent once. */
export async function submitParty(db: Db, env: PartiesEnv, actor: Actor, id: number, body: SubmitPartyBody, lang: Lang, now = new Date()): Promise<PartyPage> {
  await db.transaction().execute(async (trx) => {
    const row = await findOwnParty(trx, actor, id, true);
    const p = row.party;
    assertMayWork({ state: p.state, caseState: row.case_state, deadlineAt: p.deadline_at }, now);
    // Their form, as the protocol froze it; no form: nothing but the attestation.
    const form = await formOf(trx, p.form_version_id);
    let values: Record<string, unknown> = {};
    if (form) {
      const checked = validateForm(form.definition, body.values, { role: actor.role.code, options: await masterOptionValues(trx, actor.entityId, form.definition) });
      if (!checked.success) throw new AppError('VALIDATION', {}, checked.issues.map((i) => ({ path: `values.${i.path}`, message: translate(lang, i.key, i.params) })));
      values = checked.data;
    }
    await assertOwnFiles(trx, actor, p, values, lang);
    if (!sameName(body.attestation.name, p.name)) throw new AppError('PARTY_ATTESTATION_NAME', { name: p.name });
    const def = await protocolDef(trx, row.protocol_version_id);
    const setting = settingOf(def, p.role);
    const text = (lang === 'es' ? setting?.attestation.es || setting?.attestation.en : setting?.attestation.en || setting?.attestation.es) ?? '';
    let payeeId = p.payee_id;
    if (roleIsPaid(p.role)) {
      if (!body.payment) throw new AppError('VALIDATION', {}, [{ path: 'payment', message: translate(lang, 'validation.required') }]);
      const details = payeeDetailsSchema.parse(body.payment);
      payeeId = await savePayeeDetails(trx, actor, { ...details, entityId: p.entity_id, kind: 'landlord', caseId: p.case_id, partyId: p.id, userId: actor.userId, payeeId: p.payee_id });
    }
    await updateParty(trx, p.id, {
      state: 'submitted', data: JSON.stringify(values), submitted_at: now, payee_id: payeeId,
      attestation_name: body.attestation.name.trim(), attestation_date: body.attestation.date, attestation_text: text, attested_at: now,
    });
    await recordEvent(trx, { entityId: p.entity_id, caseId: p.case_id, doer: actor, number: row.serial, action: 'party_submitted', type: 'case', detail: { party: p.id, role: p.role, name: p.name, by: actor.name } });
    // The staff working the case: the responsibles of its open tasks.
    const staff = await trx
      .selectFrom('tasks')
      .where('entity_id', '=', p.entity_id)
      .where('case_id', '=', p.case_id)
      .where('state', 'in', ['UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY'])
      .where('responsible_user_id', 'is not', null)
      .select('responsible_user_id')
      .distinct()
      .execute();
    const to = staff.map((s) => s.responsible_user_id as number).filter((u) => u !== row.owner_id);
    if (to.length) await notify(trx, env, { event: 'party_submitted', entityId: p.entity_id, caseId: p.case_id, byUserId: actor.userId, to, reason: translate(lang, `parties.role.${p.role}`) });
  });
  env.afterMail?.();
  return partyPage(db, actor, id, now);
}

// ---------------------------------------------------------------- waiting, the deadline, the sweep

/** Most parties one sweep looks at (the next minute takes the rest). */
const SWEEP_BATCH = 500;

/**
 * The parties' minute sweep: each party still to act is reminded every
 * `remindEveryDays` of their role (a joined party with a link to their page,
 * one not yet joined with a fresh link, the old one then dead), and past
 * their deadline is expired, recorded in the history, with
 * `party_deadline_pay_tenant` when the protocol then pays the tenant. Rows
 * are claimed with SKIP LOCKED, so two sweeps at once do each once.
 */
export async function sweepParties(db: Db, env: PartiesEnv, now = new Date()): Promise<{ reminded: number; expired: number }> {
  const counts = await db.transaction().execute(async (trx) => {
    let reminded = 0;
    let expired = 0;
    const rows = await claimWaitingParties(trx, now, SWEEP_BATCH);
    const defs = new Map<number, ProtocolDefinition>();
    for (const r of rows) {
      const p = r as unknown as PartyRow & { serial: string | null; case_state: string; protocol_version_id: number | null; project_id: number };
      if (p.case_state !== 'PENDING' && !(p.deadline_at && p.deadline_at <= now)) continue;
      const versionId = p.protocol_version_id ?? 0;
      if (!defs.has(versionId)) defs.set(versionId, await protocolDef(trx, p.protocol_version_id));
      const setting = settingOf(defs.get(versionId) as ProtocolDefinition, p.role);
      if (p.deadline_at && p.deadline_at <= now) {
        await updateParty(trx, p.id, { state: 'expired', expired_at: now });
        await recordEvent(trx, { entityId: p.entity_id, caseId: p.case_id, doer: null, number: p.serial, action: 'party_expired', type: 'case', detail: { party: p.id, role: p.role, name: p.name } });
        if (setting?.payTenantAfterDeadline) {
          await recordEvent(trx, { entityId: p.entity_id, caseId: p.case_id, doer: null, number: p.serial, action: 'party_deadline_pay_tenant', type: 'case', detail: { party: p.id, role: p.role } });
        }
        expired++;
        continue;
      }
      if (p.case_state !== 'PENDING' || !setting?.remindEveryDays) continue;
      const last = p.reminded_at ?? p.invited_at;
      if (!last || last.getTime() + setting.remindEveryDays * DAY > now.getTime()) continue;
      const project = await projectFacts(trx, p.project_id);
      let link = `/partes/${p.id}`;
      const set: Record<string, unknown> = { reminded_at: now };
      if (p.state === 'invited') {
        const token = newToken();
        link = partyInvitationPath(token);
        set.token_hash = hashToken(token);
      }
      await updateParty(trx, p.id, set);
      await mailParty(trx, env, p, 'party_reminder', link, project.time_zone);
      await recordEvent(trx, { entityId: p.entity_id, caseId: p.case_id, doer: null, number: p.serial, action: 'party_reminded', type: 'case', detail: { party: p.id, role: p.role } });
      reminded++;
    }
    return { reminded, expired };
  });
  if (counts.reminded) env.afterMail?.();
  return counts;
}
