/**
 * Auth: sign-in (by email, or by document number within a project), the
 * session, sign-out, applicant sign-up with a captcha, password recovery by
 * emailed link, and the signed-in user's profile and password. Sign-in,
 * sign-up and recovery are public on purpose; the profile and the password
 * change are the signed-in user's own.
 *
 * Each handler declares its access, parses with schema.ts, calls repo.ts (to
 * read) or commands.ts (to change), and presents the answer. No SQL here;
 * sessions, the failure throttle and the captcha are sessions.ts,
 * throttle.ts and captcha.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n.js';
import { actorOf } from '../../plugins/session.js';
import { rulesView } from '../acl/policy.js';
import { assertCaptcha, newChallenge } from './captcha.js';
import { changePassword, requestPasswordReset, resetPassword, signIn, signUp } from './commands.js';
import { findProfile, sessionProjectUid, updateProfile } from './repo.js';
import * as s from './schema.js';
import { actorForToken, endSession, SESSION_ABSOLUTE_HOURS, SESSION_COOKIE } from './sessions.js';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const secure = app.config.http.secureCookies;
  const setSessionCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_ABSOLUTE_HOURS * 3600 });

  async function sessionOf(request: FastifyRequest) {
    const actor = actorOf(request);
    return {
      user: {
        uid: String(actor.userId),
        name: actor.name,
        email: actor.email,
        role: actor.role.code,
        roleName: actor.role.name,
        // The profile's language: a device where none was chosen yet takes it (web session.ts signedIn).
        language: actor.profileLanguage ?? actor.language,
        timeZone: actor.timeZone,
        entity: actor.entity,
        operator: actor.platformOperator === true,
      },
      ...rulesView(actor),
      project: await sessionProjectUid(app.db, actor),
      idleTimeoutSeconds: actor.idleSeconds,
    };
  }

  // Brute force is stopped by the failure throttle (throttle.ts); this only caps request floods.
  const loginLimit = { max: 120, timeWindow: '1 minute' };

  app.post(
    '/api/auth/login',
    {
      config: { access: 'public', rateLimit: loginLimit },
      schema: { tags: ['auth'], summary: 'Sign in by email and password', body: s.loginSchema, response: { 200: s.sessionSchema } },
    },
    async (request, reply) => {
      const { token } = await signIn(app.db, { by: { email: request.body.email }, password: request.body.password, project: request.body.project, ip: request.ip });
      setSessionCookie(reply, token);
      request.actor = (await actorForToken(app.db, token)) ?? null;
      return sessionOf(request);
    },
  );

  app.post(
    '/api/auth/login-document',
    {
      config: { access: 'public', rateLimit: loginLimit },
      schema: { tags: ['auth'], summary: 'Sign in by document number and password, within a project', body: s.documentLoginSchema, response: { 200: s.sessionSchema } },
    },
    async (request, reply) => {
      const { token } = await signIn(app.db, { by: { docnumber: request.body.docnumber }, password: request.body.password, project: request.body.project, ip: request.ip });
      setSessionCookie(reply, token);
      request.actor = (await actorForToken(app.db, token)) ?? null;
      return sessionOf(request);
    },
  );

  app.get(
    '/api/auth/session',
    { config: { access: 'session' }, schema: { tags: ['auth'], summary: 'The signed-in user, their rules and targets', response: { 200: s.sessionSchema } } },
    async (request) => sessionOf(request),
  );

  app.post(
    '/api/auth/logout',
    { config: { access: 'public' }, schema: { tags: ['auth'], summary: 'Sign out: the session ends on the server', response: { 204: s.noContent } } },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await endSession(app.db, token);
      reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/auth/captcha',
    {
      config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], summary: 'A proof-of-work challenge for the sign-up captcha', response: { 200: s.challengeSchema } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return newChallenge(app.db);
    },
  );

  app.post(
    '/api/auth/signup',
    {
      config: { access: 'public', rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], summary: 'Create an applicant account (the same answer whether or not the address has one; the address is told by email)', body: s.signupSchema, response: { 201: s.messageSchema } },
    },
    async (request, reply) => {
      await assertCaptcha(app.db, request.body.captcha);
      await signUp(app.db, { ...request.body, language: request.lang }, { publicUrl: app.config.http.publicUrl, smtpConfigured: app.mailer.smtpConfigured });
      app.mailer.kick();
      // The same answer for a new address and a known one: what happened is in the mail.
      return reply.status(201).send({ message: translate(request.lang, 'auth.signupMailed') });
    },
  );

  app.post(
    '/api/auth/recovery',
    {
      config: { access: 'public', rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], summary: 'Email a password-reset link (same answer whether or not the account exists)', body: s.recoverySchema, response: { 200: s.messageSchema } },
    },
    async (request) => {
      await requestPasswordReset(app.db, { email: request.body.email, publicUrl: app.config.http.publicUrl, smtpConfigured: app.mailer.smtpConfigured });
      app.mailer.kick();
      return { message: translate(request.lang, 'auth.recoverySent') };
    },
  );

  app.post(
    '/api/auth/password-reset',
    {
      config: { access: 'public', rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], summary: 'Set a new password with a reset link', body: s.passwordResetSchema, response: { 200: s.messageSchema } },
    },
    async (request) => {
      await resetPassword(app.db, request.body.token, request.body.password);
      return { message: translate(request.lang, 'auth.passwordChanged') };
    },
  );

  app.post(
    '/api/auth/password',
    {
      config: { access: 'session', sessionOnly: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], summary: 'Change my password; my other sessions end (signed in only, never with an API token)', body: s.passwordChangeSchema, response: { 200: s.messageSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await changePassword(app.db, actor, request.body.currentPassword, request.body.password);
      return { message: translate(request.lang, 'auth.passwordChanged') };
    },
  );

  app.get(
    '/api/profile',
    { config: { access: 'session' }, schema: { tags: ['auth'], summary: 'My profile', response: { 200: s.profileViewSchema } } },
    async (request) => findProfile(app.db, actorOf(request)),
  );

  app.put(
    '/api/profile',
    { config: { access: 'session', sessionOnly: true }, schema: { tags: ['auth'], summary: 'Change my name, language and time zone (signed in only)', body: s.profileSchema, response: { 200: s.profileViewSchema } } },
    async (request) => updateProfile(app.db, actorOf(request), request.body),
  );
};
