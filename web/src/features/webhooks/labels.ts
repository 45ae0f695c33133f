import type { TFunction } from 'i18next';

/** An event's name for people: `case.created` -> webhooks.eventNames.case_created (i18next reads dots as nesting). */
export const eventLabel = (t: TFunction, event: string) => t(`webhooks.eventNames.${event.replace('.', '_')}`, { defaultValue: event });
