import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Button from '@mui/material/Button';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import { showToast } from '../../../components/feedback/toastStore.js';
import { ApiError, type ApiErrorDetail, errorMessage } from '../../../lib/api.js';
import { ImportProblemsDialog } from '../ImportProblemsDialog.js';
import { BpmnUnsupportedDialog } from './BpmnUnsupportedDialog.js';
import { unsupportedElements, useImportBpmn } from '../api.js';

interface BpmnImportButtonProps {
  protocolId: number;
  /** The editor holds unsaved changes: the import, which replaces the whole draft, asks first. */
  dirty: boolean;
  disabled?: boolean;
}

type Report = { kind: 'unsupported'; file: File; elements: ApiErrorDetail[] } | { kind: 'problems'; fileName: string; message: string; problems: readonly ApiErrorDetail[] };

/**
 * "Import BPMN" on a protocol's page: a .bpmn file (Camunda Modeler,
 * Flowable, bpmn.io, or an export of ours) becomes the protocol's draft,
 * which the editor then shows. A file with elements the engine cannot run is
 * refused with the list of them, and imported without them only when the
 * person says so; any other refusal lists its problems. Nothing is
 * imported until the server takes the whole file.
 */
export function BpmnImportButton({ protocolId, dirty, disabled = false }: BpmnImportButtonProps) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const input = useRef<HTMLInputElement>(null);
  const [report, setReport] = useState<Report | null>(null);

  const upload = useImportBpmn(protocolId, {
    onSuccess: (result, { file }) => {
      setReport(null);
      const count = result.definition.tasks.length;
      const text = result.dropped.length
        ? t('protocols.bpmn.importedDropped', { file: file.name, count, dropped: result.dropped.length })
        : t('protocols.bpmn.imported', { file: file.name, count });
      showToast(text, 'success');
    },
    onError: (error, { file, drop }) => {
      const elements = drop ? null : unsupportedElements(error);
      if (elements) setReport({ kind: 'unsupported', file, elements });
      else setReport({ kind: 'problems', fileName: file.name, message: errorMessage(error), problems: error instanceof ApiError ? error.details : [] });
    },
  });

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (dirty) {
      const confirmed = await dialogs.confirm({
        title: t('protocols.bpmn.replaceTitle'),
        message: t('protocols.bpmn.replaceMessage', { file: file.name }),
        confirmText: t('protocols.bpmn.replace'),
      });
      if (!confirmed) return;
    }
    upload.mutate({ file, drop: false });
  };

  return (
    <>
      <input ref={input} type="file" accept=".bpmn,.xml,application/xml,text/xml" hidden onChange={(event) => void onFile(event)} aria-label={t('protocols.bpmn.file')} />
      <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => input.current?.click()} loading={upload.isPending && !report} disabled={disabled}>
        {t('protocols.bpmn.import')}
      </Button>
      {report?.kind === 'unsupported' && (
        <BpmnUnsupportedDialog
          fileName={report.file.name}
          elements={report.elements}
          dropping={upload.isPending}
          onDrop={() => upload.mutate({ file: report.file, drop: true })}
          onClose={() => setReport(null)}
        />
      )}
      {report?.kind === 'problems' && <ImportProblemsDialog fileName={report.fileName} message={report.message} problems={report.problems} onClose={() => setReport(null)} />}
    </>
  );
}
