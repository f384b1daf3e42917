import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

const ALICE = 'alice-key-0123456789';
const BOB = 'bob-key-0123456789ab';
let server: WorkspaceServer | null = null;
let runs = 0;

afterEach(async () => {
  await server?.close();
  server = null;
  runs = 0;
});

const add = defineCapability({
  name: 'math.add',
  title: 'Add',
  description: 'Adds a and b.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => {
    runs++;
    return textResult(String(a + b), { sum: a + b });
  },
});

async function start() {
  server = await createWorkspaceServer({
    capabilities: [add],
    database: ':memory:',
    authenticate: bearerKeys([
      { id: 'alice', key: ALICE },
      { id: 'bob', key: BOB },
    ]),
    alignment: 'loose',
  });
  return (await server.listen()).url;
}

const json = (key: string | null, body: unknown, extra: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...extra },
  body: JSON.stringify(body),
});
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

/** Every route of the workspace protocol, with a body it would accept. */
const ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/v1/manifest'],
  ['GET', '/v1/nodes?q=nodeType:Skill'],
  ['GET', '/v1/threads/t1/events'],
  ['POST', '/v1/threads/t1/turns', { text: 'hello' }],
  ['POST', '/v1/threads/t1/view', { view: { kind: 'records' } }],
  ['POST', '/v1/threads/t1/composer', { composer: { modelName: 'offline' } }],
  ['POST', '/v1/threads/t1/decisions', { id: 'approval_x', decision: 'approve' }],
  ['POST', '/v1/threads/t1/providers', { provider: 'ClaudeCode', action: 'connect' }],
  ['POST', '/v1/invocations', { threadId: 't1', capability: 'math.add', args: { a: 1, b: 2 } }],
  ['POST', '/v1/invocations/inv_x/cancel', { threadId: 't1' }],
  ['POST', '/v1/skills', { threadId: 't1', id: 'weekly', description: 'Weekly.', instructions: 'Do it.' }],
];

describe('the workspace server: who may do what', () => {
  it('answers 401 on every workspace route without credentials, and runs nothing', async () => {
    const url = await start();
    for (const [method, path, body] of ROUTES) {
      const response = await fetch(`${url}${path}`, body === undefined ? { method } : { ...json(null, body), method });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect((await response.json()).error.code).toBe('unauthorized');
    }
    expect(runs).toBe(0);
  });

  it("keeps two users' threads apart: another user's thread id is a thread that is not there (404)", async () => {
    const url = await start();
    const turn = await fetch(`${url}/v1/threads/t1/turns`, json(ALICE, { text: 'add a=1 b=2' }));
    expect(turn.status).toBe(200);
    const events = await fetch(`${url}/v1/threads/t1/events`, as(BOB));
    expect(events.status).toBe(404);
    expect(await events.json()).toEqual({ error: { code: 'unknown_thread', message: 'There is no thread "t1" here.' } });
    // Asked as a stream (the remote workspace, EventSource), a thread not written yet is 204, no error and nothing of Alice's.
    const stream = await fetch(`${url}/v1/threads/t1/events`, { headers: { ...as(BOB).headers, accept: 'text/event-stream' } });
    expect(stream.status).toBe(204);
    expect(await stream.text()).toBe('');
    expect((await fetch(`${url}/v1/threads/t1/decisions`, json(BOB, { id: 'approval_x', decision: 'approve' }))).status).toBe(404);
    expect((await fetch(`${url}/v1/invocations/inv_x/cancel`, json(BOB, { threadId: 't1' }))).status).toBe(404);
    // Alice's own stream is there; Bob writing "t1" makes a thread of his own.
    const own = await fetch(`${url}/v1/threads/t1/events?since=0`, { ...as(ALICE), signal: AbortSignal.timeout(2_000) }).catch(() => null);
    expect(own?.status).toBe(200);
    await own?.body?.cancel();
    expect((await fetch(`${url}/v1/threads/t1/view`, json(BOB, { view: { kind: 'mine' } }))).status).toBe(200);
    expect(await server!.host.lastSeq({ user: 'bob' }, 't1')).toBe(1);
    expect(await server!.host.lastSeq({ user: 'alice' }, 't1')).toBeGreaterThan(1);
  });

  it("shows a chat job on REST to its own user only", async () => {
    const url = await start();
    const answer = await (await fetch(`${url}/v1/invocations`, json(ALICE, { threadId: 't1', capability: 'math.add', args: { a: 1, b: 2 } }))).json();
    expect(answer.result.structuredContent).toEqual({ sum: 3 });
    const [job] = await server!.jobs.list();
    expect((await fetch(`${url}/v1/jobs/${job!.id}`, as(ALICE))).status).toBe(200);
    expect((await fetch(`${url}/v1/jobs/${job!.id}`, as(BOB))).status).toBe(404);
  });

  it('takes state-changing requests as application/json only (415), and runs nothing', async () => {
    const url = await start();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await fetch(`${url}/v1/invocations`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `Bearer ${ALICE}` },
        body: JSON.stringify({ threadId: 't1', capability: 'math.add', args: { a: 1, b: 2 } }),
      });
      expect(response.status, type).toBe(415);
    }
    expect(runs).toBe(0);
    expect(await server!.host.exists({ user: 'alice' }, 't1')).toBe(false);
  });

  it('refuses a request from another origin with 403 on every door, /mcp included', async () => {
    const url = await start();
    const evil = { origin: 'http://evil.example' };
    expect((await fetch(`${url}/v1/invocations`, json(ALICE, { threadId: 't1', capability: 'math.add', args: { a: 1, b: 2 } }, evil))).status).toBe(403);
    expect((await fetch(`${url}/v1/capabilities/math.add`, json(ALICE, { a: 1, b: 2 }, evil))).status).toBe(403);
    const mcp = await fetch(`${url}/mcp`, json(ALICE, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...evil, accept: 'application/json, text/event-stream' }));
    expect(mcp.status).toBe(403);
    expect((await mcp.json()).error.code).toBe('cross_origin');
    expect((await fetch(`${url}/v1/manifest`, { headers: { ...evil, authorization: `Bearer ${ALICE}` } })).status).toBe(403);
    expect(runs).toBe(0);
    // The server's own origin passes.
    expect((await fetch(`${url}/v1/manifest`, { headers: { origin: url, authorization: `Bearer ${ALICE}` } })).status).toBe(200);
  });

  it('refuses arguments nested 10,000 deep with a clear 400, leaving no job or thread behind', async () => {
    const url = await start();
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const response = await fetch(`${url}/v1/invocations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
      body: `{"threadId":"t1","capability":"math.add","args":{"a":${deep}}}`,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'too_deep' });
    expect(await server!.jobs.list()).toEqual([]);
    expect(await server!.host.exists({ user: 'alice' }, 't1')).toBe(false);
  });

  it('without an authenticate hook: refuses to listen beyond loopback, and answers loopback names only (no DNS rebinding)', async () => {
    server = await createWorkspaceServer({ capabilities: [add], database: ':memory:' });
    await expect(server.listen({ host: '0.0.0.0' })).rejects.toThrow(/no authenticate hook/);
    const { url } = await server.listen();
    expect((await fetch(`${url}/v1/manifest`)).status).toBe(200);
    const rebound = await server.fetch(new Request('http://attacker.example:8787/v1/manifest', { headers: { host: 'attacker.example:8787' } }));
    expect(rebound.status).toBe(403);
    expect((await rebound.json()).error.code).toBe('bad_host');
  });
});

describe('a skill on the doors', () => {
  it('gives its instructions as the tool result on REST (an external agent has no slab to load them into)', async () => {
    const { defineSkillCapability } = await import('../runtime/sources/skill');
    const crawl = defineSkillCapability('---\nname: crawl-plan\ndescription: Plans a crawl.\n---\nFetch politely: one page a second.', { file: 'crawl-plan/SKILL.md' });
    server = await createWorkspaceServer({ capabilities: [crawl], database: ':memory:', authenticate: bearerKeys([{ id: 'alice', key: ALICE }]) });
    const { url } = await server.listen();
    const response = await fetch(`${url}/v1/capabilities/crawl-plan`, json(ALICE, {}));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ content: [{ type: 'text', text: 'Fetch politely: one page a second.' }], structuredContent: { skill: 'crawl-plan', instructions: true } });
  });
});
