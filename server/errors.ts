import { type ErrorCode, errorCatalog } from '../core/errors.js';

/**
 * The one error type the server throws on purpose. It carries a stable code
 * (core/errors.ts) whose status and i18n key are fixed; `params` fill the
 * message's placeholders and `details` go to the client as they are.
 */
export class AppError extends Error {
  readonly status: number;
  readonly key: string;

  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, unknown> = {},
    readonly details?: unknown,
  ) {
    super(code);
    this.name = 'AppError';
    this.status = errorCatalog[code].status;
    this.key = errorCatalog[code].key;
  }
}

export const notFound = () => new AppError('NOT_FOUND');
