import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { messageSchema } from '../../../../core/api/auth.js';
import type { Wire } from '../../../../core/api/wire.js';
import type { Session } from '../../app/session/session.js';
import { apiFetch } from '../../lib/api.js';
import type { MutationCallbacks } from '../../lib/mutation.js';

/**
 * The public account calls (sign-in, sign-up, recovery, reset). None is
 * cached: each page shows its own answer and field errors (silentError).
 */

/** The answer of the public account calls: one translated sentence. */
export type MessageAnswer = Wire<z.infer<typeof messageSchema>>;

/** The project to name in a public call; the server's default needs no name. */
export const projectField = (projectId: string) => (projectId === 'default' ? {} : { project: projectId });

/** The field that names the account at sign-in: an email address (/login) or a document number (/login2). */
export type SignInBy = 'email' | 'docnumber';

export type SignInValues<By extends SignInBy = SignInBy> = Record<By, string> & { password: string };

const SIGN_IN_PATHS: Record<SignInBy, string> = { email: '/api/auth/login', docnumber: '/api/auth/login-document' };

export interface SignUpBody {
  name: string;
  email: string;
  docnumber?: string;
  password: string;
  passwordConfirm: string;
  captcha: string;
}

export interface PasswordResetBody {
  token: string;
  password: string;
  passwordConfirm: string;
}

export function useSignIn<By extends SignInBy>(by: By, project: string, callbacks: MutationCallbacks<Session, SignInValues<By>> = {}) {
  return useMutation({
    mutationFn: (values: SignInValues<By>) =>
      apiFetch<Session>(SIGN_IN_PATHS[by], { method: 'POST', json: { [by]: values[by], password: values.password, ...projectField(project) } }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

export function useSignUp(project: string, callbacks: MutationCallbacks<MessageAnswer, SignUpBody> = {}) {
  return useMutation({
    mutationFn: (values: SignUpBody) => apiFetch<MessageAnswer>('/api/auth/signup', { method: 'POST', json: { ...values, ...projectField(project) } }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

export function useRequestRecovery(project: string, callbacks: MutationCallbacks<MessageAnswer, { email: string }> = {}) {
  return useMutation({
    mutationFn: (values: { email: string }) =>
      apiFetch<MessageAnswer>('/api/auth/recovery', { method: 'POST', json: { email: values.email, ...projectField(project) } }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

export function useResetPassword(callbacks: MutationCallbacks<MessageAnswer, PasswordResetBody> = {}) {
  return useMutation({
    mutationFn: (body: PasswordResetBody) => apiFetch<MessageAnswer>('/api/auth/password-reset', { method: 'POST', json: body }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}
