/**
 * Ad-hoc tasks: a named piece of work on an open case, for a user or a team,
 * outside the case's protocol (deciding one moves nothing else). The same
 * schema is the API's gate (POST /api/tasks) and the /tareas/nuevo form's
 * messages; messages are i18n keys, translated on each side.
 */
import { z } from 'zod';

/** The code of every ad-hoc task: how lists and the task page tell them from protocol tasks. */
export const ADHOC_TASK_CODE = 'adhoc';

export const ADHOC_NAME_MAX = 200;
export const ADHOC_INSTRUCTIONS_MAX = 2000;
export const ADHOC_DAYS_MAX = 3650;

const id = (message: string) => z.number({ error: message }).int({ error: message }).positive({ error: message });
const days = z
  .number({ error: 'adhocTasks.daysRange' })
  .int({ error: 'adhocTasks.daysRange' })
  .min(0, { error: 'adhocTasks.daysRange' })
  .max(ADHOC_DAYS_MAX, { error: 'adhocTasks.daysRange' });

/** Someone must do the task: a user, a team, or both. */
export const hasResponsible = (body: { userId?: unknown; teamId?: unknown }) => body.userId !== undefined || body.teamId !== undefined;

export const adhocTaskSchema = z
  .object({
    caseId: id('validation.chooseOption'),
    name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(ADHOC_NAME_MAX, { error: 'validation.tooLong' }),
    /** The responsible: a user of the tenant, or a team (its next member by the team's strategy), or both (that user, shown with the team). */
    userId: id('validation.chooseOption').optional(),
    teamId: id('validation.chooseOption').optional(),
    /** Days until the task is due, counted from when it is assigned; null: no due date. */
    expirationDays: days.nullable().optional(),
    /** A form of the tenant (its current version) to fill before accepting; null: none. */
    formId: id('validation.chooseOption').nullable().optional(),
    /** What to do, shown to the responsible on the task page. */
    instructions: z.string().trim().max(ADHOC_INSTRUCTIONS_MAX, { error: 'validation.tooLong' }).nullable().optional(),
  })
  .refine(hasResponsible, {
    path: ['userId'],
    error: 'validation.chooseOption',
    // Also when other fields have failed, so the message comes with theirs (not after they are fixed).
    when: ({ value }) => typeof value === 'object' && value !== null,
  });

export type AdhocTaskInput = z.output<typeof adhocTaskSchema>;
