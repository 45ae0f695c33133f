// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { FeedbackProvider } from '../components/feedback/FeedbackProvider.js';
import { apiFetch } from '../lib/api.js';
import { jsonResponse, mockFetch } from '../test/utils.js';
import { createQueryClient } from './queryClient.js';

function Cases({ silent = false }: { silent?: boolean }) {
  const { status } = useQuery({
    queryKey: ['cases'],
    queryFn: () => apiFetch('/api/cases'),
    meta: { silentError: silent },
  });
  return <p>{status}</p>;
}

function renderWithClient(silent?: boolean) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FeedbackProvider>
        <Cases silent={silent} />
      </FeedbackProvider>
    </QueryClientProvider>,
  );
}

describe('global query errors', () => {
  test("a failed query shows the server's message as a toast, without retrying a 4xx", async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse({ error: { code: 'FORBIDDEN', message: 'The user does not have permission to the page' } }, 403),
    );
    renderWithClient();
    expect(await screen.findByRole('alert')).toHaveTextContent('The user does not have permission to the page');
    expect(screen.getByText('error')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  test('a query that handles its own error raises no toast', async () => {
    mockFetch(() => jsonResponse({ error: { code: 'NOT_FOUND', message: 'Missing' } }, 404));
    renderWithClient(true);
    expect(await screen.findByText('error')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
