import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createCorpusServer } from './corpusServer';

let client: Client | null = null;
afterEach(async () => {
  await client?.close();
  client = null;
});

async function connect() {
  const server = createCorpusServer();
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(b), client.connect(a)]);
  return client;
}

describe('the corpus MCP server', () => {
  it('lists one read-only search tool with its schemas', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((t) => t.name)).toEqual(['search']);
    expect(tools[0]!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(tools[0]!.inputSchema.required).toEqual(['collection', 'query']);
    expect(tools[0]!.outputSchema).toMatchObject({ type: 'object' });
  });

  it('finds the best notes in the collection, ranked, with snippets', async () => {
    const result = await (await connect()).callTool({ name: 'search', arguments: { collection: 'acme', query: 'enrichment batches', limit: 2 } });
    const { results } = result.structuredContent as { results: { id: string; title: string; snippet: string }[] };
    expect(results[0]).toMatchObject({ id: 'acme-2', title: 'How we enrich records' });
    expect(results[0]!.snippet).toContain('batches');
    expect(results.length).toBeLessThanOrEqual(2);
  });

  it('never returns another collection’s notes', async () => {
    const result = await (await connect()).callTool({ name: 'search', arguments: { collection: 'acme', query: 'pricing discount confidential' } });
    const { results } = result.structuredContent as { results: { id: string }[] };
    expect(results.every((r) => r.id.startsWith('acme-'))).toBe(true);
  });

  it('answers an unknown collection with an isError result', async () => {
    const result = await (await connect()).callTool({ name: 'search', arguments: { collection: 'initech', query: 'x' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'There is no collection named "initech".' }]);
  });
});
