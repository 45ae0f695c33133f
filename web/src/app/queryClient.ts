import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { showToast } from '../components/feedback/toastStore.js';
import { ApiError, errorMessage } from '../lib/api.js';
import { endSessionLocally, SESSION_KEY } from './session/session.js';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silentError?: boolean };
    mutationMeta: { silentError?: boolean };
  }
}

const MAX_RETRIES = 2;

/** Only failures that may pass on their own are worth another try; a 4xx answer will not change. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  return !(error instanceof ApiError) || error.code === 'NETWORK' || error.status >= 500;
}

/**
 * Every failed call shows the server's message as a toast, unless its screen
 * handles it. A call refused for want of a session (it expired or was ended
 * elsewhere) ends the session here too: the user goes to sign in again.
 */
export function createQueryClient(): QueryClient {
  const sessionEnded = (error: unknown): boolean => {
    if (!(error instanceof ApiError) || error.code !== 'UNAUTHORIZED') return false;
    if (client.getQueryData(SESSION_KEY)) endSessionLocally(client, 'expired');
    return true;
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (sessionEnded(error)) return;
        if (!query.meta?.silentError) showToast(errorMessage(error));
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (sessionEnded(error)) return;
        if (!mutation.meta?.silentError) showToast(errorMessage(error));
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetry },
    },
  });
  return client;
}
