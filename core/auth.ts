import { z } from 'zod';

/**
 * Account rules shared by the browser (messages as the user types) and the
 * server (the gate). Messages are i18n keys, translated on each side.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 16;
/** Failed sign-ins in a row that lock an account until an admin unlocks it. */
export const MAX_FAILED_LOGINS = 5;
/** Password-reset links are valid this long. */
export const RESET_TOKEN_MINUTES = 60;

export const passwordSchema = z
  .string({ error: 'validation.required' })
  .min(PASSWORD_MIN, { error: 'auth.passwordRule' })
  .max(PASSWORD_MAX, { error: 'auth.passwordRule' })
  .regex(/^[A-Za-z0-9]+$/, { error: 'auth.passwordRule' });

export const emailSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(254, { error: 'validation.invalidEmail' })
  .pipe(z.email({ error: 'validation.invalidEmail' }));

const nameSchema = z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' });

/** Passwords entered twice must match; the message goes under `passwordConfirm`. */
function withConfirmation<T extends z.ZodObject<{ password: typeof passwordSchema; passwordConfirm: z.ZodString }>>(schema: T) {
  return schema.refine((v) => v.password === v.passwordConfirm, { path: ['passwordConfirm'], error: 'auth.passwordsDoNotMatch' });
}

export const loginSchema = z.object({
  email: z.string().trim().min(1, { error: 'validation.required' }).max(254, { error: 'validation.tooLong' }),
  password: z.string().min(1, { error: 'validation.required' }).max(200, { error: 'validation.tooLong' }),
  project: z.string().max(63).optional(),
});

export const documentLoginSchema = z.object({
  docnumber: z.string().trim().min(1, { error: 'validation.required' }).max(40, { error: 'validation.tooLong' }),
  password: z.string().min(1, { error: 'validation.required' }).max(200, { error: 'validation.tooLong' }),
  project: z.string().max(63).optional(),
});

export const signupSchema = withConfirmation(
  z.object({
    name: nameSchema,
    email: emailSchema,
    docnumber: z.string().trim().max(40, { error: 'validation.tooLong' }).optional(),
    password: passwordSchema,
    passwordConfirm: z.string({ error: 'validation.required' }),
    captcha: z.string({ error: 'auth.captchaRequired' }).min(1, { error: 'auth.captchaRequired' }).max(20_000),
    project: z.string().max(63).optional(),
  }),
);

export const recoverySchema = z.object({
  email: emailSchema,
  project: z.string().max(63).optional(),
});

export const resetTokenSchema = z.string({ error: 'auth.errors.invalidResetLink' }).regex(/^[A-Za-z0-9_-]{20,200}$/, { error: 'auth.errors.invalidResetLink' });

export const passwordResetSchema = withConfirmation(
  z.object({ token: resetTokenSchema, password: passwordSchema, passwordConfirm: z.string({ error: 'validation.required' }) }),
);

export const passwordChangeSchema = withConfirmation(
  z.object({
    currentPassword: z.string({ error: 'validation.required' }).min(1, { error: 'validation.required' }).max(200),
    password: passwordSchema,
    passwordConfirm: z.string({ error: 'validation.required' }),
  }),
);

export const profileSchema = z.object({
  name: nameSchema,
  language: z.enum(['en', 'es'], { error: 'validation.chooseOption' }),
  timeZone: z.string().refine(isTimeZone, { error: 'validation.chooseOption' }),
});

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.length <= 64;
  } catch {
    return false;
  }
}

/** What the browser learns about the signed-in user (GET /api/auth/session). */
export const sessionSchema = z.object({
  user: z.object({
    uid: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.string(),
    roleName: z.string(),
    language: z.enum(['en', 'es']),
    timeZone: z.string(),
    entity: z.object({ docnumber: z.string(), name: z.string() }),
    /** A platform operator: the agencies pages (`/crear-entidad`) and their menu entry. */
    operator: z.boolean().optional(),
  }),
  /** target -> allowed actions */
  rules: z.record(z.string(), z.array(z.string())),
  /** targets with at least one allowed action: the menu follows them */
  targets: z.array(z.string()),
  project: z.string().nullable(),
  /** 0 when the caller came with an API token, which has no idle timeout. */
  idleTimeoutSeconds: z.number().int().nonnegative(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;
