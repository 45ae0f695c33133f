import Box from '@mui/material/Box';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Location } from 'react-router';
import { useCan } from '../../app/session/session.js';
import { useDialogs } from '../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { useLeaveGuard } from '../../components/feedback/useLeaveGuard.js';
import { ApiError, errorMessage } from '../../lib/api.js';
import { type TapeColumn, type TapeConfig, useResetTapeConfig, useSaveTapeConfig } from './api.js';
import { ColumnsEditor } from './ColumnsEditor.js';
import { type ColumnProblem, draftProblems, sameColumns, serverProblems, trimmed } from './columnsDraft.js';
import { TapeFile } from './TapeFile.js';

const TARGET = 'reporte_data_tape';
const protocolOf = (location: Location) => new URLSearchParams(location.search).get('protocol');

/**
 * One protocol's tape: the file to make (export) above, its columns below.
 * The columns are edited as a draft against the saved ones; the draft is
 * held back from navigation (another page, another protocol, closing the
 * tab) while it differs, and the file panel says the file uses what is saved.
 */
export function ProtocolTape({ config }: { config: TapeConfig }) {
  const { t } = useTranslation();
  const can = useCan();
  const dialogs = useDialogs();
  const canUpdate = can(TARGET, 'update');
  const canExport = can(TARGET, 'export');

  const [draft, setDraft] = useState<TapeColumn[]>(config.columns);
  const [baseline, setBaseline] = useState(config.columns);
  // Fresh columns from the server (saved elsewhere, or the answer of a save) replace an untouched draft.
  if (config.columns !== baseline) {
    if (sameColumns(draft, baseline)) setDraft(config.columns);
    setBaseline(config.columns);
  }
  const dirty = !sameColumns(draft, config.columns);

  // A refused save: problems placed on the rows they name, the reason above the list; both go once the draft changes.
  const [refused, setRefused] = useState<{ placed: ColumnProblem[]; reason: string | null } | null>(null);
  const [summary, setSummary] = useState(false);
  const change = (columns: TapeColumn[]) => {
    setDraft(columns);
    setRefused(null);
  };
  const problems = [...draftProblems(draft), ...(refused?.placed ?? [])];

  const save = useSaveTapeConfig(config.protocolId, {
    onSuccess: (saved) => {
      setDraft(saved.columns);
      setSummary(false);
      showToast(t('dataTape.columns.saved'), 'success');
    },
    onError: (error, sent) => {
      const { placed, other } = error instanceof ApiError ? serverProblems(error.details, sent) : { placed: [], other: [] };
      // Every detail found its row: the summary lists them. Otherwise the server's message (an unknown column names it) says why.
      setRefused({ placed, reason: placed.length && !other.length ? null : errorMessage(error) });
      setSummary(placed.length > 0);
    },
  });
  const reset = useResetTapeConfig(config.protocolId, {
    onSuccess: (fresh) => {
      setDraft(fresh.columns);
      setRefused(null);
      setSummary(false);
      showToast(t('dataTape.columns.resetDone'), 'success');
    },
    onError: (error) => showToast(t('dataTape.columns.resetFailed', { reason: errorMessage(error) })),
  });

  const onSave = () => {
    if (draftProblems(draft).length) {
      setSummary(true);
      return;
    }
    save.mutate(trimmed(draft));
  };
  const onUndo = () => change(config.columns);
  const onReset = async () => {
    const confirmed = await dialogs.confirm({
      title: t('dataTape.columns.resetTitle'),
      message: t('dataTape.columns.resetMessage', { protocol: config.protocolName }),
      confirmText: t('dataTape.columns.reset'),
    });
    if (confirmed) reset.mutate();
  };

  // Leaving with unsaved columns asks first: another page, another protocol, closing or reloading the tab.
  useLeaveGuard(
    dirty && !save.isPending,
    { title: t('dataTape.columns.leaveTitle'), message: t('dataTape.columns.leaveMessage'), confirmText: t('dataTape.columns.leave') },
    { leaves: (from, to) => from.pathname !== to.pathname || protocolOf(from) !== protocolOf(to) },
  );

  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      {canExport && <TapeFile protocolId={config.protocolId} unsaved={dirty} />}
      <ColumnsEditor
        config={config}
        columns={draft}
        onChange={change}
        editable={canUpdate}
        dirty={dirty}
        problems={problems}
        refusal={refused?.reason ?? null}
        summary={summary}
        saving={save.isPending}
        resetting={reset.isPending}
        onSave={onSave}
        onUndo={onUndo}
        onReset={() => void onReset()}
      />
    </Box>
  );
}
