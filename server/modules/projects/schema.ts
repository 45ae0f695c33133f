import { z } from 'zod';

export { projectSettingsSchema } from '../../../core/project-schema.js';

export const projectIdParams = z.strictObject({
  /** The project's uid (a slug), or `default`. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a project id such as "applications"'),
});
