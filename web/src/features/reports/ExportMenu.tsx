import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/feedback/toastStore.js';
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
  const menuId = useId();
  const buttonId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const download = useDownloadReport({
    onSuccess: () => showToast(t('reports.export.done'), 'success'),
    onError: (error) => showToast(t('reports.export.failed', { reason: errorMessage(error) })),
  });
  const choose = (format: 'csv' | 'xlsx') => {
    setAnchor(null);
    download.mutate({ kind: state.kind, format, queryString: exportQueryString(state, format) });
  };
  return (
    <>
      <Button
        id={buttonId}
        variant="outlined"
        startIcon={<FileDownloadOutlined />}
        aria-haspopup="menu"
        aria-expanded={anchor ? true : undefined}
        aria-controls={anchor ? menuId : undefined}
        loading={download.isPending}
        loadingPosition="start"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('reports.export.button')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-labelledby': buttonId } }}>
        <MenuItem onClick={() => choose('xlsx')}>{t('reports.export.xlsx')}</MenuItem>
        <MenuItem onClick={() => choose('csv')}>{t('reports.export.csv')}</MenuItem>
      </Menu>
    </>
  );
}
