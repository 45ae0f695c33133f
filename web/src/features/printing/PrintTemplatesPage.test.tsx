// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { PrintTemplate, PrintTemplateItem } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));
// ProseMirror needs layout APIs jsdom lacks: the body editor is a plain text area here, with the same props.
vi.mock('../templates/TemplateBodyEditor.js', () => ({
  default: ({ initialHtml, onChange, label }: { initialHtml: string; onChange: (html: string) => void; label: string }) => (
    <label>
      {label}
      <textarea defaultValue={initialHtml} onChange={(e) => onChange(e.target.value)} />
    </label>
  ),
}));

const items: PrintTemplateItem[] = [
  { id: 1, kind: 'letter', name: 'Solicitud completa', nameEn: 'Complete application', protocolId: null, protocolName: null, builtin: 'complete_application', hasPdf: false, updatedAt: '2026-11-20T10:00:00Z', actions: ['edit'] },
  { id: 2, kind: 'acroform', name: 'Formulario W-9', nameEn: 'W-9 form', protocolId: 7, protocolName: 'Mortgage', builtin: null, hasPdf: true, updatedAt: '2026-11-21T10:00:00Z', actions: ['edit', 'delete'] },
];
const w9: PrintTemplate = {
  ...items[1],
  pdfName: 'fw9.pdf',
  pdfFields: [
    { name: 'name', type: 'text', options: [] },
    { name: 'individual', type: 'checkbox', options: [] },
  ],
  mapping: { name: 'case.applicantName' },
  bodyHtmlEn: '',
  bodyHtmlEs: '',
  version: 2,
  createdAt: '2026-11-01T10:00:00Z',
};
const letter: PrintTemplate = { ...items[0], pdfName: null, pdfFields: [], mapping: {}, bodyHtmlEn: '<p>Hello {{applicantName}}</p>', bodyHtmlEs: '<p>Hola {{applicantName}}</p>', version: 1, createdAt: '2026-11-01T10:00:00Z' };
const sources = [
  { source: 'case.applicantName', label: 'Nombre del solicitante', labelEn: 'Applicant name', group: 'case' },
  { source: 'form.isIndividual', label: 'Persona natural', labelEn: 'Individual', group: 'form' },
];

function serve() {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/protocols?')) return jsonResponse({ items: [{ id: 7, name: 'Hipoteca', nameEn: 'Mortgage' }], total: 1 });
    if (url.startsWith('/api/print-templates?')) {
      const protocol = new URL(url, 'http://x').searchParams.get('protocolId');
      const shown = protocol ? items.filter((i) => i.protocolId === Number(protocol) || i.protocolId === null) : items;
      return jsonResponse({ items: shown, total: shown.length });
    }
    if (url.startsWith('/api/print-templates/sources')) return jsonResponse({ items: sources });
    if (url.startsWith('/api/print-templates/case-options')) return jsonResponse([{ id: 42, caseNumber: '2026-11-0042', applicantName: 'Ana Pérez' }]);
    if (url === '/api/print-templates/2' && !init?.method) return jsonResponse(w9);
    if (url === '/api/print-templates/1' && !init?.method) return jsonResponse(letter);
    if (url === '/api/print-templates/2' && init?.method === 'PUT') return jsonResponse({ ...w9, version: 3 });
    if (url === '/api/print-templates/1' && init?.method === 'PUT') return jsonResponse({ ...letter, version: 2 });
    if (url === '/api/print-templates/2' && init?.method === 'DELETE') return new Response(null, { status: 204 });
    if (url === '/api/print-templates' && init?.method === 'POST') return jsonResponse({ ...w9, id: 3 }, 201);
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('/configuracion/plantillas', () => {
  test('lists templates with kind and protocol, filters by protocol, creates one and deletes after confirming', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/configuracion/plantillas');
    const table = await screen.findByRole('table', { name: 'Print templates' });
    const row = (await within(table).findByText('W-9 form')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Fillable PDF')).toBeInTheDocument();
    expect(within(row).getByText('Mortgage')).toBeInTheDocument();
    const builtin = within(table).getByText('Complete application').closest('tr') as HTMLElement;
    expect(within(builtin).getByText('Every protocol')).toBeInTheDocument();
    // A built-in template is never deleted.
    expect(screen.queryByRole('button', { name: 'Delete: Complete application' })).not.toBeInTheDocument();

    // The protocol filter names protocols in the page's language (their English name here).
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Protocol/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Mortgage' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('protocolId=7'))).toBe(true));

    fireEvent.click(screen.getByRole('button', { name: 'Delete: W-9 form' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete template' });
    expect(within(confirm).getByText(/W-9 form/)).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/print-templates/2' && init?.method === 'DELETE')).toBe(true));

    fireEvent.click(screen.getByRole('button', { name: 'New template' }));
    const dialog = await screen.findByRole('dialog', { name: 'New print template' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Name \(Spanish\)/ }), { target: { value: 'Formulario' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Name \(English\)/ }), { target: { value: 'Form' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/print-templates' && init?.method === 'POST')).toBe(true));
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/print-templates' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ kind: 'acroform', name: 'Formulario', nameEn: 'Form', protocolId: null });
  });

  test('in Spanish on a phone: the list shows as cards with the Spanish names and kinds', async () => {
    setScreenWidth(320);
    serve();
    await act(async () => {
      await i18n.loadLanguages('es');
      await i18n.changeLanguage('es');
    });
    renderApp('/configuracion/plantillas');
    expect(await screen.findByText('Formulario W-9')).toBeInTheDocument();
    expect(screen.getByText('PDF rellenable')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Plantillas de impresión' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    // The protocol filter (behind Filters on a phone) names protocols in Spanish.
    fireEvent.click(screen.getByRole('button', { name: /Filtros/ }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Protocolo/ }));
    expect(await screen.findByRole('option', { name: 'Hipoteca' })).toBeInTheDocument();
  });

  test('editor (AcroForm): each PDF field has a select of sources; save sends the mapping and the version; preview opens the PDF', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/configuracion/plantillas/2');
    const fields = await screen.findByRole('table', { name: 'Fields of the PDF' });
    expect(within(fields).getByText('individual')).toBeInTheDocument();
    fireEvent.mouseDown(within(fields).getByRole('combobox', { name: /Filled with: individual/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Individual' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/print-templates/2' && init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([url, init]) => url === '/api/print-templates/2' && init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ mapping: { name: 'case.applicantName', individual: 'form.isIndividual' }, version: 2, protocolId: 7 });

    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Case' }));
    fireEvent.click(await screen.findByRole('option', { name: '2026-11-0042 · Ana Pérez' }));
    expect(screen.getByRole('link', { name: 'Open PDF' })).toHaveAttribute('href', '/api/cases/42/print/2');
    expect(screen.getByRole('link', { name: 'Open PDF' })).toHaveAttribute('target', '_blank');
  });

  test('editor (letter) in Spanish on a phone: English and Español tabs, saves both bodies', async () => {
    setScreenWidth(320);
    const fetchMock = serve();
    await act(async () => {
      await i18n.loadLanguages('es');
      await i18n.changeLanguage('es');
    });
    renderApp('/configuracion/plantillas/1');
    expect(await screen.findByText(/lista cada campo de la solicitud/)).toBeInTheDocument();
    const spanish = await screen.findByRole('textbox', { name: /Texto de la carta \(Español\)/ });
    fireEvent.change(spanish, { target: { value: '<p>Hola de nuevo {{applicantName}}</p>' } });
    fireEvent.click(screen.getByRole('tab', { name: 'English' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/print-templates/1' && init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([url, init]) => url === '/api/print-templates/1' && init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ bodyHtmlEn: '<p>Hello {{applicantName}}</p>', bodyHtmlEs: '<p>Hola de nuevo {{applicantName}}</p>', version: 1 });
  });
});
