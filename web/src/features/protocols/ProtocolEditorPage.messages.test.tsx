// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import type { ProtocolDefinition, TaskTemplate } from '../../../../core/workflow/protocol.js';
import type { SessionInfo } from '../../../../core/auth.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../test/utils.js';
import { protocolDetail, stubResizeObserver, task } from './testProtocol.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

/** A task's email templates and escalation in the task dialog, and what Save sends. */

const detailWith = protocolDetail;

const plainTasks = () => [task('intake', 'Intake review', { onAccept: [{ to: 'eligibility' }] }), task('eligibility', 'Eligibility')];

const templateItem = (id: number, name: string, event: string, isDefault: boolean) => ({
  id,
  name,
  event,
  subjectEn: name,
  subjectEs: name,
  isDefault,
  updatedAt: '2026-11-20T10:00:00.000Z',
  actions: ['update'],
});
const TEMPLATES = [
  templateItem(11, 'Assigned (standard)', 'task_assigned', true),
  templateItem(12, 'Assigned to intake', 'task_assigned', false),
  templateItem(21, 'Due soon (standard)', 'task_due_soon', true),
  templateItem(31, 'Overdue (standard)', 'task_overdue', true),
];
const ROLES = [
  { id: 1, code: 'admin', name: 'Administrator', description: '', system: true, createdAt: '2026-01-01T00:00:00.000Z', actions: [] },
  { id: 2, code: 'coordinator', name: 'Coordinator', description: '', system: true, createdAt: '2026-01-01T00:00:00.000Z', actions: [] },
];

interface Serve {
  tasks?: TaskTemplate[];
  session?: SessionInfo;
  /** What PUT answers: the saved protocol (default) or these problems in a 422. */
  problems?: Array<{ path: string; message: string }>;
  /** The task options cannot be read (403). */
  noOptions?: boolean;
}

function serve({ tasks = plainTasks(), session = sessionFixture, problems, noOptions = false }: Serve = {}) {
  // What the server holds: a save changes what the page reads again after it.
  let detail = detailWith(tasks);
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    if (url === '/api/protocols/1' && !init?.method) return jsonResponse(detail);
    if (url === '/api/protocols/1' && init?.method === 'PUT') {
      if (problems) return jsonResponse({ error: { code: 'UNPROCESSABLE', message: 'The request could not be processed.', details: problems } }, 422);
      const body = JSON.parse(String(init.body)) as { definition: ProtocolDefinition };
      detail = { ...detail, definition: body.definition, changedSincePublished: true };
      return jsonResponse(detail);
    }
    if (url === '/api/protocols/task-options') {
      if (noOptions) return jsonResponse({ error: { code: 'FORBIDDEN', message: 'You do not have permission to do this' } }, 403);
      return jsonResponse({ templates: TEMPLATES.map((x) => ({ id: x.id, name: x.name, event: x.event, isDefault: x.isDefault })), roles: ROLES.map((r) => ({ code: r.code, name: r.name })) });
    }
    if (url.startsWith('/api/forms?')) return jsonResponse({ items: [{ id: 1, code: 'application', name: 'Application' }], total: 1 });
    if (url.startsWith('/api/forms/1')) return jsonResponse({ definition: { fields: [] } });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [{ id: 1, name: 'Intake', assignment: 'round_robin', active: true }], total: 1 });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([]);
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const putBody = (fetchMock: ReturnType<typeof serve>) =>
  JSON.parse(String(fetchMock.mock.calls.find(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')?.[1]?.body)) as { definition: ProtocolDefinition };

async function openTask(name: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Edit: ${name}` }));
  return screen.findByRole('dialog', { name: `Task: ${name}` });
}

/** Picks `option` in the select labelled `label`, once its list has come. */
async function choose(dialog: HTMLElement, label: string | RegExp, option: string) {
  const select = within(dialog).getByRole('combobox', { name: label });
  await waitFor(() => expect(select).not.toHaveAttribute('aria-disabled', 'true'));
  fireEvent.mouseDown(select);
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

async function applyAndSave(dialog: HTMLElement) {
  fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
}

beforeEach(() => {
  stubResizeObserver();
});

describe('task dialog: messages and escalation', () => {
  test('a template for task_assigned and a role after 2 days go into the saved definition; the other task saves without them', async () => {
    setScreenWidth(1366);
    const fetchMock = serve();
    renderApp('/protocolos/1');
    const dialog = await openTask('Intake review');
    expect(within(dialog).getByRole('group', { name: 'Messages and escalation' })).toBeInTheDocument();
    // Every event starts on its default template; the tenant's default of the event is marked.
    for (const label of ['Task assigned', 'Task due soon', 'Task overdue']) expect(within(dialog).getByRole('combobox', { name: label })).toHaveTextContent('Default template');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Task assigned' }));
    expect(await screen.findByRole('option', { name: 'Assigned (standard) (default)' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('option', { name: 'Assigned to intake' }));

    // No days until a role is chosen; then 1 by default.
    expect(within(dialog).queryByRole('spinbutton', { name: /Days after the due date/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Escalate to' })).toHaveTextContent("None: the team's leaders only");
    await choose(dialog, 'Escalate to', 'Coordinator');
    const afterDays = within(dialog).getByRole('spinbutton', { name: /Days after the due date/ });
    expect(afterDays).toHaveValue(1);
    fireEvent.change(afterDays, { target: { value: '2' } });

    await applyAndSave(dialog);
    const row = screen.getByRole('button', { name: 'Edit: Intake review' }).closest('li') as HTMLElement;
    expect(within(row).getByText(/escalates to Coordinator/)).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')).toBe(true));
    const tasks = putBody(fetchMock).definition.tasks;
    const intake = tasks.find((x) => x.code === 'intake');
    expect(intake?.mailTemplates).toEqual({ task_assigned: 12 });
    expect(intake?.escalation).toEqual({ role: 'coordinator', afterDays: 2 });
    const eligibility = tasks.find((x) => x.code === 'eligibility') as TaskTemplate;
    expect('mailTemplates' in eligibility).toBe(false);
    expect('escalation' in eligibility).toBe(false);

    // Opened again, the dialog shows the choices.
    const again = await openTask('Intake review');
    expect(within(again).getByRole('combobox', { name: 'Task assigned' })).toHaveTextContent('Assigned to intake');
    expect(within(again).getByRole('combobox', { name: 'Escalate to' })).toHaveTextContent('Coordinator');
    expect(within(again).getByRole('spinbutton', { name: /Days after the due date/ })).toHaveValue(2);
  });

  test('"Default template" again removes the key (and the map once empty); "None" removes the escalation', async () => {
    setScreenWidth(1366);
    const fetchMock = serve({
      tasks: [
        task('intake', 'Intake review', { onAccept: [{ to: 'eligibility' }], mailTemplates: { task_assigned: 12, task_overdue: 31 }, escalation: { role: 'coordinator', afterDays: 3 } }),
        task('eligibility', 'Eligibility', { mailTemplates: { task_due_soon: 21 } }),
      ],
    });
    renderApp('/protocolos/1');
    const dialog = await openTask('Intake review');
    await choose(dialog, 'Task assigned', 'Default template');
    await choose(dialog, 'Escalate to', "None: the team's leaders only");
    expect(within(dialog).queryByRole('spinbutton', { name: /Days after the due date/ })).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const second = await openTask('Eligibility');
    await choose(second, 'Task due soon', 'Default template');
    await applyAndSave(second);

    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')).toBe(true));
    const tasks = putBody(fetchMock).definition.tasks;
    const intake = tasks.find((x) => x.code === 'intake') as TaskTemplate;
    expect(intake.mailTemplates).toEqual({ task_overdue: 31 });
    expect('escalation' in intake).toBe(false);
    expect('mailTemplates' in (tasks.find((x) => x.code === 'eligibility') as TaskTemplate)).toBe(false);
  });

  test('a task without templates or escalation, opened and applied, saves without the keys', async () => {
    setScreenWidth(390);
    const fetchMock = serve();
    renderApp('/protocolos/1');
    const dialog = await openTask('Eligibility');
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Escalate to' })).not.toHaveAttribute('aria-disabled', 'true'));
    await applyAndSave(dialog);
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')).toBe(true));
    for (const saved of putBody(fetchMock).definition.tasks) {
      expect(Object.keys(saved)).not.toContain('mailTemplates');
      expect(Object.keys(saved)).not.toContain('escalation');
    }
  });

  test('the server\'s problem with the role and a template shows next to that field', async () => {
    setScreenWidth(1366);
    serve({
      tasks: [task('intake', 'Intake review', { onAccept: [{ to: 'eligibility' }], mailTemplates: { task_overdue: 99 }, escalation: { role: 'gone', afterDays: 1 } }), task('eligibility', 'Eligibility')],
      problems: [
        { path: 'tasks.intake.escalation.role', message: 'This role does not exist' },
        { path: 'tasks.intake.mailTemplates.task_overdue', message: 'This email template does not exist or serves another event' },
      ],
    });
    renderApp('/protocolos/1');
    await screen.findByRole('button', { name: 'Edit: Intake review' });
    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'Small protocol 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const row = (await screen.findByText('This role does not exist')).closest('li') as HTMLElement;
    expect(row).toHaveAttribute('data-task', 'intake');
    const dialog = await openTask('Intake review');
    // Not among the tenant's roles: kept as its code, with the server's word under it.
    const role = within(dialog).getByRole('combobox', { name: 'Escalate to' });
    expect(role).toHaveTextContent('gone');
    expect(role).toHaveAccessibleDescription('This role does not exist');
    expect(within(dialog).getByRole('combobox', { name: 'Task overdue' })).toHaveAccessibleDescription('This email template does not exist or serves another event');
    // Not a problem of the task as a whole.
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  test('when the templates and roles cannot be read, the selects keep the draft\'s choice, disabled, and say why', async () => {
    setScreenWidth(1366);
    const fetchMock = serve({
      noOptions: true,
      tasks: [task('intake', 'Intake review', { onAccept: [{ to: 'eligibility' }], mailTemplates: { task_assigned: 12 }, escalation: { role: 'coordinator', afterDays: 2 } }), task('eligibility', 'Eligibility')],
    });
    renderApp('/protocolos/1');
    const dialog = await openTask('Intake review');
    const assigned = within(dialog).getByRole('combobox', { name: 'Task assigned' });
    expect(assigned).toHaveAttribute('aria-disabled', 'true');
    expect(assigned).toHaveTextContent('#12');
    expect(assigned).toHaveAccessibleDescription('You may not list email templates: the current choice is kept');
    const role = within(dialog).getByRole('combobox', { name: 'Escalate to' });
    expect(role).toHaveAttribute('aria-disabled', 'true');
    expect(role).toHaveTextContent('coordinator');
    expect(within(dialog).getByRole('spinbutton', { name: /Days after the due date/ })).toHaveValue(2);
    await applyAndSave(dialog);
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/protocols/1' && init?.method === 'PUT')).toBe(true));
    expect(putBody(fetchMock).definition.tasks.find((x) => x.code === 'intake')).toMatchObject({ mailTemplates: { task_assigned: 12 }, escalation: { role: 'coordinator', afterDays: 2 } });
  });
});
