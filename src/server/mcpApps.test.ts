import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_APP_META } from '../runtime/mcpApp';
import { startExampleAppServer } from '../test/exampleMcpApp';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/** MCP Apps end to end on the server: the official example server from npm, consumed, its view served to the card, the app's own call run as a chip. */
let example: Awaited<ReturnType<typeof startExampleAppServer>>;
let server: WorkspaceServer;

beforeAll(async () => {
  example = await startExampleAppServer();
  server = await createWorkspaceServer({ capabilities: [], database: ':memory:', mcpServers: [{ name: 'clock', url: example.url, annotations: { 'get-time': { readOnlyHint: true } } }] });
}, 30_000);
afterAll(async () => {
  await server?.close();
  await example?.stop();
});

const json = (method: string, path: string, body?: unknown) =>
  server.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method,
      ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    }),
  );

async function getTime(threadId: string): Promise<string> {
  const response = await json('POST', '/v1/invocations', { threadId, capability: 'clock.get-time', args: {} });
  expect(response.status).toBe(200);
  const events = server.host.events.read({ user: 'local', space: 'default', id: threadId });
  const list = await events;
  const started = list.find((e) => e.type === 'capability.started');
  return (started as { invocation_id: string }).invocation_id;
}

describe('MCP Apps on the workspace server', () => {
  it('consumes the tool with its view; the result points at the view and the log never holds the HTML', async () => {
    expect(server.mcpServers[0]!.capabilities).toContain('clock.get-time');
    const manifest = await (await json('GET', '/v1/manifest')).json();
    expect(manifest.features).toEqual(expect.arrayContaining(['readApp', 'callAppTool']));
    await getTime('t-app-1');
    const log = await server.host.events.read({ user: 'local', space: 'default', id: 't-app-1' });
    const done = log.find((e) => e.type === 'capability.done') as { result: { _meta?: Record<string, unknown> } };
    expect(done.result._meta?.[MCP_APP_META]).toEqual({ resourceUri: 'ui://get-time/mcp-app.html' });
    expect(JSON.stringify(log).length).toBeLessThan(5_000);
  });

  it('answers the view of a card: the example’s HTML, no declared origins', async () => {
    const id = await getTime('t-app-2');
    const response = await json('GET', `/v1/threads/t-app-2/invocations/${id}/app`);
    expect(response.status).toBe(200);
    const view = await response.json();
    expect(view.uri).toBe('ui://get-time/mcp-app.html');
    expect(view.server).toBe('clock');
    expect(view.html).toContain('Get Server Time');
    expect(view.csp).toEqual({});
    // It names the frame document it runs in, on this server.
    expect(view.frame).toBe('/v1/app-frame');
  });

  it('runs the app’s own tools/call inside its card: the result back, nothing added to the thread', async () => {
    const id = await getTime('t-app-3');
    const before = await server.host.events.read({ user: 'local', space: 'default', id: 't-app-3' });
    const response = await json('POST', `/v1/threads/t-app-3/invocations/${id}/app/calls`, { name: 'get-time', arguments: {} });
    expect(response.status).toBe(200);
    const { result, invocationId } = await response.json();
    expect(typeof result.structuredContent.time).toBe('string');
    expect(Number.isNaN(Date.parse(result.structuredContent.time))).toBe(false);
    // No card per call (issue 44): the thread is as it was, and the answer names no card.
    const log = await server.host.events.read({ user: 'local', space: 'default', id: 't-app-3' });
    expect(log).toHaveLength(before.length);
    expect(invocationId).toBeUndefined();
  });

  it('a tool the host left as a mutate waits for approval, from the app as from a chip', async () => {
    const strict = await createWorkspaceServer({ capabilities: [], database: ':memory:', mcpServers: [{ name: 'clock', url: example.url }] });
    try {
      const chip = await strict.fetch(new Request('http://127.0.0.1/v1/invocations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ threadId: 't-strict', capability: 'clock.get-time', args: {} }) }));
      expect((await chip.json()).result.structuredContent).toEqual({ waiting_for_approval: true });
      const log = await strict.host.events.read({ user: 'local', space: 'default', id: 't-strict' });
      expect(log.map((e) => e.type)).toEqual(['approval.requested']);
    } finally {
      await strict.close();
    }
  });

  it('refuses, in words, a tool the view’s server does not offer, an unknown card, and another thread’s card', async () => {
    const id = await getTime('t-app-4');
    const unknownTool = await json('POST', `/v1/threads/t-app-4/invocations/${id}/app/calls`, { name: 'rm-rf', arguments: {} });
    expect(unknownTool.status).toBe(404);
    expect((await unknownTool.json()).error.message).toContain('"rm-rf"');
    const unknownCard = await json('GET', '/v1/threads/t-app-4/invocations/inv_nope/app');
    expect(unknownCard.status).toBe(404);
    expect((await unknownCard.json()).error.message).toContain('no invocation "inv_nope"');
    const otherThread = await json('GET', `/v1/threads/t-app-other/invocations/${id}/app`);
    expect(otherThread.status).toBe(404);
    const badBody = await json('POST', `/v1/threads/t-app-4/invocations/${id}/app/calls`, { name: '' });
    expect(badBody.status).toBe(400);
  });
});
