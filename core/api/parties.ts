/**
 * The parties API's contract (issue 23): the people besides the applicant
 * who complete their side of an application by link (a landlord or property
 * manager, a utility, a co-signer, another third party). Submitting an
 * application turns each answer of a "party" form field whose role the
 * protocol lists into a party and invites them by email with a single-use,
 * expiring link (`/partes/invitacion/:token` in the browser); the link shows
 * who invites them (`partyInvitationSchema`), and accepting it while signed
 * in makes that user the party. From then on the party sees only their own
 * side (`myPartyRowSchema` for "My tenants' applications",
 * `partyPageSchema` for one): the case's public timeline, their role's form
 * (frozen with the protocol's version), the attestation they sign and their
 * deadline; they save a draft and submit once (`submitPartyBody`, with the
 * payment details when the role is paid). Staff who may read the case list
 * its parties (`casePartySchema`) and resend an invitation. Shared by the
 * server (its routes validate and serialise with these) and the browser
 * (types through `Wire`).
 */
import { z } from 'zod';
import { PUBLIC_STATUSES } from '../cases/portal.js';
import { formDataSchema } from '../forms/data.js';
import { PARTY_ROLES, PARTY_STATES, type PartyRole } from '../parties.js';
import { PAYMENT_METHODS, payeeDetailsSchema } from '../payments.js';
import { CASE_STATES } from '../workflow/states.js';
import { dayText, listQuery, listResponse } from './list.js';
import { publicTimelineSchema } from './cases.js';

/** An invitation token: 32 random bytes in base64url (256 bits), 43 characters; only its SHA-256 is stored. */
export const PARTY_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The browser's path of an invitation link (the email holds `PUBLIC_URL` + this). */
export const partyInvitationPath = (token: string) => `/partes/invitacion/${token}`;

/** Roles whose side carries payment details (the rent is paid to them). */
export const PAYING_ROLES: readonly PartyRole[] = ['landlord', 'property_manager'];
export const roleIsPaid = (role: PartyRole) => PAYING_ROLES.includes(role);

/** A programme's name in both languages (the protocol's). */
const bilingual = z.object({ en: z.string(), es: z.string() });

/** The attestation a party signed: the name they typed, the date they wrote, the text they signed (in the language shown) and when. */
export const partySignatureSchema = z.object({ name: z.string(), date: z.string(), text: z.string(), at: z.date() });

/** What staff may do on one party (the web shows buttons from it). */
export const PARTY_ACTIONS = ['resend'] as const;
export type PartyActionName = (typeof PARTY_ACTIONS)[number];

// ---------------------------------------------------------------- staff: a case's parties

/** One party as staff see it on the case page (GET /api/cases/:id/parties). */
export const casePartySchema = z.object({
  id: z.number(),
  caseId: z.number(),
  role: z.enum(PARTY_ROLES),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** The main form's field the applicant named them in (null: added otherwise). */
  field: z.string().nullable(),
  state: z.enum(PARTY_STATES),
  /** The user who accepted the link. */
  user: z.object({ id: z.number(), name: z.string(), email: z.string() }).nullable(),
  invitedAt: z.date().nullable(),
  /** When the current link stops working (null: no live link). */
  linkExpiresAt: z.date().nullable(),
  /** The party's deadline to submit (their role's `deadlineDays` from the first invitation). */
  deadlineAt: z.date().nullable(),
  joinedAt: z.date().nullable(),
  submittedAt: z.date().nullable(),
  lastRemindedAt: z.date().nullable(),
  /** Their form's frozen version, its definition (null: the role has no form) and what they entered (a draft until submitted). */
  formVersionId: z.number().nullable(),
  form: z.unknown().nullable(),
  values: z.record(z.string(), z.unknown()),
  signature: partySignatureSchema.nullable(),
  /** The payee their payment details made (issue 23's payments). */
  payeeId: z.number().nullable(),
  actions: z.array(z.enum(PARTY_ACTIONS)),
});
export type CaseParty = z.infer<typeof casePartySchema>;
export const casePartiesSchema = z.object({ items: z.array(casePartySchema) });

/** POST /api/cases/:id/parties/:partyId/resend: a new link by email; the old one stops working. */
export const casePartyParams = z.strictObject({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  partyId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

// ---------------------------------------------------------------- the link (public)

export const partyTokenParams = z.strictObject({ token: z.string().regex(PARTY_TOKEN, 'validation.pattern') });

/**
 * GET /api/parties/invitations/:token: who invites whom, for the link's page
 * before signing in. Only the applicant's first name leaves. A used link is
 * 410 PARTY_LINK_USED, an expired one 410 PARTY_LINK_EXPIRED, an unknown one
 * 404.
 */
export const partyInvitationSchema = z.object({
  entity: z.object({ name: z.string(), docnumber: z.string() }),
  /** The case's project (its uid): the sign-up and sign-in the page offers are that project's. */
  project: z.string(),
  programme: bilingual,
  role: z.enum(PARTY_ROLES),
  caseNumber: z.string().nullable(),
  applicantFirstName: z.string(),
  /** The name and email the applicant gave for the party (to fill the sign-up form). */
  partyName: z.string(),
  email: z.string(),
  expiresAt: z.date(),
  /** Always true on a 200 (a dead link answers 410); kept so the page need not infer it. */
  valid: z.boolean(),
});
export type PartyInvitation = z.infer<typeof partyInvitationSchema>;

/** POST /api/parties/invitations/:token/accept (signed in): the caller becomes the party; the link is used up. */
export const acceptedInvitationSchema = z.object({ partyId: z.number(), caseId: z.number() });

// ---------------------------------------------------------------- the party's side

/** GET /api/parties/mine: "My tenants' applications", one row per case the caller is a party of. */
export const myPartiesQuery = listQuery(['deadline_at', 'submitted_at', 'joined_at', 'case_number']).extend({
  state: z.enum(PARTY_STATES).optional(),
});
export const myPartyRowSchema = z.object({
  /** The party's id (their page is /api/parties/:id). */
  id: z.number(),
  role: z.enum(PARTY_ROLES),
  state: z.enum(PARTY_STATES),
  deadlineAt: z.date().nullable(),
  submittedAt: z.date().nullable(),
  caseNumber: z.string().nullable(),
  programme: bilingual,
  applicantName: z.string(),
  /** The rented address as the application gives it, when it does. */
  address: z.string().nullable(),
  /** Where the application stands, in the applicant portal's words. */
  caseStatus: z.enum(PUBLIC_STATUSES),
});
export type MyPartyRow = z.infer<typeof myPartyRowSchema>;
export const myPartiesSchema = listResponse(myPartyRowSchema);

export const PARTY_PAGE_ACTIONS = ['save', 'submit'] as const;

/** GET /api/parties/:id: one party's own side (never staff notes, never the applicant's form). */
export const partyPageSchema = z.object({
  id: z.number(),
  role: z.enum(PARTY_ROLES),
  state: z.enum(PARTY_STATES),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  deadlineAt: z.date().nullable(),
  submittedAt: z.date().nullable(),
  case: z.object({
    number: z.string().nullable(),
    state: z.enum(CASE_STATES),
    programme: bilingual,
    entity: z.object({ name: z.string() }),
    applicantFirstName: z.string(),
  }),
  timeline: publicTimelineSchema,
  /** Their role's form as the protocol froze it (null: the role has no form, only the attestation). */
  form: z.object({ versionId: z.number(), definition: z.unknown() }).nullable(),
  values: z.record(z.string(), z.unknown()),
  /** The text they sign, in both languages (the programme's). */
  attestation: bilingual,
  /** Whether submitting asks for payment details (landlord, property manager). */
  paymentRequired: z.boolean(),
  /** Payment details already given, masked (after submitting). */
  payment: z.object({ method: z.enum(PAYMENT_METHODS), account: z.string().nullable() }).nullable(),
  signature: partySignatureSchema.nullable(),
  actions: z.array(z.enum(PARTY_PAGE_ACTIONS)),
});
export type PartyPage = z.infer<typeof partyPageSchema>;

/** PUT /api/parties/:id/form: a draft of their form (not validated beyond its shape), any time before submitting. */
export const savePartyFormBody = z.strictObject({ values: formDataSchema });
export const savedPartyFormSchema = z.object({ id: z.number(), values: z.record(z.string(), z.unknown()) });

/** POST /api/parties/:id/submit: the form's values (checked with the frozen form), the attestation, and the payment details when the role is paid. */
export const submitPartyBody = z.strictObject({
  values: formDataSchema,
  attestation: z.strictObject({
    /** Must match the party's name, ignoring case and spaces. */
    name: z.string().trim().min(1, 'validation.required').max(200, 'validation.tooLong'),
    date: dayText,
  }),
  payment: payeeDetailsSchema.nullable().optional(),
});
export type SubmitPartyBody = z.input<typeof submitPartyBody>;
