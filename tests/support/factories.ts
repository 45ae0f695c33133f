import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Db } from '../../server/db/pool.js';
import type { EntitiesTable, ProjectsTable } from '../../server/db/types.js';

/** Row factories: each call makes a new, unique row; tests say only what matters to them. */
const unique = () => randomBytes(4).toString('hex');

export async function makeEntity(db: Db, overrides: Partial<Insertable<EntitiesTable>> = {}) {
  const u = unique();
  return db
    .insertInto('entities')
    .values({ docnumber: `9${parseInt(u, 16)}`, name: `Agency ${u}`, ...overrides })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeProject(db: Db, overrides: Partial<Insertable<ProjectsTable>> = {}) {
  const entityId = overrides.entity_id ?? (await makeEntity(db)).id;
  const u = unique();
  return db
    .insertInto('projects')
    .values({ uid: `p-${u}`, title: `Project ${u}`, ...overrides, entity_id: entityId })
    .returningAll()
    .executeTakeFirstOrThrow();
}
