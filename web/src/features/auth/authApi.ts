import { apiFetch } from '../../lib/api.js';
import type { Session } from '../../app/session/session.js';

/** The answer of the public account calls: one translated sentence. */
export interface MessageAnswer {
  message: string;
}

/** The project to name in a public call; the server's default needs no name. */
export const projectField = (projectId: string) => (projectId === 'default' ? {} : { project: projectId });

export const signInByEmail = (body: { email: string; password: string; project?: string }) =>
  apiFetch<Session>('/api/auth/login', { method: 'POST', json: body });

export const signInByDocument = (body: { docnumber: string; password: string; project?: string }) =>
  apiFetch<Session>('/api/auth/login-document', { method: 'POST', json: body });

export const signUp = (body: {
  name: string;
  email: string;
  docnumber?: string;
  password: string;
  passwordConfirm: string;
  captcha: string;
  project?: string;
}) => apiFetch<MessageAnswer>('/api/auth/signup', { method: 'POST', json: body });

export const requestRecovery = (body: { email: string; project?: string }) =>
  apiFetch<MessageAnswer>('/api/auth/recovery', { method: 'POST', json: body });

export const resetPassword = (body: { token: string; password: string; passwordConfirm: string }) =>
  apiFetch<MessageAnswer>('/api/auth/password-reset', { method: 'POST', json: body });
