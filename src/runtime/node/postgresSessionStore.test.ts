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

  it('sweeps expired sessions out of the table as new ones are made', async () => {
    const db = await pg.open();
    let now = 0;
    const store = createPostgresSessionStore(db, { now: () => now });
    for (let i = 0; i < 50; i++) await store.create({ tokenHash: `old-${i}`, principal: { user: `guest-${i}` }, createdAt: 0, expiresAt: 60_000 });
    await store.create({ tokenHash: 'live', principal: { user: 'guest-live' }, createdAt: 0, expiresAt: 10_000_000 });
    now = 60_000;
    await store.create({ tokenHash: 'new', principal: { user: 'guest-new' }, createdAt: now, expiresAt: now + 60_000 });
    const { rows } = await db.query<{ token_hash: string }>('SELECT token_hash FROM sessions ORDER BY token_hash');
    expect(rows.map((r) => r.token_hash)).toEqual(['live', 'new']);
  });
});
