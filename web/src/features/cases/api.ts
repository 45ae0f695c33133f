/**
 * The cases feature's server data, in one entry point: query keys and
 * invalidation (api/keys.ts), the lists with their searches, exports,
 * imports and bulk actions (api/list.ts), and new applications, drafts and
 * one case (api/case.ts). Pages and components import from here.
 */
export * from './api/case.js';
export * from './api/keys.js';
export * from './api/list.js';
