/**
 * Money and months as the payments pages show and read them. Amounts travel
 * in whole cents; people type and read dollars.
 */
import dayjs from 'dayjs';
import { DATE_FORMAT } from '../../../../core/dates.js';

const locale = (lang: string) => (lang.startsWith('es') ? 'es-US' : 'en-US');

/** 123456 -> "$1,234.56" (US dollars in the reader's language). */
export function formatMoney(cents: number, lang: string): string {
  return new Intl.NumberFormat(locale(lang), { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/**
 * Dollars as typed ("1,200", "1200.5", "$950.00") -> cents; '' -> 0 when
 * `emptyIsZero`, else null; anything else (letters, three decimals, a
 * negative amount) -> NaN, which the form reports.
 */
export function parseMoney(text: string, emptyIsZero = false): number | null {
  const clean = text.replace(/[$\s,]/g, '');
  if (clean === '') return emptyIsZero ? 0 : null;
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return Number.NaN;
  const [whole, fraction = ''] = clean.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Cents as a person would type them back: 120000 -> "1200.00". */
export function moneyInput(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? '' : (cents / 100).toFixed(2);
}

/** "2026-03" -> "Mar 2026" ("mar 2026" in Spanish). */
export function formatMonth(month: string, lang: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(locale(lang), { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** A calendar day (YYYY-MM-DD, no time zone) as the spec shows dates. */
export function formatDay(day: string): string {
  return dayjs(day).format(DATE_FORMAT);
}

/** Today as YYYY-MM-DD on this device. */
export function today(): string {
  return dayjs().format('YYYY-MM-DD');
}

/** `YYYY-MM` of an index (year * 12 + month - 1), and back. */
const monthIndex = (m: string) => {
  const [y, mo] = m.split('-').map(Number);
  return y * 12 + mo - 1;
};
const monthOf = (i: number) => `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;

/**
 * Every month an award pays: the arrears and the months ahead, which follow
 * the last month of arrears or start this month (as the server counts them).
 */
export function coveredMonths(arrears: readonly string[], ahead: number, now = new Date()): string[] {
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const last = arrears.length ? Math.max(...arrears.map(monthIndex)) : -Infinity;
  const start = Math.max(current, last + 1);
  const months = new Set(arrears);
  for (let i = 0; i < ahead; i++) months.add(monthOf(start + i));
  return [...months].sort();
}
