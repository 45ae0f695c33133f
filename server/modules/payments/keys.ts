/**
 * What the overlap check compares, made the same way for every award: the
 * property (address and unit, normalised so that "12 Main Street, Apt 3"
 * and "12 main st #3" are one), the tenant (the protocol's duplicate fields,
 * as the case duplicate check reads them, else the applicant's account), the
 * landlord (the payee's tax id digest, else their account, else the payee),
 * and the months an award pays for. Pure, unit tested.
 */
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';

const WORDS: Record<string, string> = {
  street: 'st', str: 'st', avenue: 'ave', av: 'ave', road: 'rd', boulevard: 'blvd', drive: 'dr', lane: 'ln', court: 'ct', place: 'pl',
  north: 'n', south: 's', east: 'e', west: 'w', calle: 'c', avenida: 'ave', apartment: 'apt', apartamento: 'apt', suite: 'ste', unit: 'unit',
};

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9#]+/g, ' ')
    .trim();
}

export function normaliseAddress(address: string): string {
  return fold(address)
    .replace(/#/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => WORDS[w] ?? w)
    .join(' ');
}

/** A unit's number alone: "Apt. 3B", "#3b" and "unit 3b" are "3b". */
export function normaliseUnit(unit: string | null | undefined): string {
  if (!unit) return '';
  return fold(unit)
    .replace(/#/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !['apt', 'apartment', 'apartamento', 'unit', 'ste', 'suite', 'no', 'num', 'number'].includes(w))
    .join('');
}

export function propertyKey(address: string, unit: string | null | undefined): string {
  return `${normaliseAddress(address)}|${normaliseUnit(unit)}`;
}

/** The tenant of a case: the last of the protocol's duplicate fields that holds a value (the most specific), else the applicant's account. */
export function tenantKey(def: Pick<ProtocolDefinition, 'duplicateFields'> | undefined, c: { id: number; owner_id: number | null; data: Record<string, unknown> }): string {
  const fields = def?.duplicateFields ?? [];
  for (let i = fields.length - 1; i >= 0; i--) {
    const v = c.data[fields[i]];
    if (v !== undefined && v !== null && v !== '') return `field:${fields[i]}=${fold(String(v)).replace(/\s+/g, '')}`;
  }
  return c.owner_id !== null ? `owner:${c.owner_id}` : `case:${c.id}`;
}

export function landlordKey(p: { id: number; tax_id_digest: string | null; user_id: number | null } | undefined): string | null {
  if (!p) return null;
  if (p.tax_id_digest) return `tax:${p.tax_id_digest}`;
  if (p.user_id !== null) return `user:${p.user_id}`;
  return `payee:${p.id}`;
}

const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const monthOf = (i: number) => `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;

/**
 * Every month an award pays for: the arrears, then `ahead` months from the
 * month after the last arrears or from the month of the decision, whichever
 * is later.
 */
export function coveredMonths(arrears: readonly string[], ahead: number, now: Date): string[] {
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const last = arrears.length ? Math.max(...arrears.map(monthIndex)) : -Infinity;
  const start = Math.max(current, last + 1);
  const months = new Set(arrears);
  for (let i = 0; i < ahead; i++) months.add(monthOf(start + i));
  return [...months].sort();
}
