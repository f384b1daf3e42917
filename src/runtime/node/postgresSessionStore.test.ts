import { expect, it } from 'vitest';
import { describePostgres, testPostgres } from '../../test/postgres';
import { sessionStoreSuite } from '../../test/sessionStoreSuite';
import { createPostgresSessionStore } from './postgresSessionStore';

const pg = await testPostgres();

describePostgres(pg, () => {
  sessionStoreSuite('PostgreSQL', async ({ now }) => ({ store: createPostgresSessionStore(await pg.open(), { now }) }));

  it('signs a browser in on every instance on the database, and out of all of them', async () => {
    const target = await pg.createDatabase();
    const a = createPostgresSessionStore(await pg.open(target));
    const b = createPostgresSessionStore(await pg.open(target));
    await a.create({ tokenHash: 'h1', principal: { user: 'guest-1' }, createdAt: Date.now(), expiresAt: Date.now() + 60_000 });
    expect(await b.get('h1')).toMatchObject({ principal: { user: 'guest-1' } });
    await b.delete('h1');
    expect(await a.get('h1')).toBeNull();
  });
});
