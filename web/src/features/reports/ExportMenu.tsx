import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/feedback/toastStore.js';
import { DownloadMenuButton } from '../../components/page/index.js';
import { errorMessage } from '../../lib/api.js';
import { useDownloadReport } from './api.js';
import { exportQueryString, type ReportState } from './reportUrl.js';

/**
 * "Download" of the view on screen as Excel or CSV: the server streams the
 * file with the same filters, layout and sort, its totals row last. A
 * download that fails says why and asks to click Download again (the spec).
 */
export function ExportMenu({ state }: { state: ReportState }) {
  const { t } = useTranslation();
  const download = useDownloadReport({
    onSuccess: () => showToast(t('reports.export.done'), 'success'),
    onError: (error) => showToast(t('reports.export.failed', { reason: errorMessage(error) })),
  });
  return (
    <DownloadMenuButton
      label={t('reports.export.button')}
      formats={[
        { value: 'xlsx', label: t('reports.export.xlsx') },
        { value: 'csv', label: t('reports.export.csv') },
      ]}
      onChoose={(format) => download.mutate({ kind: state.kind, format, queryString: exportQueryString(state, format) })}
      loading={download.isPending}
    />
  );
}
