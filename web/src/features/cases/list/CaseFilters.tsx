import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stateLabelKey } from '../../../../../core/workflow/states.js';
import { useCan } from '../../../app/session/session.js';
import { DateFilterField } from '../../../components/form/DateFilterField.js';
import { FilterBar, FilterMultiSelect, FilterSelect, filterFieldSx } from '../../../components/page/index.js';
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

  return (
    <FilterBar
      search={<SearchField key={searchKey} onSearch={onSearch} defaultValue={filters.search} label={t('caseList.filters.search')} />}
      narrowing={narrowing}
      onClear={onClear}
      clearable={active}
      actions={
        <Button variant={advanced ? 'contained' : 'outlined'} startIcon={<TuneOutlined />} aria-expanded={advanced} aria-controls={advancedId} onClick={() => setAdvanced((open) => !open)}>
          {rowCount > 0 ? t('caseList.advanced.toggleCount', { count: rowCount }) : t('caseList.advanced.toggle')}
        </Button>
      }
      below={
        <Collapse in={advanced} id={advancedId} unmountOnExit>
          <AdvancedSearch filters={filters.filters} columns={columns} onApply={(value) => onChange({ filters: value })} />
        </Collapse>
      }
    >
      <FilterMultiSelect
        label={t('caseList.filters.state')}
        value={filters.states}
        allLabel={t('caseList.filters.allStates')}
        options={LISTED_STATES.map((state) => ({ value: state, label: t(stateLabelKey(state)) }))}
        onChange={(states) => onChange({ states })}
      />
      {protocols.length > 0 && (
        <FilterSelect
          label={t('caseList.filters.protocol')}
          value={filters.protocolId}
          allLabel={t('caseList.filters.allProtocols')}
          options={protocols.map((protocol) => ({ value: String(protocol.id), label: protocol.name }))}
          onChange={(protocolId) => onChange({ protocolId })}
        />
      )}
      <DateFilterField label={t('caseList.filters.from')} value={filters.from} onChange={(from) => onChange({ from })} max={filters.to || undefined} sx={filterFieldSx} />
      <DateFilterField label={t('caseList.filters.to')} value={filters.to} onChange={(to) => onChange({ to })} min={filters.from || undefined} sx={filterFieldSx} />
      <Box sx={{ ...filterFieldSx, minWidth: 220 }}>
        <UserPicker size="small" margin="none" label={t('caseList.filters.owner')} value={owner} onChange={(user) => onChange({ ownerId: user ? String(user.id) : '' })} />
      </Box>
      {teams.data && (
        <FilterSelect
          label={t('caseList.filters.team')}
          value={filters.teamId}
          allLabel={t('caseList.filters.allTeams')}
          options={teams.data.items.map((team) => ({ value: String(team.id), label: team.name }))}
          onChange={(teamId) => onChange({ teamId })}
        />
      )}
      <FilterSelect<'true' | 'false'>
        label={t('caseList.filters.possibleDuplicated')}
        value={filters.possibleDuplicated}
        allLabel={t('caseList.filters.any')}
        options={[
          { value: 'true', label: t('caseList.filters.onlyDuplicates') },
          { value: 'false', label: t('caseList.filters.noDuplicates') },
        ]}
        onChange={(possibleDuplicated) => onChange({ possibleDuplicated })}
      />
    </FilterBar>
  );
}
