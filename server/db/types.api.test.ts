import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/support/app.js';
import { generateTypes } from './codegen.js';
import { openDb } from './pool.js';

it('server/db/types.ts is what kysely-codegen makes of the migrated database (after a migration: npm run db:types)', async () => {
  const database = await createTestDatabase();
  const h = openDb(database.url);
  try {
    const generated = await generateTypes(h.db as never);
    const committed = readFileSync(path.join(import.meta.dirname, 'types.ts'), 'utf8');
    expect(committed, 'server/db/types.ts is out of date: run npm run db:types').toBe(generated);
  } finally {
    await h.close();
    await database.drop();
  }
});
