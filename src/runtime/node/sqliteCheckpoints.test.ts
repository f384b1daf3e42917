import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointOffThread } from './sqliteCheckpoints';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const fileDb = () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatsurface-checkpoints-'));
  dirs.push(dir);
  const path = join(dir, 'w.db');
  return { path, db: sqliteHandle(openWorkspaceDatabase(path)) };
};
const until = async (check: () => boolean, ms = 5_000) => {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('checkpointOffThread', () => {
  it('the connection stops checkpointing once the worker is up; the worker copies the log into the file', async () => {
    const { path, db } = fileDb();
    const stop = checkpointOffThread(db);
    await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 0);
    const insert = db.prepare("INSERT INTO jobs (id, thread_id, status, created_at, body) VALUES (?, 'rest:a', 'done', ?, '{}')");
    const before = statSync(path).size;
    // Far past the 1,000 pages at which this connection would have checkpointed by itself.
    for (let i = 0; i < 40; i++) db.transaction(() => { for (let k = 0; k < 500; k++) insert.run(`inv_${i}_${k}_${'x'.repeat(40)}`, i * 1_000 + k); })();
    await until(() => statSync(path).size > before + 1_000_000);
    await stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    expect(db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(20_000);
    db.close();
    // The last connection closed: the log is folded in and gone.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('nothing for an in-memory database', async () => {
    const db = sqliteHandle(openWorkspaceDatabase(':memory:'));
    const stop = checkpointOffThread(db);
    await stop();
    db.close();
  });

  it('stopped before the worker was up: the connection keeps checkpointing by itself', async () => {
    const { db } = fileDb();
    await checkpointOffThread(db)();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    db.close();
  });
});
