import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Db } from '../../server/db/pool.js';
import { hash } from '@node-rs/argon2';
import { createRoleWithRules, seedEntityAcl } from '../../server/db/seed/acl.js';
import { seedEntityMasters } from '../../server/db/seed/masters.js';
import type { EntitiesTable, ProjectsTable, UsersTable } from '../../server/db/types.js';

/** Row factories: each call makes a new, unique row; tests say only what matters to them. */
const unique = () => randomBytes(4).toString('hex');

/** A tenant with what every tenant starts with: the permission catalogue, system roles and masters. */
export async function makeEntity(db: Db, overrides: Partial<Insertable<EntitiesTable>> = {}) {
  const u = unique();
  const entity = await db
    .insertInto('entities')
    .values({ docnumber: `9${parseInt(u, 16)}`, name: `Agency ${u}`, ...overrides })
    .returningAll()
    .executeTakeFirstOrThrow();
  await seedEntityAcl(db, entity.id);
  await seedEntityMasters(db, entity.id);
  return entity;
}

/** A user with the given role code in the tenant (created with its rules when it does not exist). */
export async function makeUser(
  db: Db,
  entityId: number,
  options: { role?: string; rules?: Parameters<typeof createRoleWithRules>[2]['rules']; password?: string } & Partial<Insertable<UsersTable>> = {},
) {
  const { role = 'invitado', rules, password = 'Passw0rd1', ...overrides } = options;
  let roleRow = await db.selectFrom('acl_roles').where('entity_id', '=', entityId).where('code', '=', role).select('id').executeTakeFirst();
  if (!roleRow) roleRow = { id: await createRoleWithRules(db, entityId, { code: role, name: role, description: '', rules: rules ?? {} }) };
  const u = unique();
  return db
    .insertInto('users')
    .values({ entity_id: entityId, email: `user-${u}@example.test`, name: `User ${u}`, role_id: roleRow.id, password_hash: await hash(password), ...overrides })
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
