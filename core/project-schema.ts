import { z } from 'zod';
import type { ProjectSettings } from './project.js';

// Kept apart from core/project.ts so the browser shell does not bundle zod for it.
const color = z.string().regex(/^#[0-9A-Fa-f]{6}$/);

/**
 * What any visitor may read about a project (the login page needs it before
 * sign-in): branding and the public behaviour settings. Nothing tenant-private.
 */
export const projectSettingsSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  colors: z.object({ primary: color, secondary: color, accent: color, text: color }),
  favicon: z.string().nullable(),
  logo: z.string().nullable(),
  supportPhone: z.string(),
  timeZone: z.string(),
  language: z.enum(['en', 'es']),
  /** Seconds of inactivity before the browser signs the user out. */
  idleTimeoutSeconds: z.number().int().positive(),
  /** Seconds between draft autosaves. */
  autosaveSeconds: z.number().int().positive(),
  /** Wall-clock time in US Eastern after which new applications close, e.g. 2021-12-01T00:00:00. */
  newApplicationsDeadline: z.string().nullable(),
  allowNewApplications: z.boolean(),
  maintenance: z.boolean(),
  blockIndexing: z.boolean(),
});

// The interface and the schema must describe the same shape.
export const projectSettingsShapeCheck: z.ZodType<ProjectSettings> = projectSettingsSchema;
