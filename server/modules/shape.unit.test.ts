import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The module shape of docs/architecture.md, kept true: a routes.ts declares,
 * parses, calls and presents; the SQL and the transactions live in repo.ts
 * and commands.ts, where the tenant and the record rules are applied.
 */
const modules = path.join(import.meta.dirname);
const domains = readdirSync(modules, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(path.join(modules, d.name, 'routes.ts'))).map((d) => d.name);

const SQL = [/\.selectFrom\(/, /\.insertInto\(/, /\.updateTable\(/, /\.deleteFrom\(/, /\.transaction\(\)/, /from 'kysely'/, /\bsql`/];

describe('every module', () => {
  it('has routes', () => {
    expect(domains).toEqual(expect.arrayContaining(['cases', 'tasks', 'masters', 'users', 'acl', 'teams', 'protocols', 'forms', 'files', 'auth']));
  });

  it.each(domains)('%s: routes.ts holds no SQL and no transaction', (domain) => {
    const text = readFileSync(path.join(modules, domain, 'routes.ts'), 'utf8');
    const found = SQL.filter((pattern) => pattern.test(text)).map(String);
    expect(found).toEqual([]);
  });

  it.each(domains.filter((d) => !['system', 'projects'].includes(d)))('%s: has a repo.ts and a schema.ts', (domain) => {
    expect(existsSync(path.join(modules, domain, 'repo.ts'))).toBe(true);
    expect(existsSync(path.join(modules, domain, 'schema.ts'))).toBe(true);
  });
});
