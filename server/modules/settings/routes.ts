/**
 * The tenant's settings: its business calendar (working days and hours, the
 * time zone they are read in), which business-day due dates are counted on.
 * Holidays are the `festivos` master's items (the masters screens).
 *
 * And the application settings (`/configuracion`, issue 20): a project's
 * branding and behaviour (application.ts), its logo and favicon
 * (branding.ts), and the tenant's plan state (usage.ts).
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BRANDING_LIMITS } from '../../../core/api/applicationSettings.js';
import { AppError } from '../../errors.js';
import { actorOf } from '../../plugins/session.js';
import { findApplicationSettings, saveApplicationSettings } from './application.js';
import { removeBranding, uploadBranding } from './branding.js';
import { findCalendar, saveCalendar } from './repo.js';
import * as s from './schema.js';
import { planState } from './usage.js';

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  // The logo's cap is the larger; the favicon's is checked after (branding.ts).
  await app.register(multipart, { limits: { fileSize: BRANDING_LIMITS.logo, files: 1, fields: 2, fieldSize: 256 } });
  app.get(
    '/api/settings/calendar',
    {
      config: { access: { target: 'menu_configuracion', action: 'show' } },
      schema: { tags: ['settings'], summary: "The tenant's business calendar", response: { 200: s.businessCalendarSchema } },
    },
    async (request) => findCalendar(app.db, actorOf(request)),
  );

  app.put(
    '/api/settings/calendar',
    {
      config: { access: { target: 'menu_configuracion', action: 'update' } },
      schema: { tags: ['settings'], summary: "Change the tenant's business calendar", body: s.businessCalendarBody, response: { 200: s.businessCalendarSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      await saveCalendar(app.db, actor, request.body);
      return findCalendar(app.db, actor);
    },
  );

  // ------------------------------------------------------------ the application settings (/configuracion)

  const show = { access: { target: 'menu_configuracion', action: 'show' } } as const;
  const update = { access: { target: 'menu_configuracion', action: 'update' } } as const;

  app.get(
    '/api/settings/application',
    {
      config: show,
      schema: {
        tags: ['settings'],
        summary: "A project's settings (the tenant's default project, or `?project=` another of the tenant)",
        querystring: s.applicationSettingsQuery,
        response: { 200: s.applicationSettingsSchema },
      },
    },
    async (request) => findApplicationSettings(app.db, actorOf(request), request.query.project),
  );

  app.put(
    '/api/settings/application',
    {
      config: update,
      schema: {
        tags: ['settings'],
        summary: "Change a project's settings: every open page of the tenant takes them at once",
        querystring: s.applicationSettingsQuery,
        body: s.applicationSettingsBody,
        response: { 200: s.applicationSettingsSchema },
      },
    },
    async (request) => saveApplicationSettings(app.db, actorOf(request), request.query.project, request.body),
  );

  app.post(
    '/api/settings/application/:kind',
    {
      config: { ...update, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['settings'],
        summary: 'Upload the logo (PNG, JPEG, WebP, GIF; 1 MB) or the favicon (also ICO; 256 KB): multipart field `file`, checked by content',
        params: s.brandingParams,
        querystring: s.applicationSettingsQuery,
        response: { 200: s.applicationSettingsSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const { kind } = request.params;
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
      const part = await request.file();
      if (!part) throw new AppError('VALIDATION', {}, [{ path: 'file', message: 'validation.required' }]);
      const tooLarge = () => new AppError('BRANDING_IMAGE_TOO_LARGE', { max: BRANDING_LIMITS[kind] / 1024 });
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw e;
      }
      if (part.file.truncated) throw tooLarge();
      await uploadBranding(app.db, actor, app.files, request.query.project, kind, bytes);
      return findApplicationSettings(app.db, actor, request.query.project);
    },
  );

  app.delete(
    '/api/settings/application/:kind',
    {
      config: update,
      schema: {
        tags: ['settings'],
        summary: 'Remove the logo or the favicon (its file is deleted)',
        params: s.brandingParams,
        querystring: s.applicationSettingsQuery,
        response: { 200: s.applicationSettingsSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await removeBranding(app.db, actor, app.files, request.query.project, request.params.kind);
      return findApplicationSettings(app.db, actor, request.query.project);
    },
  );

  app.get(
    '/api/settings/plan',
    {
      config: show,
      schema: {
        tags: ['settings'],
        summary: "The tenant's plan: accounts used and left, disk used by files and by the database (estimated at most every 5 minutes), warnings past 90 %",
        response: { 200: s.planStateSchema },
      },
    },
    async (request) => planState(app.db, actorOf(request)),
  );
};
