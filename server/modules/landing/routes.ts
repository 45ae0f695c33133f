/**
 * Landing pages (issue 20): a printable public page of one application at
 * `/landing/{entity docnumber}/{entity slug}/{code}`, opened in a new window.
 * Staff who may read a case make (or revoke) its link from the case page
 * (commands.ts); anyone with the address reads the page (page.ts), told to
 * search engines as not to be indexed, never cached. A wrong, revoked or
 * other-entity code is the same 404.
 *
 * Each handler declares its access, parses with schema.ts, calls one
 * function and presents the answer. No SQL here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/session.js';
import { NO_INDEX } from '../projects/routes.js';
import { createLandingLink, landingLinkState, revokeLandingLink } from './commands.js';
import { landingPage } from './page.js';
import * as s from './schema.js';

export const landingRoutes: FastifyPluginAsyncZod = async (app) => {
  const readCase = { access: { target: 'wf_casos', action: 'show' } } as const;

  app.get(
    '/api/cases/:id/landing-link',
    { config: readCase, schema: { tags: ['landing'], summary: "Whether the case has a live landing link (staff who may read it)", params: s.idParams, response: { 200: s.landingLinkStateSchema } } },
    async (request) => landingLinkState(app.db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/cases/:id/landing-link',
    {
      config: { ...readCase, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags: ['landing'], summary: 'A new landing link for the case (the one before stops working); its address is shown this once', params: s.idParams, response: { 201: s.landingLinkCreatedSchema } },
    },
    async (request, reply) => reply.status(201).send(await createLandingLink(app.db, actorOf(request), request.params.id)),
  );

  app.delete(
    '/api/cases/:id/landing-link',
    { config: readCase, schema: { tags: ['landing'], summary: "Revoke the case's landing link", params: s.idParams, response: { 200: s.landingLinkStateSchema } } },
    async (request) => revokeLandingLink(app.db, actorOf(request), request.params.id),
  );

  app.get(
    '/api/landing/:docnumber/:name/:code',
    {
      config: { access: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags: ['landing'], summary: "One application's public page, by its landing code; 404 for a wrong, revoked or other entity's code", params: s.landingPageParams, response: { 200: s.landingPageSchema } },
    },
    async (request, reply) => {
      reply.header('x-robots-tag', NO_INDEX).header('cache-control', 'no-store');
      return landingPage(app.db, request.params.docnumber, request.params.code);
    },
  );
};
