/**
 * A consumed MCP server's question in the chat (MCP elicitation, issue 44): server-everything
 * 2026.8.31's `trigger-elicitation-request` (a form of every field kind) and
 * `trigger-url-elicitation`, called from a chat thread of a workspace server; the question is a
 * row of that thread, answered through the decide route by the thread's principal only, and the
 * tool's result is made of the answer. A question whose call ends first is closed as such.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resultText } from '../runtime/results';
import { foldAll, initialThreadState, type ElicitationRow, type InvocationRow, type ThreadState } from '../runtime/fold';
import type { ModelDriver } from '../runtime/model';
import { startEverythingServer, type EverythingServer } from '../test/everythingServer';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

let everything: EverythingServer;
let server: WorkspaceServer;
let base: string;
const closers: (() => void)[] = [];

/** Calls the tool named by the user's words (`form`, `url`), then repeats what it answered. */
const caller: ModelDriver = {
  info: { id: 'scripted', label: 'Scripted model' },
  async *respond({ messages }) {
    const last = messages.at(-1)!;
    if (last.role === 'tool') {
      yield { type: 'text', text: resultText(last.result) };
      return;
    }
    const text = last.role === 'user' ? String(last.text) : '';
    if (text.startsWith('url')) yield { type: 'invoke', capability: 'everything.trigger-url-elicitation', args: { url: 'https://accounts.example.com/consent?step=1', message: 'Sign in to continue.' } };
    else yield { type: 'invoke', capability: 'everything.trigger-elicitation-request', args: {} };
  },
};

beforeAll(async () => {
  everything = await startEverythingServer();
  server = await createWorkspaceServer({
    capabilities: [],
    driver: caller,
    // The words name no tool: the model's call runs without a proposal first.
    alignment: 'loose',
    database: ':memory:',
    // Two users, by a header the test sets (a real host checks a session).
    authenticate: (request) => {
      const user = request.headers.get('x-test-user');
      return user ? { user } : null;
    },
    workspace: { elicitationWaitMs: 60_000 },
    mcpServers: [
      {
        name: 'everything',
        url: everything.url,
        tools: ['trigger-elicitation-request', 'trigger-url-elicitation'],
        annotations: { 'trigger-elicitation-request': { readOnlyHint: true }, 'trigger-url-elicitation': { readOnlyHint: true } },
      },
    ],
  });
  base = (await server.listen()).url;
}, 30_000);

afterEach(() => {
  for (const close of closers.splice(0)) close();
});

afterAll(async () => {
  await server?.close();
  await everything?.stop();
});

async function as(user: string): Promise<RemoteWorkspace> {
  const remote = await createRemoteWorkspace({ url: base, headers: { 'x-test-user': user } });
  closers.push(() => remote.close());
  return remote;
}

/** Follows a thread; `question()` resolves with its newest elicitation row once one is pending. */
function follow(remote: RemoteWorkspace, threadId: string) {
  let state: ThreadState = initialThreadState;
  remote.subscribe(threadId, (event) => (state = foldAll(state, [event])));
  const question = async (): Promise<ElicitationRow> => {
    for (let i = 0; i < 300; i++) {
      const row = state.rows.findLast((r): r is ElicitationRow => r.kind === 'elicitation');
      if (row?.status === 'pending') return row;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`No question came: ${JSON.stringify(state.rows).slice(0, 1500)} ${JSON.stringify(server.mcpServers)}`);
  };
  return { state: () => state, question };
}

describe('a form elicitation from a tool the chat runs', () => {
  it('becomes a row of the thread with the server, the tool and the fields; the answer goes back and the result uses it', async () => {
    const alice = await as('alice');
    const thread = follow(alice, 'form-1');
    const sent = alice.send({ threadId: 'form-1', text: 'form please' });
    const row = await thread.question();
    const card = thread.state().rows.find((r): r is InvocationRow => r.kind === 'invocation')!;
    expect(row).toMatchObject({ kind: 'elicitation', server: 'everything', tool: 'trigger-elicitation-request', invocation_id: card.id, mode: 'form', message: 'Please provide inputs for the following fields:' });
    expect(row.requested_schema).toMatchObject({ required: ['name'], properties: { integer: { type: 'integer', minimum: 1, maximum: 100 } } });
    expect(card.state).toBe('running');

    // Another user's decision on it: nothing of theirs waits under that id (404), and the row stays pending.
    const mallory = await fetch(`${base}/v1/threads/form-1/decisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-user': 'mallory' },
      body: JSON.stringify({ id: row.id, decision: 'answer', answer: '{"name":"Mallory"}' }),
    });
    expect(mallory.status).toBe(404);
    // A value that does not fit is refused in words (400), and the question still waits.
    await expect(alice.decide({ threadId: 'form-1', id: row.id, decision: 'answer', answer: JSON.stringify({ name: 'Ada', integer: 500 }) })).rejects.toThrow('Integer must be at most 100.');
    await expect(alice.decide({ threadId: 'form-1', id: row.id, decision: 'answer', answer: JSON.stringify({ integer: 5 }) })).rejects.toThrow('String is required.');
    expect((await thread.question()).id).toBe(row.id);

    await alice.decide({ threadId: 'form-1', id: row.id, decision: 'answer', answer: JSON.stringify({ name: 'Ada Lovelace', check: true, integer: 7, untitledSingleSelectEnum: 'Joey' }) });
    await sent;
    const answered = thread.state().rows.find((r): r is ElicitationRow => r.kind === 'elicitation' && r.id === row.id)!;
    expect(answered).toMatchObject({ status: 'accepted', content: { name: 'Ada Lovelace', check: true, integer: 7, untitledSingleSelectEnum: 'Joey' } });
    const done = thread.state().rows.find((r): r is InvocationRow => r.kind === 'invocation')!;
    expect(done.state).toBe('done');
    expect(resultText(done.result!)).toContain('- Name: Ada Lovelace');
    expect(resultText(done.result!)).toContain('- Favorite Integer: 7');
    // Answered once: a second answer finds nothing waiting.
    await expect(alice.decide({ threadId: 'form-1', id: row.id, decision: 'deny' })).rejects.toThrow('already answered');
  }, 30_000);

  it('decline and cancel reach the server as such', async () => {
    const alice = await as('alice');
    for (const [decision, words] of [
      ['deny', 'User declined to provide the requested information'],
      ['dismiss', 'User cancelled the elicitation dialog'],
    ] as const) {
      const threadId = `form-${decision}`;
      const thread = follow(alice, threadId);
      const sent = alice.send({ threadId, text: 'form please' });
      const row = await thread.question();
      await alice.decide({ threadId, id: row.id, decision });
      await sent;
      expect(thread.state().rows.find((r) => r.kind === 'elicitation')).toMatchObject({ status: decision === 'deny' ? 'declined' : 'cancelled' });
      expect(resultText(thread.state().rows.find((r): r is InvocationRow => r.kind === 'invocation')!.result!)).toContain(words);
    }
  }, 30_000);

  it('a question whose call is stopped is closed as such, and an answer after that is refused', async () => {
    const alice = await as('alice');
    const thread = follow(alice, 'form-stop');
    const sent = alice.send({ threadId: 'form-stop', text: 'form please' });
    const row = await thread.question();
    alice.cancel({ threadId: 'form-stop', id: row.invocation_id! });
    await sent;
    for (let i = 0; i < 100 && thread.state().rows.find((r) => r.kind === 'elicitation' && r.status === 'pending'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(thread.state().rows.find((r) => r.kind === 'elicitation')).toMatchObject({ status: 'closed', closed: 'call_ended' });
    await expect(alice.decide({ threadId: 'form-stop', id: row.id, decision: 'deny' })).rejects.toThrow('already closed');
  }, 30_000);
});

describe('a URL elicitation', () => {
  it('is a row with the page and its host; Done accepts it', async () => {
    const alice = await as('alice');
    const thread = follow(alice, 'url-1');
    const sent = alice.send({ threadId: 'url-1', text: 'url please' });
    const row = await thread.question();
    expect(row).toMatchObject({ mode: 'url', server: 'everything', url: 'https://accounts.example.com/consent?step=1', host: 'accounts.example.com', message: 'Sign in to continue.' });
    // A URL request takes accept (Done), not a form's answer.
    await expect(alice.decide({ threadId: 'url-1', id: row.id, decision: 'answer', answer: '{}' })).rejects.toThrow('takes accept, deny or dismiss');
    await alice.decide({ threadId: 'url-1', id: row.id, decision: 'accept' });
    await sent;
    expect(thread.state().rows.find((r) => r.kind === 'elicitation')).toMatchObject({ status: 'accepted' });
    expect(resultText(thread.state().rows.find((r): r is InvocationRow => r.kind === 'invocation')!.result!)).toContain('User completed the URL elicitation flow');
  }, 30_000);
});

describe("a user's own MCP server (connected in the chat) asks in the chat too", () => {
  let own: WorkspaceServer;
  let ownBase: string;
  /** Calls the user's own server's form tool, then repeats what it answered. */
  const ownCaller: ModelDriver = {
    info: { id: 'scripted', label: 'Scripted model' },
    async *respond({ messages }) {
      const last = messages.at(-1)!;
      if (last.role === 'tool') yield { type: 'text', text: resultText(last.result) };
      else yield { type: 'invoke', capability: 'mine.trigger-elicitation-request', args: {} };
    },
  };

  beforeAll(async () => {
    own = await createWorkspaceServer({
      capabilities: [],
      driver: ownCaller,
      alignment: 'loose',
      database: ':memory:',
      authenticate: (request) => {
        const user = request.headers.get('x-test-user');
        return user ? { user } : null;
      },
      workspace: { elicitationWaitMs: 60_000 },
      connectors: { allowHosts: ['127.0.0.1'] },
    });
    ownBase = (await own.listen()).url;
  }, 30_000);
  afterAll(async () => {
    await own?.close();
  });

  it('a form from a server alice connected is a row of her thread; her answer reaches the tool', async () => {
    const connected = await fetch(`${ownBase}/v1/mcp-servers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-user': 'alice' },
      body: JSON.stringify({ label: 'mine', url: everything.url }),
    });
    expect(connected.status).toBe(201);
    const alice = await createRemoteWorkspace({ url: ownBase, headers: { 'x-test-user': 'alice' } });
    closers.push(() => alice.close());
    let state: ThreadState = initialThreadState;
    alice.subscribe('own-1', (event) => (state = foldAll(state, [event])));
    const sent = alice.send({ threadId: 'own-1', text: 'form please' });
    // A tool of a user's own server that does not say it only reads waits for approval first.
    // (Approving answers once the run it starts is done: that run waits for the question below.)
    let row: ElicitationRow | undefined;
    let approved: Promise<void> | undefined;
    for (let i = 0; i < 400 && !row; i++) {
      const approval = state.rows.find((r) => r.kind === 'approval' && r.status === 'pending');
      if (approval && !approved) approved = alice.decide({ threadId: 'own-1', id: approval.id, decision: 'approve' });
      row = state.rows.findLast((r): r is ElicitationRow => r.kind === 'elicitation' && r.status === 'pending');
      if (!row) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(row, JSON.stringify(state.rows).slice(0, 1500)).toMatchObject({ kind: 'elicitation', server: 'mine', tool: 'trigger-elicitation-request', mode: 'form' });
    await alice.decide({ threadId: 'own-1', id: row!.id, decision: 'answer', answer: JSON.stringify({ name: 'Grace Hopper', integer: 3 }) });
    await Promise.all([sent, approved]);
    const done = state.rows.find((r): r is InvocationRow => r.kind === 'invocation')!;
    expect(done.state).toBe('done');
    expect(resultText(done.result!)).toContain('- Name: Grace Hopper');
  }, 40_000);
});
