/** Spec section 9: default colours. */
export const DEFAULT_COLORS = {
  primary: '#0288D1',
  secondary: '#757575',
  accent: '#9E9E9E',
  text: '#212121',
} as const;

export const DEFAULT_TIME_ZONE = 'America/Bogota';
export const DEADLINE_TIME_ZONE = 'America/New_York';

/** A project's public settings (the server's schema in core/project-schema.ts checks them). */
export interface ProjectSettings {
  id: string;
  title: string;
  description: string;
  colors: { primary: string; secondary: string; accent: string; text: string };
  favicon: string | null;
  logo: string | null;
  supportPhone: string;
  timeZone: string;
  language: 'en' | 'es';
  /** Seconds of inactivity before the browser signs the user out. */
  idleTimeoutSeconds: number;
  /** Seconds between draft autosaves. */
  autosaveSeconds: number;
  /** Wall-clock time in US Eastern after which new applications close, e.g. 2021-12-01T00:00:00. */
  newApplicationsDeadline: string | null;
  allowNewApplications: boolean;
  maintenance: boolean;
  /** Search engines are asked not to index the project's pages (robots meta tag, X-Robots-Tag, /robots.txt). */
  blockIndexing: boolean;
}
