/**
 * The parties of a case besides its applicant (issue 23): the landlord or
 * property manager who completes their side by link, and third parties (a
 * utility, a co-signer). Their codes are stable; names come from i18n
 * (`parties.role.<code>`).
 */
export const PARTY_ROLES = ['landlord', 'property_manager', 'utility', 'co_signer', 'third_party'] as const;
export type PartyRole = (typeof PARTY_ROLES)[number];

/** Where a party stands: named in the application, invited by email, signed in through the link, their form submitted, or the link expired unused. */
export const PARTY_STATES = ['named', 'invited', 'joined', 'submitted', 'expired'] as const;
export type PartyState = (typeof PARTY_STATES)[number];
