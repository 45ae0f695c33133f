import { isErrorBody } from '../../../../core/errors.js';
import type { FileRef } from '../../../../core/forms/validator.js';
import { VERSION_HEADER } from '../../../../core/version.js';
import i18n from '../../i18n/index.js';
import { ApiError, apiFetch } from '../../lib/api.js';

/** What POST /api/files answers. */
interface StoredFile {
  id: string;
  name: string;
  extension: string;
  size: number;
  public: boolean;
}

/**
 * Uploads one file to the files module (checked there by its content) and
 * reports progress, which fetch cannot: hence XMLHttpRequest.
 */
export function uploadFile(file: File, onProgress: (fraction: number) => void, options: { public?: boolean } = {}): Promise<FileRef> {
  return new Promise((resolve, reject) => {
    const body = new FormData();
    if (options.public) body.append('public', 'true');
    body.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/files');
    xhr.setRequestHeader(VERSION_HEADER, __APP_VERSION__);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', i18n.t('sms.network')));
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const stored = payload as StoredFile;
        resolve({ id: stored.id, name: stored.name, size: stored.size });
        return;
      }
      if (isErrorBody(payload)) {
        const detail = Array.isArray(payload.error.details) ? (payload.error.details[0] as { message?: string } | undefined)?.message : undefined;
        reject(new ApiError(xhr.status, payload.error.code, detail ?? payload.error.message));
        return;
      }
      reject(new ApiError(xhr.status, 'INTERNAL', i18n.t('forms.renderer.uploadFailed')));
    };
    xhr.send(body);
  });
}

/** Opens a file through a five-minute link (the server answers it as a download). */
export async function downloadStoredFile(id: string): Promise<void> {
  const { url } = await apiFetch<{ url: string; expiresAt: string }>(`/api/files/${encodeURIComponent(id)}/link`);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
