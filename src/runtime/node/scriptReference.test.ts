import Database from 'better-sqlite3';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEventLog } from '../eventLog';
import type { EventOf, ThreadEvent } from '../events';
import { foldAll, initialThreadState, type InvocationRow } from '../fold';
import { invoke } from '../invoke';
import { createRegistry } from '../registry';
import { defineScriptCapability } from './scriptCapability';

/**
 * The reference app's own CSV ingest script (reference/scripts/import-csv.mjs:
 * Frictionless casting, SQLite, exit 0 even when rows are skipped), copied into
 * a temporary app root and run as a script capability.
 */
const repo = process.cwd();
let root: string;
let dbPath: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'chatsurface-reference-'));
  for (const dir of ['scripts', 'records', 'data']) cpSync(join(repo, 'reference', dir), join(root, dir), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  mkdirSync(join(root, 'db'));
  dbPath = join(root, 'db', 'records.db');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const countRows = (entity: string) => {
  if (entity !== 'records') throw new Error(`no entity ${entity}`);
  const db = new Database(dbPath, { fileMustExist: false });
  try {
    db.exec('CREATE TABLE IF NOT EXISTS records (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, company TEXT, website TEXT, employees INTEGER, country TEXT, since TEXT, industry TEXT, enriched_at TEXT, created_at TEXT NOT NULL)');
    return (db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

function importCsv() {
  return defineScriptCapability({
    appRoot: root,
    name: 'records.import_csv',
    title: 'Import CSV',
    description: 'Imports a CSV file from the data folder into the records table.',
    input: z.object({ file: z.string().regex(/^[\w.-]+\.csv$/) }),
    path_args: ['file'],
    command: ['node', 'scripts/import-csv.mjs', '{{file}}'],
    env: { RECORDS_DB: dbPath, RECORDS_DATA: join(root, 'data') },
    expected_effect: [
      { type: 'row_count_change', entity: 'records', op: '>=', value: 1 },
      { type: 'stdout_matches', pattern: '^Imported \\d+ records? from ' },
    ],
  });
}

async function run(file: string) {
  const log = createEventLog();
  const result = await invoke('records.import_csv', { file }, { registry: createRegistry([importCsv()]), emit: log.emit, threadKey: 't1', probes: { countRows } });
  return { result, events: log.since() as ThreadEvent[] };
}

describe('the reference CSV ingest script as a script capability', () => {
  it('customers.csv inserts its four records and raises no violation', async () => {
    const { result, events } = await run('customers.csv');
    expect(countRows('records')).toBe(4);
    expect(result.content[0]).toMatchObject({ text: 'Imported 4 records from customers.csv.\nread 4 rows: 4 valid, inserted 4\nrecords: 0 -> 4' });
    expect(events.filter((e) => e.type === 'capability.quality_violation')).toEqual([]);
    expect((foldAll(initialThreadState, events).rows[0] as InvocationRow).state).toBe('done');
  });

  it('broken.csv exits 0 with every row rejected: the card stays done and shows a row_count_change violation', async () => {
    const { result, events } = await run('broken.csv');
    expect(countRows('records')).toBe(4);
    expect(result.structuredContent).toMatchObject({ exit_code: 0 });
    const stderr = events.filter((e): e is EventOf<'capability.output'> => e.type === 'capability.output' && e.stream === 'stderr').map((e) => e.text).join('');
    expect(stderr).toMatch(/^row 2: /m);
    expect(stderr).toMatch(/^row 3: /m);
    const violations = events.filter((e): e is EventOf<'capability.quality_violation'> => e.type === 'capability.quality_violation');
    expect(violations).toEqual([
      expect.objectContaining({
        postcondition: 'row_count_change',
        expected: 'records +1 or more',
        actual: 'records +0',
        message: 'Import CSV should have added at least 1 row to records, but the count went from 4 to 4.',
      }),
    ]);
    const card = foldAll(initialThreadState, events).rows[0] as InvocationRow;
    expect(card.state).toBe('done');
    expect(card.violations).toHaveLength(1);
  });

  it('a file name that leaves the data folder never reaches the script', async () => {
    const { events } = await run('../records/db.mjs');
    expect(events.map((e) => e.type)).toEqual(['capability.error']);
    expect((events[0] as EventOf<'capability.error'>).error.code).toBe('invalid_arguments');
  });
});
