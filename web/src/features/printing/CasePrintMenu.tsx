import PrintOutlined from '@mui/icons-material/PrintOutlined';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/session/session.js';
import { printUrl, useCasePrintOptions } from './api.js';

/** The case page's "Print" menu (wf_casos print): the templates of the case's protocol, each opening the PDF in a new tab. */
export function CasePrintMenu({ caseId }: { caseId: number }) {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const allowed = can('wf_casos', 'print');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const options = useCasePrintOptions(caseId, allowed);
  const menuId = useId();
  if (!allowed) return null;
  const english = !i18n.language.startsWith('es');
  const items = options.data?.items ?? [];
  return (
    <>
      <Button
        variant="outlined"
        size="small"
        startIcon={<PrintOutlined />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {t('printing.print')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-label': t('printing.printMenu') } }}>
        {items.length === 0 && <MenuItem disabled>{t('printing.noTemplates')}</MenuItem>}
        {items.map((tpl) => (
          <MenuItem key={tpl.id} component="a" href={printUrl(caseId, tpl.id)} target="_blank" rel="noopener" onClick={() => setAnchor(null)}>
            {english ? tpl.nameEn : tpl.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
