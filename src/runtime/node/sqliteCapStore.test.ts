import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { capStoreSuite } from '../stores/capStore.suite';
import { createSqliteCapStore } from './sqliteCapStore';
import { openWorkspaceDatabase } from './sqliteDatabase';

capStoreSuite('sqlite', () => createSqliteCapStore(openWorkspaceDatabase(':memory:')));

const dir = mkdtempSync(join(tmpdir(), 'chatsurface-caps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('keeps the counts across a reopened file (a restarted server)', async () => {
  const path = join(dir, 'caps.db');
  const limits = { perSpace: 2, perAddress: 10, windowMs: 60_000 };
  const db = openWorkspaceDatabase(path);
  const first = createSqliteCapStore(db);
  expect(first.claim({ kind: 'thread', item: 'a', space: 'acme', at: 0 }, limits)).toEqual({ ok: true });
  expect(first.claim({ kind: 'thread', item: 'b', space: 'acme', at: 0 }, limits)).toEqual({ ok: true });
  db.close();
  const again = createSqliteCapStore(openWorkspaceDatabase(path));
  expect(again.claim({ kind: 'thread', item: 'c', space: 'acme', at: 0 }, limits)).toEqual({ ok: false, over: 'space', count: 2, limit: 2 });
});
