import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job } from '../jobs';
import { jobStoreSuite } from '../jobStore.suite';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';
import { createSqliteJobStore } from './sqliteJobStore';

jobStoreSuite('SQLite', () => createSqliteJobStore(openWorkspaceDatabase(':memory:')), { unfinished: true });

const dir = mkdtempSync(join(tmpdir(), 'chatsurface-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const job = (id: string, patch: Partial<Job> = {}): Job => ({ id, capability: 'report.build', threadKey: 't1', status: 'queued', createdAt: 1, updatedAt: 1, ...patch });

describe('createSqliteJobStore', () => {
  it('puts, updates and gets a job with its progress, result and error', async () => {
    const jobs = createSqliteJobStore(openWorkspaceDatabase(':memory:'));
    await jobs.put(job('a'));
    await jobs.put(job('a', { status: 'running', progress: { progress: 1, total: 3, message: 'One' }, updatedAt: 2 }));
    expect(await jobs.get('a')).toEqual(job('a', { status: 'running', progress: { progress: 1, total: 3, message: 'One' }, updatedAt: 2 }));
    await jobs.put(job('a', { status: 'done', result: { content: [{ type: 'text', text: 'ok' }] }, updatedAt: 3 }));
    expect((await jobs.get('a'))?.result).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(await jobs.get('missing')).toBeUndefined();
  });

  it('sweeps past the count in small transactions, counting the threads that finished a job since the last sweep, and every thread every tenth sweep', async () => {
    const path = join(dir, 'sweeps.db');
    const database = openWorkspaceDatabase(path);
    const jobs = createSqliteJobStore(database);
    const retention = { maxAgeMs: 1e12, perPrincipal: 10 };
    const finished = (threadKey: string, n: number, from = 0) => Promise.all(Array.from({ length: n }, (_, i) => jobs.put(job(`${threadKey}-${from + i}`, { threadKey, status: 'done', createdAt: from + i }))));
    const rows = sqliteHandle(database).prepare('SELECT count(*) FROM jobs WHERE thread_id = ?').pluck();
    // The first sweep counts every thread: 1,000 rows past the count go, over five transactions.
    await finished('rest:a', 1_010);
    expect(await jobs.sweep!(retention, 2_000)).toBe(1_000);
    expect((await jobs.list({ threadKey: 'rest:a' })).map((j) => j.id)).toEqual(Array.from({ length: 10 }, (_, i) => `rest:a-${1_009 - i}`));
    // Another writer on the file (this store did not see its puts): left to the full count of the tenth sweep.
    const other = createSqliteJobStore(openWorkspaceDatabase(path));
    await Promise.all(Array.from({ length: 15 }, (_, i) => other.put(job(`rest:b-${i}`, { threadKey: 'rest:b', status: 'done', createdAt: i }))));
    await finished('rest:a', 5, 2_000);
    expect(await jobs.sweep!(retention, 3_000)).toBe(5);
    expect(rows.get('rest:b')).toBe(15);
    for (let sweep = 3; sweep < 10; sweep++) expect(await jobs.sweep!(retention, 3_000)).toBe(0);
    expect(await jobs.sweep!(retention, 3_000)).toBe(5);
    expect(rows.get('rest:b')).toBe(10);
    expect(rows.get('rest:a')).toBe(10);
  });

  it('writes a job put several times in one turn once, as it was put last, in the order of the first puts', async () => {
    const database = openWorkspaceDatabase(':memory:');
    const jobs = createSqliteJobStore(database);
    const changes = sqliteHandle(database).prepare('SELECT total_changes()').pluck();
    const before = changes.get() as number;
    await Promise.all([jobs.put(job('x', { createdAt: 5 })), jobs.put(job('y', { createdAt: 5 })), jobs.put(job('x', { createdAt: 5, status: 'done', updatedAt: 9 }))]);
    expect((changes.get() as number) - before).toBe(2);
    expect((await jobs.list()).map((j) => [j.id, j.status])).toEqual([['y', 'queued'], ['x', 'done']]);
    expect((await jobs.get('x'))?.updatedAt).toBe(9);
  });

  it('lists newest first, per thread, within a limit', async () => {
    const jobs = createSqliteJobStore(openWorkspaceDatabase(':memory:'));
    await jobs.put(job('old', { createdAt: 1 }));
    await jobs.put(job('new', { createdAt: 3 }));
    await jobs.put(job('mid', { createdAt: 2, threadKey: 't2' }));
    expect((await jobs.list()).map((j) => j.id)).toEqual(['new', 'mid', 'old']);
    expect((await jobs.list({ threadKey: 't1' })).map((j) => j.id)).toEqual(['new', 'old']);
    expect((await jobs.list({ limit: 1 })).map((j) => j.id)).toEqual(['new']);
  });

  it('keeps every job across a reopened file and finds the ones left unfinished', async () => {
    const path = join(dir, 'jobs.db');
    const db = openWorkspaceDatabase(path);
    const jobs = createSqliteJobStore(db);
    await jobs.put(job('done', { status: 'done' }));
    await jobs.put(job('cut', { status: 'running' }));
    await jobs.put(job('waiting', { status: 'queued', createdAt: 2 }));
    db.close();
    const reopened = createSqliteJobStore(openWorkspaceDatabase(path));
    expect((await reopened.get('done'))?.status).toBe('done');
    expect((await reopened.unfinished()).map((j) => j.id)).toEqual(['cut', 'waiting']);
  });

  it('reads a row an older version wrote (`ready`, `threadId`) in today\'s words', async () => {
    const db = sqliteHandle(openWorkspaceDatabase(':memory:'));
    const old = { id: 'old', capability: 'report.build', threadId: 'default/alice/t1', status: 'ready', createdAt: 1, updatedAt: 2, result: { content: [] } };
    db.prepare('INSERT INTO jobs (id, thread_id, status, created_at, body) VALUES (?, ?, ?, ?, ?)').run('old', old.threadId, 'ready', 1, JSON.stringify(old));
    const jobs = createSqliteJobStore(db);
    const expected = { id: 'old', capability: 'report.build', threadKey: 'default/alice/t1', status: 'done', createdAt: 1, updatedAt: 2, result: { content: [] } };
    expect(await jobs.get('old')).toEqual(expected);
    expect(await jobs.list({ threadKey: 'default/alice/t1' })).toEqual([expected]);
    expect(await jobs.unfinished()).toEqual([]);
  });
});
