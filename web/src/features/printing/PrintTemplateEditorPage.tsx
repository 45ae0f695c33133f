import OpenInNew from '@mui/icons-material/OpenInNew';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { TEMPLATE_LANGUAGES, type TemplateLanguage } from '../../../../core/api/templates.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { ActionToolbar, QueryState, Section } from '../../components/page/index.js';
import { PageFallback } from '../../components/PageFallback.js';
import { PageHeader } from '../../components/PageHeader.js';
import { NotFoundPage } from '../errors/NotFoundPage.js';
import { protocolName, useProtocolOptions } from '../protocols/api.js';
import { type PrintSource, type PrintTemplate, printUrl, usePrintCaseOptions, usePrintSources, usePrintTemplate, useSavePrintTemplate, useUploadTemplatePdf } from './api.js';

/** The email templates' rich-text editor with its placeholder picker: loaded with this page only. */
const TemplateBodyEditor = lazy(() => import('../templates/TemplateBodyEditor.js'));

/** /configuracion/plantillas/:id: a template's names and protocol; an AcroForm's PDF and field mapping, or a letter's text per language; a preview with a case. */
export default function PrintTemplateEditorPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const templateId = id && /^\d+$/.test(id) ? Number(id) : null;
  const query = usePrintTemplate(templateId);
  if (templateId === null) return <NotFoundPage />;
  return (
    <>
      <PageHeader title={t('printing.editTitle')} />
      <QueryState query={query} retry>
        {(template) => <Editor key={`${template.id}-${template.version}`} template={template} />}
      </QueryState>
    </>
  );
}

function Editor({ template }: { template: PrintTemplate }) {
  const { t, i18n } = useTranslation();
  const english = !i18n.language.startsWith('es');
  const [name, setName] = useState(template.name);
  const [nameEn, setNameEn] = useState(template.nameEn);
  const [protocol, setProtocol] = useState(template.protocolId ? String(template.protocolId) : '');
  const [mapping, setMapping] = useState<Record<string, string>>(template.mapping);
  const bodies = useRef({ en: template.bodyHtmlEn, es: template.bodyHtmlEs });
  const [language, setLanguage] = useState<TemplateLanguage>(english ? 'en' : 'es');
  const [error, setError] = useState<string | null>(null);
  const protocols = useProtocolOptions();
  const protocolId = protocol ? Number(protocol) : null;
  const sources = usePrintSources(protocolId);
  const editable = template.actions.includes('edit');

  const save = useSavePrintTemplate(template.id, {
    onSuccess: () => {
      setError(null);
      showToast(t('printing.saved'), 'success');
    },
    onError: (e) => setError(e.message),
  });
  const upload = useUploadTemplatePdf(template.id, {
    onSuccess: (tpl) => {
      setError(null);
      showToast(t('printing.uploaded', { count: tpl.pdfFields.length }), 'success');
    },
    onError: (e) => setError(e.message),
  });
  const fileInput = useRef<HTMLInputElement | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const cleaned = Object.fromEntries(Object.entries(mapping).filter(([, source]) => source));
    save.mutate({ name: name.trim(), nameEn: nameEn.trim(), protocolId, mapping: cleaned, bodyHtmlEn: bodies.current.en, bodyHtmlEs: bodies.current.es, version: template.version });
  };

  const sourceLabel = (s: PrintSource) => (english ? s.labelEn : s.label);
  const groups = (['case', 'form'] as const).map((group) => ({ group, items: (sources.data?.items ?? []).filter((s) => s.group === group) }));

  return (
    <>
      <Paper variant="outlined" component="form" noValidate onSubmit={submit} sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Section title={t('printing.details')}>
          <Typography variant="body2" color="text.secondary">
            {t('printing.kind')}: {t(`printing.kinds.${template.kind}`)}
          </Typography>
          <TextField fullWidth margin="normal" required label={t('printing.name')} value={name} onChange={(e) => setName(e.target.value)} slotProps={{ htmlInput: { maxLength: 120 } }} />
          <TextField fullWidth margin="normal" required label={t('printing.nameEn')} value={nameEn} onChange={(e) => setNameEn(e.target.value)} slotProps={{ htmlInput: { maxLength: 120 } }} />
          <TextField select fullWidth margin="normal" label={t('printing.protocol')} value={protocol} onChange={(e) => setProtocol(e.target.value)} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}>
            <MenuItem value="">{t('printing.allProtocols')}</MenuItem>
            {template.protocolId && !(protocols.data?.items ?? []).some((p) => p.id === template.protocolId) && <MenuItem value={String(template.protocolId)}>{template.protocolName}</MenuItem>}
            {(protocols.data?.items ?? []).map((p) => (
              <MenuItem key={p.id} value={String(p.id)}>
                {protocolName(p, i18n.language)}
              </MenuItem>
            ))}
          </TextField>
        </Section>

        {template.kind === 'acroform' ? (
          <Section title={t('printing.pdf')}>
            {template.pdfName ? <Typography variant="body2">{t('printing.currentPdf', { name: template.pdfName })}</Typography> : <Alert severity="info">{t('printing.noPdf')}</Alert>}
            {editable && (
              <>
                <input
                  ref={fileInput}
                  type="file"
                  accept="application/pdf,.pdf"
                  hidden
                  aria-label={t('printing.uploadPdf')}
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    if (file) upload.mutate(file);
                    e.target.value = '';
                  }}
                />
                <Button sx={{ mt: 1 }} variant="outlined" startIcon={<UploadFile />} loading={upload.isPending} onClick={() => fileInput.current?.click()}>
                  {template.hasPdf ? t('printing.replacePdf') : t('printing.uploadPdf')}
                </Button>
              </>
            )}
            {template.hasPdf && template.pdfFields.length === 0 && <Alert severity="warning" sx={{ mt: 1 }}>{t('printing.noFields')}</Alert>}
            {template.pdfFields.length > 0 && (
              <Box sx={{ overflowX: 'auto', mt: 1 }}>
                <Table size="small" aria-label={t('printing.fields')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('printing.pdfField')}</TableCell>
                      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('printing.fieldType')}</TableCell>
                      <TableCell>{t('printing.source')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {template.pdfFields.map((field) => (
                      <TableRow key={field.name}>
                        <TableCell sx={{ wordBreak: 'break-word' }}>{field.name}</TableCell>
                        <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t(`printing.fieldTypes.${field.type}`)}</TableCell>
                        <TableCell sx={{ minWidth: 140 }}>
                          <TextField
                            select
                            fullWidth
                            size="small"
                            label={`${t('printing.source')}: ${field.name}`}
                            value={mapping[field.name] ?? ''}
                            disabled={!editable || field.type === 'button' || field.type === 'signature'}
                            onChange={(e) => setMapping((m) => ({ ...m, [field.name]: e.target.value }))}
                            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                          >
                            <MenuItem value="">{t('printing.noSource')}</MenuItem>
                            {groups.flatMap(({ group, items }) =>
                              items.length ? [<ListSubheader key={`g-${group}`}>{t(`printing.groups.${group}`)}</ListSubheader>, ...items.map((s) => <MenuItem key={s.source} value={s.source}>{sourceLabel(s)}</MenuItem>)] : [],
                            )}
                            {mapping[field.name] && !(sources.data?.items ?? []).some((s) => s.source === mapping[field.name]) && <MenuItem value={mapping[field.name]}>{mapping[field.name]}</MenuItem>}
                          </TextField>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            )}
          </Section>
        ) : (
          <Section title={t('printing.body')}>
            {template.builtin === 'complete_application' && <Alert severity="info">{t('printing.completeHint')}</Alert>}
            <Tabs value={language} onChange={(_e, v: TemplateLanguage) => setLanguage(v)} aria-label={t('templates.language')} sx={{ borderBottom: 1, borderColor: 'divider' }}>
              {TEMPLATE_LANGUAGES.map((lang) => (
                <Tab key={lang} value={lang} label={t(`common.languages.${lang}`)} id={`print-tab-${lang}`} aria-controls={`print-panel-${lang}`} />
              ))}
            </Tabs>
            {TEMPLATE_LANGUAGES.map((lang) => (
              <Box key={lang} role="tabpanel" id={`print-panel-${lang}`} aria-labelledby={`print-tab-${lang}`} hidden={language !== lang} sx={{ pt: 1 }}>
                <Suspense fallback={<PageFallback />}>
                  <TemplateBodyEditor
                    initialHtml={bodies.current[lang] || '<p></p>'}
                    onChange={(html) => {
                      bodies.current[lang] = html;
                    }}
                    label={t('printing.editorLabel', { language: t(`common.languages.${lang}`) })}
                  />
                </Suspense>
              </Box>
            ))}
          </Section>
        )}

        {error && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        <ActionToolbar label={t('common.save')} sx={{ mt: 2 }}>
          {editable && (
            <Button type="submit" variant="contained" loading={save.isPending} disabled={!name.trim() || !nameEn.trim()}>
              {t('common.save')}
            </Button>
          )}
          <Button component={RouterLink} to="/configuracion/plantillas">
            {t('common.cancel')}
          </Button>
        </ActionToolbar>
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mt: 2 }}>
        <Preview template={template} />
      </Paper>
    </>
  );
}

/** Pick a case of the tenant (of the template's protocol) and open the saved template filled with it, as a PDF in a new tab. */
function Preview({ template }: { template: PrintTemplate }) {
  const { t } = useTranslation();
  const [caseId, setCaseId] = useState('');
  const cases = usePrintCaseOptions('', template.protocolId);
  const options = cases.data ?? [];
  const printable = template.kind === 'letter' || template.hasPdf;
  return (
    <Section title={t('printing.preview')}>
      <Typography variant="body2" color="text.secondary">
        {t('printing.previewHint')}
      </Typography>
      {options.length === 0 && !cases.isLoading ? (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t('printing.noCases')}
        </Typography>
      ) : (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mt: 1 }}>
          <TextField select size="small" label={t('printing.previewCase')} value={caseId} onChange={(e) => setCaseId(e.target.value)} sx={{ minWidth: { xs: '100%', sm: 280 } }}>
            {options.map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {`${c.caseNumber ?? `#${c.id}`} · ${c.applicantName}`}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="outlined"
            startIcon={<OpenInNew />}
            disabled={!caseId || !printable}
            component="a"
            href={caseId ? printUrl(Number(caseId), template.id) : undefined}
            target="_blank"
            rel="noopener"
          >
            {t('printing.previewOpen')}
          </Button>
        </Box>
      )}
    </Section>
  );
}
