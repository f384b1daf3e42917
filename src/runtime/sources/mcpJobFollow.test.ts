import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createWorkspaceServer, type WorkspaceServer } from '../../server/createWorkspaceServer';
import { defineMcpCapability } from './mcp';
import { createMcpConnection } from './mcpConnection';

/** The kit's client on the kit's MCP door: a slow call answered "still running as a job" is followed to its result, not shown as an error. */

const KEY = 'follow-key-0123456789';
let server: WorkspaceServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

let fail = false;
const crawl = defineCapability({
  name: 'site.crawl',
  title: 'Crawl a site',
  description: 'Slow: crawls a site.',
  input: z.object({}),
  output: z.object({ pages: z.number().int() }),
  handler: async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      ctx.progress(i, 3, `Page ${i}`);
    }
    if (fail) throw new Error('the site went away');
    return textResult('Crawled 3 pages.', { pages: 3 });
  },
});

async function crawlOverMcp() {
  // A door that answers within 50 ms and never as a task: the slow call runs on as a job.
  server = await createWorkspaceServer({ capabilities: [crawl], database: ':memory:', apiKeys: [{ id: 'agent', key: KEY }], mcp: { waitMs: 50 } });
  const { url } = await server.listen();
  const connection = createMcpConnection({ name: 'kit', url: `${url}/mcp`, requestInit: { headers: { authorization: `Bearer ${KEY}` } } });
  const capability = await defineMcpCapability(connection, { tool: 'site.crawl', asTask: false });
  return { connection, capability };
}

const context = (signal: AbortSignal = new AbortController().signal) => {
  const progress: [number, number | undefined, string | undefined][] = [];
  return { progress, ctx: { signal, progress: (p: number, t?: number, m?: string) => void progress.push([p, t, m]), invocationId: 'inv_test', threadKey: 'default/agent/main' } as never };
};

describe('following a job the MCP door names', () => {
  it('reads the job until it is done and answers with its result, its progress on the card', async () => {
    fail = false;
    const { connection, capability } = await crawlOverMcp();
    const { progress, ctx } = context();
    const result = await capability.source.handler({}, ctx);
    expect(result).toEqual({ content: [{ type: 'text', text: 'Crawled 3 pages.' }], structuredContent: { pages: 3 } });
    expect(progress.at(-1)).toEqual([3, 3, 'Page 3']);
    await connection.close();
  });

  it('says in words when the job failed', async () => {
    fail = true;
    const { connection, capability } = await crawlOverMcp();
    const { ctx } = context();
    await expect(capability.source.handler({}, ctx)).rejects.toMatchObject({ name: 'CapabilityFailure', message: expect.stringMatching(/^The MCP server "kit" could not finish site\.crawl \(job inv_\w+\): /) });
    await connection.close();
  });

  it('stops following on Stop', async () => {
    fail = false;
    const { connection, capability } = await crawlOverMcp();
    const stop = new AbortController();
    const { ctx } = context(stop.signal);
    const running = capability.source.handler({}, ctx);
    setTimeout(() => stop.abort(new Error('stopped by the user')), 200);
    await expect(running).rejects.toThrow('stopped by the user');
    await connection.close();
  });
});
