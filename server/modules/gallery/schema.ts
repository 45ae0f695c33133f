/**
 * The gallery routes' request and response schemas, all from
 * `core/api/gallery.ts`, which the browser shares.
 */
export {
  bundleSchema,
  galleryKeyParams,
  galleryListSchema,
  importBodySchema,
  installedSchema,
  installPlanSchema,
  installTargetSchema,
  projectUidParams,
} from '../../../core/api/gallery.js';
