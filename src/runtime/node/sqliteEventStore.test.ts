import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { eventStoreSuite } from '../stores/eventStore.suite';
import { threadIndexSuite } from '../stores/threadIndex.suite';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { createSqliteEventStore } from './sqliteEventStore';

const dir = mkdtempSync(join(tmpdir(), 'chatsurface-events-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

eventStoreSuite('SQLite', () => createSqliteEventStore(openWorkspaceDatabase(':memory:')), {
  // Two connections to one file, as two processes would open it.
  twins: () => {
    const path = join(dir, `twins-${++files}.db`);
    return [createSqliteEventStore(openWorkspaceDatabase(path)), createSqliteEventStore(openWorkspaceDatabase(path))];
  },
});

threadIndexSuite('SQLite', () => createSqliteEventStore(openWorkspaceDatabase(':memory:')));
