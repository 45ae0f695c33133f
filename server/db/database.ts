import pg from 'pg';

/** Creates `name` on the server of `adminUrl` when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database ${client.escapeIdentifier(name)}`).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created meanwhile by another instance
      });
    }
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
