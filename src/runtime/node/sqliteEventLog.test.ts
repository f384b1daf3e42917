import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../events';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { createSqliteEventLog } from './sqliteEventLog';

const dir = mkdtempSync(join(tmpdir(), 'chatsurface-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const say = (text: string) => ({ type: 'message.created' as const, message_id: `m-${text}`, role: 'user' as const, text });

describe('createSqliteEventLog', () => {
  it('stamps seq per thread and ts, and hands listeners each event as it is written', () => {
    const db = openWorkspaceDatabase(':memory:');
    const log = createSqliteEventLog(db, 't1', { now: () => 7 });
    const other = createSqliteEventLog(db, 't2');
    const heard: ThreadEvent[] = [];
    log.subscribe((e) => heard.push(e));
    expect(log.emit(say('a'))).toMatchObject({ seq: 1, ts: 7, text: 'a' });
    expect(log.emit(say('b')).seq).toBe(2);
    expect(other.emit(say('x')).seq).toBe(1);
    expect(heard.map((e) => e.seq)).toEqual([1, 2]);
    expect(log.lastSeq).toBe(2);
    expect(log.since(1).map((e) => e.seq)).toEqual([2]);
    db.close();
  });

  it('replays events after `since` to a new subscriber, then live ones, and stops on unsubscribe', () => {
    const db = openWorkspaceDatabase(':memory:');
    const log = createSqliteEventLog(db, 't');
    for (const t of ['a', 'b', 'c']) log.emit(say(t));
    const heard: number[] = [];
    const off = log.subscribe((e) => heard.push(e.seq), 1);
    log.emit(say('d'));
    off();
    log.emit(say('e'));
    expect(heard).toEqual([2, 3, 4]);
    db.close();
  });

  it('keeps a thread across a reopened file: seq goes on where it stopped', () => {
    const path = join(dir, 'nested', 'workspace.db');
    const first = openWorkspaceDatabase(path);
    const log = createSqliteEventLog(first, 'kept');
    log.emit(say('before'));
    log.emit(say('restart'));
    first.close();
    const second = openWorkspaceDatabase(path);
    const again = createSqliteEventLog(second, 'kept');
    expect(again.lastSeq).toBe(2);
    expect(again.since().map((e) => (e as { text: string }).text)).toEqual(['before', 'restart']);
    expect(again.emit(say('after')).seq).toBe(3);
    second.close();
  });

  it('keeps a listener that throws from stopping the others or the writer', async () => {
    const db = openWorkspaceDatabase(':memory:');
    const log = createSqliteEventLog(db, 't');
    const heard: number[] = [];
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    log.subscribe(() => {
      throw new Error('listener bug');
    });
    log.subscribe((e) => heard.push(e.seq));
    expect(log.emit(say('a')).seq).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('uncaughtException', onError);
    expect(heard).toEqual([1]);
    expect(log.since()).toHaveLength(1);
    db.close();
  });
});

describe('openWorkspaceDatabase', () => {
  it('refuses a missing path and a file from a newer schema, with a message that says what to do', () => {
    expect(() => openWorkspaceDatabase('')).toThrow('openWorkspaceDatabase needs a file path (or ":memory:"');
    const path = join(dir, 'future.db');
    const db = openWorkspaceDatabase(path);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openWorkspaceDatabase(path)).toThrow(/written by a newer ChatSurface \(schema 99/);
  });
});
