import type { FastifyInstance } from 'fastify';
import { VERSION_HEADER } from '../../core/version.js';
import { AppError } from '../errors.js';
import { type Lang, pickLanguage } from '../i18n.js';
import { APP_VERSION } from '../version.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The caller's language for messages, the version header on every response,
 * and the refusal of writes from a browser built for another version (it
 * reloads on the 409 and retries with the new code).
 */
export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (request) => {
    request.lang = pickLanguage(request.cookies?.lang, request.headers['accept-language']);
    const clientVersion = request.headers[VERSION_HEADER];
    if (typeof clientVersion === 'string' && clientVersion !== APP_VERSION && !SAFE_METHODS.has(request.method)) {
      throw new AppError('VERSION_MISMATCH');
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header(VERSION_HEADER, APP_VERSION);
  });
}
