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
