import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectorStoreSuite } from '../stores/connectorStore.suite';
import { createSqliteConnectorStore } from './sqliteConnectorStore';
import { openWorkspaceDatabase } from './sqliteDatabase';

connectorStoreSuite('sqlite', () => createSqliteConnectorStore(openWorkspaceDatabase(':memory:')));

const dir = mkdtempSync(join(tmpdir(), 'chatsurface-connectors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createSqliteConnectorStore', () => {
  it('keeps a connector and its token across a reopened file (a restarted server)', async () => {
    const path = join(dir, 'workspace.db');
    const db = openWorkspaceDatabase(path);
    createSqliteConnectorStore(db).add({ user: 'alice', space: 'default', label: 'notes', url: 'https://notes.example.com/mcp', token: 't0ken', createdAt: 5 });
    db.close();
    expect(createSqliteConnectorStore(openWorkspaceDatabase(path)).list({ user: 'alice', space: 'default' })).toEqual([
      { user: 'alice', space: 'default', label: 'notes', url: 'https://notes.example.com/mcp', token: 't0ken', createdAt: 5 },
    ]);
  });
});
