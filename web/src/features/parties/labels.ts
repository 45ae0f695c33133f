import type { TFunction } from 'i18next';
import type { PartyValue } from '../../../../core/forms/data.js';
import type { PartyRole, PartyState } from '../../../../core/parties.js';
import type { ChipTone } from '../../components/StateChip.js';

/** A role inside a sentence ("named you as landlord"). */
export const roleName = (t: TFunction, role: PartyRole) => t(`parties.role.${role}`);
/** A role on its own (a column, a label: "Landlord"). */
export const roleTitle = (t: TFunction, role: PartyRole) => t(`parties.roleTitle.${role}`);

/** How a party's state reads at a glance: done, gone, or on its way. */
export const STATE_TONE: Record<PartyState, ChipTone> = {
  named: 'neutral',
  invited: 'neutral',
  joined: 'neutral',
  submitted: 'positive',
  expired: 'negative',
};

/** A bilingual text of the programme in the reader's language, the other one when it is empty. */
export function inLanguage(text: { en: string; es: string }, language: string | undefined): string {
  const first = language?.startsWith('es') ? text.es : text.en;
  return first || text.es || text.en;
}

/** A day the person wrote (YYYY-MM-DD) as the app shows dates (MM/DD/YYYY), with no time zone to shift it. */
export function dayShown(day: string): string {
  const [y, m, d] = day.split('-');
  return y && m && d ? `${m}/${d}/${y}` : day;
}

/** A "party" answer as one line of a case's data: "Landlord: Rosa Díaz, rosa@example.org, 5551234567". */
export function partyValueText(t: TFunction, value: PartyValue): string {
  const contact = [value.name, value.email, value.phone].filter(Boolean).join(', ');
  return t('parties.valueText', { role: roleTitle(t, value.role), contact });
}
