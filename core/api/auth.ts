/**
 * The auth API's contract, shared by the server (its routes validate and
 * serialise with these) and the browser (which takes its types from them
 * through `Wire`). The account rules themselves (passwords, emails, the
 * forms' schemas) live in `core/auth.ts`, which the sign-in pages use as
 * they are typed.
 */
import { z } from 'zod';
import { profileSchema } from '../auth.js';

export {
  documentLoginSchema,
  loginSchema,
  passwordChangeSchema,
  passwordResetSchema,
  profileSchema,
  recoverySchema,
  sessionSchema,
  signupSchema,
} from '../auth.js';

/** What sign-up, recovery and password changes answer: a message in the caller's language. */
export const messageSchema = z.object({ message: z.string() });

/** GET and PUT /api/profile: what the user may change, and the account's email and document number. */
export const profileViewSchema = profileSchema.extend({ email: z.string(), docnumber: z.string().nullable() });
