// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, sessionFixture, sessionWith, setScreenWidth, settingsFixture } from '../../test/utils.js';
import i18n from '../../i18n/index.js';
import type { ImportResult, Master, MasterItem } from './api.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const master = (over: Partial<Master>): Master => ({
  id: 1,
  code: 'departamentos',
  name: 'Departamentos',
  description: '',
  public: true,
  parentCode: null,
  system: true,
  items: 5,
  publicUrl: 'http://localhost:3000/api/public/masters/900100200/departamentos',
  // What the server sends a masters administrator on a system master: no delete.
  actions: ['edit', 'addItems', 'editItems', 'deleteItems'],
  ...over,
});
const masters = [
  master({}),
  master({ id: 2, code: 'municipios', name: 'Municipios', parentCode: 'departamentos', items: 10, publicUrl: 'http://localhost:3000/api/public/masters/900100200/municipios' }),
  master({ id: 7, code: 'colors', name: 'Colors', public: false, system: false, items: 2, publicUrl: null, actions: ['edit', 'delete', 'addItems', 'editItems', 'deleteItems'] }),
];
const municipios: MasterItem[] = [
  { id: 11, code: '05001', name: 'Medellín', nameEn: 'Medellin City', parentCode: '05', parentName: 'Antioquia', active: true, extra: {} },
  { id: 12, code: '05266', name: 'Envigado', nameEn: '', parentCode: '05', parentName: 'Antioquia', active: false, extra: { population: '230000' } },
];

function serve(session = sessionFixture, dryRun?: ImportResult, list = masters) {
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url.startsWith('/api/masters?')) return jsonResponse({ items: list, total: list.length });
    if (url === '/api/masters/colors' && init?.method === 'DELETE') return new Response(null, { status: 204 });
    if (url === '/api/masters/municipios') return jsonResponse(list.find((m) => m.code === 'municipios'));
    if (url === '/api/masters/departamentos') return jsonResponse(masters[0]);
    if (url.startsWith('/api/masters/municipios/items?')) return jsonResponse({ items: municipios, total: municipios.length });
    if (url.startsWith('/api/masters/departamentos/items?')) return jsonResponse({ items: [{ id: 1, code: '05', name: 'Antioquia', parentCode: null, parentName: null, active: true, extra: {} }], total: 1 });
    if (url === '/api/masters/municipios/items' && init?.method === 'POST') return jsonResponse({ id: 99, parentName: 'Antioquia', ...JSON.parse(String(init.body)) }, 201);
    if (url === '/api/masters/municipios/import?dryRun=true') return jsonResponse(dryRun);
    if (url === '/api/masters/municipios/import?dryRun=false') return jsonResponse({ ...dryRun, dryRun: false, errors: [] });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('/main', () => {
  test('lists the masters with their state; deletes after a confirmation naming the master; a system master has no delete', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/main');
    const table = await screen.findByRole('table', { name: 'Masters' });
    await within(table).findByRole('link', { name: 'Colors' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0] as HTMLElement).getByText('System')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'Departamentos' })).toHaveAttribute('href', '/main/departamentos');
    expect(within(rows[0] as HTMLElement).getByRole('button', { name: 'Edit: Departamentos' })).toBeEnabled();
    expect(within(rows[0] as HTMLElement).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).queryByRole('button', { name: /Copy public URL/ })).not.toBeInTheDocument();

    fireEvent.click(within(rows[2] as HTMLElement).getByRole('button', { name: 'Delete: Colors' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the master?' });
    expect(confirm).toHaveTextContent('The master “Colors” (colors) and its items will be deleted.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/masters/colors', expect.objectContaining({ method: 'DELETE' })));
  });

  test("each master's buttons are the actions the server sent with it, whatever the session's rules", async () => {
    setScreenWidth(1366);
    serve(sessionFixture, undefined, [
      master({ actions: [] }),
      master({ id: 7, code: 'colors', name: 'Colors', public: false, system: false, publicUrl: null, actions: ['edit', 'delete'] }),
    ]);
    renderApp('/main');
    const table = await screen.findByRole('table', { name: 'Masters' });
    await within(table).findByRole('link', { name: 'Colors' });
    const [none, all] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(within(none).queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(within(none).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(within(none).getByRole('button', { name: 'Copy public URL: Departamentos' })).toBeInTheDocument();
    expect(within(all).getByRole('button', { name: 'Edit: Colors' })).toBeEnabled();
    expect(within(all).getByRole('button', { name: 'Delete: Colors' })).toBeEnabled();
    // Creating a master is not an action on a record: it follows the session's rules.
    expect(screen.getByRole('button', { name: 'New master' })).toBeInTheDocument();
  });

  test('copies the public URL of a public master', async () => {
    setScreenWidth(1366);
    serve();
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderApp('/main');
    fireEvent.click(await screen.findByRole('button', { name: 'Copy public URL: Municipios' }));
    expect(await screen.findByText('Public URL copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('http://localhost:3000/api/public/masters/900100200/municipios');
  });

  test('a user without the masters menu is sent home with the permission message', async () => {
    serve(sessionWith(['wf_tareas']));
    const { router } = renderApp('/main');
    expect(await screen.findByText('The user does not have permission to the page')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });
});

describe('/main/municipios', () => {
  test('shows the items with their parent and state, and filters by parent item', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/main/municipios');
    const table = await screen.findByRole('table', { name: 'Municipios' });
    await within(table).findByText('Medellín');
    expect(within(table).getAllByText('Antioquia (05)')).toHaveLength(2);
    expect(within(table).getByText('Inactive')).toBeInTheDocument();
    expect(within(table).getByText('population: 230000')).toBeInTheDocument();

    const filter = screen.getByRole('combobox', { name: 'Filter by Departamentos' });
    filter.focus();
    fireEvent.change(filter, { target: { value: 'Ant' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Antioquia (05)' }));
    await waitFor(() => {
      const items = fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x')).filter((u) => u.pathname === '/api/masters/municipios/items');
      expect(items.at(-1)?.searchParams.get('parent')).toBe('05');
    });
  });

  test("the item buttons are the actions the server sent with the master, whatever the session's rules", async () => {
    setScreenWidth(1366);
    serve(sessionFixture, undefined, masters.map((m) => (m.code === 'municipios' ? { ...m, actions: [] } : m)));
    renderApp('/main/municipios');
    const table = await screen.findByRole('table', { name: 'Municipios' });
    await within(table).findByText('Medellín');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New item' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import CSV' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  test('a master whose actions are adding and deleting items: new, import and delete, but no edit', async () => {
    setScreenWidth(1366);
    serve(sessionFixture, undefined, masters.map((m) => (m.code === 'municipios' ? { ...m, actions: ['addItems', 'deleteItems'] as Master['actions'] } : m)));
    renderApp('/main/municipios');
    const table = await screen.findByRole('table', { name: 'Municipios' });
    await within(table).findByText('Medellín');
    expect(screen.getByRole('button', { name: 'New item' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import CSV' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Delete: Medellín' })).toBeInTheDocument();
  });

  test('imports a CSV: a dry run shows the counts and each refused row, then Import N rows writes them', async () => {
    setScreenWidth(1366);
    const dryRun: ImportResult = {
      dryRun: true,
      created: 2,
      updated: 1,
      errors: [
        { line: 4, column: 'name', message: 'This field is required' },
        { line: 5, column: 'parent', message: 'You must choose an option' },
      ],
    };
    const fetchMock = serve(sessionFixture, dryRun);
    renderApp('/main/municipios');
    fireEvent.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import CSV into Municipios' });
    expect(within(dialog).getByRole('button', { name: 'Import 0 rows' })).toBeDisabled();
    const file = new File(['code,name,parent\n05045,Apartadó,05\n'], 'municipios.csv', { type: 'text/csv' });
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [file] } });
    expect(await within(dialog).findByText('2 new and 1 updated rows can be imported.')).toBeInTheDocument();
    const errors = within(dialog).getByRole('table', { name: 'Rows with problems (2)' });
    expect(within(errors).getAllByRole('row').map((r) => r.textContent)).toEqual(['LineColumnMessage', '4nameThis field is required', '5parentYou must choose an option']);
    const dry = fetchMock.mock.calls.find(([url]) => url === '/api/masters/municipios/import?dryRun=true');
    expect(dry?.[1]?.body).toBe(file);
    expect(new Headers(dry?.[1]?.headers).get('content-type')).toBe('text/csv');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Import 3 rows' }));
    expect(await screen.findByText('Imported: 2 new, 1 updated.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('a new item of a child master gets its parent item, its state and extra attributes', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/main/municipios');
    fireEvent.click(await screen.findByRole('button', { name: 'New item' }));
    const dialog = await screen.findByRole('dialog', { name: 'New item' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Code/ }), { target: { value: '05045' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Apartadó' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('You must choose an option')).toBeInTheDocument();
    const parent = within(dialog).getByRole('combobox', { name: /^Parent/ });
    parent.focus();
    fireEvent.change(parent, { target: { value: 'Ant' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Antioquia (05)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add attribute' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Attribute' }), { target: { value: 'population' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Value' }), { target: { value: '120000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes saved successfully')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/masters/municipios/items' && init?.method === 'POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ code: '05045', name: 'Apartadó', nameEn: '', parentCode: '05', active: true, extra: { population: '120000' } });
  });

  test.each([
    ['en', 'New item', 'Name', 'English name', 'Save', 'Changes saved successfully'],
    ['es', 'Nuevo elemento', 'Nombre', 'Nombre en inglés', 'Guardar', 'Cambios guardados exitosamente'],
  ])('in %s, an item has a name and an English name, both saved and listed', async (lang, newItem, nameLabel, nameEnLabel, save, saved) => {
    setScreenWidth(1366);
    await act(async () => {
      await i18n.loadLanguages(lang);
      await i18n.changeLanguage(lang);
    });
    try {
      const fetchMock = serve();
      renderApp('/main/municipios');
      const table = await screen.findByRole('table', { name: 'Municipios' });
      expect(within(table).getByRole('columnheader', { name: nameEnLabel })).toBeInTheDocument();
      expect(await within(table).findByText('Medellin City')).toBeInTheDocument();
      fireEvent.click(await screen.findByRole('button', { name: newItem }));
      const dialog = await screen.findByRole('dialog', { name: newItem });
      fireEvent.change(within(dialog).getAllByRole('textbox')[0] as HTMLElement, { target: { value: '05045' } });
      fireEvent.change(within(dialog).getByRole('textbox', { name: new RegExp(`^${nameLabel}\\s*\\*?$`) }), { target: { value: 'Apartadó' } });
      fireEvent.change(within(dialog).getByRole('textbox', { name: nameEnLabel }), { target: { value: 'Apartado' } });
      const parent = within(dialog).getByRole('combobox');
      parent.focus();
      fireEvent.change(parent, { target: { value: 'Ant' } });
      fireEvent.click(await screen.findByRole('option', { name: 'Antioquia (05)' }));
      fireEvent.click(within(dialog).getByRole('button', { name: save }));
      expect(await screen.findByText(saved)).toBeInTheDocument();
      const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/masters/municipios/items' && init?.method === 'POST');
      expect(JSON.parse(String(call?.[1]?.body))).toMatchObject({ code: '05045', name: 'Apartadó', nameEn: 'Apartado' });
    } finally {
      await act(async () => {
        await i18n.changeLanguage('en');
      });
    }
  });
});
