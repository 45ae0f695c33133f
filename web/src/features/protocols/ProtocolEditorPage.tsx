import '@xyflow/react/dist/style.css';
import PublishOutlined from '@mui/icons-material/PublishOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EditorAlerts } from './editor/EditorAlerts.js';
import { PendingColumnsSection } from './editor/PendingColumnsSection.js';
import { PublicPageSection } from './editor/PublicPageSection.js';
import { SettingsSection } from './editor/SettingsSection.js';
import { responsibleText } from './editor/TaskList.js';
import { TasksSection } from './editor/TasksSection.js';
import { usePickerOptions } from './editor/usePickerOptions.js';
import { useProtocolDraft } from './editor/useProtocolDraft.js';
import { VersionsSection } from './editor/VersionsSection.js';
import { ProtocolGraph } from './graph/ProtocolGraph.js';

/**
 * /protocolos/nuevo and /protocolos/:id: a protocol's settings, its public
 * page in English and Spanish (`PublicPageSection`), its task
 * templates (ordered, each in a dialog), the start tasks, the pending-list
 * columns, and a graph drawn from the draft as it changes. Save stores the
 * draft (problems show next to the task or field they name); Publish freezes
 * it as a new version, which new cases use. The draft, its problems, Save
 * and Publish are `useProtocolDraft`; the task templates `TasksSection`.
 */
export default function ProtocolEditorPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const can = useCan();
  const editor = useProtocolDraft(id);
  const { isNew, detail, loaded, draft, problems, updateDefinition } = editor;
  const { options, mainFields, formItems } = usePickerOptions(draft?.mainFormId);

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

  return (
    <>
      <PageHeader title={isNew ? t('protocols.editor.newTitle') : t('protocols.editor.editTitle', { name: loaded?.name ?? draft.name })}>
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
    </>
  );
}
