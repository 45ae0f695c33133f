import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import DoNotDisturbOnOutlined from '@mui/icons-material/DoNotDisturbOnOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import ReplyOutlined from '@mui/icons-material/ReplyOutlined';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Target } from '../../../../../core/targets.js';
import { useCan } from '../../../app/session/session.js';
import { ActionToolbar } from '../../../components/page/index.js';
import type { CaseDetail, CaseTransition } from '../api.js';

/** The transitions of a case, each guarded by its permission target (spec section 4). */
const TRANSITIONS: Array<{ name: CaseTransition; target: Target; icon: ReactNode; color: 'primary' | 'success' | 'error' }> = [
  { name: 'open', target: 'wf_abrir_caso', icon: <PlayArrowOutlined />, color: 'primary' },
  { name: 'complete', target: 'wf_completar_caso', icon: <CheckCircleOutlined />, color: 'success' },
  { name: 'close', target: 'wf_cerrar_caso', icon: <DoNotDisturbOnOutlined />, color: 'error' },
  { name: 'activate', target: 'wf_activar_caso', icon: <LockOpenOutlined />, color: 'primary' },
];


interface CaseActionsProps {
  c: CaseDetail;
  /** A transition is under way: every button waits. */
  busy: boolean;
  /** The transition under way, whose button spins. */
  pendingName?: CaseTransition;
  onChoose: (name: CaseTransition) => void;
  /** Return the application to its applicant for correction (staff; wf_casos update). */
  onReturn?: () => void;
}

/** The case's transitions this user has (listed by the server, and the session holds the target), as a toolbar. */
export function CaseActions({ c, busy, pendingName, onChoose, onReturn }: CaseActionsProps) {
  const { t } = useTranslation();
  const can = useCan();
  const transitions = TRANSITIONS.filter((a) => c.actions.includes(a.name) && can(a.target, 'confirm'));
  const mayReturn = onReturn && c.actions.includes('returnForCorrection') && can('wf_casos', 'update');
  const buttons = transitions.map((a) => (
    <Button
      key={a.name}
      variant={a.name === 'close' ? 'outlined' : 'contained'}
      color={a.color}
      startIcon={a.icon}
      disabled={busy}
      loading={pendingName === a.name}
      onClick={() => onChoose(a.name)}
    >
      {t(`caseView.actions.${a.name}.label`)}
    </Button>
  ));
  if (mayReturn) {
    buttons.push(
      <Button key="return" variant="outlined" startIcon={<ReplyOutlined />} disabled={busy} onClick={onReturn}>
        {t('caseCorrection.action')}
      </Button>,
    );
  }
  return <ActionToolbar label={t('caseView.actions.label')}>{buttons}</ActionToolbar>;
}
