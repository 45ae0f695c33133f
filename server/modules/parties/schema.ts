/** The parties API's schemas (the contract lives in core/api/parties.ts). */
export { idParams } from '../../../core/api/list.js';
export {
  acceptedInvitationSchema,
  casePartiesSchema,
  casePartyParams,
  myPartiesQuery,
  myPartiesSchema,
  partyInvitationSchema,
  partyPageSchema,
  partyTokenParams,
  savedPartyFormSchema,
  savePartyFormBody,
  submitPartyBody,
} from '../../../core/api/parties.js';
