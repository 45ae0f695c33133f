import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan, useSession } from '../../../app/session/session.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { useInvalidateCases, usePublicStatuses } from '../api.js';
import { CaseFilters } from './CaseFilters.js';
import { CaseTable } from './CaseTable.js';
import { hasFilters, paramsOfQuery, queryOf } from './caseUrl.js';
import { useCaseColumns } from './caseColumns.js';
import { ExportButton } from './ExportButton.js';
import { ImportDialog } from './ImportDialog.js';
import { SavedSearchesDialog } from './SavedSearchesDialog.js';
import { useCaseListState } from './useCaseListState.js';

/**
 * /cases (target wf_casos): the applications, paged and sorted by the
 * server, with filters and the advanced search in the address; saved
 * searches, export of the result, and CSV or Excel import (with a link to
 * the tenant's imports).
 */
export default function CaseListPage() {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  const listState = useCaseListState();
  const { url, protocols, ownerName } = listState;
  // An applicant (no task rights) reads each application's status in plain words, as on its page.
  const applicantView = !session.targets.includes('wf_tareas');
  const ids = useMemo(() => (listState.list.data?.items ?? []).filter((item) => item.state !== 'DRAFT').map((item) => item.id), [listState.list.data]);
  const statuses = usePublicStatuses(ids, applicantView);
  const columns = useCaseColumns(applicantView ? statuses.data : undefined);
  const invalidate = useInvalidateCases();
  const [savedOpen, setSavedOpen] = useState(false);
  const [importing, setImporting] = useState(false);
  const current = useMemo(() => queryOf(url.params), [url.params]);
  const { view } = url;

  return (
    <>
      <PageHeader title={t('caseList.title')}>
        <Button variant="outlined" startIcon={<BookmarksOutlined />} onClick={() => setSavedOpen(true)}>
          {t('caseList.saved.button')}
        </Button>
        {can('wf_casos', 'export') && <ExportButton query={current} />}
        {can('admin_cases', 'update') && (
          <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => setImporting(true)}>
            {t('caseList.import.button')}
          </Button>
        )}
        {can('admin_cases', 'update') && (
          <Button component={Link} to="/cases/imports" variant="outlined" startIcon={<HistoryOutlined />}>
            {t('caseImports.link')}
          </Button>
        )}
      </PageHeader>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <CaseFilters filters={view.filters} onChange={url.update} onClear={url.clear} protocols={protocols} ownerName={ownerName} />
        <Box sx={{ mt: 2 }} />
        <CaseTable state={listState} label={t('caseList.title')} columns={columns} />
      </Paper>
      {savedOpen && (
        <SavedSearchesDialog
          current={current}
          canSave={hasFilters(url.params)}
          onApply={(search) => {
            url.replaceQuery(paramsOfQuery(search.query));
            setSavedOpen(false);
          }}
          onClose={() => setSavedOpen(false)}
        />
      )}
      {importing && (
        <ImportDialog
          protocols={protocols}
          onClose={(imported) => {
            setImporting(false);
            if (imported) void invalidate();
          }}
        />
      )}
    </>
  );
}
