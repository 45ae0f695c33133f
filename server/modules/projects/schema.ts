import { z } from 'zod';

export { projectSettingsSchema } from '../../../core/project-schema.js';

export const projectIdParams = z.strictObject({
  /** The project's uid (a slug), or `default`. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a project id such as "applications"'),
});

/** `<file id>.<ext>`: one of a project's images. */
export const brandingFileParams = z.strictObject({
  id: projectIdParams.shape.id,
  file: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|gif|webp|ico)$/, 'validation.invalidValue'),
});
