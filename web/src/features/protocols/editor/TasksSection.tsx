import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProtocolDefinition, TaskTemplate } from '../../../../../core/workflow/protocol.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { Section } from '../../../components/page/index.js';
import { moveTask, putTask, removeTask } from './draft.js';
import type { SortedProblems } from './problems.js';
import { type PickerOptions, TaskDialog } from './TaskDialog.js';
import { TaskList } from './TaskList.js';

interface TasksSectionProps {
  definition: ProtocolDefinition;
  options: PickerOptions;
  problems: SortedProblems;
  updateDefinition: (change: (def: ProtocolDefinition) => ProtocolDefinition) => void;
}

/**
 * The protocol's task templates: the ordered list (add, edit in a dialog,
 * delete after a confirmation, drag to reorder), then which tasks start a
 * new case.
 */
export function TasksSection({ definition: def, options, problems, updateDefinition }: TasksSectionProps) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const [editing, setEditing] = useState<TaskTemplate | 'new' | null>(null);

  const confirmDeleteTask = async (task: TaskTemplate) => {
    const confirmed = await dialogs.confirm({
      title: t('protocols.editor.deleteTaskTitle'),
      message: t('protocols.editor.confirmDeleteTask', { name: task.name }),
      confirmText: t('common.delete'),
    });
    if (confirmed) updateDefinition((d) => removeTask(d, task.code));
  };

  return (
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
                  onChange={(event) => updateDefinition((d) => ({ ...d, start: event.target.checked ? [...d.start, task.code] : d.start.filter((c) => c !== task.code) }))}
                />
              }
              label={task.name}
            />
          ))}
        </FormGroup>
        <FormHelperText>{problems.start.join(' ') || t('protocols.editor.startHint')}</FormHelperText>
      </FormControl>

      {editing && (
        <TaskDialog
          task={editing === 'new' ? null : editing}
          tasks={def.tasks}
          options={options}
          parties={def.parties.map((p) => p.role)}
          awards={def.awardCaps !== null}
          problems={editing === 'new' ? [] : (problems.tasks.get(editing.code) ?? [])}
          onSave={(task) => {
            updateDefinition((d) => putTask(d, editing === 'new' ? null : editing.code, task));
            setEditing(null);
          }}
          onClose={() => setEditing(null)}
        />
      )}
    </Section>
  );
}
