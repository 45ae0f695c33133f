import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../../core/dates.js';
import { useSession } from '../../app/session/session.js';
import { DateFilterField } from '../../components/form/DateFilterField.js';
import { FilterBar, filterFieldSx } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { type Column, DataTable } from '../../components/table/DataTable.js';
import { ListError } from '../../components/table/ListError.js';
import { tablePaging, useListParams } from '../../components/table/listParams.js';
import { SearchField } from '../../components/table/SearchField.js';
import { type Comment, type CommentListFilters, type Mentionable, useCommentList, useMentionables } from './api.js';
import { CommentBody } from './CommentBody.js';
import { CommentEditDialog, useConfirmDeleteComment } from './CommentEditDialog.js';
import { VisibilityChip } from './CommentThread.js';

const DEBOUNCE_MS = 300;

/** A value that follows `value` once it has stopped changing for a moment. */
function useDebounced<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/** The author filter: staff of the tenant, searched as the user types. */
function AuthorFilter({ value, onChange }: { value: Mentionable | null; onChange: (person: Mentionable | null) => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const search = useDebounced(input);
  const people = useMentionables(search, true);
  const list = people.data?.items ?? [];
  const options = value && !list.some((p) => p.id === value.id) ? [value, ...list] : list;
  return (
    <Autocomplete
      size="small"
      options={options}
      value={value}
      loading={people.isFetching}
      filterOptions={(x) => x}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(person) => person.name}
      onChange={(_event, person) => onChange(person)}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') setInput(text);
        if (reason === 'clear') setInput('');
      }}
      noOptionsText={t('comments.dashboard.noUsers')}
      loadingText={t('common.loading')}
      renderInput={(params) => <TextField {...params} label={t('comments.dashboard.author')} />}
      sx={{ ...filterFieldSx, minWidth: 220 }}
    />
  );
}

/** /dashboard/comments: every comment of the tenant, filtered by day, author, case and text; edit and delete each. */
export default function CommentsDashboardPage() {
  const { t } = useTranslation();
  const session = useSession();
  const zone = session.user.timeZone;
  const list = useListParams({ sortBy: 'created_at', descending: true });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [author, setAuthor] = useState<Mentionable | null>(null);
  const [caseText, setCaseText] = useState('');
  const caseNumber = useDebounced(caseText.trim());
  const filters: CommentListFilters = {
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(author ? { authorId: author.id } : {}),
    ...(caseNumber ? { caseNumber } : {}),
  };
  const query = useCommentList(list.params, filters);
  const [editing, setEditing] = useState<Comment | null>(null);
  const confirmDelete = useConfirmDeleteComment();
  const { setPage } = list;
  // A new filter starts again from the first page.
  const filterKey = JSON.stringify(filters);
  useEffect(() => setPage(0), [filterKey, setPage]);

  const columns: Column<Comment>[] = [
    {
      id: 'createdAt',
      label: t('comments.dashboard.date'),
      sortKey: 'created_at',
      noWrap: true,
      render: (c) => <time dateTime={c.createdAt}>{formatDateTime(c.createdAt, zone)}</time>,
    },
    {
      id: 'case',
      label: t('comments.dashboard.case'),
      sortKey: 'case_number',
      noWrap: true,
      render: (c) => (
        <Link component={RouterLink} to={`/cases/${c.caseId}`}>
          {c.caseNumber ?? `#${c.caseId}`}
        </Link>
      ),
    },
    { id: 'number', label: t('comments.dashboard.number'), align: 'right', render: (c) => `#${c.number}` },
    { id: 'author', label: t('comments.dashboard.author'), sortKey: 'author', render: (c) => c.authorName },
    {
      id: 'body',
      label: t('comments.dashboard.comment'),
      render: (c) => (
        <Box sx={{ maxWidth: 480 }}>
          <CommentBody body={c.body} sx={{ display: '-webkit-box', WebkitLineClamp: 4, WebkitBoxOrient: 'vertical', overflow: 'hidden' }} />
          {c.taskName && (
            <Box component="span" sx={{ color: 'text.secondary', fontSize: '0.8em' }}>
              {t('comments.task', { name: c.taskName })}
            </Box>
          )}
        </Box>
      ),
    },
    { id: 'visibility', label: t('comments.dashboard.visibility'), render: (c) => <VisibilityChip visible={c.visibleToApplicant} /> },
  ];

  const action = (label: string, c: Comment, icon: ReactElement, onClick: () => void) => (
    <Tooltip title={label} describeChild>
      <IconButton aria-label={`${label}: ${t('comments.commentOfCase', { number: c.number, caseNumber: c.caseNumber ?? `#${c.caseId}` })}`} onClick={onClick} size="small">
        {icon}
      </IconButton>
    </Tooltip>
  );
  const actions = (c: Comment) => (
    <>
      {c.actions.includes('edit') && action(t('common.edit'), c, <EditOutlined fontSize="small" />, () => setEditing(c))}
      {c.actions.includes('delete') && action(t('common.delete'), c, <DeleteOutlined fontSize="small" />, () => void confirmDelete(c))}
    </>
  );

  const filtered = Object.keys(filters).length > 0 || !!list.params.search;
  return (
    <>
      <PageHeader title={t('menu.comments')} />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <Box role="search" aria-label={t('comments.dashboard.filters')} sx={{ mb: 2 }}>
          <FilterBar
            search={<SearchField onSearch={list.setSearch} label={t('comments.dashboard.text')} />}
            narrowing={Object.keys(filters).length}
            clearable={!!(from || to || author || caseText)}
            onClear={() => {
              setFrom('');
              setTo('');
              setAuthor(null);
              setCaseText('');
            }}
          >
            <DateFilterField label={t('comments.dashboard.from')} value={from} onChange={setFrom} max={to || undefined} sx={filterFieldSx} />
            <DateFilterField label={t('comments.dashboard.to')} value={to} onChange={setTo} min={from || undefined} sx={filterFieldSx} />
            <AuthorFilter value={author} onChange={setAuthor} />
            <TextField size="small" label={t('comments.dashboard.caseNumber')} value={caseText} onChange={(event) => setCaseText(event.target.value)} sx={filterFieldSx} />
          </FilterBar>
        </Box>
        <DataTable
          label={t('menu.comments')}
          columns={columns}
          rows={query.data?.items}
          total={query.data?.total ?? 0}
          getRowId={(c) => c.id}
          {...tablePaging(list)}
          loading={query.isFetching}
          emptyText={filtered ? t('dataTable.noMatches') : t('comments.dashboard.empty')}
          actions={actions}
        />
        <ListError error={query.error} />
      </Paper>
      {editing && (
        <CommentEditDialog comment={query.data?.items.find((c) => c.id === editing.id) ?? editing} staffTools onClose={() => setEditing(null)} />
      )}
    </>
  );
}
