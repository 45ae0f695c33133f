import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { lazy, Suspense, useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { MAIL_EVENTS, TEMPLATE_LANGUAGES, type TemplateBody, type TemplateLanguage, templateBody } from '../../../../core/api/templates.js';
import { checkTemplate, type PlaceholderName } from '../../../../core/templates/render.js';
import { NotFoundPage } from '../errors/NotFoundPage.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { FormSelectField } from '../../components/form/FormSelectField.js';
import { FormTextField } from '../../components/form/FormTextField.js';
import { ActionToolbar, QueryState, Section } from '../../components/page/index.js';
import { PageFallback } from '../../components/PageFallback.js';
import { PageHeader } from '../../components/PageHeader.js';
import { fieldErrorText, showServerError } from '../../lib/forms.js';
import { type Template, useSaveTemplate, useTemplate } from './api.js';
import { AttachPrintField } from './AttachPrintField.js';
import { PlaceholderMenu } from './PlaceholderMenu.js';
import { TemplatePreview } from './TemplatePreview.js';

/** The rich-text editor (mui-tiptap and ProseMirror): loaded with this page only, and after its first paint. */
const TemplateBodyEditor = lazy(() => import('./TemplateBodyEditor.js'));

type Values = TemplateBody;
const FIELDS = ['name', 'event', 'isDefault', 'printTemplateId', 'subjectEn', 'subjectEs', 'bodyHtmlEn', 'bodyHtmlEs'] as const;
const suffix = (lang: TemplateLanguage) => (lang === 'en' ? 'En' : 'Es');
const subjectField = (lang: TemplateLanguage) => `subject${suffix(lang)}` as const;
const bodyField = (lang: TemplateLanguage) => `bodyHtml${suffix(lang)}` as const;

const EMPTY: Values = { name: '', event: 'task_assigned', subjectEn: '', subjectEs: '', bodyHtmlEn: '<p></p>', bodyHtmlEs: '<p></p>', isDefault: false, printTemplateId: null };

/** /plantillas-correo/nuevo and /plantillas-correo/:id: a template's name, event, default flag, and subject and body per language. */
export default function TemplateEditorPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const templateId = id && /^\d+$/.test(id) ? Number(id) : null;
  const query = useTemplate(templateId);
  if (id !== undefined && templateId === null) return <NotFoundPage />;
  if (templateId === null) return <TemplateForm template={null} />;
  return (
    <>
      <PageHeader title={t('templates.editTitle')} />
      <QueryState query={query} retry>
        {(template) => <TemplateForm template={template} />}
      </QueryState>
    </>
  );
}

function TemplateForm({ template }: { template: Template | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [language, setLanguage] = useState<TemplateLanguage>('en');
  const subjectInputs = useRef<Partial<Record<TemplateLanguage, HTMLInputElement | null>>>({});
  const { control, handleSubmit, setError, setValue, getValues, trigger, formState } = useForm<Values>({
    resolver: zodResolver(templateBody) as never,
    defaultValues: template
      ? { name: template.name, event: template.event, subjectEn: template.subjectEn, subjectEs: template.subjectEs, bodyHtmlEn: template.bodyHtmlEn, bodyHtmlEs: template.bodyHtmlEs, isDefault: template.isDefault, printTemplateId: template.printTemplateId }
      : EMPTY,
  });
  const watched = useWatch({ control, name: ['subjectEn', 'subjectEs', 'bodyHtmlEn', 'bodyHtmlEs'] });
  const problems = (['subjectEn', 'subjectEs', 'bodyHtmlEn', 'bodyHtmlEs'] as const).flatMap((field, i) =>
    checkTemplate(watched[i] ?? '').map((p) => ({ field, text: t(`templates.problems.${p.kind}`, { name: p.name, line: p.line, column: p.column }) })),
  );
  const fieldLabel = (field: (typeof FIELDS)[number]) =>
    field.startsWith('subject') ? `${t('templates.subject')} (${t(`common.languages.${field.endsWith('En') ? 'en' : 'es'}`)})` : `${t('templates.body')} (${t(`common.languages.${field.endsWith('En') ? 'en' : 'es'}`)})`;

  const onServerError = (error: unknown) => showServerError(error, setError, FIELDS, { byCode: { DUPLICATE: 'name' } });
  const save = useSaveTemplate(template ? { id: template.id, version: template.version } : null, {
    onSuccess: () => showToast(t('templates.saved'), 'success'),
    onRefreshed: () => navigate('/plantillas-correo'),
    onError: onServerError,
  });

  const insertInSubject = (lang: TemplateLanguage, name: PlaceholderName) => {
    const field = subjectField(lang);
    const input = subjectInputs.current[lang];
    const current = getValues(field) ?? '';
    const start = input?.selectionStart ?? current.length;
    const end = input?.selectionEnd ?? current.length;
    const text = `{{${name}}}`;
    setValue(field, current.slice(0, start) + text + current.slice(end), { shouldDirty: true });
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + text.length, start + text.length);
    });
  };

  /** The editor's parts for the preview and the test, when the subjects and bodies pass the same checks as a save. */
  const previewParts = () => {
    if (problems.length) return null;
    const v = getValues();
    return { subjectEn: v.subjectEn, subjectEs: v.subjectEs, bodyHtmlEn: v.bodyHtmlEn, bodyHtmlEs: v.bodyHtmlEs };
  };

  const submit = handleSubmit((values) => {
    if (problems.length) return;
    save.mutate(values);
  });

  return (
    <>
      {!template && <PageHeader title={t('templates.newTitle')} />}
      <Paper variant="outlined" component="form" noValidate onSubmit={submit} sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Section title={t('templates.details')}>
          <FormTextField control={control} name="name" label={t('templates.name')} required />
          <FormSelectField control={control} name="event" label={t('templates.event')} options={MAIL_EVENTS.map((value) => ({ value, label: t(`templates.events.${value}`) }))} />
          <Controller
            control={control}
            name="isDefault"
            render={({ field, fieldState }) => (
              <>
                <FormControlLabel
                  sx={{ mt: 1 }}
                  control={<Switch checked={field.value} disabled={template?.isDefault} onChange={(event) => field.onChange(event.target.checked)} slotProps={{ input: { ref: field.ref } }} />}
                  label={t('templates.isDefault')}
                />
                <FormHelperText error={!!fieldState.error}>{fieldErrorText(t, fieldState.error) ?? t('templates.defaultHint')}</FormHelperText>
              </>
            )}
          />
          <AttachPrintField control={control} />
        </Section>
        <Tabs value={language} onChange={(_e, v: TemplateLanguage) => setLanguage(v)} aria-label={t('templates.language')} sx={{ mt: 2, borderBottom: 1, borderColor: 'divider' }}>
          {TEMPLATE_LANGUAGES.map((lang) => (
            <Tab key={lang} value={lang} label={t(`common.languages.${lang}`)} id={`tpl-tab-${lang}`} aria-controls={`tpl-panel-${lang}`} />
          ))}
        </Tabs>
        {TEMPLATE_LANGUAGES.map((lang) => (
          <Box key={lang} role="tabpanel" id={`tpl-panel-${lang}`} aria-labelledby={`tpl-tab-${lang}`} hidden={language !== lang} sx={{ pt: 1 }}>
            <Controller
              control={control}
              name={subjectField(lang)}
              render={({ field, fieldState }) => (
                <TextField
                  fullWidth
                  margin="normal"
                  required
                  label={`${t('templates.subject')} (${t(`common.languages.${lang}`)})`}
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={(el: HTMLInputElement | null) => {
                    field.ref(el);
                    subjectInputs.current[lang] = el;
                  }}
                  error={!!fieldState.error}
                  helperText={fieldErrorText(t, fieldState.error) ?? t('templates.placeholderHint')}
                  slotProps={{ htmlInput: { maxLength: 200 } }}
                />
              )}
            />
            <PlaceholderMenu onPick={(name) => insertInSubject(lang, name)} label={`${t('templates.insertPlaceholder')}: ${t('templates.subject')}`} />
            <Suspense fallback={<PageFallback />}>
              <TemplateBodyEditor
                initialHtml={getValues(bodyField(lang))}
                onChange={(html) => setValue(bodyField(lang), html, { shouldDirty: true })}
                label={t('templates.editorLabel', { language: t(`common.languages.${lang}`) })}
                error={fieldErrorText(t, formState.errors[bodyField(lang)])}
              />
            </Suspense>
          </Box>
        ))}
        {problems.length > 0 && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {t('templates.problemsTitle')}
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {problems.map((p, i) => (
                <li key={i}>
                  {fieldLabel(p.field)}: {p.text}
                </li>
              ))}
            </Box>
          </Alert>
        )}
        <ActionToolbar label={t('common.save')} sx={{ mt: 2 }}>
          {(template ? template.actions.includes('edit') : true) && (
            <Button type="submit" variant="contained" loading={save.isPending} disabled={problems.length > 0}>
              {t('common.save')}
            </Button>
          )}
          <Button component={RouterLink} to="/plantillas-correo">
            {t('common.cancel')}
          </Button>
        </ActionToolbar>
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mt: 2 }}>
        <TemplatePreview parts={previewParts} language={language} onInvalid={(error) => void trigger().then(() => onServerError(error))} />
      </Paper>
    </>
  );
}
