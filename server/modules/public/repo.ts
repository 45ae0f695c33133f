/**
 * The public entry's SQL. Nobody is signed in here, so there is no actor:
 * the tenant is the entity the address names (its docnumber or its slug),
 * and `policy.ts` says what of it is public. Each record is looked up in one
 * query that applies those conditions, so an inactive entity, a private or
 * unpublished protocol and one that does not exist all answer the same 404
 * the same way. Rows become the public shapes of `core/api/public.ts` here;
 * nothing else leaves (no ids of people, no forms, no tasks).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { containsPattern, paginate, type Page } from '../../lib/list.js';
import { applicationsState, publicEntities, publicLogo, publicProtocols } from './policy.js';

/** The most programmes an entity's page lists. */
const MAX_PROGRAMMES = 100;

/**
 * Public entities with their project: the default one, else the first, as
 * a new application without a session project takes it (cases/repo.ts
 * `projectOf`). An entity without a project takes no applications and has
 * no public entry.
 */
function entities(db: Db) {
  return db
    .selectFrom('entities as e')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('projects')
          .whereRef('projects.entity_id', '=', 'e.id')
          .orderBy('projects.is_default', 'desc')
          .orderBy('projects.id')
          .limit(1)
          .select(['projects.uid', 'projects.logo', 'projects.maintenance', 'projects.new_applications_deadline', 'projects.allow_new_applications'])
          .as('pr'),
      (join) => join.onTrue(),
    )
    .where(publicEntities());
}

/** The entity an address names: its docnumber, or its slug (any case); the docnumber wins when both match. */
function named(db: Db, key: string) {
  return entities(db)
    .where((eb) => eb.or([eb('e.docnumber', '=', key), eb('e.slug', '=', key.toLowerCase())]))
    .orderBy(sql`e.docnumber = ${key}`, 'desc')
    .limit(1);
}

// The entity's name is `entity_name` in every select: a programme's row has a name of its own.
const entityRef = (e: { slug: string; docnumber: string; entity_name: string; logo: string | null }) => ({ slug: e.slug, docnumber: e.docnumber, name: e.entity_name, logo: publicLogo(e.logo) });

type EntityRow = { slug: string; docnumber: string; entity_name: string; logo: string | null; uid: string; maintenance: boolean; new_applications_deadline: string | null; allow_new_applications: boolean };

const entityWithProject = (e: EntityRow, now: Date) => ({ ...entityRef(e), project: e.uid, applications: applicationsState(e, now) });

const ENTITY_COLUMNS = ['e.id', 'e.slug', 'e.docnumber', 'e.name as entity_name', 'pr.uid', 'pr.logo', 'pr.maintenance', 'pr.new_applications_deadline', 'pr.allow_new_applications'] as const;

type ProgrammeRow = {
  code: string;
  name: string;
  public_title_en: string;
  public_title_es: string;
  public_description_en: string;
  public_description_es: string;
  eligibility_en: string;
  eligibility_es: string;
};

const PROGRAMME_COLUMNS = [
  'p.code', 'p.name', 'p.public_title_en', 'p.public_title_es', 'p.public_description_en', 'p.public_description_es', 'p.eligibility_en', 'p.eligibility_es',
] as const;

const programme = (p: ProgrammeRow) => ({
  code: p.code,
  name: p.name,
  title: { en: p.public_title_en, es: p.public_title_es },
  description: { en: p.public_description_en, es: p.public_description_es },
  eligibility: { en: p.eligibility_en, es: p.eligibility_es },
});

/** The entities with public programmes, by name, with how many each has; `search` finds words of the name. */
export async function listPublicEntities(db: Db, query: Page & { search?: string; descending?: boolean }) {
  let q = entities(db).select([
    'e.id', 'e.slug', 'e.docnumber', 'e.name as entity_name', 'pr.logo',
    (eb) =>
      eb
        .selectFrom('protocols as p')
        .whereRef('p.entity_id', '=', 'e.id')
        .where(publicProtocols())
        .select(sql<number>`count(*)::int`.as('n'))
        .as('programmes'),
  ]);
  // Accents and case aside, as the case list's search (search_fold of migration 0012).
  if (query.search) q = q.where(sql<string>`search_fold(e.name)`, 'like', sql<string>`search_fold(${containsPattern(query.search)})`);
  q = q.orderBy('e.name', query.descending ? 'desc' : 'asc').orderBy('e.id');
  const { rows, total } = await paginate(q, query);
  return { items: rows.map((r) => ({ ...entityRef(r), programmes: Number(r.programmes ?? 0) })), total };
}

/** An entity's public page: the entity, whether it takes applications, and its programmes; NOT_FOUND when nothing of it is public. */
export async function publicEntity(db: Db, key: string, now = new Date()) {
  const e = await named(db, key).select([...ENTITY_COLUMNS]).executeTakeFirst();
  if (!e) throw new AppError('NOT_FOUND');
  const programmes = await db
    .selectFrom('protocols as p')
    .where('p.entity_id', '=', e.id)
    .where(publicProtocols())
    .select([...PROGRAMME_COLUMNS])
    .orderBy('p.name')
    .orderBy('p.id')
    .limit(MAX_PROGRAMMES)
    .execute();
  return { ...entityWithProject(e, now), programmes: programmes.map(programme) };
}

/** One programme's public page with its entity; NOT_FOUND when the entity or the protocol is not public, in one query. */
export async function publicProgramme(db: Db, key: string, code: string, now = new Date()) {
  const row = await named(db, key)
    .innerJoin('protocols as p', (join) => join.onRef('p.entity_id', '=', 'e.id').on('p.code', '=', code))
    .where(publicProtocols())
    .select([...ENTITY_COLUMNS, 'p.id as protocol_id', ...PROGRAMME_COLUMNS])
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return { id: row.protocol_id, ...programme(row), entity: entityWithProject(row, now) };
}
