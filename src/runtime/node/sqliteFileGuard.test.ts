import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../events';
import { isStoreUnavailable } from './storeUnavailable';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { createSqliteEventStore } from './sqliteEventStore';
import { createSqliteJobStore } from './sqliteJobStore';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ref = { space: 'default', user: 'ada', id: 't1' };
const event = (seq: number): ThreadEvent => ({ type: 'message.created', seq, ts: seq, message_id: `m${seq}`, role: 'user', text: `hello ${seq}` });

describe('a SQLite file removed or replaced under a running server', () => {
  it('is noticed before the next write and refused loudly, never written into the void', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatsurface-file-guard-'));
    dirs.push(dir);
    const path = join(dir, 'workspace.db');
    const db = openWorkspaceDatabase(path);
    const events = createSqliteEventStore(db);
    const jobs = createSqliteJobStore(db);
    events.append(ref, [event(1)]);
    expect(events.read(ref)).toHaveLength(1);

    rmSync(path);
    let refused: unknown = null;
    try {
      events.append(ref, [event(2)]);
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'SQLITE_READONLY_DBMOVED', message: `The database file ${path} was removed while the server ran, so nothing more is written to it (it would be lost). Restart the server to open the file now at that path.` });
    expect(isStoreUnavailable(refused)).toBe(true);
    await expect(jobs.put({ id: 'j1', capability: 'x', threadKey: 'default/ada/t1', status: 'running', createdAt: 1, updatedAt: 1 })).rejects.toMatchObject({ code: 'SQLITE_READONLY_DBMOVED' });
    db.close();
  });

  it('a file put in its place is another file: refused the same way', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatsurface-file-guard-'));
    dirs.push(dir);
    const path = join(dir, 'workspace.db');
    const db = openWorkspaceDatabase(path);
    const events = createSqliteEventStore(db);
    events.append(ref, [event(1)]);
    writeFileSync(join(dir, 'other.db'), '');
    renameSync(join(dir, 'other.db'), path);
    expect(() => events.append(ref, [event(2)])).toThrow(`The database file ${path} was replaced while the server ran`);
    db.close();
  });

  it('a database in memory has no file to check', () => {
    const events = createSqliteEventStore(openWorkspaceDatabase(':memory:'));
    events.append(ref, [event(1)]);
    expect(events.read(ref)).toHaveLength(1);
  });
});
