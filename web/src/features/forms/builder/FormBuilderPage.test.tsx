// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { FieldDef, FormDefinition } from '../../../../../core/forms/definition.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../../test/utils.js';
import type { FormView } from '../api.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const field = (name: string, label_en: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'text', label: label_en, label_en, ...extra });

function formView(fields: FieldDef[], over: Partial<FormView> = {}): FormView {
  const definition: FormDefinition = { name: 'Intake', description: '', layout: 'columns', languages: ['en', 'es'], fields };
  return { id: 3, code: 'intake', name: 'Intake', description: '', version: 1, fields: fields.length, updatedAt: '2026-01-01T00:00:00Z', definition, inUse: false, ...over };
}

function serve(form: FormView, onPut?: (body: { definition: FormDefinition }) => Response) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url === '/api/forms/3' && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { definition: FormDefinition };
      return onPut ? onPut(body) : jsonResponse({ ...form, definition: body.definition });
    }
    if (url === '/api/forms/3') return jsonResponse(form);
    if (url.startsWith('/api/masters')) return jsonResponse({ items: [], total: 0 });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const treeOrder = () =>
  Array.from(document.querySelectorAll<HTMLElement>('[data-node-id]')).map((row) => row.querySelector('p')?.textContent);
const putBody = (fetchMock: ReturnType<typeof serve>) => {
  const call = fetchMock.mock.calls.findLast(([url, init]) => url === '/api/forms/3' && init?.method === 'PUT');
  return JSON.parse(String(call?.[1]?.body)) as { definition: FormDefinition };
};

describe('the form builder', () => {
  afterEach(() => vi.restoreAllMocks());

  test('reorders fields by keyboard with Move up / Move down, keeps the focus on the button, announces it, and saves the order', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(formView([field('a', 'Alpha'), field('b', 'Bravo'), field('c', 'Charlie')]));
    renderApp('/formularios/3');
    await screen.findByRole('button', { name: 'Move down: Alpha' });
    expect(treeOrder()).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(screen.getByRole('button', { name: 'Move up: Alpha' })).toBeDisabled();

    const down = screen.getByRole('button', { name: 'Move down: Alpha' });
    down.focus();
    fireEvent.click(down);
    await waitFor(() => expect(treeOrder()).toEqual(['Bravo', 'Alpha', 'Charlie']));
    expect(screen.getByRole('button', { name: 'Move down: Alpha' })).toHaveFocus();
    expect(screen.getByText('Alpha is now at position 2 of 3.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Move up: Charlie' }));
    await waitFor(() => expect(treeOrder()).toEqual(['Bravo', 'Charlie', 'Alpha']));
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Changes saved successfully');
    expect(putBody(fetchMock).definition.fields.map((f) => f.name)).toEqual(['b', 'c', 'a']);
  });

  test("reorders with dnd-kit's keyboard sensor: Space picks the field up, arrows move it, Space drops it", async () => {
    setScreenWidth(1366);
    // jsdom lays nothing out: give each row of the tree a place, 60 px apart.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const row = this.closest('[data-node-id]');
      const rows = Array.from(document.querySelectorAll('[data-node-id]'));
      const top = row ? rows.indexOf(row) * 60 : 0;
      return { x: 0, y: top, top, left: 0, right: 400, bottom: top + 50, width: 400, height: 50, toJSON: () => ({}) } as DOMRect;
    });
    serve(formView([field('a', 'Alpha'), field('b', 'Bravo'), field('c', 'Charlie')]));
    renderApp('/formularios/3');
    const handle = await screen.findByRole('button', { name: 'Drag to reorder: Charlie' });
    handle.focus();
    await act(async () => {
      fireEvent.keyDown(handle, { key: ' ', code: 'Space' });
    });
    await act(async () => {
      fireEvent.keyDown(handle, { key: 'ArrowUp', code: 'ArrowUp' });
    });
    await act(async () => {
      fireEvent.keyDown(handle, { key: 'ArrowUp', code: 'ArrowUp' });
    });
    await act(async () => {
      fireEvent.keyDown(handle, { key: ' ', code: 'Space' });
    });
    await waitFor(() => expect(treeOrder()).toEqual(['Charlie', 'Alpha', 'Bravo']));
  });

  test("shows the server's problems (422) next to the fields they name and in a summary", async () => {
    setScreenWidth(1366);
    serve(formView([field('a', 'Alpha'), field('b', 'Bravo', { visibleWhen: 'a ==' })]), () =>
      jsonResponse(
        {
          error: {
            code: 'UNPROCESSABLE',
            message: 'The request could not be processed.',
            details: [{ path: 'fields.b', message: 'The condition in visibleWhen is not valid: The condition ended too early at position 5' }],
          },
        },
        422,
      ),
    );
    renderApp('/formularios/3');
    fireEvent.click(await screen.findByRole('tab', { name: 'Settings' }));
    fireEvent.change(await screen.findByRole('textbox', { name: /^Name/ }), { target: { value: 'Intake review' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const summary = await screen.findByText('Problems to fix before saving (1)');
    const alert = summary.closest('[role="alert"]') as HTMLElement;
    expect(alert).toHaveTextContent('Bravo (b): The condition in visibleWhen is not valid: The condition ended too early at position 5');
    // The builder opened the field: its panel shows the problem and the live parse error with the position.
    const panel = screen.getByRole('region', { name: 'Properties of Bravo' });
    expect(within(panel).getByText(/The condition ended too early at position 5/)).toBeInTheDocument();
    expect(within(panel).getByText('Not valid at position 5: The condition ended too early')).toBeInTheDocument();
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Show when' }), { target: { value: "a == 'x'" } });
    expect(within(panel).getByText('The condition is valid')).toBeInTheDocument();
  });

  test('adds a field from the type picker into a container, named so that it does not clash', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(formView([field('text_1', 'Alpha'), { name: 'people', type: 'repeat', label: 'People', label_en: 'People', children: [field('text_1', 'Inner')] }]));
    renderApp('/formularios/3');
    fireEvent.click(await screen.findByRole('button', { name: 'Add a field inside People' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose the type of field' });
    expect(within(picker).queryByRole('button', { name: 'Stepper' })).not.toBeInTheDocument();
    fireEvent.click(within(picker).getByRole('button', { name: 'Text' }));
    const panel = await screen.findByRole('region', { name: 'Properties of Text' });
    expect(within(panel).getByRole('textbox', { name: 'Name (key)' })).toHaveValue('text_2');
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Name (key)' }), { target: { value: 'member name' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Changes saved successfully');
    const people = putBody(fetchMock).definition.fields[1];
    expect(people?.children?.map((f) => [f.name, f.type])).toEqual([
      ['text_1', 'text'],
      ['member_name', 'text'],
    ]);
  });

  test('asks before leaving with unsaved changes', async () => {
    setScreenWidth(1366);
    serve(formView([field('a', 'Alpha'), field('b', 'Bravo')]));
    const { router } = renderApp('/formularios/3');
    fireEvent.click(await screen.findByRole('button', { name: 'Move down: Alpha' }));
    fireEvent.click(within(screen.getByRole('main')).getByRole('link', { name: 'Forms' }));
    let dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog).toHaveTextContent('The changes to this form have not been saved.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/formularios/3');

    fireEvent.click(within(screen.getByRole('main')).getByRole('link', { name: 'Forms' }));
    dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/formularios'));
  });

  test('deletes a field after a confirmation that counts the fields inside it', async () => {
    setScreenWidth(1366);
    const fetchMock = serve(formView([field('a', 'Alpha'), { name: 'people', type: 'repeat', label: 'People', label_en: 'People', children: [field('n', 'Inner'), field('m', 'Other')] }]));
    renderApp('/formularios/3');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete: People' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the field?' });
    expect(confirm).toHaveTextContent('The field “People” and the 2 fields inside it will be deleted.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(treeOrder()).toEqual(['Alpha']));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Changes saved successfully');
    expect(putBody(fetchMock).definition.fields.map((f) => f.name)).toEqual(['a']);
  });
});
