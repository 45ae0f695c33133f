import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_COLORS } from '../../../core/project.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../i18n/index.js';
import { useProjectSettingsQuery } from './project/projectSettings.js';
import { createAppTheme } from './theme.js';

/** The project's colours once its settings arrive (the defaults until then), in the page language. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const { data } = useProjectSettingsQuery();
  const { i18n } = useTranslation();
  const language = LANGUAGES.find((l) => l === i18n.resolvedLanguage) ?? DEFAULT_LANGUAGE;
  const colors = data?.colors ?? DEFAULT_COLORS;
  const theme = useMemo(() => createAppTheme(colors, language), [colors, language]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
