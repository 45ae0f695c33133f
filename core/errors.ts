/**
 * Stable error codes shared by server and browser. Each code has one HTTP
 * status and one i18n key (under `errors.` in web/src/i18n/*.json); the server
 * answers `{ error: { code, message } }` with the message in the caller's
 * language, the browser may re-translate from the code.
 */
export const errorCatalog = {
  BAD_REQUEST: { status: 400, key: 'errors.badRequest' },
  VALIDATION: { status: 400, key: 'errors.validation' },
  UNAUTHORIZED: { status: 401, key: 'errors.unauthorized' },
  FORBIDDEN: { status: 403, key: 'errors.forbidden' },
  /** An API token on a route only a signed-in person may call (a password change, making a token). */
  SESSION_ONLY: { status: 403, key: 'apiTokens.errors.sessionOnly' },
  /** A read-only API token on a route that writes. */
  TOKEN_READ_ONLY: { status: 403, key: 'apiTokens.errors.readOnly' },
  /** A user holding as many API tokens as allowed: `{max}`. */
  TOKEN_LIMIT: { status: 409, key: 'apiTokens.errors.limit' },
  NOT_FOUND: { status: 404, key: 'errors.notFound' },
  ROUTE_NOT_FOUND: { status: 404, key: 'errors.routeNotFound' },
  CONFLICT: { status: 409, key: 'errors.conflict' },
  VERSION_MISMATCH: { status: 409, key: 'errors.versionMismatch' },
  PAYLOAD_TOO_LARGE: { status: 413, key: 'errors.payloadTooLarge' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, key: 'errors.unsupportedMediaType' },
  UNPROCESSABLE: { status: 422, key: 'errors.unprocessable' },
  RATE_LIMITED: { status: 429, key: 'errors.rateLimited' },
  INTERNAL: { status: 500, key: 'errors.internal' },
  DB_UNAVAILABLE: { status: 503, key: 'errors.dbUnavailable' },
  /** Work that runs as a background job was asked of an instance that runs no worker for it. */
  JOBS_UNAVAILABLE: { status: 503, key: 'errors.jobsUnavailable' },
  /** This instance is stopping (SIGTERM): its readiness answers this so the balancer sends traffic elsewhere. */
  SHUTTING_DOWN: { status: 503, key: 'errors.shuttingDown' },
  // identity and access
  INVALID_CREDENTIALS: { status: 401, key: 'auth.errors.invalidCredentials' },
  ACCOUNT_LOCKED: { status: 403, key: 'auth.errors.accountLocked' },
  ACCOUNT_INACTIVE: { status: 403, key: 'auth.errors.accountInactive' },
  SIGNUP_CLOSED: { status: 403, key: 'auth.errors.signupClosed' },
  EMAIL_TAKEN: { status: 409, key: 'auth.errors.emailTaken' },
  DOCUMENT_TAKEN: { status: 409, key: 'auth.errors.documentTaken' },
  ACCOUNT_LIMIT: { status: 409, key: 'auth.errors.accountLimit' },
  INVALID_RESET_LINK: { status: 400, key: 'auth.errors.invalidResetLink' },
  WRONG_PASSWORD: { status: 400, key: 'auth.errors.wrongPassword' },
  CAPTCHA_REQUIRED: { status: 400, key: 'auth.captchaRequired' },
  USER_NOT_FOUND: { status: 404, key: 'auth.errors.userNotFound' },
  NO_VALID_EMAIL: { status: 422, key: 'auth.errors.noValidEmail' },
  SYSTEM_RECORD: { status: 409, key: 'errors.systemRecord' },
  IN_USE: { status: 409, key: 'errors.inUse' },
  DUPLICATE: { status: 409, key: 'errors.duplicate' },
  // workflow
  TASK_NOT_YOURS: { status: 403, key: 'tasks.errors.notYours' },
  INVALID_TRANSITION: { status: 409, key: 'tasks.errors.invalidTransition' },
  STALE_TASK: { status: 409, key: 'tasks.errors.stale' },
  CASE_NOT_OPEN: { status: 409, key: 'tasks.errors.caseNotOpen' },
  INCONSISTENT_PROTOCOL: { status: 409, key: 'tasks.errors.inconsistentProtocol' },
  TEAM_EMPTY: { status: 409, key: 'tasks.errors.teamEmpty' },
  PROTOCOL_NOT_PUBLISHED: { status: 409, key: 'cases.errors.protocolNotPublished' },
  APPLICATIONS_CLOSED: { status: 409, key: 'cases.errors.applicationsClosed' },
  /** The project's maintenance flag: no application is started or sent until it is off. */
  MAINTENANCE: { status: 503, key: 'cases.errors.maintenance' },
  DOCUMENTS_REQUIRED: { status: 422, key: 'cases.errors.documentsRequired' },
  DUPLICATE_CASE: { status: 409, key: 'cases.errors.duplicate' },
  STALE_DRAFT: { status: 409, key: 'cases.errors.stale' },
  CORRECTION_OPEN: { status: 409, key: 'caseCorrection.errors.alreadyOpen' },
  NO_OPEN_CORRECTION: { status: 409, key: 'caseCorrection.errors.noneOpen' },
  // comments
  INVALID_MENTION: { status: 400, key: 'commentErrors.invalidMention' },
  UNKNOWN_DOCUMENT: { status: 400, key: 'commentErrors.unknownDocument' },
  TASK_NOT_OF_CASE: { status: 400, key: 'commentErrors.taskNotOfCase' },
  UNKNOWN_FILE: { status: 400, key: 'commentErrors.unknownFile' },
  // email templates
  TEMPLATE_IS_DEFAULT: { status: 409, key: 'templates.errors.isDefault' },
  // mail outbox
  MAIL_NOT_RESENDABLE: { status: 409, key: 'outbox.errors.notResendable' },
  // reports
  REPORT_UNKNOWN: { status: 400, key: 'errors.reportUnknown' },
  REPORT_UNKNOWN_DIMENSION: { status: 400, key: 'errors.reportUnknownDimension' },
  REPORT_UNKNOWN_MEASURE: { status: 400, key: 'errors.reportUnknownMeasure' },
  REPORT_SAME_DIMENSION: { status: 400, key: 'errors.reportSameDimension' },
  REPORT_VIEW_UNKNOWN: { status: 400, key: 'errors.reportViewUnknown' },
  REPORT_DATE_RANGE_INVERTED: { status: 400, key: 'errors.reportDateRangeInverted' },
  REPORT_DATE_RANGE_TOO_WIDE: { status: 400, key: 'errors.reportDateRangeTooWide' },
  REPORT_TOO_LARGE: { status: 400, key: 'errors.reportTooLarge' },
  // data tape
  /** A saved column whose source the protocol's form does not offer: `{column}`. */
  DATA_TAPE_UNKNOWN_COLUMN: { status: 400, key: 'dataTape.errors.unknownColumn' },
  /** Repeat groups would number more columns than a file holds (an export's reason to fail). */
  DATA_TAPE_TOO_WIDE: { status: 422, key: 'dataTape.errors.tooWide' },
  /** The file of an export still running, or failed. */
  DATA_TAPE_NOT_READY: { status: 409, key: 'dataTape.errors.notReady' },
  // files
  QUOTA_FULL: { status: 413, key: 'files.quotaFull' },
  FILE_TOO_LARGE: { status: 413, key: 'files.tooLarge' },
  LINK_EXPIRED: { status: 403, key: 'files.linkExpired' },
  /** The store that holds (or is to hold) a file's bytes does not answer: an S3 bucket out of reach, a disk not writable. Nothing was written. */
  FILE_STORE_UNAVAILABLE: { status: 503, key: 'files.storeUnavailable' },
  // print templates
  /** An upload that does not parse as a PDF (or is encrypted). */
  PDF_INVALID: { status: 400, key: 'printing.errors.notPdf' },
  /** A PDF that carries a script, an automatic action, a launch or an embedded file: `{what}`. */
  PDF_SCRIPT: { status: 400, key: 'printing.errors.script' },
  /** A mapping naming a PDF field or a source that does not exist: `{field}`. */
  PRINT_UNKNOWN_FIELD: { status: 400, key: 'printing.errors.unknownField' },
  /** An AcroForm template printed before its PDF was uploaded. */
  PRINT_NO_PDF: { status: 409, key: 'printing.errors.noPdf' },
  /** A PDF uploaded to a letter template. */
  PRINT_NOT_ACROFORM: { status: 409, key: 'printing.errors.notAcroform' },
  // gallery and project files
  /** A project file that is not one, or whose contents do not hold together (details: every problem). */
  BUNDLE_INVALID: { status: 400, key: 'gallery.errors.invalid' },
  /** A project file of a newer format version than this server reads. */
  BUNDLE_NEWER: { status: 400, key: 'gallery.errors.newer' },
  // application settings: a logo or favicon that is not an accepted image (`{accepted}`), or larger than `{max}` KB
  BRANDING_IMAGE_INVALID: { status: 400, key: 'appSettings.errors.imageInvalid' },
  BRANDING_IMAGE_TOO_LARGE: { status: 400, key: 'appSettings.errors.imageTooLarge' },
  // agencies (registration and the platform operator)
  AGENCY_DOCNUMBER_TAKEN: { status: 409, key: 'agencies.errors.docnumberTaken' },
  AGENCY_NAME_TAKEN: { status: 409, key: 'agencies.errors.nameTaken' },
  REGISTRATION_NOT_FOUND: { status: 404, key: 'agencies.errors.linkInvalid' },
  REGISTRATION_USED: { status: 410, key: 'agencies.errors.linkUsed' },
  REGISTRATION_EXPIRED: { status: 410, key: 'agencies.errors.linkExpired' },
  AGENCY_OWN: { status: 409, key: 'agencies.errors.ownAgency' },
  // awards and payments (issue 23)
  /** An award over one of its protocol's caps: `{cap}` (its name), `{max}` and `{value}` (cents or months). Nothing written. */
  AWARD_OVER_CAP: { status: 422, key: 'payments.errors.overCap' },
  /** Accepting the task that sets the award without one. */
  AWARD_REQUIRED: { status: 400, key: 'payments.errors.awardRequired' },
  /** An award on a case whose protocol gives none (no caps). */
  AWARD_NOT_OFFERED: { status: 422, key: 'payments.errors.notOffered' },
  /** A new award for a case whose award is already in a batch or paid. */
  AWARD_LOCKED: { status: 409, key: 'payments.errors.awardLocked' },
  /** No PAYMENTS_KEY on this server: bank details can be neither saved nor read. */
  PAYMENTS_KEY_MISSING: { status: 503, key: 'payments.errors.keyMissing' },
  /** A batch with direct deposits exported before the programme's ACH settings were entered. */
  ACH_SETTINGS_MISSING: { status: 422, key: 'payments.errors.achSettingsMissing' },
  /** No approved award waits for a batch (up to the date, of the method). */
  BATCH_EMPTY: { status: 422, key: 'payments.errors.batchEmpty' },
  /** A batch marked paid again. */
  BATCH_ALREADY_PAID: { status: 409, key: 'payments.errors.alreadyPaid' },
  /** A batch marked paid before it was exported. */
  BATCH_NOT_EXPORTED: { status: 409, key: 'payments.errors.notExported' },
  /** A batch changed since the reader saw it (its version). */
  STALE_BATCH: { status: 409, key: 'payments.errors.stale' },
  /** A batch's NACHA file or check register asked of a batch without payments of that method: `{method}`. */
  BATCH_NO_FILE: { status: 404, key: 'payments.errors.noFile' },
  // parties (issue 23)
  /** A party's invitation link already accepted (single use). */
  PARTY_LINK_USED: { status: 410, key: 'parties.errors.linkUsed' },
  /** A party's invitation link past its expiry, or the party's deadline gone. */
  PARTY_LINK_EXPIRED: { status: 410, key: 'parties.errors.linkExpired' },
  /** The applicant opening the link that invites another party of their own application. */
  PARTY_IS_APPLICANT: { status: 409, key: 'parties.errors.isApplicant' },
  /** A party's side submitted again (or saved after it was submitted). */
  PARTY_ALREADY_SUBMITTED: { status: 409, key: 'parties.errors.alreadySubmitted' },
  /** A party's side past their deadline: it can no longer be saved or submitted. */
  PARTY_EXPIRED: { status: 409, key: 'parties.errors.expired' },
  /** The attestation's typed name is not the party's: `{name}`. */
  PARTY_ATTESTATION_NAME: { status: 422, key: 'parties.errors.attestationName' },
  /** A task that waits for a party accepted before that party submitted or their deadline passed: `{role}` (translated). */
  PARTY_NOT_SUBMITTED: { status: 409, key: 'parties.errors.notSubmitted' },
  /** Resending an invitation to a party who already submitted, or of a case no longer open. */
  PARTY_NOT_INVITABLE: { status: 409, key: 'parties.errors.notInvitable' },
} as const;

export type ErrorCode = keyof typeof errorCatalog;

/** The body of every error response. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (!value || typeof value !== 'object') return false;
  const e = (value as { error?: unknown }).error;
  return !!e && typeof e === 'object' && typeof (e as { code?: unknown }).code === 'string';
}
