/**
 * The parties of a case besides its applicant (issue 23): a landlord,
 * property manager, utility, co-signer or other third party named in the
 * application, invited by email when it is submitted (commands.ts).
 *
 * - Staff who may read a case list its parties and resend an invitation
 *   (`wf_casos show`, and staff: policy.ts).
 * - The link is public: it says who invites whom; a signed-in user (who may
 *   just have signed up through the public sign-up) accepts it and becomes
 *   the party.
 * - A party (any signed-in user: `session`) sees only their own rows
 *   ("My tenants' applications" and each one's page), saves a draft of their
 *   form and submits it once, signed. Anything not theirs is 404.
 *
 * Each handler declares its access, parses with schema.ts, calls one
 * function and presents the answer. No SQL here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { NO_INDEX } from '../projects/routes.js';
import { acceptInvitation, invitationOf, partyPage, resendInvitation, savePartyForm, submitParty } from './commands.js';
import { myPartiesList } from './list.js';
import { casePartiesOf } from './repo.js';
import { assertMayManageParties } from './policy.js';
import * as s from './schema.js';

export const partyRoutes: FastifyPluginAsyncZod = async (app) => {
  const readCase = { access: { target: 'wf_casos', action: 'show' } } as const;

  app.get(
    '/api/cases/:id/parties',
    { config: readCase, schema: { tags: ['parties'], summary: "A case's parties besides its applicant, their invitation and what they submitted (staff who may read the case)", params: s.idParams, response: { 200: s.casePartiesSchema } } },
    async (request) => {
      const actor = actorOf(request);
      assertMayManageParties(actor);
      return { items: await casePartiesOf(app.db, actor, request.params.id) };
    },
  );

  app.post(
    '/api/cases/:id/parties/:partyId/resend',
    {
      config: { ...readCase, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags: ['parties'], summary: 'Email the party a new invitation link (the one before stops working)', params: s.casePartyParams, response: { 200: s.casePartiesSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await resendInvitation(app.db, app.engine, actor, request.params.id, request.params.partyId);
      return { items: await casePartiesOf(app.db, actor, request.params.id) };
    },
  );

  app.get(
    '/api/parties/invitations/:token',
    {
      config: { access: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['parties'],
        summary: 'Who an invitation link is from (programme, role, case number, the applicant’s first name); 410 when used or expired, 404 when unknown',
        params: s.partyTokenParams,
        response: { 200: s.partyInvitationSchema },
      },
    },
    async (request, reply) => {
      reply.header('x-robots-tag', NO_INDEX).header('cache-control', 'no-store');
      return invitationOf(app.db, request.params.token);
    },
  );

  app.post(
    '/api/parties/invitations/:token/accept',
    {
      config: { access: 'session', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags: ['parties'], summary: 'The signed-in user becomes the party the link invites; the link is used up', params: s.partyTokenParams, response: { 200: s.acceptedInvitationSchema } },
    },
    async (request) => acceptInvitation(app.db, actorOf(request), request.params.token),
  );

  app.get(
    '/api/parties/mine',
    { config: { access: 'session' }, schema: { tags: ['parties'], summary: "My tenants' applications: every case the caller is a party of", querystring: s.myPartiesQuery, response: { 200: s.myPartiesSchema } } },
    async (request) => myPartiesList(app.db, actorOf(request), request.query),
  );

  app.get(
    '/api/parties/:id',
    { config: { access: 'session' }, schema: { tags: ['parties'], summary: "The caller's own side of a case: its public timeline, their form, the attestation, their deadline", params: s.idParams, response: { 200: s.partyPageSchema } } },
    async (request) => partyPage(app.db, actorOf(request), request.params.id),
  );

  app.put(
    '/api/parties/:id/form',
    {
      config: { access: 'session', accountLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { tags: ['parties'], summary: "Save a draft of the party's form (checked when submitted)", params: s.idParams, body: s.savePartyFormBody, response: { 200: s.savedPartyFormSchema } },
    },
    async (request) => savePartyForm(app.db, actorOf(request), request.params.id, request.body.values, request.lang),
  );

  app.post(
    '/api/parties/:id/submit',
    {
      config: { access: 'session', accountLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['parties'],
        summary: "Submit the party's side once: their form's values, the attestation (typed name, date), and payment details when the role is paid",
        params: s.idParams,
        body: s.submitPartyBody,
        response: { 200: s.partyPageSchema },
      },
    },
    async (request) => submitParty(app.db, app.engine, actorOf(request), request.params.id, request.body, request.lang),
  );
};
