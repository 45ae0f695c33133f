import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type ErrorCode, errorCatalog } from '../../core/errors.js';
import { VERSION_HEADER } from '../../core/version.js';
import { uniqueViolation } from '../db/constraints.js';
import { isDatabaseUnavailable } from '../db/pool.js';
import { AppError } from '../errors.js';
import { pickLanguage, translate } from '../i18n.js';
import { APP_VERSION } from '../version.js';

/**
 * One mapping from anything thrown to `{ error: { code, message } }` with the
 * message in the caller's language. No stack trace or SQL reaches a client:
 * unexpected errors are logged with the request id and answered as INTERNAL.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const mapped = toAppError(error);
    // A database that is restarting is expected now and then: 503, a warning, and it recovers by itself.
    if (mapped.code === 'DB_UNAVAILABLE') request.log.warn(`the database is unavailable: ${error.message}`);
    // Likewise a file store out of reach (files/storage.ts keeps the cause; it names no secret).
    else if (mapped.code === 'FILE_STORE_UNAVAILABLE') request.log.warn(`the file store is unavailable: ${(mapped.cause as Error | undefined)?.message ?? 'unknown'}`);
    else if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ code: mapped.code }, 'request refused'); // the access line has the status
    return sendError(request, reply, mapped);
  });
}

/**
 * What the router refuses before any hook runs (a path with a broken
 * %-escape, a parameter longer than maxParamLength): answered in the same
 * shape and language as every other error, not Fastify's own.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // No hook has run: the language and the version header are set here.
  request.lang = pickLanguage(/(?:^|;\s*)lang=(\w+)/.exec(request.headers.cookie ?? '')?.[1], request.headers['accept-language']);
  reply.header(VERSION_HEADER, APP_VERSION);
  const mapped = error.code === 'FST_ERR_ASYNC_CONSTRAINT' ? new AppError('INTERNAL') : new AppError('BAD_REQUEST');
  if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.debug({ code: error.code }, 'request refused');
  return sendError(request, reply, mapped);
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  let params = error.params;
  let details = error.details;
  if (Array.isArray(details)) {
    // Shared schemas carry i18n keys as messages: translate them for this caller.
    const issues = (details as Array<{ path: string; message: string; params?: Record<string, unknown> }>).map((d) => ({
      path: d.path,
      message: translate(request.lang, d.message, d.params),
    }));
    details = issues;
    if (error.code === 'VALIDATION') params = { details: issues.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ') };
  }
  const message = translate(request.lang, error.key, params);
  const body: { code: ErrorCode; message: string; details?: unknown } = { code: error.code, message };
  if (details !== undefined) body.details = details;
  if (error.code === 'RATE_LIMITED' && error.params.retryAfter) reply.header('retry-after', String(error.params.retryAfter));
  return reply.status(error.status).type('application/json; charset=utf-8').send({ error: body });
}

const byStatus: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
};

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details = error.validation.map((v) => ({
      path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: v.message ?? '',
      // A custom issue's placeholders (`{{max}}`), for the translation of its key.
      params: (v.params as { params?: Record<string, unknown> } | undefined)?.params,
    }));
    return new AppError('VALIDATION', {}, details);
  }
  const duplicate = uniqueViolation(error);
  if (duplicate) return duplicate;
  if (isDatabaseUnavailable(error)) return new AppError('DB_UNAVAILABLE');
  const status = error.statusCode ?? 500;
  if (status === 429) return new AppError('RATE_LIMITED');
  const code = byStatus[status];
  if (code && status < 500) return new AppError(code);
  return new AppError('INTERNAL');
}

/** Kept for the route walker and docs: every code the API may answer. */
export const KNOWN_ERROR_CODES = Object.keys(errorCatalog) as ErrorCode[];
