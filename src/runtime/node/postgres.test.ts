import { expect, it } from 'vitest';
import { describePostgres, testPostgres } from '../../test/postgres';
import { openPostgres, POSTGRES_SCHEMA_VERSION } from './postgres';

const pg = await testPostgres();

it('openPostgres refuses an empty URL', async () => {
  await expect(openPostgres('')).rejects.toThrow('openPostgres needs a connection URL');
});

describePostgres(pg, () => {
  it('brings a new database to the current schema once, even with instances opening it at the same time', async () => {
    const target = await pg.createDatabase();
    const [db] = await Promise.all(Array.from({ length: 4 }, () => pg.open(target)));
    const { rows } = await db!.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1));
    const tables = await db!.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1");
    expect(tables.rows.map((r) => r.name)).toEqual(['idempotency', 'instances', 'jobs', 'mcp_connectors', 'meter_books', 'meter_holds', 'schema_migrations', 'sessions', 'skills', 'thread_events', 'thread_leases', 'thread_meta', 'thread_texts', 'threads']);
    // Opening again at the current version changes nothing.
    await pg.open(target);
    expect((await db!.query('SELECT version FROM schema_migrations')).rowCount).toBe(POSTGRES_SCHEMA_VERSION);
  });

  it('refuses a database from a newer schema, and leaves it as it was', async () => {
    const target = await pg.createDatabase();
    const db = await pg.open(target);
    await db.query('INSERT INTO schema_migrations (version) VALUES (99)');
    await expect(openPostgres(target.url, { schema: target.schema })).rejects.toThrow(`schema 99, this one knows ${POSTGRES_SCHEMA_VERSION}`);
    expect((await db.query('SELECT max(version) AS v FROM schema_migrations')).rows[0]).toEqual({ v: 99 });
  });

  it('rolls a failed transaction back, and the pool stays usable', async () => {
    const db = await pg.open();
    await expect(
      db.transaction(async (client) => {
        await client.query("INSERT INTO skills (path, namespace, saved_at, body) VALUES ('a/Skill/x', 'a', 1, '{}')");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await db.query('SELECT count(*)::integer AS n FROM skills')).rows[0]).toEqual({ n: 0 });
    expect(await db.transaction(async (client) => (await client.query('SELECT 1 AS one')).rows[0])).toEqual({ one: 1 });
  });
});
