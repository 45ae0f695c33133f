// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { renderApp } from '../../../test/utils.js';
import { applicationForm, fakeCases, serveCases } from './testServer.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const withDrafts = () => {
  const state = fakeCases();
  for (const [id, firstName] of [
    [12, 'Lucía'],
    [13, ''],
  ] as const) {
    state.drafts.set(id, { id, protocolId: 1, protocolName: 'Rental assistance', formId: 3, form: applicationForm, data: { firstName }, version: 1, updatedAt: '2026-11-21T15:00:00.000Z' });
  }
  return state;
};

describe('/cases/drafts', () => {
  test('lists my drafts with when they were saved, and each continues in the editor', async () => {
    serveCases(withDrafts());
    renderApp('/cases/drafts');
    expect(await screen.findByRole('heading', { level: 1, name: 'Drafts' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Drafts' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByRole('heading', { name: 'Lucía' })).toBeInTheDocument();
    expect(within(items[0] as HTMLElement).getByText('Rental assistance · last saved 11/21/2026 10:00')).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).getByRole('heading', { name: 'Applicant not given yet' })).toBeInTheDocument();
    expect(within(items[0] as HTMLElement).getByRole('link', { name: 'Continue the application of Lucía' })).toHaveAttribute('href', '/cases/new?draft=12');
    expect(screen.getByRole('link', { name: 'New application' })).toHaveAttribute('href', '/cases/new');
  });

  test('delete asks first: Cancel keeps the draft, Delete removes it', async () => {
    const state = withDrafts();
    const fetchMock = serveCases(state);
    renderApp('/cases/drafts');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the draft of Lucía' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this draft?' });
    expect(within(dialog).getByText('The draft of Lucía (Rental assistance) will be deleted. This cannot be undone.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Delete the draft of Lucía' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this draft?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The draft was deleted')).toBeInTheDocument();
    expect(state.drafts.has(12)).toBe(false);
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Lucía' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('list', { name: 'Drafts' })).getAllByRole('listitem')).toHaveLength(1);
  });

  test('without drafts it says so and how to make one', async () => {
    serveCases(fakeCases());
    renderApp('/cases/drafts');
    expect(await screen.findByText('You have no drafts.')).toBeInTheDocument();
    expect(screen.getByText(/choose 'Save, but come back later to complete'/)).toBeInTheDocument();
  });
});
