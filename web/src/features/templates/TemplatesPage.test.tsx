// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import type { Template, TemplateItem } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));
// ProseMirror needs layout APIs jsdom lacks: the body editor is a plain text area here, with the same props.
vi.mock('./TemplateBodyEditor.js', () => ({
  default: ({ initialHtml, onChange, label, error }: { initialHtml: string; onChange: (html: string) => void; label: string; error?: string }) => (
    <label>
      {label}
      <textarea defaultValue={initialHtml} onChange={(e) => onChange(e.target.value)} />
      {error && <span>{error}</span>}
    </label>
  ),
}));

const items: TemplateItem[] = [
  { id: 1, name: 'Assignment notice', event: 'task_assigned', subjectEn: 'New task: {{taskName}}', subjectEs: 'Nueva tarea: {{taskName}}', isDefault: true, updatedAt: '2026-11-20T10:00:00Z', actions: ['edit'] },
  { id: 2, name: 'Reminder v2', event: 'task_due_soon', subjectEn: 'Due soon', subjectEs: 'Vence pronto', isDefault: false, updatedAt: '2026-11-21T10:00:00Z', actions: ['edit', 'makeDefault', 'delete'] },
];
const full: Template = {
  ...items[0], bodyHtmlEn: '<p>Hello {{recipientName}}</p>', bodyHtmlEs: '<p>Hola {{recipientName}}</p>', bodyTextEn: 'Hello {{recipientName}}', bodyTextEs: 'Hola {{recipientName}}',
  version: 3, createdAt: '2026-11-01T10:00:00Z', printTemplateId: null,
};
const printChoices = [
  { id: 7, kind: 'acroform', name: 'Formulario W-9', nameEn: 'W-9 form', hasPdf: true },
  { id: 8, kind: 'acroform', name: 'Sin PDF', nameEn: 'No PDF yet', hasPdf: false },
  { id: 9, kind: 'letter', name: 'Carta', nameEn: 'Notification letter', hasPdf: false },
];
const preview = {
  en: { subject: 'New task: Review', html: '<p>Hello Rafa</p>', text: 'Hello Rafa' },
  es: { subject: 'Nueva tarea: Revisión', html: '<p>Hola Rafa</p>', text: 'Hola Rafa' },
};

function serve() {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url.startsWith('/api/mail-templates?')) {
      const event = new URL(url, 'http://x').searchParams.get('event');
      const shown = event ? items.filter((i) => i.event === event) : items;
      return jsonResponse({ items: shown, total: shown.length });
    }
    if (url === '/api/mail-templates/1' && !init?.method) return jsonResponse(full);
    if (url === '/api/mail-templates/1' && init?.method === 'PUT') return jsonResponse({ ...full, ...JSON.parse(String(init.body)), version: 4 });
    if (url === '/api/mail-templates/2' && init?.method === 'DELETE') return new Response(null, { status: 204 });
    if (url.startsWith('/api/mail-templates/case-options')) return jsonResponse([{ id: 42, caseNumber: '2026-11-0042', applicantName: 'Ana Pérez' }]);
    if (url === '/api/mail-templates/preview') return jsonResponse(preview);
    if (url.startsWith('/api/print-templates?')) return jsonResponse({ items: printChoices, total: printChoices.length });
    if (url === '/api/mail-templates/send-test') return jsonResponse({ to: 'coordinator@demo.test' }, 202);
    if (url === '/api/mail-templates' && init?.method === 'POST') {
      return jsonResponse({ error: { code: 'VALIDATION', message: 'Some values are not valid', details: [{ path: 'name', message: 'A record with this name already exists.' }] } }, 400);
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/plantillas-correo', () => {
  test('lists templates with their event, subject and default; filters by event; delete asks first', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/plantillas-correo');
    const table = await screen.findByRole('table', { name: 'Email templates' });
    const assigned = (await within(table).findByText('Assignment notice')).closest('tr') as HTMLElement;
    expect(within(assigned).getByText('Default')).toBeInTheDocument();
    expect(within(assigned).getByText('New task: {{taskName}}')).toBeInTheDocument();
    // The default of an event offers no delete; another template does.
    expect(screen.queryByRole('button', { name: 'Delete: Assignment notice' })).not.toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Event/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Task due soon' }));
    await waitFor(() => expect(within(table).queryByText('Assignment notice')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('event=task_due_soon'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Delete: Reminder v2' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete template' });
    expect(within(confirm).getByText(/Reminder v2/)).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/mail-templates/2' && init?.method === 'DELETE')).toBe(true));
  });

  test('editor: a placeholder from the picker goes in at the cursor, a bad one is named with its position, save sends the version', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/plantillas-correo/1');
    const subject = (await screen.findByRole('textbox', { name: 'Subject (English)' })) as HTMLInputElement;
    expect(subject.value).toBe('New task: {{taskName}}');
    // Cursor after "New task: " and insert the case number there.
    subject.setSelectionRange(10, 10);
    fireEvent.click(screen.getByRole('button', { name: 'Insert placeholder: Subject' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Case number/ }));
    await waitFor(() => expect(subject.value).toBe('New task: {{caseNumber}}{{taskName}}'));

    const body = screen.getByRole('textbox', { name: /Message in English/ });
    fireEvent.change(body, { target: { value: '<p>{{constructor}}</p>' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('line 1, column 4: "constructor" is not a placeholder of the list');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    fireEvent.change(body, { target: { value: '<p>Hi {{recipientName}}</p>' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());

    fireEvent.click(screen.getByRole('tab', { name: 'Español' }));
    expect(screen.getByRole('textbox', { name: 'Subject (Español)' })).toHaveValue('Nueva tarea: {{taskName}}');
    // A print template to attach: those that can print (an AcroForm without its PDF cannot).
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Attach a print template/ }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['No attachment', 'W-9 form', 'Notification letter']);
    fireEvent.click(within(listbox).getByRole('option', { name: 'W-9 form' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/mail-templates/1' && init?.method === 'PUT')).toBe(true));
    const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/mail-templates/1' && init?.method === 'PUT');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      name: 'Assignment notice', event: 'task_assigned', isDefault: true, version: 3,
      subjectEn: 'New task: {{caseNumber}}{{taskName}}', subjectEs: 'Nueva tarea: {{taskName}}',
      bodyHtmlEn: '<p>Hi {{recipientName}}</p>', bodyHtmlEs: '<p>Hola {{recipientName}}</p>', printTemplateId: 7,
    });
  });

  test('editor: previews with a chosen case in both languages and sends a test to me', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/plantillas-correo/1');
    await screen.findByRole('textbox', { name: 'Subject (English)' });
    fireEvent.change(screen.getByRole('combobox', { name: /Case to preview with/ }), { target: { value: '0042' } });
    fireEvent.click(await screen.findByRole('option', { name: '2026-11-0042 · Ana Pérez' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show preview' }));
    expect(await screen.findByText('New task: Review')).toBeInTheDocument();
    expect(screen.getByText('Nueva tarea: Revisión')).toBeInTheDocument();
    expect(screen.getByTitle('As sent (HTML) (English)')).toHaveAttribute('sandbox', '');
    const sent = fetchMock.mock.calls.find(([url]) => url === '/api/mail-templates/preview');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      subjectEn: 'New task: {{taskName}}', subjectEs: 'Nueva tarea: {{taskName}}', bodyHtmlEn: '<p>Hello {{recipientName}}</p>', bodyHtmlEs: '<p>Hola {{recipientName}}</p>', caseId: 42,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send a test to me' }));
    expect(await screen.findByText('A test message is on its way to coordinator@demo.test')).toBeInTheDocument();
    const test = fetchMock.mock.calls.find(([url]) => url === '/api/mail-templates/send-test');
    expect(JSON.parse(String(test?.[1]?.body))).toMatchObject({ caseId: 42, language: 'en' });
  });

  test('a new template refused by the server shows the reason under its field', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/plantillas-correo/nuevo');
    expect(await screen.findByRole('heading', { name: 'New email template' })).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'Twin' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Subject (English)' }), { target: { value: 'Hi' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Español' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Subject (Español)' }), { target: { value: 'Hola' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A record with this name already exists.')).toBeInTheDocument();
  });

  test('an address that is not a template id is not found, not an empty new template', async () => {
    setScreenWidth(1366);
    serve();
    renderApp('/plantillas-correo/abc');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Name/ })).not.toBeInTheDocument();
  });
});
