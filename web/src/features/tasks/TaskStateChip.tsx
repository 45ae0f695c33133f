import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { type CaseState, STATE_COLORS, stateLabelKey, type TaskState } from '../../../../core/workflow/states.js';

type State = TaskState | CaseState;

function isState(value: string): value is State {
  return Object.hasOwn(STATE_COLORS, value);
}

/**
 * A task or case state with the spec's colour (UNASSIGNED blue, PENDING
 * orange, ACCEPTED green, REJECTED brown "Cancelled"...). The colour is a
 * dot and the border; the text stays dark so it keeps AA contrast.
 */
export function TaskStateChip({ state, size = 'small' }: { state: string; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  const color = isState(state) ? STATE_COLORS[state] : '#757575';
  const label = isState(state) ? t(stateLabelKey(state)) : state;
  return (
    <Chip
      size={size}
      variant="outlined"
      label={label}
      data-state={state}
      icon={<Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: color, flexShrink: 0 }} />}
      sx={{ borderColor: color, borderWidth: 1.5, color: 'text.primary', '& .MuiChip-icon': { ml: 1, mr: -0.25 } }}
    />
  );
}
