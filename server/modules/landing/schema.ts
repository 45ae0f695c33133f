/** The landing API's schemas (the contract lives in core/api/landing.ts). */
export { idParams } from '../../../core/api/list.js';
export { landingLinkCreatedSchema, landingLinkStateSchema, landingPageParams, landingPageSchema } from '../../../core/api/landing.js';
