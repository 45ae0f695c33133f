/**
 * The auth routes' request and response schemas, all shared with the
 * browser from `core/api/auth.ts` (the sign-in and account pages validate
 * with the same schemas as the server).
 */
import { z } from 'zod';

export {
  documentLoginSchema,
  loginSchema,
  messageSchema,
  passwordChangeSchema,
  passwordResetSchema,
  profileSchema,
  profileViewSchema,
  recoverySchema,
  sessionSchema,
  signupSchema,
} from '../../../core/api/auth.js';

/** The captcha challenge as altcha-lib makes it. */
export const challengeSchema = z.any();
export const noContent = z.null();
