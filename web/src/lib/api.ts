import { type ErrorCode, errorCatalog, isErrorBody } from '../../../core/errors.js';
import { VERSION_HEADER } from '../../../core/version.js';
import i18n from '../i18n/index.js';
import { reloadForNewVersion } from './reload.js';

export type ApiErrorCode = ErrorCode | 'NETWORK';

/** One invalid value named by the server: `path` is the field (`granted.wf_casos`), `message` is translated. */
export interface ApiErrorDetail {
  path: string;
  message: string;
}

/** Any failed call: `message` is ready to show to the user; `details` name the fields at fault. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly details: readonly ApiErrorDetail[];

  constructor(status: number, code: ApiErrorCode, message: string, details: readonly ApiErrorDetail[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export interface ApiInit extends RequestInit {
  /** Sent as a JSON body with its content type; takes the place of `body`. */
  json?: unknown;
}

export async function apiFetch<T>(path: string, init: ApiInit = {}): Promise<T> {
  const { json, headers: extraHeaders, ...rest } = init;
  const headers = new Headers(extraHeaders);
  headers.set(VERSION_HEADER, __APP_VERSION__);
  headers.set('accept', 'application/json');
  if (json !== undefined) headers.set('content-type', 'application/json');

  let response: Response;
  try {
    response = await fetch(path, {
      ...rest,
      headers,
      body: json !== undefined ? JSON.stringify(json) : rest.body,
      credentials: 'same-origin',
    });
  } catch (error) {
    // fetch rejects with a TypeError only when the network failed; aborts stay aborts.
    if (error instanceof TypeError) throw new ApiError(0, 'NETWORK', i18n.t('sms.network'));
    throw error;
  }

  const serverVersion = response.headers.get(VERSION_HEADER);
  if (serverVersion && serverVersion !== __APP_VERSION__) reloadForNewVersion();

  const payload = await readJson(response);
  if (response.ok) return payload as T;
  throw toApiError(response.status, payload);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A proxy or gateway may answer an error page in HTML.
    return undefined;
  }
}

function toApiError(status: number, payload: unknown): ApiError {
  if (!isErrorBody(payload)) return new ApiError(status, 'INTERNAL', i18n.t(errorCatalog.INTERNAL.key));
  const { code, message, details } = payload.error;
  if (code === 'VERSION_MISMATCH') reloadForNewVersion();
  const fallback = code in errorCatalog ? i18n.t(errorCatalog[code].key) : i18n.t(errorCatalog.INTERNAL.key);
  return new ApiError(status, code, message || fallback, readDetails(details));
}

function readDetails(details: unknown): ApiErrorDetail[] {
  if (!Array.isArray(details)) return [];
  return details.filter(
    (d): d is ApiErrorDetail => !!d && typeof d === 'object' && typeof d.path === 'string' && typeof d.message === 'string',
  );
}

/** What to tell the user about any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : i18n.t(errorCatalog.INTERNAL.key);
}

/**
 * A file the API answers (a CSV export): its bytes and the name the server
 * gave it. Failures are ApiErrors, as with apiFetch.
 */
export async function apiDownload(path: string): Promise<{ blob: Blob; filename: string | null }> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { [VERSION_HEADER]: __APP_VERSION__ }, credentials: 'same-origin' });
  } catch (error) {
    if (error instanceof TypeError) throw new ApiError(0, 'NETWORK', i18n.t('sms.network'));
    throw error;
  }
  if (!response.ok) throw toApiError(response.status, await readJson(response));
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}

/** Saves a blob as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
