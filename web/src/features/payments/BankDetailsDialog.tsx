import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FactsList } from '../../components/page/index.js';
import { errorMessage } from '../../lib/api.js';
import { useRevealBankDetails } from './api.js';

/**
 * A payee's full bank details: the dialog first says that reading them is
 * recorded in the history, and asks for them only on "Show". They live in
 * this dialog alone, gone when it closes.
 */
export function BankDetailsDialog({ payeeId, name, onClose }: { payeeId: number; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const reveal = useRevealBankDetails();
  const d = reveal.data;
  const address = d?.address ? [d.address.line1, d.address.line2, `${d.address.city}, ${d.address.state} ${d.address.zip}`].filter(Boolean).join(', ') : null;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('payments.bank.title', { name })}</DialogTitle>
      <DialogContent>
        {!d && (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {t('payments.bank.recorded')}
          </Alert>
        )}
        {reveal.isError && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {errorMessage(reveal.error)}
          </Alert>
        )}
        {d && (
          <FactsList
            items={[
              [t('payments.bank.method'), t(`payments.methods.${d.method}`)],
              [t('payments.bank.routing'), d.routingNumber ?? '—'],
              [t('payments.bank.account'), d.accountNumber ?? '—'],
              [t('payments.bank.accountType'), d.accountType ? t(`payments.accountTypes.${d.accountType}`) : '—'],
              [t('payments.bank.taxId'), d.taxId ?? '—'],
              [t('payments.bank.address'), address ?? '—'],
            ]}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus={!d}>
          {t('common.close')}
        </Button>
        {!d && (
          <Button variant="contained" startIcon={<VisibilityOutlined />} loading={reveal.isPending} onClick={() => reveal.mutate(payeeId)}>
            {t('payments.bank.reveal')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
