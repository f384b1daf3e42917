import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { createMeter } from '../doors/meter';
import { meterStoreSuite } from '../doors/meterStore.suite';
import { textResult } from '../results';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { createSqliteMeterStore } from './sqliteMeterStore';

meterStoreSuite('sqlite', () => createSqliteMeterStore(openWorkspaceDatabase(':memory:')));

const dir = mkdtempSync(join(tmpdir(), 'chatsurface-meter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = defineCapability({ name: 'a.read', title: 'Read', description: 'Reads.', input: z.object({}), handler: () => textResult('ok') });

describe('createSqliteMeterStore', () => {
  it('keeps the charged units across a reopened file (a restarted server)', async () => {
    const path = join(dir, 'books.db');
    const db = openWorkspaceDatabase(path);
    const meter = createMeter({ store: createSqliteMeterStore(db) });
    for (let i = 0; i < 2; i++) {
      const held = await meter.reserve({ user: 'alice', budget: 2 }, read);
      if (!held.ok) throw new Error('expected a reservation');
      await held.commit();
    }
    db.close();
    const restarted = createMeter({ store: createSqliteMeterStore(openWorkspaceDatabase(path)) });
    expect(await restarted.charged('alice')).toBe(2);
    expect(await restarted.reserve({ user: 'alice', budget: 2 }, read)).toMatchObject({ ok: false, status: 402 });
  });

  it('shares one budget between two connections to one file (two processes), never overspending', async () => {
    const path = join(dir, 'shared.db');
    const a = createMeter({ store: createSqliteMeterStore(openWorkspaceDatabase(path)) });
    const b = createMeter({ store: createSqliteMeterStore(openWorkspaceDatabase(path)) });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).reserve({ user: 'alice', budget: 5 }, read)));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
  });
});
