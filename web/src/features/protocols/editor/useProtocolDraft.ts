import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ProtocolDefinition } from '../../../../../core/workflow/protocol.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { useLeaveGuard } from '../../../components/feedback/useLeaveGuard.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../../lib/api.js';
import { useProtocolDetail, usePublishProtocolDraft, useSaveProtocol } from '../api.js';
import { checkDraft } from './draft.js';
import { NO_PROBLEMS, type SortedProblems, sortProblems } from './problems.js';
import { type Draft, fromDetail, newDraft, toBody } from './protocolDraft.js';

/**
 * The protocol editor's draft: loaded from the server (or new), changed in
 * place, held back from navigation while unsaved, stored by Save and frozen
 * by Publish. After a failed save the server's problems follow the draft as
 * it changes: what is fixed goes away at once.
 */
export function useProtocolDraft(id: string | undefined) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const isNew = id === undefined;
  const detail = useProtocolDetail(id);

  const [draft, setDraft] = useState<Draft | null>(isNew ? newDraft() : null);
  const [dirty, setDirtyState] = useState(false);
  // Leaving with unsaved changes asks first (links inside the app only).
  const release = useLeaveGuard(dirty, { title: t('protocols.editor.leaveTitle'), message: t('protocols.editor.leaveMessage'), confirmText: t('protocols.editor.leave') }, { onUnload: false });
  // A save followed at once by a navigation must not be held back.
  const setDirty = (value: boolean) => {
    if (!value) release();
    setDirtyState(value);
  };
  const [serverProblems, setServerProblems] = useState<readonly ApiErrorDetail[] | null>(null);

  const loaded = detail.data;
  useEffect(() => {
    if (loaded) {
      setDraft(fromDetail(loaded));
      setDirty(false);
    }
  }, [loaded]);

  // After a failed save the problems follow the draft: what is fixed goes away at once.
  const problems: SortedProblems = useMemo(() => {
    if (!serverProblems || !draft) return NO_PROBLEMS;
    const codes = draft.definition.tasks.map((task) => task.code);
    const live = dirty ? checkDraft(draft.definition, (key, params) => t(key, params)) : null;
    const settings = serverProblems.filter((p) => !/^(tasks|start|pendingColumns|parties|awardCaps)\b/.test(p.path));
    // The server's checks of forms, teams and users stay until the next save (a party's form is named by its role, not its position).
    const references = serverProblems.filter((p) => (/\.(formId|responsible)$/.test(p.path) && /^tasks\./.test(p.path)) || /^parties\.[a-z_]+\.formId$/.test(p.path));
    return sortProblems(live ? [...settings, ...live, ...references] : serverProblems, codes);
  }, [serverProblems, draft, dirty, t]);

  const update = (patch: Partial<Draft>) => {
    setDraft((current) => (current ? { ...current, ...patch } : current));
    setDirty(true);
  };
  const updateDefinition = (change: (def: ProtocolDefinition) => ProtocolDefinition) => {
    setDraft((current) => (current ? { ...current, definition: change(current.definition) } : current));
    setDirty(true);
  };

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'DUPLICATE') {
      setServerProblems([{ path: 'code', message: error.message }]);
      showToast(error.message);
      return;
    }
    if (error instanceof ApiError && error.details.length) {
      setServerProblems(error.details);
      setDirty(false);
      showToast(t('protocols.editor.hasProblems', { count: error.details.length }));
      return;
    }
    showToast(errorMessage(error));
  };

  // The server took the draft: its problems are gone and nothing is unsaved.
  const stored = () => {
    setServerProblems(null);
    setDirty(false);
  };
  const save = useSaveProtocol(id, {
    onStored: stored,
    onSuccess: (saved) => {
      showToast(t('common.saved'), 'success');
      if (isNew) navigate(`/protocolos/${saved.id}`, { replace: true });
    },
    onError: failed,
  });
  const publish = usePublishProtocolDraft(id, loaded, {
    onStored: stored,
    onSuccess: (published) => {
      showToast(t('protocols.published', { version: published.publishedVersion }), 'success');
      if (isNew) navigate(`/protocolos/${published.id}`, { replace: true });
    },
    onError: failed,
  });

  const confirmPublish = async () => {
    if (!draft) return;
    const confirmed = await dialogs.confirm({
      title: t('protocols.publishTitle'),
      message: t('protocols.publishMessage'),
      confirmText: t('protocols.publish'),
    });
    if (confirmed) publish.mutate({ body: toBody(draft), store: dirty || isNew });
  };

  return {
    isNew,
    detail,
    /** The protocol as the server last sent it (undefined while new or loading). */
    loaded,
    draft,
    dirty,
    problems,
    update,
    updateDefinition,
    save: () => draft && save.mutate(toBody(draft)),
    publish: () => void confirmPublish(),
    saving: save.isPending,
    publishing: publish.isPending,
  };
}
