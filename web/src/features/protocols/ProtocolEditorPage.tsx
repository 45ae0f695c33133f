import '@xyflow/react/dist/style.css';
import Add from '@mui/icons-material/Add';
import PublishOutlined from '@mui/icons-material/PublishOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { scopeFieldsDeep } from '../../../../core/forms/definition.js';
import type { ProtocolDefinition, TaskTemplate } from '../../../../core/workflow/protocol.js';
import { useCan, useSession } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../lib/api.js';
import { useFormDefinition, useFormOptions } from '../forms/api.js';
import { useTeamOptions, useUserOptions } from '../teams/api.js';
import { checkDraft, moveTask, putTask, removeTask } from './editor/draft.js';
import { EditorAlerts } from './editor/EditorAlerts.js';
import { PendingColumnsSection } from './editor/PendingColumnsSection.js';
import { NO_PROBLEMS, type SortedProblems, sortProblems } from './editor/problems.js';
import { type Draft, fromDetail, newDraft, toBody } from './editor/protocolDraft.js';
import { SettingsSection } from './editor/SettingsSection.js';
import { type PickerOptions, TaskDialog } from './editor/TaskDialog.js';
import { responsibleText, TaskList } from './editor/TaskList.js';
import { VersionsSection } from './editor/VersionsSection.js';
import { ProtocolGraph } from './graph/ProtocolGraph.js';
import { useProtocolDetail, usePublishProtocolDraft, useSaveProtocol } from './api.js';

/**
 * /protocolos/nuevo and /protocolos/:id: a protocol's settings, its task
 * templates (ordered, each in a dialog), the start tasks, the pending-list
 * columns, and a graph drawn from the draft as it changes. Save stores the
 * draft (problems show next to the task or field they name); Publish freezes
 * it as a new version, which new cases use.
 */
export default function ProtocolEditorPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const can = useCan();
  const session = useSession();
  const dialogs = useDialogs();
  const isNew = id === undefined;

  const detail = useProtocolDetail(id);
  const forms = useFormOptions(can('formularios', 'show'));
  const teams = useTeamOptions(can('wf_equipos', 'show'));
  const users = useUserOptions('');

  const [draft, setDraft] = useState<Draft | null>(isNew ? newDraft() : null);
  const [dirty, setDirtyState] = useState(false);
  // The navigation blocker reads this: a save followed at once by a navigation must not be held back.
  const dirtyRef = useRef(false);
  const setDirty = (value: boolean) => {
    dirtyRef.current = value;
    setDirtyState(value);
  };
  const [serverProblems, setServerProblems] = useState<readonly ApiErrorDetail[] | null>(null);
  const [editing, setEditing] = useState<TaskTemplate | 'new' | null>(null);

  const loaded = detail.data;
  useEffect(() => {
    if (loaded) {
      setDraft(fromDetail(loaded));
      setDirty(false);
    }
  }, [loaded]);

  const mainForm = useFormDefinition(draft?.mainFormId, can('formularios', 'show'));
  const mainFields = useMemo(() => {
    const english = (session.user.language ?? 'en') === 'en';
    return scopeFieldsDeep(mainForm.data?.definition.fields ?? [])
      .filter((f) => f.type !== 'static' && f.type !== 'repeat')
      .map((f) => ({ name: f.name, label: (english ? f.label_en || f.label : f.label || f.label_en) || f.name }));
  }, [mainForm.data, session.user.language]);

  const options: PickerOptions = useMemo(
    () => ({
      forms: forms.data ? forms.data.items.map((f) => ({ id: f.id, name: f.name })) : null,
      teams: teams.data ? teams.data.items.map((x) => ({ id: x.id, name: x.name })) : null,
      userNames: new Map((users.data ?? []).map((u) => [u.id, u.name])),
    }),
    [forms.data, teams.data, users.data],
  );

  // After a failed save the problems follow the draft: what is fixed goes away at once.
  const problems: SortedProblems = useMemo(() => {
    if (!serverProblems || !draft) return NO_PROBLEMS;
    const codes = draft.definition.tasks.map((task) => task.code);
    const live = dirty ? checkDraft(draft.definition, (key, params) => t(key, params)) : null;
    const settings = serverProblems.filter((p) => !p.path.startsWith('tasks') && !p.path.startsWith('start') && !p.path.startsWith('pendingColumns'));
    // The server's checks of forms, teams and users stay until the next save.
    const references = serverProblems.filter((p) => /\.(formId|responsible)$/.test(p.path) && /^tasks\./.test(p.path));
    return sortProblems(live ? [...settings, ...live, ...references] : serverProblems, codes);
  }, [serverProblems, draft, dirty, t]);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void dialogs
      .confirm({ title: t('protocols.editor.leaveTitle'), message: t('protocols.editor.leaveMessage'), confirmText: t('protocols.editor.leave') })
      .then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker, dialogs, t]);

  const update = (patch: Partial<Draft>) => {
    setDraft((current) => (current ? { ...current, ...patch } : current));
    setDirty(true);
  };
  const updateDefinition = (change: (def: ProtocolDefinition) => ProtocolDefinition) => {
    setDraft((current) => (current ? { ...current, definition: change(current.definition) } : current));
    setDirty(true);
  };


  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'DUPLICATE') {
      setServerProblems([{ path: 'code', message: error.message }]);
      showToast(error.message);
      return;
    }
    if (error instanceof ApiError && error.details.length) {
      setServerProblems(error.details);
      setDirty(false);
      showToast(t('protocols.editor.hasProblems', { count: error.details.length }));
      return;
    }
    showToast(errorMessage(error));
  };

  // The server took the draft: its problems are gone and nothing is unsaved.
  const stored = () => {
    setServerProblems(null);
    setDirty(false);
  };
  const save = useSaveProtocol(id, {
    onStored: stored,
    onSuccess: (saved) => {
      showToast(t('common.saved'), 'success');
      if (isNew) navigate(`/protocolos/${saved.id}`, { replace: true });
    },
    onError: failed,
  });
  const publish = usePublishProtocolDraft(id, loaded, {
    onStored: stored,
    onSuccess: (published) => {
      showToast(t('protocols.published', { version: published.publishedVersion }), 'success');
      if (isNew) navigate(`/protocolos/${published.id}`, { replace: true });
    },
    onError: failed,
  });

  const confirmPublish = async () => {
    if (!draft) return;
    const confirmed = await dialogs.confirm({
      title: t('protocols.publishTitle'),
      message: t('protocols.publishMessage'),
      confirmText: t('protocols.publish'),
    });
    if (confirmed) publish.mutate({ body: toBody(draft), store: dirty || isNew });
  };
  const confirmDeleteTask = async (task: TaskTemplate) => {
    const confirmed = await dialogs.confirm({
      title: t('protocols.editor.deleteTaskTitle'),
      message: t('protocols.editor.confirmDeleteTask', { name: task.name }),
      confirmText: t('common.delete'),
    });
    if (confirmed) updateDefinition((def) => removeTask(def, task.code));
  };

  if (detail.isError || !draft) {
    return (
      <>
        <PageHeader title={t('protocols.editor.title')} />
        <QueryState query={{ data: draft ?? undefined, isError: detail.isError, error: detail.error }} height={320}>
          {() => null}
        </QueryState>
      </>
    );
  }

  const def = draft.definition;
  const unpublished = isNew || dirty || !loaded || loaded.changedSincePublished || loaded.publishedVersion === null;
  const canSave = isNew ? can('wf_protocolos', 'create') : can('wf_protocolos', 'update');
  const busy = save.isPending || publish.isPending;

  return (
    <>
      <PageHeader title={isNew ? t('protocols.editor.newTitle') : t('protocols.editor.editTitle', { name: loaded?.name ?? draft.name })}>
        {canSave && (
          <>
            <Button variant="outlined" startIcon={<SaveOutlined />} onClick={() => save.mutate(toBody(draft))} loading={save.isPending} disabled={busy}>
              {t('common.save')}
            </Button>
            <Button variant="contained" startIcon={<PublishOutlined />} onClick={() => void confirmPublish()} loading={publish.isPending} disabled={busy}>
              {t('protocols.publish')}
            </Button>
          </>
        )}
      </PageHeader>

      <EditorAlerts unpublished={unpublished} publishedVersion={loaded?.publishedVersion ?? null} problems={problems} />

      <Box sx={{ display: 'grid', gap: 2 }}>
        <SettingsSection draft={draft} update={update} problems={problems.settings} forms={forms.data?.items ?? null} mainFormName={loaded?.mainFormName} />

        <Section
          title={t('protocols.editor.tasks')}
          id="protocol-tasks"
          action={
            <Button startIcon={<Add />} variant="outlined" onClick={() => setEditing('new')}>
              {t('protocols.editor.addTask')}
            </Button>
          }
        >
          <TaskList
            tasks={def.tasks}
            start={def.start}
            options={options}
            problems={problems.tasks}
            onEdit={(task) => setEditing(task)}
            onDelete={(task) => void confirmDeleteTask(task)}
            onMove={(from, to) => updateDefinition((d) => moveTask(d, from, to))}
          />
          <FormControl component="fieldset" sx={{ mt: 2, display: 'block' }} error={problems.start.length > 0}>
            <FormLabel component="legend">{t('protocols.editor.startTasks')}</FormLabel>
            <FormGroup row>
              {def.tasks.map((task) => (
                <FormControlLabel
                  key={task.code}
                  control={
                    <Checkbox
                      checked={def.start.includes(task.code)}
                      onChange={(event) =>
                        updateDefinition((d) => ({ ...d, start: event.target.checked ? [...d.start, task.code] : d.start.filter((c) => c !== task.code) }))
                      }
                    />
                  }
                  label={task.name}
                />
              ))}
            </FormGroup>
            <FormHelperText>{problems.start.join(' ') || t('protocols.editor.startHint')}</FormHelperText>
          </FormControl>
        </Section>

        <Section title={t('protocols.editor.graph')} id="protocol-graph">
          <ProtocolGraph
            definition={def}
            problems={new Set(problems.tasks.keys())}
            describeResponsible={(task) => responsibleText(task, options, (code) => def.tasks.find((x) => x.code === code)?.name ?? code, t)}
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('protocols.graph.legend')}
          </Typography>
        </Section>

        <Section title={t('protocols.editor.pendingColumns')} id="protocol-pending">
          <Typography variant="body2" color="text.secondary">
            {t('protocols.editor.pendingColumnsHint')}
          </Typography>
          <PendingColumnsSection value={def.pendingColumns} onChange={(pendingColumns) => updateDefinition((d) => ({ ...d, pendingColumns }))} fields={mainFields} />
          {problems.pendingColumns.map((message, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat.
            <Typography key={i} color="error" variant="body2">
              {message}
            </Typography>
          ))}
        </Section>

        {!isNew && loaded && <VersionsSection protocol={loaded} />}
      </Box>

      {editing && (
        <TaskDialog
          task={editing === 'new' ? null : editing}
          tasks={def.tasks}
          options={options}
          problems={editing === 'new' ? [] : (problems.tasks.get(editing.code) ?? [])}
          onSave={(task) => {
            updateDefinition((d) => putTask(d, editing === 'new' ? null : editing.code, task));
            setEditing(null);
          }}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
