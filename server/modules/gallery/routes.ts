/**
 * The gallery of ready-made applications (`/vainilla-apps`) and a project's
 * export and import. Target `menu_configuracion` (an administrator's):
 * `show` lists the gallery, `create` previews and installs an application
 * or imports a file (each into a NEW project of the actor's tenant), and
 * `export` downloads a project of the tenant as one file.
 *
 * Each handler parses with schema.ts and calls bundle.ts (the file on its
 * own), commands.ts (the plan and the one-transaction install) or repo.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BUNDLE_MAX_BYTES } from '../../../core/api/gallery.js';
import { AppError } from '../../errors.js';
import { actorOf } from '../../plugins/session.js';
import { checkBundle } from './bundle.js';
import { galleryApps, galleryCard } from './catalogue.js';
import { type Installed, installBundle, planInstall } from './commands.js';
import { exportProject } from './repo.js';
import * as s from './schema.js';

const tags = ['gallery'];

export const galleryRoutes: FastifyPluginAsyncZod = async (app) => {
  const appOf = (key: string) => {
    const found = galleryApps().get(key);
    if (!found) throw new AppError('NOT_FOUND');
    return found;
  };
  const answer = (docnumber: string, installed: Installed) => ({
    ...installed.plan,
    projectId: installed.projectId,
    protocols: installed.protocols.map((p) => ({ ...p, publicUrl: `/publico/${encodeURIComponent(docnumber)}/${p.code}` })),
  });

  app.get(
    '/api/gallery',
    { config: { access: { target: 'menu_configuracion', action: 'show' } }, schema: { tags, summary: 'The ready-made applications', response: { 200: s.galleryListSchema } } },
    async () => ({ items: [...galleryApps().values()].map(galleryCard) }),
  );

  app.post(
    '/api/gallery/:app/preview',
    {
      config: { access: { target: 'menu_configuracion', action: 'create' } },
      schema: { tags, summary: 'What installing the application into a new project would create, rename and reuse', params: s.galleryKeyParams, body: s.installTargetSchema, response: { 200: s.installPlanSchema } },
    },
    async (request) => planInstall(app.db, actorOf(request), appOf(request.params.app), request.body, request.lang),
  );

  app.post(
    '/api/gallery/:app/install',
    {
      config: { access: { target: 'menu_configuracion', action: 'create' } },
      schema: { tags, summary: 'Install the application into a new project (one transaction)', params: s.galleryKeyParams, body: s.installTargetSchema, response: { 201: s.installedSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(answer(actor.entity.docnumber, await installBundle(app.db, actor, appOf(request.params.app), request.body, request.lang)));
    },
  );

  app.get(
    '/api/projects/:uid/export',
    {
      config: { access: { target: 'menu_configuracion', action: 'export' } },
      schema: { tags, summary: 'A project of the tenant as one file (casebook.project/1)', params: s.projectUidParams, response: { 200: s.bundleSchema } },
    },
    async (request, reply) => {
      const bundle = await exportProject(app.db, actorOf(request), request.params.uid);
      return reply.header('content-disposition', `attachment; filename="${request.params.uid}.casebook.json"`).send(bundle);
    },
  );

  app.post(
    '/api/projects/import',
    {
      bodyLimit: BUNDLE_MAX_BYTES + 64 * 1024,
      config: { access: { target: 'menu_configuracion', action: 'create' } },
      schema: {
        tags,
        summary: 'Import a project file into a new project: a dry run answers the plan, the import creates it all or nothing',
        body: s.importBodySchema,
        response: { 200: s.installPlanSchema, 201: s.installedSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const checked = checkBundle(request.body.bundle);
      const target = { uid: request.body.uid ?? checked.bundle.project.uid, title: request.body.title ?? checked.bundle.project.title };
      if (request.body.dryRun) return reply.status(200).send(await planInstall(app.db, actor, checked, target, request.lang));
      return reply.status(201).send(answer(actor.entity.docnumber, await installBundle(app.db, actor, checked, target, request.lang)));
    },
  );
};
