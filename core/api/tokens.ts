/**
 * The API tokens' contract (issue 22), shared by the server and the browser:
 * a person's personal access tokens (/profile) and the service accounts an
 * administrator keeps (/acl/service-accounts), each with tokens of its own.
 */
import { z } from 'zod';

/** How long a new token lives; "never" only for a service account's. */
export const TOKEN_LIFETIMES = [7, 30, 90, 180, 365] as const;
export const DEFAULT_TOKEN_DAYS = 90;

/** A token as listed: never the token itself, which is shown once when it is made. */
export const apiTokenSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The first characters, to tell tokens apart (`cbk_AbCd…`). */
  prefix: z.string(),
  readOnly: z.boolean(),
  expiresAt: z.date().nullable(),
  lastUsedAt: z.date().nullable(),
  createdAt: z.date(),
  expired: z.boolean(),
});
export const apiTokenListSchema = z.object({ items: z.array(apiTokenSchema) });

const tokenName = z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(80, { error: 'validation.tooLong' });

const lifetime = z
  .number({ error: 'validation.chooseOption' })
  .refine((d) => (TOKEN_LIFETIMES as readonly number[]).includes(d), { error: 'validation.chooseOption' });

/** A personal token: a lifetime of the list, read-only or not. */
export const createTokenBody = z.strictObject({
  name: tokenName,
  expiresInDays: lifetime.default(DEFAULT_TOKEN_DAYS),
  readOnly: z.boolean().default(false),
});
/** A service account's token may also never expire (null). */
export const createServiceTokenBody = createTokenBody.extend({
  expiresInDays: lifetime.nullable().default(DEFAULT_TOKEN_DAYS),
});
/** The token made: its value, shown this once. */
export const createdTokenSchema = apiTokenSchema.extend({ token: z.string() });

export const serviceAccountSchema = z.object({
  id: z.number(),
  name: z.string(),
  roleId: z.number(),
  roleName: z.string(),
  active: z.boolean(),
  createdAt: z.date(),
  tokens: z.number(),
  lastUsedAt: z.date().nullable(),
});
export const serviceAccountListSchema = z.object({ items: z.array(serviceAccountSchema) });
export const serviceAccountBody = z.strictObject({
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  roleId: z.number({ error: 'validation.chooseOption' }).int().positive(),
  active: z.boolean().default(true),
});
export type ServiceAccountBody = z.infer<typeof serviceAccountBody>;
export type CreateTokenBody = z.infer<typeof createServiceTokenBody>;
export const tokenParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER), tokenId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
