/**
 * What the benchmarks that run real server processes share: a database of
 * their own (on the server named by DATABASE_URL, an admin database, or an
 * embedded PostgreSQL in a temporary directory), dropped afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { EmbeddedPostgres } from '../server/db/embedded.js';

export async function benchDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.DATABASE_URL;
  if (!admin) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-bench-db-'));
    const server = await EmbeddedPostgres.start({ dataDir: dir, log: () => {}, fsync: true });
    return {
      url: server.url,
      async drop() {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `${prefix}_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}
