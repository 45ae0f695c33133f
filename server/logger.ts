import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { type Logger, pino } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';

/**
 * The process's logger. JSON lines (pino's own format) for production and
 * whenever the output is not a terminal; short readable lines for a person
 * running `npm start` (LOG_FORMAT decides when set). Written synchronously,
 * so the last lines before an exit are never lost.
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, destination: NodeJS.WritableStream = process.stdout): Logger {
  const options = { level: config.logLevel, base: undefined };
  if (config.logFormat === 'json') return pino(options, destination);
  return pino(
    options,
    pretty({
      sync: true,
      destination,
      colorize: Boolean((destination as NodeJS.WriteStream).isTTY),
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'reqId,method,url,status,ms,ip',
      singleLine: true,
    }),
  );
}

/**
 * One line per request, when its response is sent: an access log in JSON for
 * production (info), and for a person at a terminal only with
 * LOG_LEVEL=debug, so that `npm start` stays quiet after its banner. Errors
 * are logged where they are handled (plugins/errors.ts).
 */
export class OneLinePerRequest extends LogController {
  constructor(private readonly level: 'info' | 'debug') {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const ms = Math.round(reply.elapsedTime);
    // The client's address: behind a proxy listed in TRUST_PROXY, the one it forwarded.
    const line = { method: request.method, url: request.url, status: reply.statusCode, ms, ip: request.ip };
    if (error) request.log.warn({ ...line, err: error }, `${request.method} ${request.url} ${reply.statusCode}: ${error.message}`);
    else request.log[this.level](line, `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`);
  }
}
