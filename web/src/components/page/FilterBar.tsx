import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import FilterListOutlined from '@mui/icons-material/FilterListOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Collapse from '@mui/material/Collapse';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A filter's width: side by side on wide screens, the full width on phones. */
export const filterFieldSx = { minWidth: 170, width: { xs: '100%', sm: 'auto' } };

interface FilterBarProps {
  /** The search box, always in view. */
  search: ReactNode;
  /** The filters: in the bar's row on wide screens, behind a "Filters" button on phones. */
  children: ReactNode;
  /** How many of the filters narrow the list now: the phone's button counts them. */
  narrowing: number;
  /** Buttons after the filters (an advanced search's toggle), always in view. */
  actions?: ReactNode;
  /** Clear every filter; the button shows while `clearable`. */
  onClear?: () => void;
  clearable?: boolean;
  /** Under the bar, the whole width (an advanced search's panel). */
  below?: ReactNode;
}

/**
 * The filters of a list: the search box, the filters in a row that wraps,
 * then the bar's buttons. On a phone the filters fold behind a "Filters (n)"
 * button (a disclosure: aria-expanded, aria-controls) and open as a column
 * of full-width fields under the bar.
 */
export function FilterBar({ search, children, narrowing, actions, onClear, clearable = false, below }: FilterBarProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const filtersId = useId();
  const [open, setOpen] = useState(false);
  const buttons = phone || actions || (onClear && clearable);
  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        {search}
        {!phone && children}
        {buttons && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            {phone && (
              <Button variant={open ? 'contained' : 'outlined'} startIcon={<FilterListOutlined />} aria-expanded={open} aria-controls={filtersId} onClick={() => setOpen((o) => !o)}>
                {narrowing > 0 ? t('dataTable.filtersCount', { count: narrowing }) : t('dataTable.filters')}
              </Button>
            )}
            {actions}
            {onClear && clearable && (
              <Button startIcon={<FilterAltOffOutlined />} onClick={onClear}>
                {t('dataTable.clearFilters')}
              </Button>
            )}
          </Box>
        )}
      </Box>
      {phone && (
        <Collapse in={open} id={filtersId}>
          <Box sx={{ display: 'grid', gap: 2, pt: 2 }}>{children}</Box>
        </Collapse>
      )}
      {below}
    </Box>
  );
}

interface FilterOption {
  value: string;
  label: string;
}

interface FilterSelectProps<V extends string> {
  label: string;
  /** '' for every value; a value no longer among the options shows as every value. */
  value: V | '';
  /** What '' says ("All protocols"). */
  allLabel: string;
  options: readonly FilterOption[];
  onChange: (value: V | '') => void;
}

/** One value of a list, or all of them. */
export function FilterSelect<V extends string>({ label, value, allLabel, options, onChange }: FilterSelectProps<V>) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={options.some((o) => o.value === value) ? value : ''}
      onChange={(event) => onChange(event.target.value as V | '')}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={filterFieldSx}
    >
      <MenuItem value="">{allLabel}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

interface FilterMultiSelectProps<V extends string> {
  label: string;
  /** The chosen values; none means all. */
  value: readonly V[];
  /** What no choice says ("All states"). */
  allLabel: string;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange: (value: V[]) => void;
}

/** Several values of a list (each a checkbox in the menu), or none for all. */
export function FilterMultiSelect<V extends string>({ label, value, allLabel, options, onChange }: FilterMultiSelectProps<V>) {
  const labelOf = (v: V) => options.find((o) => o.value === v)?.label ?? v;
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => {
        const next = event.target.value as unknown as V[] | string;
        onChange((typeof next === 'string' ? next.split(',') : next) as V[]);
      }}
      slotProps={{
        select: {
          multiple: true,
          displayEmpty: true,
          renderValue: (selected) => ((selected as V[]).length ? (selected as V[]).map(labelOf).join(', ') : allLabel),
        },
        inputLabel: { shrink: true },
      }}
      sx={{ ...filterFieldSx, maxWidth: { sm: 320 } }}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value} dense>
          <Checkbox size="small" checked={value.includes(option.value)} sx={{ py: 0 }} />
          <ListItemText primary={option.label} />
        </MenuItem>
      ))}
    </TextField>
  );
}
