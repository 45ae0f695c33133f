import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ADHOC_TASK_CODE } from '../../../../core/workflow/adhoc.js';
import { useSession } from '../../app/session/session.js';
import { QueryState, Section } from '../../components/page/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Presence } from '../../components/Presence.js';
import { useRoom } from '../../lib/realtime.js';
import { CommentThread } from '../comments/index.js';
import { FormRenderer, type FormRendererHandle } from '../forms/renderer/FormRenderer.js';
import { AwardPanel, type AwardPanelHandle } from '../payments/AwardPanel.js';
import { useTask } from './api.js';
import { AssignDialog } from './AssignDialog.js';
import { DocumentDetail } from './DocumentDetail.js';
import { RejectDialog, useRejectDestination } from './RejectDialog.js';
import { TaskActions } from './TaskActions.js';
import { TaskCorrection } from './TaskCorrection.js';
import { TaskNext } from './TaskNext.js';
import { TaskNotes } from './TaskNotes.js';
import { TaskStateChip } from './TaskStateChip.js';
import { TaskSummary } from './TaskSummary.js';
import { useShownTask } from './useShownTask.js';
import { useTaskDecisions } from './useTaskDecisions.js';

/**
 * /tasks/:id: the case and its summary, who is responsible (and changing
 * it), the task's form, where the case goes next, the application's values,
 * and the decisions. Every button follows the `actions` the server lists for
 * this user; the task's version goes with each change, so a page left open
 * while someone else decided gets the server's 409 message and reloads.
 * The decisions (mutations, confirmations, dialogs) are `useTaskDecisions`;
 * their toolbar is `TaskActions`.
 */
export default function TaskPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const session = useSession();
  // The task form (the forms feature's renderer) holds the values; the decisions read them when the user acts.
  const formRef = useRef<FormRendererHandle>(null);
  // Issue 23: on the task that sets the award, its panel holds the award Accept sends.
  const awardRef = useRef<AwardPanelHandle>(null);
  const room = useRoom(id ? { kind: 'task', id: Number(id) } : null);
  const query = useTask(id);
  // The task as the page shows it: a newer version (someone else's change, heard live) replaces it
  // only when nothing typed would be lost; otherwise the page says that a newer version exists.
  const { task, newer, takeNewer } = useShownTask(query.data, () => formRef.current?.isDirty() ?? false);

  // An ad-hoc task is outside the protocol: nothing comes after it, and a reject sends nothing back.
  const adhoc = task?.code === ADHOC_TASK_CODE;
  const destination = useRejectDestination(task?.onReject ?? null, adhoc);
  const decisions = useTaskDecisions(id, task, adhoc, formRef, awardRef);

  if (query.isError || !task) {
    return (
      <>
        <PageHeader title={t('tasks.taskTitle')} />
        <QueryState query={query} height={240}>
          {() => null}
        </QueryState>
      </>
    );
  }

  // A new version of the task (loaded, saved, decided by anyone) replaces what the form shows.
  const loadedVersion = `${task.id}:${task.version}`;
  const editable = task.actions.includes('save') || task.actions.includes('accept');

  return (
    <>
      <PageHeader title={task.name}>
        <TaskStateChip state={task.state} size="medium" />
      </PageHeader>
      <Presence users={room.users} me={Number(session.user.uid)} />
      {newer && (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" onClick={takeNewer}>
              {t('common.reload')}
            </Button>
          }
        >
          {t('realtime.newerVersion')}
        </Alert>
      )}
      <TaskActions task={task} decisions={decisions} />

      <TaskNotes task={task} adhoc={adhoc} />
      <TaskCorrection caseId={task.case.id} />

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          <Section title={t('tasks.form.title')} id="task-form">
            {task.form ? (
              <FormRenderer
                key={loadedVersion}
                ref={formRef}
                definition={task.form.definition}
                defaultValues={task.data}
                role={session.user.role}
                readOnly={!editable}
              />
            ) : (
              <Typography color="text.secondary">{t('tasks.form.noForm')}</Typography>
            )}
          </Section>
          {task.award && <AwardPanel key={loadedVersion} ref={awardRef} caseId={task.case.id} editable={task.actions.includes('accept')} />}
          <Section title={t('tasks.documentDetail')} id="task-document">
            <DocumentDetail form={task.case.mainForm} data={task.case.data} optionLabels={task.case.optionLabels} />
          </Section>
          <CommentThread caseId={task.case.id} taskId={task.id} />
        </Box>
        {/* On phones the case comes first, then the form. */}
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0, order: { xs: -1, md: 0 } }}>
          <TaskSummary task={task} onAssign={task.actions.includes('assign') ? decisions.assigning.show : undefined} />
          <TaskNext task={task} adhoc={adhoc} destination={destination} />
        </Box>
      </Box>

      {decisions.rejecting.open && (
        <RejectDialog
          taskName={task.name}
          onReject={task.onReject}
          adhoc={adhoc}
          pending={decisions.pending.reject}
          error={decisions.rejecting.error}
          onSubmit={decisions.reject}
          onClose={decisions.rejecting.close}
        />
      )}
      {decisions.assigning.open && (
        <AssignDialog
          title={t('tasks.changeResponsible')}
          description={t('tasks.assignDescription', { name: task.name, number: task.case.number ?? task.case.id })}
          pending={decisions.pending.assign}
          error={decisions.assigning.error}
          onSubmit={decisions.assign}
          onClose={decisions.assigning.close}
        />
      )}
    </>
  );
}
