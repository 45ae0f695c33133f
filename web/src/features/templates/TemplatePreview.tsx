import SendOutlined from '@mui/icons-material/SendOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEMPLATE_LANGUAGES, type TemplateLanguage } from '../../../../core/api/templates.js';
import { useCan } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { ActionToolbar, Section } from '../../components/page/index.js';
import { type TemplateCaseOption, type TemplateParts, type TemplatePreview as Preview, usePreviewTemplate, useSendTestTemplate, useTemplateCaseOptions } from './api.js';

const DEBOUNCE_MS = 250;

/** A case of the tenant, found by number or applicant as the user types. */
function CasePicker({ value, onChange }: { value: TemplateCaseOption | null; onChange: (c: TemplateCaseOption | null) => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(input), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);
  const options = useTemplateCaseOptions(search);
  const list = options.data ?? [];
  const shown = value && !list.some((c) => c.id === value.id) ? [value, ...list] : list;
  return (
    <Autocomplete
      options={shown}
      value={value}
      loading={options.isFetching}
      filterOptions={(x) => x}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(c) => [c.caseNumber ?? `#${c.id}`, c.applicantName].filter(Boolean).join(' · ')}
      onChange={(_event, c) => onChange(c)}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') setInput(text);
        if (reason === 'clear') setInput('');
      }}
      noOptionsText={t('dataTable.noMatches')}
      loadingText={t('common.loading')}
      renderInput={(params) => <TextField {...params} label={t('templates.previewCase')} helperText={t('templates.previewCaseHint')} margin="normal" />}
    />
  );
}

/**
 * Preview and test of the template as the editor holds it (nothing saved):
 * filled with a chosen case's data (or sample values) in both languages, and
 * "send a test to me" in the language being edited.
 */
export function TemplatePreview({ parts, language, onInvalid }: { parts: () => Omit<TemplateParts, 'caseId'> | null; language: TemplateLanguage; onInvalid: (error: unknown) => void }) {
  const { t } = useTranslation();
  const can = useCan();
  const [chosen, setChosen] = useState<TemplateCaseOption | null>(null);
  const [shown, setShown] = useState<Preview | null>(null);
  const preview = usePreviewTemplate({ onSuccess: (data) => setShown(data), onError: onInvalid });
  const test = useSendTestTemplate({ onSuccess: (data) => showToast(t('templates.testSent', { to: data.to }), 'success'), onError: onInvalid });

  const run = (then: (p: TemplateParts) => void) => {
    const p = parts();
    if (p) then({ ...p, caseId: chosen?.id ?? null });
  };

  return (
    <Section title={t('templates.preview')}>
      <CasePicker value={chosen} onChange={setChosen} />
      <ActionToolbar label={t('templates.preview')}>
        <Button variant="outlined" startIcon={<VisibilityOutlined />} loading={preview.isPending} onClick={() => run((p) => preview.mutate(p))}>
          {t('templates.showPreview')}
        </Button>
        {can('plantillas_correo', 'update') && (
          <Button variant="outlined" startIcon={<SendOutlined />} loading={test.isPending} onClick={() => run((p) => test.mutate({ ...p, language }))}>
            {t('templates.sendTest')}
          </Button>
        )}
      </ActionToolbar>
      {shown && (
        <Grid container spacing={2}>
          {TEMPLATE_LANGUAGES.map((lang) => (
            <Grid key={lang} size={{ xs: 12, md: 6 }}>
              <Box component="section" aria-label={`${t('templates.preview')}: ${t(`common.languages.${lang}`)}`}>
                <Typography variant="subtitle1" component="h3">
                  {t(`common.languages.${lang}`)}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {t('templates.previewSubject')}
                </Typography>
                <Typography variant="body1" sx={{ fontWeight: 500, mb: 1 }}>
                  {shown[lang].subject}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {t('templates.previewHtml')}
                </Typography>
                {/* Sanitised by the server; shown in a sandbox that runs nothing all the same. */}
                <Box
                  component="iframe"
                  title={`${t('templates.previewHtml')} (${t(`common.languages.${lang}`)})`}
                  sandbox=""
                  srcDoc={shown[lang].html}
                  sx={{ width: '100%', minHeight: 200, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}
                />
                <Typography variant="caption" color="text.secondary">
                  {t('templates.previewText')}
                </Typography>
                <Box component="pre" sx={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1 }}>
                  {shown[lang].text}
                </Box>
              </Box>
            </Grid>
          ))}
        </Grid>
      )}
    </Section>
  );
}
