import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleAppServer } from '../test/exampleMcpApp';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/** An MCP App view that calls tools on its own, with no user action, is throttled per view (issue 43: 300 calls made 252 cards). */
let example: Awaited<ReturnType<typeof startExampleAppServer>>;
let server: WorkspaceServer;

beforeAll(async () => {
  example = await startExampleAppServer();
  server = await createWorkspaceServer({
    capabilities: [],
    database: ':memory:',
    mcpServers: [{ name: 'clock', url: example.url, annotations: { 'get-time': { readOnlyHint: true } } }],
    limits: { appCalls: { burst: 5, perMinute: 6 } },
  });
}, 30_000);
afterAll(async () => {
  await server?.close();
  await example?.stop();
});

const post = (path: string, body: unknown) =>
  server.fetch(new Request(`http://127.0.0.1${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }));

async function card(threadId: string): Promise<string> {
  expect((await post('/v1/invocations', { threadId, capability: 'clock.get-time', args: {} })).status).toBe(200);
  const started = (await server.host.events.read({ user: 'local', space: 'default', id: threadId })).find((e) => e.type === 'capability.started');
  return (started as { invocation_id: string }).invocation_id;
}

const cards = async (threadId: string) => (await server.host.events.read({ user: 'local', space: 'default', id: threadId })).filter((e) => e.type === 'capability.started').length;

describe('an MCP App view’s calls', () => {
  it('30 calls at once from one view: the burst runs, the rest are refused in words with Retry-After, and no card is added for them', async () => {
    const id = await card('t-flood');
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await post(`/v1/threads/t-flood/invocations/${id}/app/calls`, { name: 'get-time', arguments: {} }));
    expect(answers.map((r) => r.status).filter((s) => s === 200)).toHaveLength(5);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(25);
    const body = await refused[0]!.json();
    expect(body.error.code).toBe('app_calls_limited');
    expect(body.error.message).toBe('This app is calling tools too often: it may make 5 calls at once, then 6 a minute. This call was not run; it can try again in 10 s.');
    expect(refused[0]!.headers.get('retry-after')).toBe('10');
    // The chip's card only: the five calls that ran stay inside it (issue 44), and nothing for the 25 refused.
    expect(await cards('t-flood')).toBe(1);
  });

  it('the limit is per view: another card’s view has its own burst', async () => {
    const first = await card('t-two');
    for (let i = 0; i < 5; i++) expect((await post(`/v1/threads/t-two/invocations/${first}/app/calls`, { name: 'get-time' })).status).toBe(200);
    expect((await post(`/v1/threads/t-two/invocations/${first}/app/calls`, { name: 'get-time' })).status).toBe(429);
    const second = await card('t-other');
    expect((await post(`/v1/threads/t-other/invocations/${second}/app/calls`, { name: 'get-time' })).status).toBe(200);
  });
});
