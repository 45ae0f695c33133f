import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, type KeyboardEvent, type SyntheticEvent, useDeferredValue, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX } from '../../../../core/api/comments.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { type Mentionable, useAddComment, useChecklist, useMentionables, useQuickComments } from './api.js';
import { insertMention, type MentionQuery, mentionAt, MentionPicker } from './MentionPicker.js';

type Mark = 'missing' | 'received';

interface CommentComposerProps {
  caseId: number;
  taskId?: number;
  /** Staff tools: the applicant switch, quick comments, @mentions and the document checklist. */
  staffTools: boolean;
}

/**
 * A new comment on a case (or a task of it). What is typed stays until the
 * server has the comment: a failed post shows why and keeps the text, the
 * ticks and the mentions.
 */
export function CommentComposer({ caseId, taskId, staffTools }: CommentComposerProps) {
  const { t } = useTranslation();
  const pickerId = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [body, setBody] = useState('');
  const [visible, setVisible] = useState(false);
  const [marks, setMarks] = useState<Record<string, Mark>>({});
  const [picked, setPicked] = useState<Mentionable[]>([]);
  const [mention, setMention] = useState<MentionQuery | null>(null);
  const [active, setActive] = useState(0);
  const [showDocuments, setShowDocuments] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const quick = useQuickComments(staffTools);
  const checklist = useChecklist(caseId, staffTools);
  const search = useDeferredValue(mention?.query ?? '');
  const people = useMentionables(search, staffTools && mention !== null);
  const options = mention ? (people.data?.items ?? []).slice(0, 8) : [];

  const add = useAddComment(caseId, {
    onSuccess: () => {
      setBody('');
      setVisible(false);
      setMarks({});
      setPicked([]);
      setMention(null);
      setError(null);
      showToast(t('comments.added'), 'success');
    },
    onError: (failure) => {
      const field = failure instanceof ApiError ? failure.details.find((d) => d.path === 'body' || d.path.startsWith('mentions') || d.path.startsWith('documents')) : undefined;
      setError(field?.message ?? errorMessage(failure));
    },
  });

  const trimmed = body.trim();
  const tooLong = trimmed.length > COMMENT_MAX;

  const track = (text: string, caret: number | null) => {
    const next = staffTools && caret !== null ? mentionAt(text, caret) : null;
    setMention(next);
    if (next?.query !== mention?.query) setActive(0);
  };

  const onChange = (event: ChangeEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    setBody(event.target.value);
    track(event.target.value, event.target.selectionStart);
  };
  const onSelect = (event: SyntheticEvent<HTMLDivElement>) => {
    const target = event.target as HTMLTextAreaElement;
    if (typeof target.selectionStart === 'number') track(target.value, target.selectionStart);
  };

  const placeCaret = (caret: number) => {
    requestAnimationFrame(() => {
      inputRef.current?.focus();
      inputRef.current?.setSelectionRange(caret, caret);
    });
  };

  const pick = (person: Mentionable) => {
    if (!mention) return;
    const next = insertMention(body, mention, person.name);
    setBody(next.text);
    setPicked((list) => (list.some((p) => p.id === person.id) ? list : [...list, person]));
    setMention(null);
    placeCaret(next.caret);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Ctrl+Enter (⌘+Enter) sends; Enter alone starts a new line.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
      return;
    }
    if (!mention || options.length === 0) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => (i + 1) % options.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => (i - 1 + options.length) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      const person = options[Math.min(active, options.length - 1)];
      if (person) {
        event.preventDefault();
        pick(person);
      }
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setMention(null);
    }
  };

  const insertQuick = (text: string) => {
    const caret = inputRef.current?.selectionStart ?? body.length;
    const before = body.slice(0, caret);
    const glue = before && !/\s$/.test(before) ? ' ' : '';
    const next = `${before}${glue}${text}${body.slice(caret)}`;
    setBody(next);
    placeCaret(before.length + glue.length + text.length);
  };

  const setMark = (code: string, mark: Mark | null) =>
    setMarks((current) => {
      const next = { ...current };
      if (mark) next[code] = mark;
      else delete next[code];
      return next;
    });

  const send = () => {
    if (!trimmed || tooLong || add.isPending) return;
    setError(null);
    add.mutate({
      body: trimmed,
      ...(taskId === undefined ? {} : { taskId }),
      ...(staffTools
        ? {
            visibleToApplicant: visible,
            documents: Object.entries(marks).map(([code, mark]) => ({ code, mark })),
            // Only the people still named in the text: a deleted @Name mentions no one.
            mentions: picked.filter((person) => body.includes(`@${person.name}`)).map((person) => person.id),
          }
        : {}),
    });
  };

  const ticked = Object.keys(marks).length;
  const activeOption = options[Math.min(active, options.length - 1)];
  const documents = checklist.data?.items ?? [];

  return (
    <Box
      component="form"
      noValidate
      aria-label={t('comments.composer.label')}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      sx={{ display: 'grid', gap: 1.5, mt: 2 }}
    >
      {staffTools && (quick.data?.items.length ?? 0) > 0 && (
        <Box role="group" aria-label={t('comments.composer.quick')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, alignItems: 'center' }}>
          <Typography variant="caption" color="text.secondary" component="span">
            {t('comments.composer.quick')}
          </Typography>
          {quick.data?.items.map((item) => (
            <Chip key={item.code} size="small" variant="outlined" label={item.text} onClick={() => insertQuick(item.text)} sx={{ maxWidth: '100%' }} />
          ))}
        </Box>
      )}
      <TextField
        label={t('comments.composer.field')}
        multiline
        minRows={3}
        maxRows={12}
        fullWidth
        value={body}
        onChange={onChange}
        onSelect={onSelect}
        onKeyDown={onKeyDown}
        onBlur={() => setMention(null)}
        error={tooLong}
        helperText={`${staffTools ? `${t('comments.composer.mentionHint')} · ` : ''}${trimmed.length}/${COMMENT_MAX}`}
        inputRef={inputRef}
        slotProps={{
          // A multi-line text box may not say aria-expanded (axe: aria-allowed-attr); the list it controls is named instead.
          htmlInput: {
            'aria-autocomplete': staffTools ? 'list' : undefined,
            'aria-controls': options.length > 0 ? pickerId : undefined,
            'aria-activedescendant': options.length > 0 && activeOption ? `${pickerId}-${activeOption.id}` : undefined,
          },
        }}
      />
      {staffTools && (
        <MentionPicker id={pickerId} anchor={mention ? inputRef.current : null} options={options} active={active} onPick={pick} />
      )}
      {staffTools && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <FormControlLabel control={<Switch checked={visible} onChange={(_e, on) => setVisible(on)} />} label={t('comments.composer.visible')} />
          {documents.length > 0 && (
            <Button size="small" onClick={() => setShowDocuments((open) => !open)} aria-expanded={showDocuments}>
              {t('comments.composer.documents', { count: ticked })}
            </Button>
          )}
        </Box>
      )}
      {staffTools && documents.length > 0 && (
        <Collapse in={showDocuments} unmountOnExit>
          <Box component="ul" aria-label={t('comments.checklist.title')} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.75 }}>
            {documents.map((doc) => (
              <Box component="li" key={doc.code} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
                <Typography variant="body2">{doc.name}</Typography>
                <ToggleButtonGroup
                  size="small"
                  exclusive
                  value={marks[doc.code] ?? null}
                  onChange={(_e, mark: Mark | null) => setMark(doc.code, mark)}
                  aria-label={doc.name}
                >
                  <ToggleButton value="missing">{t('comments.marks.missing')}</ToggleButton>
                  <ToggleButton value="received">{t('comments.marks.received')}</ToggleButton>
                </ToggleButtonGroup>
              </Box>
            ))}
          </Box>
        </Collapse>
      )}
      {error && (
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" startIcon={<Send />} loading={add.isPending} disabled={!trimmed || tooLong}>
          {t('comments.composer.send')}
        </Button>
      </Box>
    </Box>
  );
}
