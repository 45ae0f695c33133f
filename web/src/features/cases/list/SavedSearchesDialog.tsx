import { useTranslation } from 'react-i18next';
import { showToast } from '../../../components/feedback/toastStore.js';
import { SavedItemsDialog } from '../../../components/page/index.js';
import { type CaseQuery, FILTER_KEYS, type SavedSearch, useDeleteSavedSearch, useSavedSearches, useSaveSearch } from '../api.js';
import { readRows } from './caseUrl.js';

/** How many conditions a saved query holds: each filter, each state, each row of the advanced search. */
function filterCount(query: Record<string, unknown>): number {
  return FILTER_KEYS.reduce((n, key) => {
    const value = query[key];
    if (key === 'filters' && typeof value === 'string') return n + readRows(value).length;
    if (Array.isArray(value)) return n + value.length;
    return n + (typeof value === 'string' && value !== '' ? 1 : 0);
  }, 0);
}

interface SavedSearchesDialogProps {
  /** The search on screen, which "Save" keeps. */
  current: CaseQuery;
  /** Whether the search on screen narrows the list (there is something to save). */
  canSave: boolean;
  onApply: (search: SavedSearch) => void;
  onClose: () => void;
}

/** My saved searches: apply one, delete one (after a confirmation), or save the search on screen under a name. */
export function SavedSearchesDialog({ current, canSave, onApply, onClose }: SavedSearchesDialogProps) {
  const { t } = useTranslation();
  const saved = useSavedSearches();
  const save = useSaveSearch({ onSuccess: (search) => showToast(t('caseList.saved.savedAs', { name: search.name }), 'success') });
  const remove = useDeleteSavedSearch({ onSuccess: () => showToast(t('caseList.saved.deleted'), 'success') });
  return (
    <SavedItemsDialog
      title={t('caseList.saved.title')}
      texts={{
        nameLabel: t('caseList.saved.name'),
        saveButton: t('caseList.saved.save'),
        listHeading: t('caseList.saved.mine'),
        none: t('caseList.saved.none'),
        nothingToSave: t('caseList.saved.nothingToSave'),
        deleteLabel: (search) => t('caseList.saved.delete', { name: search.name }),
        confirmDelete: (search) => ({ title: t('caseList.saved.deleteTitle'), message: t('caseList.saved.confirmDelete', { name: search.name }), confirmText: t('common.delete') }),
        // The server keeps one search per name: saving under a used name replaces it.
        confirmReplace: (name) => ({ title: t('caseList.saved.replaceTitle'), message: t('caseList.saved.confirmReplace', { name }), confirmText: t('caseList.saved.replace') }),
      }}
      saved={saved}
      items={saved.data}
      describe={(search) => t('caseList.saved.summary', { count: filterCount(search.query) })}
      canSave={canSave}
      onSave={(name) => save.mutateAsync({ name, query: current })}
      saving={save.isPending}
      onDelete={(search) => remove.mutate(search)}
      onApply={onApply}
      onClose={onClose}
    />
  );
}
