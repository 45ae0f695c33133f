import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/table/DataTable.js';
import type { CaseItem } from '../api.js';
import { CappedNote, CaseListError } from './CaseListError.js';
import { hasFilters } from './caseUrl.js';
import type { useCaseListState } from './useCaseListState.js';

interface CaseTableProps {
  state: ReturnType<typeof useCaseListState>;
  label: string;
  columns: readonly Column<CaseItem>[];
}

/**
 * The table of both case lists (/cases, /admin-cases): the page of the
 * address, its total (a floor past the count's cap, with a note), and what
 * the server said when the search was refused.
 */
export function CaseTable({ state: { url, list, totals }, label, columns }: CaseTableProps) {
  const { t } = useTranslation();
  const { view } = url;
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={list.isError ? [] : list.data?.items}
        total={list.isError ? 0 : totals.total}
        totalIsFloor={!list.isError && totals.floor}
        getRowId={(item) => item.id}
        page={view.page}
        rowsPerPage={view.limit}
        onPageChange={url.setPage}
        onRowsPerPageChange={url.setLimit}
        sortBy={view.sortBy}
        descending={view.descending}
        onSortChange={url.setSort}
        loading={list.isFetching}
        emptyText={hasFilters(url.params) ? t('caseList.emptyFiltered') : t('caseList.empty')}
      />
      {totals.capped && !list.isError && <CappedNote total={totals.countTotal} />}
      {list.isError && <CaseListError error={list.error} />}
    </>
  );
}
