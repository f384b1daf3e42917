import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStoreSuite } from '../../test/sessionStoreSuite';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';
import { createSqliteSessionStore } from './sqliteSessionStore';

sessionStoreSuite('SQLite (own file)', ({ now }) => {
  const store = createSqliteSessionStore(':memory:', { now });
  return { store, close: () => store.close() };
});

sessionStoreSuite('SQLite (in the workspace database)', ({ now }) => {
  const db = openWorkspaceDatabase(':memory:');
  return { store: createSqliteSessionStore(db, { now }), close: () => void db.close() };
});

describe('the SQLite session store', () => {
  it('keeps sessions across a restart, and stores only the token hash it was given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sessions-'));
    try {
      const path = join(dir, 'nested', 'sessions.db');
      const first = createSqliteSessionStore(path);
      first.create({ tokenHash: 'h1', principal: { user: 'guest-1' }, createdAt: Date.now(), expiresAt: Date.now() + 60_000 });
      first.close();
      const second = createSqliteSessionStore(path);
      expect(second.get('h1')).toMatchObject({ principal: { user: 'guest-1' } });
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves a database it was given open when closed', () => {
    const db = openWorkspaceDatabase(':memory:');
    createSqliteSessionStore(db).close();
    expect(db.open).toBe(true);
    db.close();
  });

  it('sweeps expired sessions out of the table as new ones are made: 1,000 guests gone stale leave no rows', () => {
    const db = openWorkspaceDatabase(':memory:');
    let now = 0;
    const store = createSqliteSessionStore(db, { now: () => now });
    for (let i = 0; i < 1_000; i++) store.create({ tokenHash: `old-${i}`, principal: { user: `guest-${i}` }, createdAt: 0, expiresAt: 60_000 });
    store.create({ tokenHash: 'live', principal: { user: 'guest-live' }, createdAt: 0, expiresAt: 10_000_000 });
    now = 60_000;
    store.create({ tokenHash: 'new', principal: { user: 'guest-new' }, createdAt: now, expiresAt: now + 60_000 });
    expect(sqliteHandle(db).prepare('SELECT token_hash FROM sessions ORDER BY token_hash').pluck().all()).toEqual(['live', 'new']);
    db.close();
  });
});
