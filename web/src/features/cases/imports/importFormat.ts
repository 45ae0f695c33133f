import type { TFunction } from 'i18next';
import type { ImportSummary } from '../api.js';

/** A whole number in the page's language (1,000 / 1.000). */
export const formatCount = (value: number, language: string) => new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(value);

/** Rows per second: whole above 10, one decimal below (a slow import still shows it moves). */
export const formatRate = (value: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: value >= 10 ? 0 : 1 }).format(value);

/**
 * A time left as people say it: "45 s", "1 min 20 s", "2 h 5 min" (the unit
 * names are the same in English and Spanish; the numbers follow the
 * language). Under a minute the seconds; from an hour on, no seconds.
 */
export function formatDuration(seconds: number, t: TFunction, language: string): string {
  const total = Math.max(0, Math.round(seconds));
  const n = (value: number) => formatCount(value, language);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours > 0) return minutes > 0 ? t('caseImports.duration.hoursMinutes', { hours: n(hours), minutes: n(minutes) }) : t('caseImports.duration.hours', { hours: n(hours) });
  if (minutes > 0) return rest > 0 ? t('caseImports.duration.minutesSeconds', { minutes: n(minutes), seconds: n(rest) }) : t('caseImports.duration.minutes', { minutes: n(minutes) });
  return t('caseImports.duration.seconds', { seconds: n(rest) });
}

/** "500 of 1,000 rows · 120 rows/s · about 4 s left": what is known of a running import. */
export function progressText(job: Pick<ImportSummary, 'processed' | 'total' | 'rowsPerSecond' | 'secondsLeft'>, t: TFunction, language: string): string {
  const parts = [t('caseImports.progress.rows', { done: formatCount(job.processed, language), total: formatCount(job.total, language), count: job.total })];
  if (job.rowsPerSecond !== null && job.rowsPerSecond > 0) parts.push(t('caseImports.progress.rate', { rate: formatRate(job.rowsPerSecond, language) }));
  if (job.secondsLeft !== null) parts.push(t('caseImports.progress.left', { time: formatDuration(job.secondsLeft, t, language) }));
  return parts.join(' · ');
}

/** How far an import got, in percent of its rows. */
export const percentDone = (job: Pick<ImportSummary, 'processed' | 'total'>) => (job.total > 0 ? Math.min(100, Math.round((job.processed / job.total) * 100)) : 0);
