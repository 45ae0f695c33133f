import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { AppErrorBoundary } from '../components/AppErrorBoundary.js';
import { FeedbackProvider } from '../components/feedback/FeedbackProvider.js';
import { AppThemeProvider } from './AppThemeProvider.js';
import { collectRoutePatterns, RoutePatternsContext } from './menu/implementedRoutes.js';

type AppRouter = Parameters<typeof RouterProvider>[0]['router'];

interface AppProps {
  router: AppRouter;
  queryClient: QueryClient;
}

export function App({ router, queryClient }: AppProps) {
  // The menu enables exactly the paths this router can render.
  const patterns = useMemo(() => collectRoutePatterns(router.routes), [router]);
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <AppThemeProvider>
          <FeedbackProvider>
            <RoutePatternsContext value={patterns}>
              <RouterProvider router={router} />
            </RoutePatternsContext>
          </FeedbackProvider>
        </AppThemeProvider>
      </QueryClientProvider>
    </AppErrorBoundary>
  );
}
