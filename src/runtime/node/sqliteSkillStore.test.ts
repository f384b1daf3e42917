import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_SKILL_NODES } from '../slash/builtinSkillData';
import { createCatalog } from '../slash/catalog';
import { createSkillDirectory, loadStoredSkills } from '../slash/skillDirectory';
import { skillStoreSuite } from '../stores/skillStore.suite';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';
import { createSqliteSkillStore } from './sqliteSkillStore';

skillStoreSuite('sqlite', () => createSqliteSkillStore(openWorkspaceDatabase(':memory:')));

const dir = mkdtempSync(join(tmpdir(), 'chatsurface-skills-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createSqliteSkillStore', () => {
  it('keeps saved skills across a reopened file (a restarted server)', async () => {
    const path = join(dir, 'skills.db');
    const db = openWorkspaceDatabase(path);
    await createSkillDirectory({ user: 'alice', catalog: createCatalog(BUILT_IN_SKILL_NODES), store: createSqliteSkillStore(db) }).persist({ id: 'weekly', description: 'Mine', instructions: 'Mondays.' });
    db.close();
    const catalog = createCatalog(BUILT_IN_SKILL_NODES);
    expect(await loadStoredSkills(catalog, createSqliteSkillStore(openWorkspaceDatabase(path)))).toEqual({ loaded: 1, problems: [] });
    expect(catalog.get('alice/Skill/weekly')).toMatchObject({ owner: 'alice', skill: { instructions: 'Mondays.' } });
  });
});

describe('openWorkspaceDatabase', () => {
  it('gives a version-1 file the new tables, keeping what it holds', () => {
    const path = join(dir, 'v1.db');
    const old = new Database(path);
    old.exec(`
      CREATE TABLE thread_events (thread_id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (thread_id, seq)) WITHOUT ROWID;
      CREATE TABLE jobs (id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL, body TEXT NOT NULL);
      INSERT INTO thread_events VALUES ('t1', 1, '{}');
    `);
    old.pragma('user_version = 1');
    old.close();
    const db = sqliteHandle(openWorkspaceDatabase(path));
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).sort();
    expect(tables).toEqual(expect.arrayContaining(['idempotency', 'jobs', 'mcp_connectors', 'meter_books', 'meter_holds', 'skills', 'thread_events']));
    expect(db.prepare('SELECT COUNT(*) FROM thread_events').pluck().get()).toBe(1);
    db.close();
    // Opening again at the current version changes nothing.
    expect(sqliteHandle(openWorkspaceDatabase(path)).pragma('user_version', { simple: true })).toBe(3);
  });

  it('refuses a file from a newer schema', () => {
    const path = join(dir, 'future.db');
    const future = new Database(path);
    future.pragma('user_version = 99');
    future.close();
    expect(() => openWorkspaceDatabase(path)).toThrow('schema 99, this one knows 3');
  });
});
