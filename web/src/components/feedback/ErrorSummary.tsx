import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export interface SummaryItem {
  /** Stable key of the problem (its field's path). */
  key: string;
  message: string;
  /** Takes the user to the field (focus, open its step); a problem without a field is plain text. */
  onSelect?: () => void;
}

/**
 * The GOV.UK error summary: after a refused submit, "There is a problem"
 * above the form with every problem, each a link to its field, while the
 * fields keep their own messages. Announced when it appears; with `focus`
 * it also takes the focus (a dialog, where nothing else moved it).
 */
export function ErrorSummary({ items, focus = false }: { items: SummaryItem[]; focus?: boolean }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const shown = items.length > 0;
  // Once per appearance, not per change of the list while it shows.
  useEffect(() => {
    if (shown && focus) ref.current?.focus();
  }, [shown, focus]);
  if (!shown) return null;
  return (
    <Alert ref={ref} severity="error" role="alert" tabIndex={-1} sx={{ mb: 2, '&:focus-visible': { outline: 3, outlineColor: 'warning.main' } }}>
      <AlertTitle component="h2" sx={{ fontSize: '1rem' }}>
        {t('common.errorSummary')}
      </AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {items.map((item) => (
          <li key={item.key}>
            {item.onSelect ? (
              <Link
                component="button"
                type="button"
                color="inherit"
                onClick={item.onSelect}
                sx={{ textAlign: 'left', verticalAlign: 'top', fontWeight: 500, overflowWrap: 'anywhere' }}
              >
                {item.message}
              </Link>
            ) : (
              item.message
            )}
          </li>
        ))}
      </Box>
    </Alert>
  );
}
