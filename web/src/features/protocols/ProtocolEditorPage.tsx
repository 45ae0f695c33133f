import '@xyflow/react/dist/style.css';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PublishOutlined from '@mui/icons-material/PublishOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { errorMessage } from '../../lib/api.js';
import { BpmnImportButton } from './bpmn/BpmnImportButton.js';
import { downloadProtocolBpmn } from './api.js';
import { AwardsSection } from './editor/AwardsSection.js';
import { EditorAlerts } from './editor/EditorAlerts.js';
import { PartiesSection } from './editor/PartiesSection.js';
import { PendingColumnsSection } from './editor/PendingColumnsSection.js';
import { PublicPageSection } from './editor/PublicPageSection.js';
import { SettingsSection } from './editor/SettingsSection.js';
import { responsibleText } from './editor/TaskList.js';
import { TasksSection } from './editor/TasksSection.js';
import { usePickerOptions } from './editor/usePickerOptions.js';
import { useProtocolDraft } from './editor/useProtocolDraft.js';
import { VersionsSection } from './editor/VersionsSection.js';
import { ProtocolGraph } from './graph/ProtocolGraph.js';

// bpmn-js is loaded with the diagram only, never with the editor.
const BpmnDiagram = lazy(() => import('./bpmn/BpmnDiagram.js'));

/**
 * /protocolos/nuevo and /protocolos/:id: a protocol's settings, its public
 * page in English and Spanish (`PublicPageSection`), its task
 * templates (ordered, each in a dialog), the start tasks, the pending-list
 * columns, the parties a case invites and the award caps (issue 23), and a
 * graph drawn from the draft as it changes. Save stores the
 * draft (problems show next to the task or field they name); Publish freezes
 * it as a new version, which new cases use. The draft, its problems, Save
 * and Publish are `useProtocolDraft`; the task templates `TasksSection`.
 * A saved protocol's draft can be exported as BPMN 2.0, replaced by an
 * imported .bpmn file (`BpmnImportButton`), and shown as a BPMN diagram
 * beside the graph.
 */
export default function ProtocolEditorPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const can = useCan();
  const editor = useProtocolDraft(id);
  const { isNew, detail, loaded, draft, problems, updateDefinition } = editor;
  const { options, mainFields, formItems } = usePickerOptions(draft?.mainFormId);
  const [view, setView] = useState<'graph' | 'bpmn'>('graph');

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
  const unpublished = isNew || editor.dirty || !loaded || loaded.changedSincePublished || loaded.publishedVersion === null;
  const canSave = isNew ? can('wf_protocolos', 'create') : can('wf_protocolos', 'update');
  const busy = editor.saving || editor.publishing;
  const canExport = can('wf_protocolos', 'export');

  return (
    <>
      <PageHeader title={isNew ? t('protocols.editor.newTitle') : t('protocols.editor.editTitle', { name: loaded?.name ?? draft.name })}>
        {!isNew && loaded && canExport && (
          <Button startIcon={<DownloadOutlined />} onClick={() => void downloadProtocolBpmn(loaded).catch((error: unknown) => showToast(errorMessage(error)))}>
            {t('protocols.bpmn.export')}
          </Button>
        )}
        {!isNew && loaded && canSave && <BpmnImportButton protocolId={loaded.id} dirty={editor.dirty} disabled={busy} />}
        {canSave && (
          <>
            <Button variant="outlined" startIcon={<SaveOutlined />} onClick={editor.save} loading={editor.saving} disabled={busy}>
              {t('common.save')}
            </Button>
            <Button variant="contained" startIcon={<PublishOutlined />} onClick={editor.publish} loading={editor.publishing} disabled={busy}>
              {t('protocols.publish')}
            </Button>
          </>
        )}
      </PageHeader>

      <EditorAlerts unpublished={unpublished} publishedVersion={loaded?.publishedVersion ?? null} problems={problems} />

      <Box sx={{ display: 'grid', gap: 2 }}>
        <SettingsSection draft={draft} update={editor.update} problems={problems.settings} forms={formItems} mainFormName={loaded?.mainFormName} />

        <PublicPageSection
          value={draft.publicPage}
          onChange={(publicPage) => editor.update({ publicPage })}
          problems={problems.settings}
          publicUrl={loaded?.public && loaded.publishedVersion !== null ? loaded.publicUrl : null}
        />

        <TasksSection definition={def} options={options} problems={problems} updateDefinition={updateDefinition} />

        <Section
          title={t('protocols.editor.graph')}
          id="protocol-graph"
          action={
            !isNew &&
            loaded &&
            canExport && (
              <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, next: 'graph' | 'bpmn' | null) => next && setView(next)} aria-label={t('protocols.bpmn.views')}>
                <ToggleButton value="graph">{t('protocols.bpmn.viewGraph')}</ToggleButton>
                <ToggleButton value="bpmn">{t('protocols.bpmn.viewBpmn')}</ToggleButton>
              </ToggleButtonGroup>
            )
          }
        >
          {view === 'bpmn' && loaded ? (
            <Suspense fallback={<LinearProgress aria-label={t('protocols.bpmn.viewBpmn')} />}>
              <BpmnDiagram protocolId={loaded.id} />
            </Suspense>
          ) : (
            <>
              <ProtocolGraph
                definition={def}
                problems={new Set(problems.tasks.keys())}
                describeResponsible={(task) => responsibleText(task, options, (code) => def.tasks.find((x) => x.code === code)?.name ?? code, t)}
              />
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('protocols.graph.legend')}
              </Typography>
            </>
          )}
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

        <PartiesSection definition={def} forms={options.forms} problems={problems.parties} updateDefinition={updateDefinition} />

        <AwardsSection definition={def} problems={problems.awards} updateDefinition={updateDefinition} />

        {!isNew && loaded && <VersionsSection protocol={loaded} />}
      </Box>
    </>
  );
}
