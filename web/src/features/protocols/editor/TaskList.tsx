import { closestCenter, DndContext, type DragEndEvent, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DragIndicator from '@mui/icons-material/DragIndicator';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TaskTemplate } from '../../../../../core/workflow/protocol.js';
import type { PickerOptions } from './TaskDialog.js';
import type { TaskProblem } from './problems.js';

interface TaskListProps {
  tasks: readonly TaskTemplate[];
  start: readonly string[];
  options: PickerOptions;
  problems: ReadonlyMap<string, TaskProblem[]>;
  onEdit: (task: TaskTemplate) => void;
  onDelete: (task: TaskTemplate) => void;
  onMove: (from: number, to: number) => void;
}

/** The task templates in their order: drag (or keyboard: space, arrows, space) to reorder; edit; delete. */
export function TaskList({ tasks, start, options, problems, onEdit, onDelete, onMove }: TaskListProps) {
  const { t } = useTranslation();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = tasks.findIndex((task) => task.code === active.id);
    const to = tasks.findIndex((task) => task.code === over.id);
    if (from >= 0 && to >= 0) onMove(from, to);
  };
  const nameOf = (code: string) => tasks.find((task) => task.code === code)?.name ?? code;
  const announcements = {
    onDragStart: ({ active }: { active: { id: string | number } }) => t('protocols.editor.dragStart', { name: nameOf(String(active.id)) }),
    onDragOver: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      over ? t('protocols.editor.dragOver', { name: nameOf(String(active.id)), position: tasks.findIndex((x) => x.code === over.id) + 1 }) : undefined,
    onDragEnd: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      over ? t('protocols.editor.dragEnd', { name: nameOf(String(active.id)), position: tasks.findIndex((x) => x.code === over.id) + 1 }) : undefined,
    onDragCancel: ({ active }: { active: { id: string | number } }) => t('protocols.editor.dragCancel', { name: nameOf(String(active.id)) }),
  };

  if (tasks.length === 0) return <Typography color="text.secondary">{t('protocols.editor.noTasks')}</Typography>;
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: { draggable: t('protocols.editor.dragHelp') } }}>
      <SortableContext items={tasks.map((task) => task.code)} strategy={verticalListSortingStrategy}>
        <Box component="ol" aria-label={t('protocols.editor.tasks')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {tasks.map((task) => (
            <TaskRow
              key={task.code}
              task={task}
              isStart={start.includes(task.code)}
              options={options}
              problems={problems.get(task.code) ?? []}
              nameOf={nameOf}
              onEdit={() => onEdit(task)}
              onDelete={() => onDelete(task)}
            />
          ))}
        </Box>
      </SortableContext>
    </DndContext>
  );
}

/** Who does a task, in words: "Team Intake", "User Ana", "Responsible of Intake review", "The case owner". */
export function responsibleText(task: TaskTemplate, options: PickerOptions, nameOf: (code: string) => string, t: TFunction): string {
  const r = task.responsible;
  if (r.kind === 'team') return t('protocols.editor.byTeam', { team: options.teams?.find((x) => x.id === r.teamId)?.name ?? `#${r.teamId}` });
  if (r.kind === 'user') return t('protocols.editor.byUser', { user: options.userNames.get(r.userId) ?? `#${r.userId}` });
  if (r.kind === 'task') return t('protocols.editor.byTask', { task: nameOf(r.task) });
  return t('protocols.responsibleKinds.owner');
}

interface TaskRowProps {
  task: TaskTemplate;
  isStart: boolean;
  options: PickerOptions;
  problems: readonly TaskProblem[];
  nameOf: (code: string) => string;
  onEdit: () => void;
  onDelete: () => void;
}

function TaskRow({ task, isStart, options, problems, nameOf, onEdit, onDelete }: TaskRowProps) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: task.code });
  const responsible = responsibleText(task, options, nameOf, t);
  const form = task.formId === null ? t('protocols.editor.noForm') : (options.forms?.find((f) => f.id === task.formId)?.name ?? `#${task.formId}`);
  const next = task.onAccept.map((e) => (e.when ? `${nameOf(e.to)} [${e.when}]` : nameOf(e.to))).join(', ');
  const reject = task.onReject && 'to' in task.onReject ? t('protocols.editor.rejectBackTo', { task: nameOf(task.onReject.to) }) : t('protocols.notEligible');
  return (
    <Box
      component="li"
      ref={setNodeRef}
      data-task={task.code}
      sx={{
        transform: CSS.Transform.toString(transform),
        transition,
        display: 'flex',
        gap: 1,
        alignItems: 'flex-start',
        p: 1,
        border: 1,
        borderColor: problems.length ? 'error.main' : 'divider',
        borderRadius: 1,
        bgcolor: 'background.paper',
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        boxShadow: isDragging ? 4 : undefined,
      }}
    >
      <IconButton
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        size="small"
        aria-label={t('protocols.editor.reorder', { name: task.name })}
        sx={{ cursor: 'grab', touchAction: 'none', mt: 0.25 }}
      >
        <DragIndicator fontSize="small" />
      </IconButton>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{task.name}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
            {task.code}
          </Typography>
          {isStart && <Chip size="small" variant="outlined" label={t('protocols.editor.startChip')} sx={{ color: 'primary.dark', borderColor: 'primary.dark' }} />}
          {task.join === 'all' && <Chip size="small" variant="outlined" label={t('protocols.graph.waitsForAll')} />}
          {task.award && <Chip size="small" variant="outlined" label={t('protocols.editor.awardChip')} />}
          {task.waitsForParty && <Chip size="small" variant="outlined" label={t('protocols.editor.waitsChip', { role: t(`parties.roleTitle.${task.waitsForParty}`) })} />}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {[
            responsible,
            form,
            task.expirationDays !== null ? t(task.expirationUnit === 'business' ? 'protocols.editor.businessDays' : 'protocols.editor.days', { days: task.expirationDays }) : null,
            task.escalation ? t('protocols.editor.escalatesTo', { role: options.roles?.find((r) => r.code === task.escalation?.role)?.name ?? task.escalation.role }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {t('protocols.editor.summaryNext', { next: next || t('protocols.editor.endsHere') })} · {t('protocols.editor.summaryReject', { reject })}
        </Typography>
        {problems.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat.
          <Typography key={i} variant="body2" color="error" role="alert" sx={{ overflowWrap: 'anywhere' }}>
            {p.message}
          </Typography>
        ))}
      </Box>
      <Tooltip title={t('common.edit')} describeChild>
        <IconButton aria-label={`${t('common.edit')}: ${task.name}`} onClick={onEdit} size="small">
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('common.delete')} describeChild>
        <IconButton aria-label={`${t('common.delete')}: ${task.name}`} onClick={onDelete} size="small">
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}
