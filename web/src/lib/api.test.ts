// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import i18n from '../i18n/index.js';
import { jsonResponse, mockFetch, testVersion } from '../test/utils.js';
import { ApiError, apiFetch } from './api.js';
import { reloadForNewVersion } from './reload.js';

vi.mock('./reload.js', () => ({ reloadForNewVersion: vi.fn(() => true) }));

describe('apiFetch', () => {
  beforeEach(() => vi.mocked(reloadForNewVersion).mockClear());

  test('sends the front version, same-origin credentials and a JSON body', async () => {
    const fetchMock = mockFetch(() => jsonResponse({ ok: 1 }));
    await expect(apiFetch('/api/things', { method: 'POST', json: { a: 1 } })).resolves.toEqual({ ok: 1 });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    const headers = new Headers(init?.headers);
    expect(url).toBe('/api/things');
    expect(headers.get('X-App-Version')).toBe(testVersion());
    expect(headers.get('content-type')).toBe('application/json');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"a":1}');
  });

  test('a response from the same version does not reload', async () => {
    mockFetch(() => jsonResponse({ ok: 1 }));
    await apiFetch('/api/version');
    expect(reloadForNewVersion).not.toHaveBeenCalled();
  });

  test('a response from another server version reloads, and still returns the data', async () => {
    mockFetch(() => jsonResponse({ version: '9.9.9' }, 200, '9.9.9'));
    await expect(apiFetch('/api/version')).resolves.toEqual({ version: '9.9.9' });
    expect(reloadForNewVersion).toHaveBeenCalledTimes(1);
  });

  test('409 VERSION_MISMATCH reloads and throws a typed error', async () => {
    const body = { error: { code: 'VERSION_MISMATCH', message: 'A new version is available.' } };
    // Header equal to ours on purpose: the 409 alone must trigger the reload.
    mockFetch(() => jsonResponse(body, 409));
    const error = await apiFetch('/api/cases', { method: 'POST', json: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'VERSION_MISMATCH', message: 'A new version is available.' });
    expect(reloadForNewVersion).toHaveBeenCalledTimes(1);
  });

  test('an error body becomes ApiError with the server message', async () => {
    mockFetch(() => jsonResponse({ error: { code: 'NOT_FOUND', message: 'No se encontró el registro.' } }, 404));
    await expect(apiFetch('/api/cases/1')).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'No se encontró el registro.',
    });
    expect(reloadForNewVersion).not.toHaveBeenCalled();
  });

  test('an error without our body (a gateway page) becomes a translated INTERNAL error', async () => {
    mockFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(apiFetch('/api/cases')).rejects.toMatchObject({
      status: 502,
      code: 'INTERNAL',
      message: 'A problem has occurred',
    });
  });

  test('a network failure becomes code NETWORK with the translated message', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiFetch('/api/cases')).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK',
      message: 'Check your internet connection.',
    });
    await i18n.changeLanguage('es');
    await expect(apiFetch('/api/cases')).rejects.toMatchObject({ message: 'Revisa la conexión a internet.' });
  });

  test('an abort is not mistaken for a network failure', async () => {
    mockFetch(() => {
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(apiFetch('/api/cases')).rejects.toMatchObject({ name: 'AbortError' });
  });
});
