import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../runtime/events';
import { startOfficialAppServer, type StartedAppServer } from '../test/officialAppServers';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/**
 * MCP Apps of a user's own MCP servers (issue 44 item 3): the official example servers from npm,
 * connected through the connectors routes as the chat's /mcp panel does, their views read
 * through that user's connection, and the apps' own calls kept inside their cards.
 */
let basic: StartedAppServer;
let monitor: StartedAppServer;
let budget: StartedAppServer;
let server: WorkspaceServer;
/** The tools the model was offered, per turn. */
const offered: string[][] = [];

beforeAll(async () => {
  [basic, monitor, budget] = await Promise.all([startOfficialAppServer('basic'), startOfficialAppServer('system-monitor'), startOfficialAppServer('budget-allocator')]);
  server = await createWorkspaceServer({
    capabilities: [],
    database: ':memory:',
    authenticate: (request) => {
      const user = request.headers.get('x-user');
      return user ? { user } : null;
    },
    connectors: { allowHosts: ['127.0.0.1'] },
    driver: {
      info: { id: 'scripted', label: 'Scripted' },
      async *respond(request) {
        offered.push(request.capabilities.map((c) => c.name));
        yield { type: 'text', text: 'Noted.' };
      },
    },
    limits: { appCalls: { burst: 100, perMinute: 600 } },
  });
  for (const [user, label, url] of [['alice', 'clock', basic.url], ['alice', 'monitor', monitor.url], ['bob', 'clock', budget.url]] as const) {
    const connected = await call(user, 'POST', '/v1/mcp-servers', { label, url });
    expect(connected.status, connected.text).toBe(201);
  }
}, 60_000);
afterAll(async () => {
  await server?.close();
  await Promise.all([basic, monitor, budget].map((s) => s?.stop()));
});

async function call(user: string | null, method: string, path: string, body?: unknown) {
  const response = await server.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method,
      headers: { ...(user ? { 'x-user': user } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as Record<string, any>) : null };
}

const eventsOf = async (user: string, threadId: string, since = 0): Promise<ThreadEvent[]> => [...(await server.host.events.read({ user, space: 'default', id: threadId }, since))];

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Gave up waiting for ${what}.`);
}

const pendingApproval = (user: string, threadId: string, since: number) =>
  until(async () => (await eventsOf(user, threadId, since)).find((e): e is Extract<ThreadEvent, { type: 'approval.requested' }> => e.type === 'approval.requested'), 'an approval row');

/** A card of `capability` in the user's thread, as a chip makes it: the tool is not read-only, so it is approved first. */
async function card(user: string, threadId: string, capability: string): Promise<string> {
  const since = (await eventsOf(user, threadId)).at(-1)?.seq ?? 0;
  expect((await call(user, 'POST', '/v1/invocations', { threadId, capability, args: {} })).status).toBe(200);
  const row = await pendingApproval(user, threadId, since);
  expect((await call(user, 'POST', `/v1/threads/${threadId}/decisions`, { id: row.approval_id, decision: 'approve' })).status).toBe(200);
  const done = await until(async () => (await eventsOf(user, threadId, since)).find((e) => e.type === 'capability.done'), 'the card to finish');
  return (done as { invocation_id: string }).invocation_id;
}

const appCall = (user: string, threadId: string, id: string, name: string, session: string) =>
  call(user, 'POST', `/v1/threads/${threadId}/invocations/${id}/app/calls`, { name, arguments: {}, session });

describe('MCP Apps of a user’s own connected servers', () => {
  it('the view renders from the user’s own connection: two users with the same label each get their own server’s view, and not the other’s card', async () => {
    const mine = await card('alice', 't-view', 'clock.get-time');
    const view = await call('alice', 'GET', `/v1/threads/t-view/invocations/${mine}/app`);
    expect(view.status, view.text).toBe(200);
    expect(view.json).toMatchObject({ uri: 'ui://get-time/mcp-app.html', server: 'clock', frame: '/v1/app-frame', csp: {} });
    expect(view.json!.html).toContain('Get Server Time');

    // Bob's "clock" is another server (the budget allocator): his card shows his view.
    const his = await card('bob', 't-view', 'clock.get-budget-data');
    const bobs = await call('bob', 'GET', `/v1/threads/t-view/invocations/${his}/app`);
    expect(bobs.status, bobs.text).toBe(200);
    expect(bobs.json!.uri).toBe('ui://budget-allocator/mcp-app.html');
    // Alice's card is no card of Bob's (his thread of the same id has no such invocation), nor may his app reach her tools.
    expect((await call('bob', 'GET', `/v1/threads/t-view/invocations/${mine}/app`)).status).toBe(404);
    const reach = await appCall('bob', 't-view', his, 'get-time', 's-bob');
    expect(reach.status).toBe(404);
    expect(reach.json!.error.message).toBe('The app asked for the tool "get-time", which "clock" does not offer in this workspace.');
    expect((await call(null, 'GET', `/v1/threads/t-view/invocations/${mine}/app`)).status).toBe(401);
  });

  it('the model is offered the app’s tool, not the tool only its app may call (visibility ["app"], no view of its own)', async () => {
    expect((await call('alice', 'POST', '/v1/threads/t-model/turns', { text: 'how busy is this machine?' })).status).toBe(200);
    const names = offered.at(-1)!;
    expect(names).toContain('monitor.get-system-info');
    expect(names).toContain('clock.get-time');
    expect(names).not.toContain('monitor.poll-system-stats');
  });

  it('a polling app’s calls stay inside its card: one approval row for the session, then 30 calls of its app-only tool add nothing to the thread', async () => {
    const id = await card('alice', 't-poll', 'monitor.get-system-info');
    const before = (await eventsOf('alice', 't-poll')).length;
    const seq = (await eventsOf('alice', 't-poll')).at(-1)!.seq;
    // The first call of the tool (not read-only) asks once, and waits for the answer.
    const first = appCall('alice', 't-poll', id, 'poll-system-stats', 's-1');
    const row = await pendingApproval('alice', 't-poll', seq);
    expect(row.capability).toBe('monitor.poll-system-stats');
    expect(row.approval_id).toMatch(/^appapproval_/);
    expect(row.reason).toBe(
      'The Get System Info (monitor) app asks to run Poll System Stats (monitor) from inside its card. Approved, the app may run it again without asking until it is closed; nothing it runs is added to the chat.',
    );
    // Polled again meanwhile: told in words at once, and no second row.
    const meanwhile = await appCall('alice', 't-poll', id, 'poll-system-stats', 's-1');
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.json!.result).toEqual({
      content: [{ type: 'text', text: "Poll System Stats (monitor) waits for your approval in the chat, so it was not run. Once you approve, the app's calls of it run." }],
      isError: true,
    });
    expect((await call('alice', 'POST', '/v1/threads/t-poll/decisions', { id: row.approval_id, decision: 'approve' })).status).toBe(200);
    const answered = await first;
    expect(answered.status, answered.text).toBe(200);
    expect(answered.json!.result.structuredContent.memory.usedBytes).toBeGreaterThan(0);
    expect(answered.json!.invocationId).toBeUndefined();
    for (let i = 0; i < 30; i++) {
      const polled = await appCall('alice', 't-poll', id, 'poll-system-stats', 's-1');
      expect(polled.status).toBe(200);
      expect(typeof polled.json!.result.structuredContent.timestamp).toBe('string');
    }
    // The row and its decision, nothing else: no card, no model history, for 32 calls.
    const added = (await eventsOf('alice', 't-poll')).slice(before).map((e) => e.type);
    expect(added).toEqual(['approval.requested', 'approval.resolved']);
  }, 30_000);

  it('the approval is per session: a new session asks again; declined, its calls are told no and run nothing, without a second row', async () => {
    const id = await card('alice', 't-session', 'clock.get-time');
    let seq = (await eventsOf('alice', 't-session')).at(-1)!.seq;
    const declined = appCall('alice', 't-session', id, 'get-time', 's-a');
    const row = await pendingApproval('alice', 't-session', seq);
    expect((await call('alice', 'POST', '/v1/threads/t-session/decisions', { id: row.approval_id, decision: 'deny' })).status).toBe(200);
    const no = 'You declined Get Time (clock) for this app, so it was not run. Close the app and open it again to be asked again.';
    expect((await declined).json!.result).toEqual({ content: [{ type: 'text', text: no }], isError: true });
    expect((await appCall('alice', 't-session', id, 'get-time', 's-a')).json!.result.content[0].text).toBe(no);
    const after = await eventsOf('alice', 't-session', seq);
    expect(after.map((e) => e.type)).toEqual(['approval.requested', 'approval.resolved']);
    expect(after[1]).toMatchObject({ decision: 'denied' });

    // The app opened again: a new session, asked again; approved, it runs.
    seq = after.at(-1)!.seq;
    const again = appCall('alice', 't-session', id, 'get-time', 's-b');
    const second = await pendingApproval('alice', 't-session', seq);
    expect(second.approval_id).not.toBe(row.approval_id);
    expect((await call('alice', 'POST', '/v1/threads/t-session/decisions', { id: second.approval_id, decision: 'approve' })).status).toBe(200);
    expect(Date.parse((await again).json!.result.structuredContent.time)).not.toBeNaN();
    // Deciding the app's row ran nothing in the thread: no card for get-time beyond the first.
    const started = (await eventsOf('alice', 't-session')).filter((e) => e.type === 'capability.started');
    expect(started).toHaveLength(1);
  }, 30_000);

  it('a view whose server was disconnected says so in words', async () => {
    const id = await card('alice', 't-gone', 'clock.get-time');
    expect((await call('alice', 'DELETE', '/v1/mcp-servers/clock', {})).status).toBe(200);
    const gone = await call('alice', 'GET', `/v1/threads/t-gone/invocations/${id}/app`);
    expect(gone.status).toBe(404);
    expect(gone.json!.error.message).toBe('"clock.get-time" is not among your tools any more (its MCP server was disconnected), so its view cannot be shown.');
  });
});
