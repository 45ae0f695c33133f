/** The settings API's request and response schemas (the contract lives in core/api/settings.ts). */
export { businessCalendarBody, businessCalendarSchema, type BusinessCalendarBody, type BusinessCalendarView } from '../../../core/api/settings.js';
export {
  applicationSettingsBody, applicationSettingsQuery, applicationSettingsSchema, brandingParams, planStateSchema,
  type ApplicationSettingsBody, type ApplicationSettingsView, type PlanState,
} from '../../../core/api/applicationSettings.js';
