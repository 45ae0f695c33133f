/**
 * What the case list's advanced search can filter on, for anyone who may
 * list cases: the tenant's published protocols and the value fields of each
 * one's main form (labels in both languages, choices where the form lists
 * them). Protocol and form screens need their own targets; a reviewer who
 * only lists cases still needs these names.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { FieldDef, FormDefinition } from '../../../core/forms/definition.js';
import { scopeFields } from '../../../core/forms/validator.js';
import { actorOf } from '../../plugins/session.js';

/** Fields that hold one value a row of the search can compare (not files, groups or static text). */
const SEARCHABLE = (f: FieldDef) => !['file', 'repeat', 'static', 'stepper', 'step'].includes(f.type);

const option = z.object({ value: z.union([z.string(), z.number()]), label: z.string(), label_en: z.string().optional() });
const searchField = z.object({ name: z.string(), type: z.string(), label: z.string(), label_en: z.string().optional(), options: z.array(option).optional() });
const searchFieldsView = z.object({ protocols: z.array(z.object({ id: z.number(), name: z.string(), fields: z.array(searchField) })) });

export const caseSearchFieldRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/cases/search-fields',
    {
      config: { access: { target: 'wf_casos', action: 'show' } },
      schema: { tags: ['cases'], summary: "The published protocols and their main form's fields, for the advanced search", response: { 200: searchFieldsView } },
    },
    async (request) => {
      const actor = actorOf(request);
      const rows = await app.db
        .selectFrom('protocols as p')
        .innerJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
        .innerJoin('form_versions as fv', (j) => j.on('fv.id', '=', sql<number>`(v.definition->>'mainFormVersionId')::bigint`))
        .where('p.entity_id', '=', actor.entityId)
        .select(['p.id', 'p.name', 'fv.definition'])
        .orderBy('p.name')
        .execute();
      return {
        protocols: rows.map((r) => ({
          id: r.id,
          name: r.name,
          fields: scopeFields((r.definition as FormDefinition).fields)
            .filter(SEARCHABLE)
            .map((f) => ({ name: f.name, type: f.type, label: f.label, label_en: f.label_en, options: f.options?.map((o) => ({ value: o.value, label: o.label, label_en: o.label_en })) })),
        })),
      };
    },
  );
};
