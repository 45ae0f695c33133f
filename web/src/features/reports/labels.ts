import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportMeasure } from '../../../../core/api/reports.js';
import { stateLabelKey, type TaskState } from '../../../../core/workflow/states.js';

const MONTHS: readonly string[] = ['createdMonth', 'decidedMonth', 'month'];
const DAYS: readonly string[] = ['createdDay', 'day'];
const PEOPLE: readonly string[] = ['responsible', 'user'];

/** How the "none" group of a dimension reads (the tasks with no team, undecided ones...). */
function noneLabel(t: TFunction, dimension: string): string {
  if (dimension === 'team') return t('reports.none.team');
  if (PEOPLE.includes(dimension)) return t('reports.none.person');
  if (dimension === 'decidedMonth') return t('reports.none.decided');
  return t('reports.none.other');
}

export interface ReportLabels {
  dimension: (dimension: string) => string;
  measure: (measure: ReportMeasure) => string;
  /** A row's or column's name: the server's for named things, a translation for states and actions, a date for periods. */
  key: (dimension: string | null, key: { key: string | null; label: string | null }) => string;
  /** A measured value as the reader's language writes numbers (days with up to 2 decimals). */
  value: (measure: ReportMeasure, value: number) => string;
  /** A day YYYY-MM-DD as the spec writes dates (MM/DD/YYYY). */
  day: (day: string) => string;
  /** A history action (task_accepted...) in a few words. */
  action: (action: string) => string;
}

/** The words of the reports in the reader's language. */
export function useReportLabels(): ReportLabels {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    const monthFormat = new Intl.DateTimeFormat(language, { month: 'short', year: 'numeric', timeZone: 'UTC' });
    const countFormat = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
    const daysFormat = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
    const day = (value: string) => {
      const [y, m, d] = value.split('-');
      return y && m && d ? `${m}/${d}/${y}` : value;
    };
    const action = (value: string) => t(`reports.actions.${value}`, { defaultValue: value.replaceAll('_', ' ') });
    return {
      dimension: (dimension) => t(`reports.dimensions.${dimension}`),
      measure: (measure) => t(`reports.measures.${measure}`),
      key: (dimension, { key, label }) => {
        if (key === null) return noneLabel(t, dimension ?? '');
        if (label) return label;
        if (dimension === 'state') return t(stateLabelKey(key as TaskState));
        if (dimension === 'action') return action(key);
        if (dimension === 'kind') return t(`reports.eventKinds.${key}`, { defaultValue: key });
        if (dimension === 'overdue') return t(key === 'true' ? 'reports.overdue.yes' : 'reports.overdue.no');
        if (dimension && MONTHS.includes(dimension)) {
          const [y, m] = key.split('-').map(Number);
          return y && m ? monthFormat.format(new Date(Date.UTC(y, m - 1, 1))) : key;
        }
        if (dimension && DAYS.includes(dimension)) return day(key);
        return key;
      },
      value: (measure, value) => (measure === 'count' ? countFormat : daysFormat).format(value),
      day,
      action,
    };
  }, [t, language]);
}

/** The actions of the applications' history (case_events), each with its short name in `reports.actions`. */
export const HISTORY_ACTIONS: readonly string[] = [
  'case_created', 'draft_saved', 'case_submit', 'case_complete', 'case_close', 'case_activate', 'case_reject', 'case_flag',
  'field_changed', 'owner_changed', 'participants_changed',
  'task_created', 'task_accepted', 'task_rejected', 'task_restarted', 'task_assigned', 'task_closed', 'task_unblocked', 'task_overdue', 'task_reminded', 'task_escalated',
  'comment_added', 'comment_edited', 'comment_deleted', 'document_accepted',
  'correction_requested', 'correction_resubmitted', 'correction_cancelled',
];
