import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/page/FormDialog.js';
import type { PartyRole } from '../../../../../core/parties.js';
import { type ExpirationUnit, type Responsible, TASK_MAIL_EVENTS, type TaskMailEvent, type TaskTemplate } from '../../../../../core/workflow/protocol.js';
import type { UserOption } from '../../teams/api.js';
import { UserPicker } from '../../teams/UserPicker.js';
import { conditionError, ConditionField } from './ConditionField.js';
import { earlierTasks } from './draft.js';
import type { TaskProblem } from './problems.js';

export const TASK_CODE = /^[a-z][a-z0-9_-]{0,62}$/;

/** One of the tenant's email templates of an event; `isDefault`: the one the event sends unless a task chooses another. */
export interface MailTemplateOption {
  id: number;
  name: string;
  isDefault: boolean;
}

export interface PickerOptions {
  /** null: the user may not list forms (type an id instead). */
  forms: Array<{ id: number; name: string }> | null;
  teams: Array<{ id: number; name: string }> | null;
  /** Names of users already known (from the user options), by id. */
  userNames: ReadonlyMap<number, string>;
  /** Per task event, the tenant's templates of that event; null: not readable (the task keeps its choice). */
  mailTemplates: Record<TaskMailEvent, MailTemplateOption[] | null>;
  /** The tenant's roles by code (escalation); null: not readable (the task keeps its choice). */
  roles: Array<{ code: string; name: string }> | null;
}

interface TaskDialogProps {
  /** The template to edit, or null for a new task. */
  task: TaskTemplate | null;
  /** Every task of the draft (to pick targets, and to keep codes unique). */
  tasks: readonly TaskTemplate[];
  options: PickerOptions;
  /** The party roles the protocol invites (a task may wait for one). */
  parties?: readonly PartyRole[];
  /** The protocol grants awards (a task may set the award). */
  awards?: boolean;
  /** What the last save said about this task. */
  problems: readonly TaskProblem[];
  onSave: (task: TaskTemplate) => void;
  onClose: () => void;
}

type Kind = Responsible['kind'];
type Errors = Partial<Record<'code' | 'name' | 'responsible' | 'expirationDays' | 'escalationDays' | 'formId' | 'onReject' | `edge${number}`, string>>;

/** A select whose '' choice (the default template, no escalation) is shown in words, not as an empty box. */
const SHOW_EMPTY_CHOICE = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

/** The escalation's days when a role is first chosen. */
const DEFAULT_ESCALATION_DAYS = 1;

const emptyTask = (): TaskTemplate => ({
  code: '',
  name: '',
  formId: null,
  responsible: { kind: 'owner' },
  expirationDays: null,
  expirationUnit: 'calendar',
  join: 'any',
  onAccept: [],
  onReject: { notEligible: true },
});

/**
 * A task template: code, names, form, responsible (a user, a team, the case
 * owner or an earlier task's responsible), expiration days (calendar or
 * business days of the tenant's business calendar), the email template of
 * each task event and who is told once the task is overdue, join, the
 * accept edges with their conditions, and where a reject goes; whether it
 * sets the case's award and which party's submission it waits for (issue 23).
 */
export function TaskDialog({ task, tasks, options, parties = [], awards = false, problems, onSave, onClose }: TaskDialogProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<TaskTemplate>(() => (task ? structuredClone(task) : emptyTask()));
  const [days, setDays] = useState(task?.expirationDays === null || task?.expirationDays === undefined ? '' : String(task.expirationDays));
  const [escalationDays, setEscalationDays] = useState(String(task?.escalation?.afterDays ?? DEFAULT_ESCALATION_DAYS));
  const [user, setUser] = useState<UserOption | null>(() =>
    task?.responsible.kind === 'user' ? { id: task.responsible.userId, name: options.userNames.get(task.responsible.userId) ?? `#${task.responsible.userId}`, email: '' } : null,
  );
  const [errors, setErrors] = useState<Errors>({});
  const others = tasks.filter((other) => other.code !== task?.code);
  const earlier = new Set(task ? earlierTasks(tasks, task.code) : []);
  const server = (part: TaskProblem['part']) => problems.filter((p) => p.part === part).map((p) => p.message).join(' ') || undefined;
  const set = (patch: Partial<TaskTemplate>) => setDraft((current) => ({ ...current, ...patch }));
  const nameOf = (code: string) => tasks.find((x) => x.code === code)?.name || code;

  const setKind = (kind: Kind) => {
    if (kind === draft.responsible.kind) return;
    if (kind === 'owner') set({ responsible: { kind } });
    if (kind === 'user') set({ responsible: { kind, userId: user?.id ?? 0 } });
    if (kind === 'team') set({ responsible: { kind, teamId: 0 } });
    if (kind === 'task') set({ responsible: { kind, task: '' } });
  };

  const validate = (): Errors => {
    const found: Errors = {};
    const code = draft.code.trim();
    if (!TASK_CODE.test(code)) found.code = t('protocols.def.badCode');
    else if (others.some((other) => other.code === code)) found.code = t('protocols.def.duplicateCode', { code });
    if (!draft.name.trim()) found.name = t('validation.required');
    const r = draft.responsible;
    if ((r.kind === 'user' && !r.userId) || (r.kind === 'team' && !r.teamId) || (r.kind === 'task' && !r.task)) found.responsible = t('validation.chooseOption');
    if (days !== '' && !(Number.isInteger(Number(days)) && Number(days) >= 0 && Number(days) <= 3650)) found.expirationDays = t('protocols.editor.badDays');
    if (draft.escalation && !(escalationDays.trim() !== '' && Number.isInteger(Number(escalationDays)) && Number(escalationDays) >= 0 && Number(escalationDays) <= 365)) {
      found.escalationDays = t('protocols.editor.badEscalationDays');
    }
    draft.onAccept.forEach((edge, i) => {
      if (!edge.to) found[`edge${i}`] = t('validation.chooseOption');
      else if (edge.when && conditionError(edge.when)) found[`edge${i}`] = t('protocols.editor.fixCondition');
    });
    if (draft.onReject && 'to' in draft.onReject && !draft.onReject.to) found.onReject = t('validation.chooseOption');
    return found;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) return;
    // No choice leaves no key: a task saved before these existed goes back as it came.
    const { mailTemplates, escalation, award, waitsForParty, ...rest } = draft;
    onSave({
      ...rest,
      ...(mailTemplates && Object.keys(mailTemplates).length > 0 && { mailTemplates }),
      ...(award && { award: true }),
      ...(waitsForParty && { waitsForParty }),
      ...(escalation && { escalation: { role: escalation.role, afterDays: Number(escalationDays) } }),
      code: draft.code.trim(),
      name: draft.name.trim(),
      name_en: draft.name_en?.trim() || undefined,
      expirationDays: days === '' ? null : Number(days),
      expirationUnit: draft.expirationUnit ?? 'calendar',
      onAccept: draft.onAccept.map((edge) => (edge.when?.trim() ? { to: edge.to, when: edge.when.trim() } : { to: edge.to })),
    });
  };

  const rejectKind = draft.onReject && 'to' in draft.onReject ? 'back' : 'notEligible';
  const rejectTo = draft.onReject && 'to' in draft.onReject ? draft.onReject.to : '';
  const rejectWarning = rejectKind === 'back' && rejectTo && task && !earlier.has(rejectTo) ? t('protocols.editor.notEarlier', { task: nameOf(rejectTo) }) : undefined;
  const general = server('');

  /** Chooses the template of `event`; '' (the default template) removes the key, and the map when it is left empty. */
  const setTemplate = (event: TaskMailEvent, value: string) =>
    setDraft((current) => {
      const { [event]: _previous, ...others } = current.mailTemplates ?? {};
      const next = value === '' ? others : { ...others, [event]: Number(value) };
      const { mailTemplates: _old, ...without } = current;
      return Object.keys(next).length > 0 ? { ...without, mailTemplates: next } : without;
    });
  const setEscalationRole = (role: string) =>
    setDraft((current) => {
      const { escalation: _old, ...without } = current;
      return role === '' ? without : { ...without, escalation: { role, afterDays: current.escalation?.afterDays ?? DEFAULT_ESCALATION_DAYS } };
    });
  const roleName = (code: string) => options.roles?.find((r) => r.code === code)?.name ?? code;
  const otherAwardTasks = others.filter((other) => other.award).map((other) => other.name);
  const partyError = server('waitsForParty') ?? (draft.waitsForParty && !parties.includes(draft.waitsForParty) ? t('protocols.editor.notInvited') : undefined);
  const roleError = server('escalation.role') ?? server('escalation');
  const escalationDaysError = errors.escalationDays ?? server('escalation.afterDays');

  return (
    <FormDialog title={task ? t('protocols.editor.editTask', { name: task.name }) : t('protocols.editor.newTask')} onClose={onClose} onSubmit={submit} maxWidth="md" submitLabel={t('protocols.editor.applyTask')}>
      {general && <Alert severity="error" sx={{ mb: 1 }}>{general}</Alert>}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
        <TextField
          margin="dense"
          label={t('protocols.editor.taskCode')}
          required
          autoFocus={!task}
          value={draft.code}
          onChange={(event) => set({ code: event.target.value })}
          error={!!(errors.code ?? server('code'))}
          helperText={errors.code ?? server('code') ?? t('protocols.editor.codeHint')}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
        <TextField
          margin="dense"
          type="number"
          label={t('protocols.editor.expirationDays')}
          value={days}
          onChange={(event) => setDays(event.target.value)}
          error={!!(errors.expirationDays ?? server('expirationDays'))}
          helperText={errors.expirationDays ?? server('expirationDays') ?? t('protocols.editor.expirationHint')}
          slotProps={{ htmlInput: { min: 0, max: 3650 } }}
        />
        <TextField
          margin="dense"
          label={t('protocols.editor.taskName')}
          required
          value={draft.name}
          onChange={(event) => set({ name: event.target.value })}
          error={!!(errors.name ?? server('name'))}
          helperText={errors.name ?? server('name')}
        />
        <TextField margin="dense" label={t('protocols.editor.taskNameEn')} value={draft.name_en ?? ''} onChange={(event) => set({ name_en: event.target.value })} />
      </Box>
      <FormControl margin="dense" error={!!server('expirationUnit')}>
        <FormLabel id="task-expiration-unit">{t('protocols.editor.expirationUnit')}</FormLabel>
        <RadioGroup row aria-labelledby="task-expiration-unit" value={draft.expirationUnit ?? 'calendar'} onChange={(event) => set({ expirationUnit: event.target.value as ExpirationUnit })}>
          <FormControlLabel value="calendar" control={<Radio />} label={t('protocols.editor.unitCalendar')} />
          <FormControlLabel value="business" control={<Radio />} label={t('protocols.editor.unitBusiness')} />
        </RadioGroup>
        <FormHelperText>{server('expirationUnit') ?? t('protocols.editor.unitHint')}</FormHelperText>
      </FormControl>

      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2, minWidth: 0 }}>
        <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 500 }}>
          {t('protocols.editor.messagesAndEscalation')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('protocols.editor.messagesHint')}
        </Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, columnGap: 2 }}>
          {TASK_MAIL_EVENTS.map((mailEvent) => {
            const list = options.mailTemplates[mailEvent];
            const chosen = draft.mailTemplates?.[mailEvent];
            const problem = server(`mailTemplates.${mailEvent}`);
            return (
              <TextField
                key={mailEvent}
                select
                fullWidth
                margin="dense"
                label={t(`templates.events.${mailEvent}`)}
                value={chosen === undefined ? '' : String(chosen)}
                onChange={(event) => setTemplate(mailEvent, event.target.value)}
                disabled={list === null}
                error={!!problem}
                helperText={problem ?? (list === null ? t('protocols.editor.templatesUnavailable') : undefined)}
                slotProps={SHOW_EMPTY_CHOICE}
              >
                <MenuItem value="">{t('protocols.editor.defaultTemplate')}</MenuItem>
                {(list ?? []).map((template) => (
                  <MenuItem key={template.id} value={String(template.id)}>
                    {template.isDefault ? t('protocols.editor.tenantDefault', { name: template.name }) : template.name}
                  </MenuItem>
                ))}
                {chosen !== undefined && !list?.some((x) => x.id === chosen) && <MenuItem value={String(chosen)}>{`#${chosen}`}</MenuItem>}
              </TextField>
            );
          })}
        </Box>
        {server('mailTemplates') && <FormHelperText error>{server('mailTemplates')}</FormHelperText>}
        <Box sx={{ display: 'flex', flexWrap: { xs: 'wrap', sm: 'nowrap' }, columnGap: 2, alignItems: 'flex-start' }}>
          <TextField
            select
            fullWidth
            margin="dense"
            label={t('protocols.editor.escalateTo')}
            value={draft.escalation?.role ?? ''}
            onChange={(event) => setEscalationRole(event.target.value)}
            disabled={options.roles === null}
            error={!!roleError}
            helperText={roleError ?? (options.roles === null ? t('protocols.editor.rolesUnavailable') : t('protocols.editor.escalationHint'))}
            slotProps={SHOW_EMPTY_CHOICE}
          >
            <MenuItem value="">{t('protocols.editor.escalateNone')}</MenuItem>
            {(options.roles ?? []).map((role) => (
              <MenuItem key={role.code} value={role.code}>
                {role.name}
              </MenuItem>
            ))}
            {draft.escalation && !options.roles?.some((r) => r.code === draft.escalation?.role) && <MenuItem value={draft.escalation.role}>{draft.escalation.role}</MenuItem>}
          </TextField>
          {draft.escalation && (
            <TextField
              margin="dense"
              type="number"
              required
              label={t('protocols.editor.escalationDays')}
              value={escalationDays}
              onChange={(event) => setEscalationDays(event.target.value)}
              error={!!escalationDaysError}
              helperText={escalationDaysError ?? t('protocols.editor.escalationDaysHint', { role: roleName(draft.escalation.role) })}
              slotProps={{ htmlInput: { min: 0, max: 365, step: 1 } }}
              sx={{ width: { xs: '100%', sm: 260 }, flexShrink: 0 }}
            />
          )}
        </Box>
      </Box>
      {options.forms ? (
        <TextField
          select
          fullWidth
          margin="dense"
          label={t('protocols.editor.form')}
          value={draft.formId === null ? '' : String(draft.formId)}
          onChange={(event) => set({ formId: event.target.value ? Number(event.target.value) : null })}
          error={!!server('formId')}
          helperText={server('formId')}
        >
          <MenuItem value="">{t('protocols.editor.noForm')}</MenuItem>
          {options.forms.map((form) => (
            <MenuItem key={form.id} value={String(form.id)}>
              {form.name}
            </MenuItem>
          ))}
          {draft.formId !== null && !options.forms.some((f) => f.id === draft.formId) && <MenuItem value={String(draft.formId)}>{`#${draft.formId}`}</MenuItem>}
        </TextField>
      ) : (
        <TextField
          fullWidth
          margin="dense"
          type="number"
          label={t('protocols.editor.formId')}
          value={draft.formId === null ? '' : String(draft.formId)}
          onChange={(event) => set({ formId: event.target.value ? Number(event.target.value) : null })}
          error={!!server('formId')}
          helperText={server('formId') ?? t('protocols.editor.formIdHint')}
        />
      )}

      {(awards || draft.award || parties.length > 0 || draft.waitsForParty) && (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, alignItems: 'start' }}>
          {(awards || draft.award) && (
            <FormControl margin="dense" error={!!server('award')}>
              <FormControlLabel control={<Switch checked={!!draft.award} onChange={(event) => set({ award: event.target.checked })} />} label={t('protocols.editor.setsAward')} />
              <FormHelperText sx={{ color: draft.award && otherAwardTasks.length ? 'warning.dark' : undefined }}>
                {server('award') ?? (draft.award && otherAwardTasks.length ? t('protocols.editor.awardElsewhere', { tasks: otherAwardTasks.join(', ') }) : t('protocols.editor.setsAwardHint'))}
              </FormHelperText>
            </FormControl>
          )}
          {(parties.length > 0 || draft.waitsForParty) && (
            <TextField
              select
              fullWidth
              margin="dense"
              label={t('protocols.editor.waitsForParty')}
              value={draft.waitsForParty ?? ''}
              onChange={(event) => set({ waitsForParty: (event.target.value || undefined) as PartyRole | undefined })}
              error={!!partyError}
              helperText={partyError ?? t('protocols.editor.waitsForHint')}
              slotProps={SHOW_EMPTY_CHOICE}
            >
              <MenuItem value="">{t('protocols.editor.waitsForNone')}</MenuItem>
              {parties.map((role) => (
                <MenuItem key={role} value={role}>
                  {t(`parties.roleTitle.${role}`)}
                </MenuItem>
              ))}
              {draft.waitsForParty && !parties.includes(draft.waitsForParty) && <MenuItem value={draft.waitsForParty}>{t(`parties.roleTitle.${draft.waitsForParty}`)}</MenuItem>}
            </TextField>
          )}
        </Box>
      )}

      <FormControl component="fieldset" fullWidth sx={{ mt: 2 }} error={!!(errors.responsible ?? server('responsible'))}>
        <FormLabel component="legend">{t('protocols.editor.responsible')}</FormLabel>
        <RadioGroup row value={draft.responsible.kind} onChange={(event) => setKind(event.target.value as Kind)}>
          {(['team', 'user', 'owner', 'task'] as const).map((kind) => (
            <FormControlLabel key={kind} value={kind} control={<Radio />} label={t(`protocols.responsibleKinds.${kind}`)} />
          ))}
        </RadioGroup>
        {draft.responsible.kind === 'user' && (
          <UserPicker
            label={t('protocols.editor.user')}
            value={user}
            onChange={(picked) => {
              setUser(picked);
              set({ responsible: { kind: 'user', userId: picked?.id ?? 0 } });
            }}
            required
            error={errors.responsible ?? server('responsible')}
          />
        )}
        {draft.responsible.kind === 'team' &&
          (options.teams ? (
            <TextField
              select
              fullWidth
              margin="dense"
              label={t('protocols.editor.team')}
              required
              value={draft.responsible.teamId ? String(draft.responsible.teamId) : ''}
              onChange={(event) => set({ responsible: { kind: 'team', teamId: Number(event.target.value) } })}
              error={!!(errors.responsible ?? server('responsible'))}
              helperText={errors.responsible ?? server('responsible')}
            >
              {options.teams.map((team) => (
                <MenuItem key={team.id} value={String(team.id)}>
                  {team.name}
                </MenuItem>
              ))}
            </TextField>
          ) : (
            <TextField
              fullWidth
              margin="dense"
              type="number"
              label={t('protocols.editor.teamId')}
              required
              value={draft.responsible.teamId ? String(draft.responsible.teamId) : ''}
              onChange={(event) => set({ responsible: { kind: 'team', teamId: Number(event.target.value) } })}
              error={!!(errors.responsible ?? server('responsible'))}
              helperText={errors.responsible ?? server('responsible')}
            />
          ))}
        {draft.responsible.kind === 'task' && (
          <TextField
            select
            fullWidth
            margin="dense"
            label={t('protocols.editor.sameAsTask')}
            required
            value={draft.responsible.task}
            onChange={(event) => set({ responsible: { kind: 'task', task: event.target.value } })}
            error={!!(errors.responsible ?? server('responsible'))}
            helperText={errors.responsible ?? server('responsible')}
          >
            {others.map((other) => (
              <MenuItem key={other.code} value={other.code}>
                {other.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        {draft.responsible.kind === 'owner' && <FormHelperText>{t('protocols.editor.ownerHint')}</FormHelperText>}
      </FormControl>

      <FormControl component="fieldset" sx={{ mt: 2 }}>
        <FormLabel component="legend">{t('protocols.editor.join')}</FormLabel>
        <RadioGroup row value={draft.join} onChange={(event) => set({ join: event.target.value as 'any' | 'all' })}>
          <FormControlLabel value="any" control={<Radio />} label={t('protocols.editor.joinAny')} />
          <FormControlLabel value="all" control={<Radio />} label={t('protocols.editor.joinAll')} />
        </RadioGroup>
      </FormControl>

      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2 }}>
        <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 500 }}>
          {t('protocols.editor.onAccept')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('protocols.editor.onAcceptHint')}
        </Typography>
        {draft.onAccept.map((edge, index) => {
          const edgeError = errors[`edge${index}`] ?? server(`onAccept.${index}`);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: edges are edited in place, by position.
            <Box key={index} sx={{ display: 'flex', flexWrap: { xs: 'wrap', sm: 'nowrap' }, gap: 1, alignItems: 'flex-start', mt: 1 }}>
              <TextField
                select
                size="small"
                margin="dense"
                label={t('protocols.editor.nextTask', { n: index + 1 })}
                value={edge.to}
                onChange={(event) => set({ onAccept: draft.onAccept.map((e, i) => (i === index ? { ...e, to: event.target.value } : e)) })}
                error={!!edgeError}
                helperText={edgeError}
                sx={{ width: { xs: '100%', sm: 240 }, flexShrink: 0 }}
              >
                {others.map((other) => (
                  <MenuItem key={other.code} value={other.code}>
                    {other.name}
                  </MenuItem>
                ))}
              </TextField>
              <ConditionField
                label={t('protocols.editor.condition')}
                value={edge.when ?? ''}
                onChange={(when) => set({ onAccept: draft.onAccept.map((e, i) => (i === index ? { ...e, when } : e)) })}
              />
              <IconButton
                aria-label={t('protocols.editor.removeEdge', { n: index + 1 })}
                onClick={() => set({ onAccept: draft.onAccept.filter((_, i) => i !== index) })}
                sx={{ mt: 1 }}
              >
                <DeleteOutlined />
              </IconButton>
            </Box>
          );
        })}
        <Button startIcon={<Add />} onClick={() => set({ onAccept: [...draft.onAccept, { to: '' }] })} sx={{ mt: 1 }} disabled={others.length === 0}>
          {t('protocols.editor.addEdge')}
        </Button>
        {others.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('protocols.editor.addMoreTasks')}
          </Typography>
        )}
      </Box>

      <FormControl component="fieldset" fullWidth sx={{ mt: 2 }} error={!!(errors.onReject ?? server('onReject'))}>
        <FormLabel component="legend">{t('protocols.editor.onReject')}</FormLabel>
        <RadioGroup
          row
          value={rejectKind}
          onChange={(event) => set({ onReject: event.target.value === 'back' ? { to: [...earlier][0] ?? '' } : { notEligible: true } })}
        >
          <FormControlLabel value="notEligible" control={<Radio />} label={t('protocols.notEligible')} />
          <FormControlLabel value="back" control={<Radio />} label={t('protocols.editor.backToTask')} disabled={others.length === 0} />
        </RadioGroup>
        {rejectKind === 'back' && (
          <TextField
            select
            fullWidth
            margin="dense"
            label={t('protocols.editor.rejectTo')}
            required
            value={rejectTo}
            onChange={(event) => set({ onReject: { to: event.target.value } })}
            error={!!(errors.onReject ?? server('onReject'))}
            helperText={errors.onReject ?? server('onReject') ?? rejectWarning ?? t('protocols.editor.rejectHint')}
          >
            {others.map((other) => (
              <MenuItem key={other.code} value={other.code}>
                {other.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        {rejectKind === 'notEligible' && <FormHelperText>{t('protocols.editor.notEligibleHint')}</FormHelperText>}
      </FormControl>
    </FormDialog>
  );
}
