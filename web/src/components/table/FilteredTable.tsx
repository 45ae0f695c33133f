import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterBar, FilterSelect } from '../page/FilterBar.js';
import { type Column, DataTable } from './DataTable.js';
import { ListError } from './ListError.js';
import { type ListPage, tablePaging, type useListParams } from './listParams.js';
import { SearchField } from './SearchField.js';

interface FilteredTableProps<T, V extends string> {
  /** The table's accessible name. */
  label: string;
  searchLabel: string;
  list: ReturnType<typeof useListParams>;
  /** The one filter: a value of a list, or all (''). Choosing goes back to the first page. */
  filter: { label: string; allLabel: string; value: V | ''; options: ReadonlyArray<{ value: V; label: string }>; onChange: (value: V | '') => void };
  query: { data?: ListPage<T>; isFetching: boolean; error: Error | null };
  columns: readonly Column<T>[];
  getRowId: (row: T) => string | number;
  actions?: (row: T) => ReactNode;
  /** When there is nothing at all; a search or the filter that finds nothing says so instead. */
  emptyText: string;
}

/** A server-paged list in its card: the search box and one filter above the table, the list's error below. */
export function FilteredTable<T, V extends string>({ label, searchLabel, list, filter, query, columns, getRowId, actions, emptyText }: FilteredTableProps<T, V>) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
      <FilterBar search={<SearchField onSearch={list.setSearch} label={searchLabel} />} narrowing={filter.value ? 1 : 0} clearable={!!filter.value} onClear={() => filter.onChange('')}>
        <FilterSelect
          label={filter.label}
          value={filter.value}
          allLabel={filter.allLabel}
          options={filter.options}
          onChange={(value) => {
            filter.onChange(value);
            list.setPage(0);
          }}
        />
      </FilterBar>
      <DataTable
        label={label}
        columns={columns}
        rows={query.data?.items}
        total={query.data?.total ?? 0}
        getRowId={getRowId}
        {...tablePaging(list)}
        loading={query.isFetching}
        emptyText={list.params.search || filter.value ? t('dataTable.noMatches') : emptyText}
        actions={actions}
      />
      <ListError error={query.error} />
    </Paper>
  );
}
