import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FileDownload from '@mui/icons-material/FileDownload';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type FileRef, fileExtension } from '../../../../../../core/forms/validator.js';
import { showToast } from '../../../../components/feedback/toastStore.js';
import { errorMessage } from '../../../../lib/api.js';
import { formatBytes } from '../../labels.js';
import type { FieldRendererProps } from '../../registry.js';
import { downloadStoredFile } from '../../api.js';
import { useRenderer } from '../context.js';
import { useFieldBinding } from '../hooks.js';

/** A file field holds one reference or a list of them; the widget always writes a list. */
export function fileRefs(value: unknown): FileRef[] {
  if (Array.isArray(value)) return value.filter((f): f is FileRef => !!f && typeof f === 'object' && typeof (f as FileRef).id === 'string');
  if (value && typeof value === 'object' && typeof (value as FileRef).id === 'string') return [value as FileRef];
  return [];
}

interface Upload {
  key: number;
  name: string;
  progress: number;
}

/**
 * Uploads each chosen file at once, with a progress bar; the extension and
 * size are checked here first with the validator's messages (the server
 * checks the content again). Files are downloaded through short-lived links.
 */
export function FileWidget({ field, name }: FieldRendererProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const labelId = useId();
  const renderer = useRenderer();
  const { clearErrors, getValues } = useFormContext();
  const { binding, error, label, help, required, disabled, text } = useFieldBinding(field, name);
  const input = useRef<HTMLInputElement | null>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const nextKey = useRef(0);
  const files = fileRefs(binding.value);
  const accept = field.accept ?? [];

  // A refused file is not a value: its message stays beside the field until another file is chosen.
  const [refused, setRefused] = useState<{ key: string; params?: Record<string, unknown> } | { text: string } | null>(null);
  const refusedText = refused ? ('text' in refused ? refused.text : t(refused.key, refused.params)) : undefined;

  const choose = async (chosen: File[]) => {
    setRefused(null);
    for (const file of chosen) {
      if (!accept.includes(fileExtension(file.name))) {
        setRefused({ key: 'validation.fileExtension' });
        return;
      }
      if (field.maxSizeMb && file.size > field.maxSizeMb * 1024 * 1024) {
        setRefused({ key: 'validation.fileSize', params: { max: field.maxSizeMb } });
        return;
      }
    }
    for (const file of chosen) {
      const key = nextKey.current++;
      setUploads((list) => [...list, { key, name: file.name, progress: 0 }]);
      try {
        const stored = await renderer.upload(file, (progress) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, progress } : u))));
        binding.onChange([...fileRefs(getValues(name)), stored]);
        clearErrors(name);
      } catch (uploadError) {
        setRefused({ text: errorMessage(uploadError) });
      } finally {
        setUploads((list) => list.filter((u) => u.key !== key));
      }
    }
    binding.onBlur();
  };

  const remove = (file: FileRef) => {
    binding.onChange(files.filter((f) => f.id !== file.id));
    binding.onBlur();
  };

  const download = (file: FileRef) => {
    downloadStoredFile(file.id).catch((downloadError: unknown) => showToast(errorMessage(downloadError)));
  };

  return (
    <FormControl component="fieldset" margin="dense" required={required} error={!!(error ?? refusedText)} fullWidth>
      <FormLabel component="legend" id={labelId}>
        {label}
      </FormLabel>
      {!disabled && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}>
          <input
            ref={input}
            id={inputId}
            type="file"
            multiple
            hidden
            accept={accept.map((e) => `.${e}`).join(',')}
            aria-labelledby={labelId}
            name={binding.name}
            onChange={(event) => {
              const chosen = Array.from(event.target.files ?? []);
              event.target.value = '';
              if (chosen.length) void choose(chosen);
            }}
          />
          <Button variant="outlined" startIcon={<AttachFile />} onClick={() => input.current?.click()} ref={binding.ref}>
            {t('forms.renderer.chooseFile')}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {t('forms.renderer.accepted', { extensions: accept.join(', ') })}
            {field.maxSizeMb ? ` · ${t('forms.renderer.maxSize', { max: field.maxSizeMb })}` : ''}
          </Typography>
        </Box>
      )}
      {uploads.map((upload) => (
        <Box key={upload.key} sx={{ mt: 1 }}>
          <Typography variant="body2">{t('forms.renderer.uploading', { name: upload.name })}</Typography>
          <LinearProgress variant="determinate" value={Math.round(upload.progress * 100)} aria-label={t('forms.renderer.uploading', { name: upload.name })} />
        </Box>
      ))}
      {files.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
          {files.map((file) => (
            <Box component="li" key={file.id} sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
              <Button
                size="small"
                startIcon={<FileDownload />}
                onClick={() => download(file)}
                sx={{ textTransform: 'none', minWidth: 0, overflowWrap: 'anywhere', textAlign: 'left' }}
                aria-label={t('forms.renderer.download', { name: file.name })}
              >
                {file.name}
              </Button>
              {typeof file.size === 'number' && (
                <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                  {formatBytes(file.size, text.language)}
                </Typography>
              )}
              {!disabled && (
                <Tooltip title={t('forms.renderer.removeFile')} describeChild>
                  <IconButton size="small" onClick={() => remove(file)} aria-label={`${t('forms.renderer.removeFile')}: ${file.name}`}>
                    <DeleteOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Box>
          ))}
        </Box>
      )}
      {(error ?? refusedText ?? help) && <FormHelperText>{error ?? refusedText ?? help}</FormHelperText>}
    </FormControl>
  );
}
