import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { type Actor, can } from '../modules/acl/policy.js';
import { actorForToken, SESSION_COOKIE } from '../modules/auth/sessions.js';
import type { Access } from './access.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Session cookie -> actor, then the route's declared access is enforced
 * before the body is even validated: 401 without a session, 403 without the
 * target's action. Writes from another site's page are refused (the cookie
 * is SameSite=Lax; this also covers older browsers).
 */
export function registerSession(app: FastifyInstance): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    if (UNSAFE.has(request.method) && typeof request.headers.origin === 'string') {
      let sameSite = false;
      try {
        const origin = new URL(request.headers.origin);
        sameSite = origin.host === request.headers.host || origin.origin === new URL(app.config.http.publicUrl).origin;
      } catch {
        sameSite = false;
      }
      if (!sameSite) throw new AppError('FORBIDDEN');
    }
    const token = request.cookies[SESSION_COOKIE];
    if (token) {
      const actor = await actorForToken(app.db, token);
      // The reader's language is the page's (its `lang` cookie), which may differ from the profile's: names stored in two languages follow it.
      const page = request.cookies?.lang;
      request.actor = actor && (page === 'en' || page === 'es') ? { ...actor, language: page, profileLanguage: actor.language } : (actor ?? null);
    }
    const access = (request.routeOptions.config as { access?: Access } | undefined)?.access;
    if (!access || access === 'public') return;
    if (!request.actor) throw new AppError('UNAUTHORIZED');
    if (access === 'operator') {
      if (!request.actor.platformOperator) throw new AppError('FORBIDDEN');
      return;
    }
    if (access !== 'session' && !can(request.actor, access.target, access.action)) throw new AppError('FORBIDDEN');
  });
}

/** The actor of a route that declared a session or a permission. */
export function actorOf(request: { actor: Actor | null }): Actor {
  if (!request.actor) throw new AppError('UNAUTHORIZED');
  return request.actor;
}
