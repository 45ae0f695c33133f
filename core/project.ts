import { z } from 'zod';

/** Spec section 9: default colours. */
export const DEFAULT_COLORS = {
  primary: '#0288D1',
  secondary: '#757575',
  accent: '#9E9E9E',
  text: '#212121',
} as const;

export const DEFAULT_TIME_ZONE = 'America/Bogota';
export const DEADLINE_TIME_ZONE = 'America/New_York';

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
});

export type ProjectSettings = z.infer<typeof projectSettingsSchema>;
