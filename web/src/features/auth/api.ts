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

export interface EmailSignIn {
  email: string;
  password: string;
}

export interface DocumentSignIn {
  docnumber: string;
  password: string;
}

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

export function useSignInByEmail(project: string, callbacks: MutationCallbacks<Session, EmailSignIn> = {}) {
  return useMutation({
    mutationFn: (values: EmailSignIn) =>
      apiFetch<Session>('/api/auth/login', { method: 'POST', json: { email: values.email, password: values.password, ...projectField(project) } }),
    meta: { silentError: true },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

export function useSignInByDocument(project: string, callbacks: MutationCallbacks<Session, DocumentSignIn> = {}) {
  return useMutation({
    mutationFn: (values: DocumentSignIn) =>
      apiFetch<Session>('/api/auth/login-document', {
        method: 'POST',
        json: { docnumber: values.docnumber, password: values.password, ...projectField(project) },
      }),
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
