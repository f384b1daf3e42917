import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStoreSuite } from '../../test/sessionStoreSuite';
import { openWorkspaceDatabase } from './sqliteDatabase';
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
});
