import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CLUSTER_PARENT, CLUSTER_PREFIX, haltCluster, resumeCluster, startCluster, stopCluster } from '../../scripts/postgres-cluster.mjs';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { describePostgres, testPostgres } from '../test/postgres';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/**
 * Issue 43: a PostgreSQL that goes away is an answer, not a crash. This file runs a cluster of its
 * own (the shared one serves the other files), takes it down mid-run and brings it back.
 */
const pg = await testPostgres();
const KEY = 'outage-key-0123456789';
let dir: string | null = null;
let server: WorkspaceServer | null = null;

afterAll(async () => {
  await server?.close().catch(() => undefined);
  if (dir) await stopCluster(dir);
});

const add = defineCapability({
  name: 'math.add',
  title: 'Add numbers',
  description: 'Adds a and b.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(`The sum is ${a + b}.`, { sum: a + b }),
});

describePostgres(pg, () => {
  it('while the database is away a call answers 503 with Retry-After in plain words, the process lives on, and calls work again once it is back', async () => {
    dir = mkdtempSync(join(CLUSTER_PARENT, `${CLUSTER_PREFIX}outage-`));
    const url = await startCluster(dir);
    const logged = vi.spyOn(console, 'error');
    server = await createWorkspaceServer({ capabilities: [add], database: url, authenticate: bearerKeys([{ id: 'ci', key: KEY }]) });
    const { url: base } = await server.listen();
    const call = (a: number) =>
      fetch(`${base}/v1/capabilities/math.add`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ a, b: 1 }) });

    expect((await call(1)).status).toBe(200);

    await haltCluster(dir);
    const refused = await call(2);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({ error: { code: 'store_unavailable', message: "The server's database is not answering right now. Try again in a few seconds." } });
    // Asked again while it is still away: the same answer, not a hang and not a crash.
    expect((await call(3)).status).toBe(503);
    expect(logged).toHaveBeenCalledWith('[chatsurface] the database is not answering:', expect.any(String));

    await resumeCluster(dir);
    let back = 0;
    for (let attempt = 0; attempt < 50 && back !== 200; attempt++) {
      back = (await call(4)).status;
      if (back !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(back).toBe(200);
    logged.mockRestore();
  }, 120_000);
});
