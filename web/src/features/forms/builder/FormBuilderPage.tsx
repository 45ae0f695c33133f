import ArrowBack from '@mui/icons-material/ArrowBack';
import Save from '@mui/icons-material/Save';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { useSession } from '../../../app/session/session.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { useLeaveGuard } from '../../../components/feedback/useLeaveGuard.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { ApiError, errorMessage } from '../../../lib/api.js';
import { type FormView, useFormQuery, useSaveForm } from '../api.js';
import { useFieldText } from '../labels.js';
import { FieldsTab } from './FieldsTab.js';
import { SettingsTab } from './SettingsTab.js';
import { type BuilderState, checkDefinition, emptyState, findNode, fromDefinition, placeProblems, toDefinition } from './tree.js';
import { ViewTab } from './ViewTab.js';

type TabName = 'settings' | 'fields' | 'view';
const CODE = /^[a-z][a-z0-9_-]{0,62}$/;
type Problem = { path: string; message: string };

/** /formularios/nuevo and /formularios/:id: the builder, once the form (if any) has loaded. */
export default function FormBuilderPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const query = useFormQuery(id);
  if (id !== undefined && !query.data) {
    return query.isError ? (
      <Alert severity="error" role="alert">
        {errorMessage(query.error)}
      </Alert>
    ) : (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={t('common.loading')} />
      </Box>
    );
  }
  return <Builder key={id ?? 'new'} saved={query.data ?? null} />;
}

const snapshot = (state: BuilderState) => JSON.stringify([state.code, toDefinition(state)]);

function Builder({ saved }: { saved: FormView | null }) {
  const { t } = useTranslation();
  const text = useFieldText();
  const navigate = useNavigate();
  const session = useSession();
  const tabsId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [state, setState] = useState<BuilderState>(() => (saved ? fromDefinition(saved.code, saved.definition) : emptyState()));
  const [baseline, setBaseline] = useState(() => snapshot(state));
  // A form just created opens on the tab its author was using.
  const location = useLocation();
  const [tab, setTab] = useState<TabName>((location.state as { tab?: TabName } | null)?.tab ?? (saved ? 'fields' : 'settings'));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [serverProblems, setServerProblems] = useState<Problem[] | null>(null);
  const [showSummary, setShowSummary] = useState(false);
  const [codeError, setCodeError] = useState<string | undefined>();
  const [attempted, setAttempted] = useState(false);

  const definition = useMemo(() => toDefinition(state), [state]);
  const dirty = snapshot(state) !== baseline;
  const localProblems = useMemo(() => checkDefinition(definition, (key, params) => t(key, params)), [definition, t]);
  const problems = serverProblems ?? localProblems;
  const placed = useMemo(() => placeProblems(state.nodes, problems), [state.nodes, problems]);
  const settingsErrors: Record<string, string | undefined> = { code: codeError };
  // A new form's empty name is not an error until the author tries to save.
  for (const problem of attempted ? placed.form : []) {
    const key = problem.path.split('.')[0] ?? '';
    settingsErrors[key] ??= problem.message;
  }

  const edit = (change: (current: BuilderState) => BuilderState) => {
    setState(change);
    setServerProblems(null);
  };

  const release = useLeaveGuard(dirty, { title: t('forms.builder.leaveTitle'), message: t('forms.builder.leaveMessage'), confirmText: t('forms.builder.leave') });

  const save = useSaveForm(saved, {
    onSuccess: (form, body) => {
      setServerProblems(null);
      setShowSummary(false);
      setBaseline(JSON.stringify([body.code, body.definition]));
      release();
      showToast(saved && form.version !== saved.version ? t('forms.builder.savedVersion', { version: form.version }) : t('common.saved'), 'success');
    },
    onRefreshed: (form) => {
      if (!saved) navigate(`/formularios/${form.id}`, { replace: true, state: { tab } });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'DUPLICATE') {
        setCodeError(error.message);
        setTab('settings');
        return;
      }
      if (error instanceof ApiError && error.details.length) {
        setServerProblems([...error.details]);
        setShowSummary(true);
        const where = placeProblems(state.nodes, error.details);
        const firstNode = [...where.byNode.keys()][0];
        if (where.form.length && !firstNode) setTab('settings');
        else if (firstNode) {
          setTab('fields');
          setSelectedId(firstNode);
        }
        return;
      }
      showToast(errorMessage(error));
    },
  });

  const submit = () => {
    setAttempted(true);
    const code = state.code.trim();
    const codeProblem = !code ? t('validation.required') : CODE.test(code) ? undefined : t('masters.badCode');
    setCodeError(codeProblem);
    if (codeProblem) {
      setTab('settings');
      return;
    }
    if (localProblems.length) setShowSummary(true);
    save.mutate({ code, definition });
  };

  const title = state.settings.name.trim() || (saved ? saved.name : t('forms.builder.newTitle'));
  const tabs: Array<{ name: TabName; label: string }> = [
    { name: 'settings', label: t('forms.builder.tabSettings') },
    { name: 'fields', label: t('forms.builder.tabFields') },
    { name: 'view', label: t('forms.builder.tabView') },
  ];

  return (
    <>
      <Link component={RouterLink} to="/formularios" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1 }}>
        <ArrowBack fontSize="small" aria-hidden />
        {t('forms.builder.back')}
      </Link>
      <PageHeader title={title}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          {saved && <Chip size="small" variant="outlined" label={t('forms.builder.version', { version: saved.version })} />}
          {saved?.inUse && <Chip size="small" variant="outlined" label={t('forms.list.inUse')} />}
          {dirty && <Chip size="small" color="warning" variant="outlined" label={t('forms.builder.unsaved')} />}
          <Button variant="contained" startIcon={<Save />} onClick={submit} loading={save.isPending} disabled={!!saved && !dirty}>
            {t('common.save')}
          </Button>
        </Box>
      </PageHeader>
      {saved?.inUse && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('forms.builder.inUse')}
        </Alert>
      )}
      {showSummary && problems.length > 0 && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setShowSummary(false)}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t('forms.builder.problems', { count: problems.length })}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {[...placed.byNode.entries()].flatMap(([id, messages]) => {
              const node = findNode(state.nodes, id);
              const name = node ? text.label(node.field) : id;
              return messages.map((message) => (
                <li key={`${id}:${message}`}>
                  <Link
                    component="button"
                    type="button"
                    onClick={() => {
                      setTab('fields');
                      setSelectedId(id);
                    }}
                    sx={{ verticalAlign: 'baseline', textAlign: 'left' }}
                  >
                    {node ? `${name} (${node.field.name})` : name}
                  </Link>
                  {`: ${message}`}
                </li>
              ));
            })}
            {placed.form.map((problem) => (
              <li key={`${problem.path}:${problem.message}`}>
                <Link component="button" type="button" onClick={() => setTab('settings')} sx={{ verticalAlign: 'baseline' }}>
                  {t('forms.builder.settingsProblem')}
                </Link>
                {`: ${problem.message}`}
              </li>
            ))}
          </Box>
        </Alert>
      )}
      <Tabs
        value={tab}
        onChange={(_event, next: TabName) => setTab(next)}
        variant={phone ? 'scrollable' : 'fullWidth'}
        scrollButtons={false}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider', maxWidth: 600 }}
      >
        {tabs.map(({ name, label }) => (
          <Tab key={name} value={name} label={label} id={`${tabsId}-${name}`} aria-controls={`${tabsId}-${name}-panel`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`${tabsId}-${tab}-panel`} aria-labelledby={`${tabsId}-${tab}`}>
        {tab === 'settings' && (
          <SettingsTab
            state={state}
            errors={settingsErrors}
            onSettings={(patch) => edit((s) => ({ ...s, settings: { ...s.settings, ...patch } }))}
            onCode={(code) => {
              setCodeError(undefined);
              edit((s) => ({ ...s, code }));
            }}
          />
        )}
        {tab === 'fields' && (
          <FieldsTab
            nodes={state.nodes}
            onNodes={(change) => edit((s) => ({ ...s, nodes: change(s.nodes) }))}
            selectedId={selectedId}
            onSelect={setSelectedId}
            problems={placed.byNode}
          />
        )}
        {tab === 'view' && <ViewTab definition={definition} formId={saved?.id} saved={saved?.definition} dirty={dirty} role={session.user.role} />}
      </Box>
    </>
  );
}
