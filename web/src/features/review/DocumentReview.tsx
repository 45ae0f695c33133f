import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormDefinition } from '../../../../core/forms/definition.js';
import type { Ack, ReviewEvents } from '../../../../core/realtime.js';
import { useSession } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { Section } from '../../components/page/index.js';
import { Presence } from '../../components/Presence.js';
import { useRealtimeEvent, useRoom, useRoomEmit } from '../../lib/realtime.js';
import { type ChecklistItem, useChecklist } from '../comments/api.js';
import { useRefreshChecklist, useRefreshReviewedCase } from './api.js';
import { type CaseFile, caseFiles } from './documents.js';
import { DocumentViewer } from './DocumentViewer.js';

type ReviewEvent = 'show_doc' | 'cancel_show_doc' | 'accept_doc' | 'refresh_page';

/**
 * "Review documents together": staff who join the case's review room see who
 * else is in it and the case's documents; one shows a document and every
 * member's viewer opens it, anyone may accept a document of the checklist
 * (kept in the case history) or make the others' pages load again. Nobody is
 * in the room until they press "Join review".
 */
export function DocumentReview({ caseId, form, data }: { caseId: number; form: FormDefinition | null; data: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [entered, setEntered] = useState(false);
  return (
    <Section
      title={t('review.title')}
      action={
        <Button size="small" variant={entered ? 'text' : 'outlined'} onClick={() => setEntered((e) => !e)} aria-expanded={entered}>
          {entered ? t('review.leave') : t('review.join')}
        </Button>
      }
    >
      {entered ? (
        <ReviewRoom caseId={caseId} form={form} data={data} />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('review.intro')}
        </Typography>
      )}
    </Section>
  );
}

function ReviewRoom({ caseId, form, data }: { caseId: number; form: FormDefinition | null; data: Record<string, unknown> }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const me = Number(session.user.uid);
  const language = i18n.resolvedLanguage ?? 'en';
  const room = useRoom({ kind: 'review', id: caseId });
  const emit = useRoomEmit();
  const checklist = useChecklist(caseId);
  const refreshCase = useRefreshReviewedCase(caseId);
  const refreshChecklist = useRefreshChecklist(caseId);
  const [pending, setPending] = useState<string | null>(null);

  const files = useMemo(
    () => caseFiles(form, data, { language, row: (row) => t('review.row', { row }), other: t('review.otherFile') }),
    [form, data, language, t],
  );
  const items = checklist.data?.items ?? [];
  const documentName = (code: string) => items.find((i) => i.code === code)?.name ?? code;

  /** Sends one event; says what went wrong, or `done` when given. */
  const send = async (key: string, event: ReviewEvent, payload: object, done?: string): Promise<Ack> => {
    setPending(key);
    const ack = await emit(event, payload);
    setPending(null);
    if (!ack.ok) showToast(t(`review.errors.${ack.code}`));
    else if (done) showToast(done, 'success');
    return ack;
  };

  useRealtimeEvent<ReviewEvents['accept_doc']>('accept_doc', (e) => {
    if (e.caseId !== caseId) return;
    void refreshChecklist();
    if (e.by.id !== me) showToast(t('review.acceptedBy', { name: e.by.name, document: documentName(e.code) }), 'info');
  });
  useRealtimeEvent<ReviewEvents['refresh_page']>('refresh_page', (e) => {
    if (e.caseId !== caseId) return;
    void refreshCase();
    showToast(t('review.refreshedBy', { name: e.by.name }), 'info');
  });
  useRealtimeEvent<ReviewEvents['available_docs']>('available_docs', (e) => {
    if (e.caseId === caseId) void refreshCase();
  });

  if (!room.joined) {
    return (
      <Typography variant="body2" color="text.secondary" role="status">
        {t('review.joining')}
      </Typography>
    );
  }

  const shown = room.shown;
  const shownFile = shown ? (files.find((f) => f.id === shown.fileId) ?? null) : null;
  const others = room.users.filter((u) => u.id !== me);

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box>
        {others.length === 0 ? (
          <Typography variant="body2" color="text.secondary" role="status">
            {t('review.alone')}
          </Typography>
        ) : (
          <Presence users={room.users} me={me} />
        )}
        <Button
          size="small"
          onClick={() => void send('refresh', 'refresh_page', { caseId }, t('review.refreshSent'))}
          disabled={pending === 'refresh'}
        >
          {t('review.refreshEveryone')}
        </Button>
      </Box>
      {/* The list and the viewer side by side on wide screens; on phones the viewer comes under the list. */}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        {files.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('review.noDocuments')}
          </Typography>
        ) : (
          <Box component="ul" aria-label={t('review.documents')} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
            {files.map((file) => (
              <ReviewedFile
                key={file.id}
                file={file}
                items={items}
                showing={shown?.fileId === file.id}
                busy={pending === `show:${file.id}` || pending === `accept:${file.id}`}
                onShow={() => void send(`show:${file.id}`, 'show_doc', { caseId, fileId: file.id })}
                onAccept={(code) =>
                  send(`accept:${file.id}`, 'accept_doc', { caseId, code, fileId: file.id }, t('review.accepted', { document: documentName(code) }))
                }
              />
            ))}
          </Box>
        )}
        <DocumentViewer
          shown={shown}
          file={shownFile}
          me={me}
          stopping={pending === 'cancel'}
          onStop={() => void send('cancel', 'cancel_show_doc', { caseId })}
        />
      </Box>
    </Box>
  );
}

function ReviewedFile({
  file,
  items,
  showing,
  busy,
  onShow,
  onAccept,
}: {
  file: CaseFile;
  items: ChecklistItem[];
  showing: boolean;
  busy: boolean;
  onShow: () => void;
  onAccept: (code: string) => Promise<Ack>;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const selectId = `review-accept-${file.id}`;
  return (
    <Box component="li" sx={{ border: 1, borderColor: showing ? 'primary.main' : 'divider', borderRadius: 1, p: 1.5, display: 'grid', gap: 1 }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {file.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {file.place}
        </Typography>
      </Box>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Button size="small" variant={showing ? 'contained' : 'outlined'} onClick={onShow} disabled={busy} aria-label={t('review.showNamed', { name: file.name })}>
          {t('review.show')}
        </Button>
        <TextField
          id={selectId}
          select
          size="small"
          label={t('review.checklistDocument')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          disabled={items.length === 0}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 180, flexGrow: 1, maxWidth: 320 }}
        >
          <option value="">{t('review.choose')}</option>
          {items.map((item) => (
            <option key={item.code} value={item.code}>
              {item.name}
            </option>
          ))}
        </TextField>
        <Button
          size="small"
          variant="outlined"
          color="success"
          disabled={busy || !code}
          aria-label={t('review.acceptNamed', { name: file.name })}
          onClick={() =>
            void onAccept(code).then((ack) => {
              if (ack.ok) setCode('');
            })
          }
        >
          {t('review.accept')}
        </Button>
      </Stack>
    </Box>
  );
}
