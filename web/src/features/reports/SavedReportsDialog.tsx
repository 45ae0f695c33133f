import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/session/session.js';
import { showToast } from '../../components/feedback/toastStore.js';
import { SavedItemsDialog } from '../../components/page/index.js';
import { useTeamOptions } from '../teams/api.js';
import { type SavedReportItem, useDeleteSavedReport, useSavedReports, useSaveReport } from './api.js';
import { type ReportState, savedOf } from './reportUrl.js';

interface SavedReportsDialogProps {
  /** The report on screen, which "Save" keeps. */
  state: ReportState;
  onApply: (saved: SavedReportItem) => void;
  onClose: () => void;
}

/**
 * The saved reports of the report on screen: the reader's own and those a
 * team shares with them. Apply one, delete one of one's own (after a
 * confirmation), or save the screen's filters and layout under a name,
 * shared with a team or not.
 */
export function SavedReportsDialog({ state, onApply, onClose }: SavedReportsDialogProps) {
  const { t } = useTranslation();
  const can = useCan();
  const saved = useSavedReports(state.kind);
  const teams = useTeamOptions(can('wf_equipos', 'show'));
  const [teamId, setTeamId] = useState('');
  const save = useSaveReport({
    onSuccess: (report) => {
      setTeamId('');
      showToast(t('reports.saved.savedAs', { name: report.name }), 'success');
    },
  });
  const remove = useDeleteSavedReport({ onSuccess: () => showToast(t('reports.saved.deleted'), 'success') });
  const own = (report: SavedReportItem) => report.actions.includes('delete');

  const shareWith = teams.data && (
    <TextField
      select
      size="small"
      label={t('reports.saved.shareWith')}
      value={teamId}
      onChange={(event) => setTeamId(event.target.value)}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{ flex: '1 1 200px' }}
    >
      <MenuItem value="">{t('reports.saved.notShared')}</MenuItem>
      {teams.data.items.map((team) => (
        <MenuItem key={team.id} value={String(team.id)}>
          {team.name}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <SavedItemsDialog
      title={t('reports.saved.title', { report: t(`reports.names.${state.kind}`) })}
      texts={{
        nameLabel: t('reports.saved.name'),
        saveButton: t('reports.saved.save'),
        listHeading: t('reports.saved.list'),
        none: t('reports.saved.none'),
        deleteLabel: (report) => t('reports.saved.delete', { name: report.name }),
        confirmDelete: (report) => ({ title: t('reports.saved.deleteTitle'), message: t('reports.saved.confirmDelete', { name: report.name }), confirmText: t('common.delete') }),
      }}
      saved={saved}
      items={saved.data?.items}
      describe={(report) =>
        own(report)
          ? report.teamName
            ? t('reports.saved.sharedWith', { team: report.teamName })
            : t('reports.saved.private')
          : t('reports.saved.sharedBy', { owner: report.ownerName, team: report.teamName ?? '' })
      }
      mayDelete={own}
      fields={shareWith}
      onSave={(name) => save.mutateAsync({ name, report: state.kind, ...savedOf(state), teamId: teamId ? Number(teamId) : null })}
      saving={save.isPending}
      onDelete={(report) => remove.mutate(report)}
      onApply={onApply}
      onClose={onClose}
    />
  );
}
