import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotencyCache } from '../doors/idempotency';
import { idempotencyStoreSuite } from '../doors/idempotencyStore.suite';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { createSqliteIdempotencyStore } from './sqliteIdempotencyStore';

idempotencyStoreSuite('sqlite', () => createSqliteIdempotencyStore(openWorkspaceDatabase(':memory:')));

const dir = mkdtempSync(join(tmpdir(), 'chatsurface-idempotency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createSqliteIdempotencyStore', () => {
  it('replays a finished answer after the file is reopened (a restarted server), through run() as the door calls it', async () => {
    const path = join(dir, 'replay.db');
    const db = openWorkspaceDatabase(path);
    const first = createIdempotencyCache<{ kind: string; jobId: string }>({ store: createSqliteIdempotencyStore(db) });
    const ran = first.run('alice', 'k', 'fp', async () => ({ kind: 'done', jobId: 'job_1' }));
    await (ran.conflict ? null : ran.value);
    await new Promise((resolve) => setTimeout(resolve, 5));
    db.close();

    const restarted = createIdempotencyCache<{ kind: string; jobId: string }>({ store: createSqliteIdempotencyStore(openWorkspaceDatabase(path)) });
    let runs = 0;
    const replay = restarted.run('alice', 'k', 'fp', async () => ({ kind: 'done', jobId: `job_${++runs + 1}` }));
    expect(replay).toMatchObject({ conflict: false, replayed: true });
    expect(await (replay.conflict ? null : replay.value)).toEqual({ kind: 'done', jobId: 'job_1' });
    expect(runs).toBe(0);
  });

  it('keeps an answer with an endless TTL', async () => {
    const store = createSqliteIdempotencyStore(openWorkspaceDatabase(':memory:'));
    store.put('a', 'k', { fingerprint: 'fp', response: 1, createdAt: 5, expiresAt: Infinity });
    expect(store.get('a', 'k')).toEqual({ fingerprint: 'fp', response: 1, createdAt: 5, expiresAt: Number.MAX_SAFE_INTEGER });
    expect(store.purge(Date.now())).toBe(0);
  });
});
