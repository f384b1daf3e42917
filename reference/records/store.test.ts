import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enrichRecord } from './enrich';
import { createSqliteRecordStore } from './sqliteStore';
import { createMemoryRecordStore, type RecordStore } from './store';

const dir = mkdtempSync(join(tmpdir(), 'records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const people = [
  { name: 'Ada', email: 'ada@analytical.example', company: 'Analytical Engines', employees: 12 },
  { name: 'Katherine', email: 'k@orbit.example', company: 'Orbit Labs', website: null, employees: 58 },
];

describe.each([
  ['memory', () => createMemoryRecordStore()],
  ['SQLite', () => createSqliteRecordStore(join(dir, `r-${Math.random()}.db`))],
] as [string, () => RecordStore][])('%s record store', (_, make) => {
  it('inserts new records once, skipping known emails', async () => {
    const store = make();
    expect(await store.insert(people)).toBe(2);
    expect(await store.insert([people[0]!, { name: 'Grace', email: 'grace@cobol.example' }])).toBe(1);
    expect(await store.count()).toBe(3);
    expect((await store.list()).map((r) => r.name)).toEqual(['Ada', 'Katherine', 'Grace']);
  });

  it('enriches a record and counts enriched and pending ones apart', async () => {
    const store = make();
    await store.insert(people);
    const [ada] = await store.list({ limit: 1 });
    await store.enrich(ada!.id, enrichRecord(ada!));
    expect(await store.count({ enriched: true })).toBe(1);
    expect((await store.list({ enriched: false })).map((r) => r.name)).toEqual(['Katherine']);
    expect(await store.get(ada!.id)).toMatchObject({ industry: 'Software', website: 'https://analytical.example' });
    await expect(store.enrich(999, enrichRecord(ada!))).rejects.toThrow('There is no record 999.');
  });
});

describe('enrichRecord', () => {
  it('derives the industry from the company or domain, and a website from the email', () => {
    expect(enrichRecord({ company: 'Orbit Labs', email: 'k@orbit.example', website: null, employees: 5 })).toEqual({ industry: 'Aerospace', website: 'https://orbit.example', employees: 5 });
    expect(enrichRecord({ company: null, email: 'x@unknown.example', website: 'https://x.example', employees: null })).toEqual({ industry: 'Other', website: 'https://x.example', employees: null });
  });
});
