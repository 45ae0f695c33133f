import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { type Actor, can } from '../modules/acl/policy.js';
import { actorForApiToken, actorForToken, SESSION_COOKIE } from '../modules/auth/sessions.js';
import type { Access } from './access.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** Only a signed-in person may call it, never an API token (a password change, making a token): 403 SESSION_ONLY. */
    sessionOnly?: boolean;
    /** The route reads `Authorization: Bearer` itself (the metrics' own token): no API token is looked up. */
    ownBearer?: boolean;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The token of `Authorization: Bearer <token>`; '' for a Bearer header without one; undefined without a Bearer header. */
function bearerOf(header: string | undefined): string | undefined {
  if (!header || !/^bearer(\s|$)/i.test(header)) return undefined;
  return header.slice(6).trim();
}

/**
 * Session cookie -> actor, then the route's declared access is enforced
 * before the body is even validated: 401 without a session, 403 without the
 * target's action. Writes from another site's page are refused (the cookie
 * is SameSite=Lax; this also covers older browsers).
 */
export function registerSession(app: FastifyInstance): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config as { access?: Access; sessionOnly?: boolean; ownBearer?: boolean } | undefined;
    const bearer = config?.ownBearer ? undefined : bearerOf(request.headers.authorization);
    if (bearer !== undefined) {
      // An API token (migration 0035) instead of the session cookie, which is then not read: no ambient credential, so no
      // Origin check. Unknown, malformed, expired, revoked, or its user blocked: the same 401 for each.
      request.actor = (await actorForApiToken(app.db, bearer)) ?? null;
      if (!request.actor) throw new AppError('UNAUTHORIZED');
      if (config?.sessionOnly) throw new AppError('SESSION_ONLY');
      if (request.actor.apiToken?.readOnly && !READS.has(request.method)) throw new AppError('TOKEN_READ_ONLY');
      return authorize(request, config?.access);
    }
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
    authorize(request, config?.access);
  });
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The route's declared access, enforced before its body is validated: 401 without an actor, 403 without the target's action. */
function authorize(request: FastifyRequest, access: Access | undefined): void {
  if (!access || access === 'public') return;
  if (!request.actor) throw new AppError('UNAUTHORIZED');
  if (access === 'operator') {
    if (!request.actor.platformOperator) throw new AppError('FORBIDDEN');
    return;
  }
  if (access !== 'session' && !can(request.actor, access.target, access.action)) throw new AppError('FORBIDDEN');
}

/** The actor of a route that declared a session or a permission. */
export function actorOf(request: { actor: Actor | null }): Actor {
  if (!request.actor) throw new AppError('UNAUTHORIZED');
  return request.actor;
}
