import Chip from '@mui/material/Chip';

export type ChipTone = 'positive' | 'negative' | 'neutral';

interface StateChipProps {
  label: string;
  tone?: ChipTone;
}

/** A record's state (Active, Locked, System...) as a small chip whose text keeps AA contrast. */
export function StateChip({ label, tone = 'neutral' }: StateChipProps) {
  if (tone === 'negative') return <Chip size="small" color="error" label={label} />;
  if (tone === 'positive') return <Chip size="small" color="success" variant="outlined" label={label} />;
  return <Chip size="small" variant="outlined" label={label} />;
}
