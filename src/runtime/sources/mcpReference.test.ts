import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { createCorpusServer } from '../../../reference/corpus/corpusServer';
import { createEventLog } from '../eventLog';
import type { EventOf } from '../events';
import { invoke } from '../invoke';
import { createRegistry } from '../registry';
import { defineMcpCapability } from './mcp';
import { createMcpConnection } from './mcpConnection';

/** The reference app's corpus MCP server, wrapped as a capability pinned to one tenant. */
describe('the reference corpus server as an MCP capability', () => {
  const corpus = createMcpConnection({
    name: 'corpus',
    transport: async () => {
      const [client, server] = InMemoryTransport.createLinkedPair();
      await createCorpusServer().connect(server);
      return client;
    },
  });
  afterAll(() => corpus.close());

  const tenantSearch = () => defineMcpCapability(corpus, { tool: 'search', name: 'corpus.search', pinned: { collection: 'acme' } });

  it('describes the tool from its listing, without the pinned collection', async () => {
    const search = await tenantSearch();
    expect(search).toMatchObject({ title: 'Search the notes', kind: 'read', annotations: { readOnlyHint: true, openWorldHint: false } });
    const [info] = createRegistry([search]).describe();
    expect(Object.keys(info!.inputSchema.properties as object).sort()).toEqual(['limit', 'query']);
  });

  it("finds only the tenant's notes, and a caller cannot reach another tenant", async () => {
    const registry = createRegistry([await tenantSearch()]);
    const log = createEventLog();
    const found = await invoke('corpus.search', { query: 'churn' }, { registry, emit: log.emit, threadKey: 't1' });
    const results = (found.structuredContent as { results: { id: string }[] }).results;
    expect(results.map((r) => r.id)).toContain('acme-4');
    expect(results.every((r) => r.id.startsWith('acme-'))).toBe(true);

    const other = await invoke('corpus.search', { query: 'pricing', collection: 'globex' }, { registry, emit: log.emit, threadKey: 't1' });
    expect(other.isError).toBe(true);
    expect((log.since().at(-1) as EventOf<'capability.error'>).error.issues).toEqual([
      { path: 'collection', message: 'is fixed by the host and cannot be changed; leave it out' },
    ]);
    expect(JSON.stringify(other)).not.toContain('forty percent');
  });
});
