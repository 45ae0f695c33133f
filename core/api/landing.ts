/**
 * Landing pages (issue 20; spec: "Reports and landing pages
 * (landing/{entity docnumber}/{name}/{codeId}) open in a new window"): a
 * printable public page of one application, reached by an unguessable code.
 * Staff who may read the case create or revoke its link; the page shows what
 * the applicant's own view shows (cases/portal.ts), nothing more.
 */
import { z } from 'zod';
import { PUBLIC_EVENTS, PUBLIC_STATUSES } from '../cases/portal.js';

/** A code: 32 random bytes in base64url (256 bits), 43 characters. */
export const LANDING_CODE = /^[A-Za-z0-9_-]{43}$/;

/** The path of a landing page (the browser's route `/landing/:docnumber/:name/:code`). */
export const landingPath = (docnumber: string, name: string, code: string) =>
  `/landing/${encodeURIComponent(docnumber)}/${encodeURIComponent(name)}/${code}`;

/** GET /api/cases/:id/landing-link: whether the case has a live link (its code is shown once, when made). */
export const landingLinkStateSchema = z.object({ active: z.boolean(), createdAt: z.date().nullable() });
export type LandingLinkState = z.infer<typeof landingLinkStateSchema>;

/** POST /api/cases/:id/landing-link: a new link (any link before it stops working); its path holds the code, shown this once. */
export const landingLinkCreatedSchema = z.object({ active: z.literal(true), createdAt: z.date(), path: z.string() });
export type LandingLinkCreated = z.infer<typeof landingLinkCreatedSchema>;

export const landingPageParams = z.strictObject({
  docnumber: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'validation.pattern'),
  /** The entity's slug: only there to be read; the code and the docnumber decide. */
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'validation.pattern'),
  code: z.string().regex(LANDING_CODE, 'validation.pattern'),
});

/** GET /api/landing/:docnumber/:name/:code: the public page of one application. */
export const landingPageSchema = z.object({
  entity: z.object({ name: z.string(), docnumber: z.string(), logo: z.string().nullable() }),
  number: z.string().nullable(),
  programme: z.object({ en: z.string(), es: z.string() }),
  status: z.enum(PUBLIC_STATUSES),
  submittedAt: z.date().nullable(),
  updatedAt: z.date(),
  events: z.array(z.object({ kind: z.enum(PUBLIC_EVENTS), at: z.date(), documents: z.array(z.string()) })),
  requestedDocuments: z.array(z.object({ name: z.string() })),
});
export type LandingPage = z.infer<typeof landingPageSchema>;
