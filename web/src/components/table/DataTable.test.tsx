// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { createQueryClient } from '../../app/queryClient.js';
import i18n from '../../i18n/index.js';
import { jsonResponse, mockFetch, setScreenWidth } from '../../test/utils.js';
import { type Column, DataTable } from './DataTable.js';
import { useListPage, useListParams } from './listParams.js';
import { SearchField } from './SearchField.js';

interface Person {
  id: number;
  name: string;
}

const PEOPLE: Person[] = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, name: `Person ${String(i + 1).padStart(2, '0')}` }));

/** A server that pages, sorts by name and searches, like the real list endpoints. */
function serve() {
  return mockFetch((url) => {
    const query = new URL(url, 'http://x').searchParams;
    const page = Number(query.get('page'));
    const limit = Number(query.get('limit'));
    const search = query.get('search') ?? '';
    let rows = PEOPLE.filter((p) => p.name.includes(search));
    if (query.get('descending') === 'true') rows = [...rows].reverse();
    return jsonResponse({ items: rows.slice((page - 1) * limit, page * limit), total: rows.length });
  });
}

function People() {
  const list = useListParams({ sortBy: 'name' });
  const query = useListPage<Person>(['people', 'list'], '/api/people', list.params);
  const columns: Column<Person>[] = [
    { id: 'id', label: 'Id', render: (p) => p.id },
    { id: 'name', label: 'Name', sortKey: 'name', render: (p) => p.name },
  ];
  return (
    <>
      <SearchField onSearch={list.setSearch} />
      <DataTable
        label="People"
        columns={columns}
        rows={query.data?.items}
        total={query.data?.total ?? 0}
        getRowId={(p) => p.id}
        page={list.params.page}
        rowsPerPage={list.params.limit}
        onPageChange={list.setPage}
        onRowsPerPageChange={list.setLimit}
        sortBy={list.params.sortBy}
        descending={list.params.descending}
        onSortChange={list.setSort}
        loading={query.isFetching}
        emptyText="Nobody here"
      />
    </>
  );
}

function renderPeople() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <People />
    </QueryClientProvider>,
  );
}

const lastQuery = (fetchMock: ReturnType<typeof serve>) =>
  new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://x').searchParams;
const bodyRows = () => within(screen.getByRole('table', { name: 'People' })).getAllByRole('row').slice(1);

describe('DataTable', () => {
  test('asks the server for one page at a time and moves between pages', async () => {
    setScreenWidth(1280);
    const fetchMock = serve();
    renderPeople();
    expect(await screen.findByText('Person 01')).toBeInTheDocument();
    expect(Object.fromEntries(lastQuery(fetchMock))).toEqual({ page: '1', limit: '10', sortBy: 'name', descending: 'false' });
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('1–10 of 23')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('Person 11')).toBeInTheDocument();
    expect(lastQuery(fetchMock).get('page')).toBe('2');
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('Person 23')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Go to previous page' }));
    expect(await screen.findByText('Person 11')).toBeInTheDocument();
  });

  test('a new page size, sort or search starts again from the first page', async () => {
    setScreenWidth(1280);
    const fetchMock = serve();
    renderPeople();
    await screen.findByText('Person 01');
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('Person 11');

    fireEvent.click(screen.getByRole('button', { name: /^Name/ }));
    await screen.findByText('Person 23');
    expect(Object.fromEntries(lastQuery(fetchMock))).toMatchObject({ page: '1', sortBy: 'name', descending: 'true' });
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Rows per page/ }));
    fireEvent.click(await screen.findByRole('option', { name: '25' }));
    await waitFor(() => expect(lastQuery(fetchMock).get('limit')).toBe('25'));
    expect(lastQuery(fetchMock).get('page')).toBe('1');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'Person 2' } });
    await waitFor(() => expect(lastQuery(fetchMock).get('search')).toBe('Person 2'));
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
  });

  test('says so when nothing is found', async () => {
    setScreenWidth(1280);
    serve();
    renderPeople();
    await screen.findByText('Person 01');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'nobody' } });
    expect(await screen.findByText('Nobody here')).toBeInTheDocument();
  });

  test('on phones the rows become cards, with a sort select instead of headers', async () => {
    setScreenWidth(390);
    serve();
    renderPeople();
    const list = await screen.findByRole('list', { name: 'People' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(10));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(within(list).getAllByRole('listitem')[0] as HTMLElement).getByText('Person 01')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toBeInTheDocument();
  });

  test('a total that is a floor reads "more than" in both languages and keeps the next page open', async () => {
    setScreenWidth(1280);
    const rows = PEOPLE.slice(0, 10);
    const view = (page: number) => (
      <DataTable label="People" columns={[{ id: 'name', label: 'Name', render: (p: Person) => p.name }]} rows={rows} total={1000} totalIsFloor getRowId={(p) => p.id}
        page={page} rowsPerPage={10} onPageChange={() => {}} onRowsPerPageChange={() => {}} emptyText="Nobody" />
    );
    const { rerender } = render(view(0));
    expect(screen.getByText('1–10 of more than 1,000')).toBeInTheDocument();
    // Past the floor the page is not pulled back, and the label grows with it.
    rerender(view(120));
    expect(screen.getByText('1,201–1,210 of more than 1,210')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeEnabled();
    await i18n.changeLanguage('es');
    try {
      rerender(view(0));
      // Spanish groups thousands from five digits on (1000, 12.000).
      expect(screen.getByText('1–10 de más de 1000')).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
