import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';

/**
 * The operator's pages render for a platform operator only; anyone else is
 * sent home with the usual "no permission" message (the server answers 403
 * to them anyway: this only spares them a page of errors).
 */
export function RequireOperator({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const refused = useRef(false);
  const allowed = session.user.operator === true;
  useEffect(() => {
    if (allowed || refused.current) return;
    refused.current = true;
    showToast(t('errors.forbidden'));
    navigate('/home', { replace: true });
  }, [allowed, navigate, t]);
  return allowed ? children : null;
}
