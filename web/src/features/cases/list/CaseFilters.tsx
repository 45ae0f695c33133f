import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import FilterListOutlined from '@mui/icons-material/FilterListOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Collapse from '@mui/material/Collapse';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CaseState, stateLabelKey } from '../../../../../core/workflow/states.js';
import { useCan } from '../../../app/session/session.js';
import { DateFilterField } from '../../../components/form/DateFilterField.js';
import { SearchField } from '../../../components/table/SearchField.js';
import type { UserOption } from '../../teams/api.js';
import { useTeamOptions } from '../../teams/api.js';
import { UserPicker } from '../../teams/UserPicker.js';
import type { SearchProtocol } from '../api.js';
import { AdvancedSearch } from './AdvancedSearch.js';
import { type CaseFilterValues, LISTED_STATES, readRows } from './caseUrl.js';
import { caseColumns, formColumns } from './searchColumns.js';

interface CaseFiltersProps {
  filters: CaseFilterValues;
  onChange: (patch: Partial<CaseFilterValues>) => void;
  onClear: () => void;
  protocols: SearchProtocol[];
  /** The owner's name when the list knows it (the rows of an owner filter all carry it). */
  ownerName?: string;
}

const fieldSx = { minWidth: 170, width: { xs: '100%', sm: 'auto' } };

/**
 * The filters of the case lists (/cases, /admin-cases): a quick search,
 * states, protocol, dates, owner, team, possible duplicates, and the
 * advanced search. Every change goes to the address at once.
 */
export function CaseFilters({ filters, onChange, onClear, protocols, ownerName }: CaseFiltersProps) {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const advancedId = useId();
  const teams = useTeamOptions(can('wf_equipos', 'show'));
  const rowCount = readRows(filters.filters).length;
  const [advanced, setAdvanced] = useState(filters.filters !== '');
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const filtersId = useId();
  const [filtersOpen, setFiltersOpen] = useState(false);

  // The search box keeps what is typed; it starts over only when the address
  // brings another search (a saved search, Back, Clear).
  const sent = useRef(filters.search);
  const [searchKey, setSearchKey] = useState(0);
  useEffect(() => {
    if (filters.search !== sent.current) {
      sent.current = filters.search;
      setSearchKey((k) => k + 1);
    }
  }, [filters.search]);
  const onSearch = useCallback(
    (text: string) => {
      sent.current = text.trim();
      onChange({ search: text });
    },
    [onChange],
  );

  const columns = useMemo(
    () => [
      ...caseColumns((column) => t(`caseList.searchColumns.${column}`)),
      ...formColumns(protocols, filters.protocolId, i18n.language),
    ],
    [t, i18n.language, protocols, filters.protocolId],
  );

  const owner: UserOption | null = filters.ownerId ? { id: Number(filters.ownerId), name: ownerName ?? `#${filters.ownerId}`, email: '' } : null;
  const active = Object.entries(filters).some(([, v]) => (Array.isArray(v) ? v.length > 0 : v !== ''));
  // What the collapsed filters of a phone hold (the search box and the advanced search show apart).
  const narrowing = filters.states.length + [filters.protocolId, filters.from, filters.to, filters.ownerId, filters.teamId, filters.possibleDuplicated].filter((v) => v !== '').length;

  const controls = (
    <>
      <TextField
        select
        size="small"
        label={t('caseList.filters.state')}
        value={filters.states}
        onChange={(event) => {
          const value = event.target.value as unknown as CaseState[] | string;
          onChange({ states: (typeof value === 'string' ? value.split(',') : value) as CaseState[] });
        }}
        slotProps={{
          select: {
            multiple: true,
            displayEmpty: true,
            renderValue: (selected) => ((selected as CaseState[]).length ? (selected as CaseState[]).map((s) => t(stateLabelKey(s))).join(', ') : t('caseList.filters.allStates')),
          },
          inputLabel: { shrink: true },
        }}
        sx={{ ...fieldSx, maxWidth: { sm: 320 } }}
      >
        {LISTED_STATES.map((state) => (
          <MenuItem key={state} value={state} dense>
            <Checkbox size="small" checked={filters.states.includes(state)} sx={{ py: 0 }} />
            <ListItemText primary={t(stateLabelKey(state))} />
          </MenuItem>
        ))}
      </TextField>
      {protocols.length > 0 && (
        <TextField
          select
          size="small"
          label={t('caseList.filters.protocol')}
          value={protocols.some((p) => String(p.id) === filters.protocolId) ? filters.protocolId : ''}
          onChange={(event) => onChange({ protocolId: event.target.value })}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={fieldSx}
        >
          <MenuItem value="">{t('caseList.filters.allProtocols')}</MenuItem>
          {protocols.map((protocol) => (
            <MenuItem key={protocol.id} value={String(protocol.id)}>
              {protocol.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <DateFilterField label={t('caseList.filters.from')} value={filters.from} onChange={(from) => onChange({ from })} max={filters.to || undefined} sx={fieldSx} />
      <DateFilterField label={t('caseList.filters.to')} value={filters.to} onChange={(to) => onChange({ to })} min={filters.from || undefined} sx={fieldSx} />
      <Box sx={{ ...fieldSx, minWidth: 220 }}>
        <UserPicker size="small" margin="none" label={t('caseList.filters.owner')} value={owner} onChange={(user) => onChange({ ownerId: user ? String(user.id) : '' })} />
      </Box>
      {teams.data && (
        <TextField
          select
          size="small"
          label={t('caseList.filters.team')}
          value={teams.data.items.some((team) => String(team.id) === filters.teamId) ? filters.teamId : ''}
          onChange={(event) => onChange({ teamId: event.target.value })}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={fieldSx}
        >
          <MenuItem value="">{t('caseList.filters.allTeams')}</MenuItem>
          {teams.data.items.map((team) => (
            <MenuItem key={team.id} value={String(team.id)}>
              {team.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        select
        size="small"
        label={t('caseList.filters.possibleDuplicated')}
        value={filters.possibleDuplicated}
        onChange={(event) => onChange({ possibleDuplicated: event.target.value as CaseFilterValues['possibleDuplicated'] })}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        sx={fieldSx}
      >
        <MenuItem value="">{t('caseList.filters.any')}</MenuItem>
        <MenuItem value="true">{t('caseList.filters.onlyDuplicates')}</MenuItem>
        <MenuItem value="false">{t('caseList.filters.noDuplicates')}</MenuItem>
      </TextField>
    </>
  );

  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <SearchField key={searchKey} onSearch={onSearch} defaultValue={filters.search} label={t('caseList.filters.search')} />
        {!phone && controls}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {phone && (
            <Button variant={filtersOpen ? 'contained' : 'outlined'} startIcon={<FilterListOutlined />} aria-expanded={filtersOpen} aria-controls={filtersId} onClick={() => setFiltersOpen((open) => !open)}>
              {narrowing > 0 ? t('caseList.filters.toggleCount', { count: narrowing }) : t('caseList.filters.toggle')}
            </Button>
          )}
          <Button
            variant={advanced ? 'contained' : 'outlined'}
            startIcon={<TuneOutlined />}
            aria-expanded={advanced}
            aria-controls={advancedId}
            onClick={() => setAdvanced((open) => !open)}
          >
            {rowCount > 0 ? t('caseList.advanced.toggleCount', { count: rowCount }) : t('caseList.advanced.toggle')}
          </Button>
          {active && (
            <Button startIcon={<FilterAltOffOutlined />} onClick={onClear}>
              {t('caseList.filters.clear')}
            </Button>
          )}
        </Box>
      </Box>
      {phone && (
        <Collapse in={filtersOpen} id={filtersId}>
          <Box sx={{ display: 'grid', gap: 2, pt: 2 }}>{controls}</Box>
        </Collapse>
      )}
      <Collapse in={advanced} id={advancedId} unmountOnExit>
        <AdvancedSearch filters={filters.filters} columns={columns} onApply={(value) => onChange({ filters: value })} />
      </Collapse>
    </Box>
  );
}
