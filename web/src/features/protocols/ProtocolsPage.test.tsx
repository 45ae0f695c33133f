// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { ProtocolSummary } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const rental: ProtocolSummary = {
  id: 1,
  code: 'rental-assistance',
  name: 'Rental assistance',
  nameEn: '',
  description: '',
  caseType: 'RADICACION_PUBLICA',
  public: true,
  mainFormId: 1,
  mainFormName: 'Rental assistance application',
  publishedVersion: 1,
  tasks: 7,
  cases: 11,
  publicUrl: 'http://localhost:3000/publico/900100200/rental-assistance',
};

function serve(items: ProtocolSummary[] = [rental]) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/protocols?')) return jsonResponse({ items, total: items.length });
    if (url === '/api/protocols/import' && init?.method === 'POST') {
      return jsonResponse(
        {
          error: {
            code: 'UNPROCESSABLE',
            message: 'The request could not be processed.',
            details: [
              { path: 'protocol.definition.tasks.0.formId', message: 'This form does not exist' },
              { path: 'protocol.definition.tasks.1.responsible', message: 'This team does not exist' },
            ],
          },
        },
        422,
      );
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/protocolos', () => {
  test('an import refused with 422 lists every problem in a dialog', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/protocolos');
    await screen.findByText('Rental assistance application');
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File([JSON.stringify({ format: 'casebook-protocol', formatVersion: 1 })], 'protocol-x.json', { type: 'application/json' });
    fireEvent.change(input, { target: { files: [file] } });
    const dialog = await screen.findByRole('dialog', { name: 'The import was refused' });
    expect(within(dialog).getByText(/Nothing from protocol-x.json was imported/)).toBeInTheDocument();
    expect(within(dialog).getByText('This form does not exist')).toBeInTheDocument();
    expect(within(dialog).getByText('protocol.definition.tasks.1.responsible')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/protocols/import');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ format: 'casebook-protocol', formatVersion: 1 });
  });

  test('copies the public URL and says so', async () => {
    setScreenWidth(1366);
    serve();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/protocolos');
    fireEvent.click(await screen.findByRole('button', { name: 'Copy public URL: Rental assistance' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(rental.publicUrl));
    expect(await screen.findByText(`Public URL copied: ${rental.publicUrl}`)).toBeInTheDocument();
  });

  test('has no public URL to copy while a protocol is private or unpublished, and says why', async () => {
    setScreenWidth(1366);
    serve([rental, { ...rental, id: 2, name: 'Internal review', public: false }, { ...rental, id: 3, name: 'Coming soon', publishedVersion: null }]);
    renderApp('/protocolos');
    expect(await screen.findByRole('button', { name: 'Copy public URL: Rental assistance' })).toBeEnabled();
    for (const name of ['Internal review', 'Coming soon']) {
      expect(screen.getByRole('button', { name: `Copy public URL: ${name}. The public page shows once the protocol is public and published` })).toBeDisabled();
    }
  });

  test('publish asks first with the versions rule', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/protocolos');
    fireEvent.click(await screen.findByRole('button', { name: 'Publish: Rental assistance' }));
    const confirm = await screen.findByRole('dialog', { name: 'Publish this protocol?' });
    expect(within(confirm).getByText('New cases will use this version; running cases keep theirs.')).toBeInTheDocument();
  });
});
