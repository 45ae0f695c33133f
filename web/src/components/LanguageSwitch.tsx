import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, setLanguage } from '../i18n/index.js';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={i18n.resolvedLanguage}
      onChange={(_event, language: Language | null) => {
        // Pressing the active button again would deselect it; keep one language.
        if (language) void setLanguage(language);
      }}
      aria-label={t('common.language')}
      sx={{ bgcolor: 'background.paper' }}
    >
      {LANGUAGES.map((language) => (
        <ToggleButton
          key={language}
          value={language}
          lang={language}
          aria-label={t(`common.languages.${language}`)}
          sx={{ px: 1, py: 0.25 }}
        >
          {language.toUpperCase()}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
