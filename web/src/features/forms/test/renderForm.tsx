import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createAppTheme } from '../../../app/theme.js';
import { createQueryClient } from '../../../app/queryClient.js';
import { FeedbackProvider } from '../../../components/feedback/FeedbackProvider.js';
import { settingsFixture } from '../../../test/utils.js';

/** The providers a form needs outside the app: query cache, theme, dialogs and toasts. */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = createQueryClient();
  return {
    queryClient,
    ...render(
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={createAppTheme(settingsFixture.colors, 'en')}>
          <FeedbackProvider>{ui}</FeedbackProvider>
        </ThemeProvider>
      </QueryClientProvider>,
    ),
  };
}
