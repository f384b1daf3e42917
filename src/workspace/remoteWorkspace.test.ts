import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { resultText, textResult } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState, type InvocationRow, type ThreadState } from '../runtime/fold';
import type { ModelDriver } from '../runtime/model';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from '../server/createWorkspaceServer';
import { bearerKeys } from '../server/authenticators';
import { createRemoteWorkspace, RemoteWorkspaceError, type RemoteWorkspace } from './remoteWorkspace';

const KEY = 'remote-test-key-0123456789';
let server: WorkspaceServer | null = null;
const remotes: RemoteWorkspace[] = [];

afterEach(async () => {
  for (const remote of remotes.splice(0)) remote.close();
  await server?.close();
  server = null;
});

const add = defineCapability({
  name: 'math.add',
  title: 'Add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(String(a + b), { sum: a + b }),
});

/** Takes `ms` milliseconds, reporting progress every 50 ms. */
const report = defineCapability({
  name: 'report.build',
  title: 'Build report',
  description: 'Builds a long report.',
  input: z.object({ ms: z.number().int().min(0).max(5_000) }),
  handler: async ({ ms }, ctx) => {
    const steps = Math.max(1, Math.round(ms / 50));
    for (let i = 1; i <= steps; i++) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms / steps);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      });
      ctx.progress(i, steps, `Step ${i}`);
    }
    return textResult(`Report ready after ${ms} ms.`, { ms });
  },
});

/** A scripted model: the first step asks for `report.build` with `ms`, the next answers with the tool's text. */
function scriptedDriver(ms: number): ModelDriver {
  return {
    info: { id: 'scripted', label: 'Scripted model' },
    async *respond(request) {
      const last = request.messages.at(-1);
      if (last?.role === 'tool') {
        yield { type: 'text', text: `Result: ${resultText(last.result)}` };
        return;
      }
      yield { type: 'invoke', capability: 'report.build', args: { ms } };
    },
  };
}

/** The key's principal: the same user on the workspace protocol and on REST. */
const DEV = { user: 'dev' };

async function start(options: Partial<WorkspaceServerOptions> = {}) {
  server = await createWorkspaceServer({ capabilities: [add, report], database: ':memory:', authenticate: bearerKeys([{ id: 'dev', key: KEY }]), ...options });
  const { url } = await server.listen();
  const remote = await createRemoteWorkspace({ url, retryMs: 50, headers: { authorization: `Bearer ${KEY}` } });
  remotes.push(remote);
  return { url, remote };
}

/** Folds a remote thread into state, as the surface's store does. */
function watch(remote: RemoteWorkspace, threadId: string) {
  let state: ThreadState = initialThreadState;
  const seqs: number[] = [];
  const stop = remote.subscribe(threadId, (event: ThreadEvent) => {
    seqs.push(event.seq);
    state = foldAll(state, [event]);
  });
  return { get state() { return state; }, seqs, stop };
}

const cards = (state: ThreadState) => state.rows.filter((row): row is InvocationRow => row.kind === 'invocation');

describe('createRemoteWorkspace against createWorkspaceServer', () => {
  it('reads the manifest from the server', async () => {
    const { remote } = await start();
    expect(remote.manifest.capabilities.map((c) => c.name)).toEqual(['math.add', 'report.build']);
    expect(remote.manifest.driver.id).toBeTruthy();
    expect(remote.manifest.alignment).toBe('strict');
  });

  it('runs a turn on the server; send resolves once the stream has delivered the whole turn', async () => {
    const { remote } = await start({ driver: scriptedDriver(0) });
    const thread = watch(remote, 't1');
    await remote.send({ threadId: 't1', text: 'build report please' });
    const { rows } = thread.state;
    expect(rows[0]).toMatchObject({ kind: 'user', text: 'build report please' });
    expect(cards(thread.state)[0]).toMatchObject({ capability: 'report.build', state: 'done' });
    expect(rows.at(-1)).toMatchObject({ kind: 'assistant', status: 'done', text: 'Result: Report ready after 0 ms.' });
    expect(thread.seqs).toEqual(thread.seqs.map((_, i) => i + 1));
  });

  it('catches up a long backlog page by page, each event once, without waiting between pages', async () => {
    const { url } = await start();
    for (let i = 0; i < 5_000; i++) await server!.host.setView(DEV, { threadId: 'long', view: { kind: `view-${i}` } });
    let streams = 0;
    const states: string[] = [];
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith('/events')) streams++;
      return fetch(input, init);
    };
    const remote = await createRemoteWorkspace({ url, fetch: counting, headers: { authorization: `Bearer ${KEY}` }, onConnectionChange: (_t, state) => states.push(state) });
    remotes.push(remote);
    const thread = watch(remote, 'long');
    await expect.poll(() => thread.seqs.length, { timeout: 10_000, interval: 20 }).toBe(5_000);
    expect(thread.seqs).toEqual(thread.seqs.map((_, i) => i + 1));
    expect(thread.state.activeView).toEqual({ kind: 'view-4999' });
    expect(streams).toBeGreaterThanOrEqual(3);
    expect(states).not.toContain('reconnecting');
  });

  it("passes the local workspace's other options through, e.g. the host's provider hooks behind connect", async () => {
    const connected: string[] = [];
    const { remote } = await start({ workspace: { providers: { connect: (provider, { threadId }) => void connected.push(`${provider}@${threadId}`), disconnect: () => {} } } });
    expect(typeof remote.connect).toBe('function');
    await remote.connect!({ threadId: 't12', provider: 'ClaudeCode' });
    expect(connected).toEqual(['ClaudeCode@t12']);
  });

  it('does not wait for a stream nobody listens to any more', async () => {
    const { remote } = await start({ driver: scriptedDriver(0) });
    const thread = watch(remote, 't9');
    thread.stop();
    const started = Date.now();
    await remote.send({ threadId: 't9', text: 'build report please' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('invokes directly: the card carries its job id and GET /v1/jobs/{id} shows the same job', async () => {
    const { url, remote } = await start();
    const thread = watch(remote, 't2');
    const result = await remote.invoke({ threadId: 't2', capability: 'math.add', args: { a: 2, b: 40 } });
    expect(result).toEqual({ content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 } });
    const card = cards(thread.state)[0]!;
    expect(card).toMatchObject({ state: 'done', title: 'Add' });
    expect(card.job_id).toBe(card.id);
    const job = await (await fetch(`${url}/v1/jobs/${card.job_id}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
    expect(job).toMatchObject({ id: card.id, status: 'done', result: { structuredContent: { sum: 42 } } });
  });

  it('answers inline when a slow capability finishes inside the polling window', async () => {
    const { remote } = await start({ driver: scriptedDriver(150), jobs: { pollIntervalMs: 40, pollTimeoutMs: 2_000 } });
    const thread = watch(remote, 't3');
    await remote.send({ threadId: 't3', text: 'build report' });
    expect(thread.state.rows.at(-1)).toMatchObject({ kind: 'assistant', text: 'Result: Report ready after 150 ms.' });
  });

  it('turns a job that outlasts the window into a tracked card that follows the job to its end', async () => {
    const { url, remote } = await start({ driver: scriptedDriver(600), jobs: { pollIntervalMs: 40, pollTimeoutMs: 150 } });
    const thread = watch(remote, 't4');
    await remote.send({ threadId: 't4', text: 'build report, the big one' });
    // The turn is over: the model was told the job continues; the card is still running.
    const answer = thread.state.rows.at(-1);
    expect(answer).toMatchObject({ kind: 'assistant', status: 'done' });
    expect((answer as { text: string }).text).toMatch(/^Result: Build report is still running( \(\d+% so far\))?\. It continues as a tracked job/);
    const card = cards(thread.state)[0]!;
    expect(card.state).toBe('running');
    expect(card.job_id).toBe(card.id);
    const job = async () => (await fetch(`${url}/v1/jobs/${card.id}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
    expect((await job()).status).toBe('running');
    await expect.poll(() => cards(thread.state)[0]!.state, { timeout: 3_000, interval: 20 }).toBe('done');
    expect(cards(thread.state)[0]!.result).toMatchObject({ structuredContent: { ms: 600 } });
    expect(await job()).toMatchObject({ status: 'done', progress: { progress: 12, total: 12 } });
  });

  it('cancels a tracked job from its card even after the turn has ended', async () => {
    const { remote } = await start({ driver: scriptedDriver(3_000), jobs: { pollIntervalMs: 40, pollTimeoutMs: 100 } });
    const thread = watch(remote, 't5');
    await remote.send({ threadId: 't5', text: 'build report, the huge one' });
    const card = cards(thread.state)[0]!;
    expect(card.state).toBe('running');
    remote.cancel({ threadId: 't5', id: card.id });
    await expect.poll(() => cards(thread.state)[0]!.state, { timeout: 2_000, interval: 20 }).toBe('cancelled');
    expect(await server!.jobs.get(card.id)).toMatchObject({ status: 'cancelled' });
  });

  it('tells the thread about the view, and refuses bad requests with a readable error', async () => {
    const { remote } = await start();
    const thread = watch(remote, 't6');
    remote.setView({ threadId: 't6', view: { kind: 'record_list' } });
    await expect.poll(() => thread.state.activeView, { timeout: 2_000 }).toEqual({ kind: 'record_list' });
    // The server's workspace has composer selections, so the remote one offers them too.
    expect(typeof remote.setComposer).toBe('function');
    remote.setComposer!({ threadId: 't6', composer: { modelName: 'claude-sonnet-5-5' } });
    await expect.poll(() => thread.state.composer, { timeout: 2_000 }).toEqual({ modelName: 'claude-sonnet-5-5' });
    await expect(remote.send({ threadId: 't6', text: '   ' })).rejects.toThrow('text: Type a message first.');
    await expect(remote.send({ threadId: 'bad id!', text: 'hi' })).rejects.toBeInstanceOf(RemoteWorkspaceError);
    await expect(remote.decide({ threadId: 't6', id: 'prop_missing', decision: 'accept' })).rejects.toThrow(/prop_missing/);
    const invalid = await remote.invoke({ threadId: 't6', capability: 'math.add', args: { a: 'x' } });
    expect(invalid.isError).toBe(true);
    // The page and the server run chat calls through one chat door, which words bad arguments for a person (as the page always did).
    expect(resultText(invalid)).toBe('Add was not run: A must be a number. B is needed.');
  });

  it('applies the view and the composer a turn request carries before the turn', async () => {
    const { url, remote } = await start();
    const thread = watch(remote, 't10');
    const response = await fetch(`${url}/v1/threads/t10/turns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ text: 'hello', activeView: { kind: 'record_detail', id: 'r1' }, composer: { modelName: 'offline' } }),
    });
    expect(response.status).toBe(200);
    const { lastSeq } = await response.json();
    await expect.poll(() => thread.seqs.at(-1), { timeout: 2_000 }).toBe(lastSeq);
    expect(thread.state.activeView).toEqual({ kind: 'record_detail', id: 'r1' });
    expect(thread.state.composer).toEqual({ modelName: 'offline' });
    expect(thread.state.rows[0]).toMatchObject({ kind: 'user', text: 'hello' });
  });

  it('says so, without throwing, when the server cannot be reached', async () => {
    const { url, remote } = await start();
    await server!.close();
    server = null;
    const result = await remote.invoke({ threadId: 't7', capability: 'math.add', args: { a: 1, b: 1 } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(`Could not reach the workspace server at ${url}`);
    await expect(remote.send({ threadId: 't7', text: 'hello' })).rejects.toMatchObject({ status: 0, code: 'unreachable' });
  });

  it("passes the host's workspace check: without it every protocol route is 401 and the stream reports it once", async () => {
    server = await createWorkspaceServer({ capabilities: [add], database: ':memory:', authenticate: (request) => (request.headers.get('x-session') === 'valid' ? { user: 'ada' } : null) });
    const { url } = await server.listen();
    await expect(createRemoteWorkspace({ url })).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
      serverMessage: 'Sign in to use this workspace.',
      message: `You are not signed in to the workspace server at ${url} (401): Sign in to use this workspace.`,
    });
    const remote = await createRemoteWorkspace({ url, headers: { 'x-session': 'valid' } });
    remotes.push(remote);
    expect(await remote.invoke({ threadId: 't8', capability: 'math.add', args: { a: 1, b: 2 } })).toMatchObject({ structuredContent: { sum: 3 } });
    const states: string[] = [];
    const signedOut = await createRemoteWorkspace({ url, manifest: remote.manifest, onConnectionChange: (_t, state, detail) => states.push(`${state}: ${detail ?? ''}`) });
    remotes.push(signedOut);
    signedOut.subscribe('t8', () => {});
    await expect.poll(() => states, { timeout: 2_000 }).toEqual([`failed: You are not signed in to the workspace server at ${url} (401): Sign in to use this workspace.`]);
  });

  it("offers the server workspace's node query, and its errors, as the local one does", async () => {
    const { url, remote } = await start();
    expect(typeof remote.query).toBe('function');
    const q = 'nodeType:Skill sort:order';
    const nodes = await remote.query!({ threadId: 't11', q });
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes).toEqual(await server!.host.query(DEV, { threadId: 't11', q }));
    const saved = await remote.saveSkill!({ threadId: 't11', id: 'weekly-import', description: 'Imports the weekly CSV.', instructions: 'Import the CSV, then enrich it.' });
    expect(saved).toMatchObject({ id: 'weekly-import', nodeType: 'Skill' });
    expect((await remote.query!({ threadId: 't11', q })).map((n) => n.id)).toContain('weekly-import');
    await expect(remote.query!({ threadId: 't11', q: 'colour:blue' })).rejects.toMatchObject({ status: 400, code: 'invalid_query', message: expect.stringContaining('Unknown query key "colour"') });
    const unsupported = await fetch(`${url}/v1/threads/t11/providers`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` }, body: JSON.stringify({ provider: 'x', action: 'explode' }) });
    expect(unsupported.status).toBe(400);
  });
});

describe('createRemoteWorkspace: what enters the page', () => {
  const manifest = { capabilities: [], driver: { id: 'x', label: 'X' }, alignment: 'strict' as const, anticipation: {}, features: [] };
  /** A server that answers one stream with these SSE frames, then holds the connection. */
  const streaming = (frames: string[]): typeof fetch => async (input) => {
    if (!String(input).endsWith('/events')) return Response.json({ lastSeq: 0 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const frame of frames) controller.enqueue(new TextEncoder().encode(frame));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };

  it('validates each event where it enters: one that breaks the contract becomes an error row in its place, never a cast', async () => {
    const remote = await createRemoteWorkspace({
      url: 'http://server.test',
      manifest,
      fetch: streaming([
        `id: 1\ndata: ${JSON.stringify({ type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'hi' })}\n\n`,
        `id: 2\ndata: ${JSON.stringify({ type: 'capability.progress', seq: 2, ts: 2, invocation_id: 'inv1', progress: 'half' })}\n\n`,
        `data: ${JSON.stringify({ type: 'message.delta', ts: 3, message_id: 'm2', delta: 'no seq' })}\n\n`,
        `id: 3\ndata: ${JSON.stringify({ type: 'message.created', seq: 3, ts: 3, message_id: 'm3', role: 'assistant', text: 'ok' })}\n\n`,
      ]),
    });
    remotes.push(remote);
    const events: ThreadEvent[] = [];
    remote.subscribe('t1', (e) => events.push(e));
    await expect.poll(() => events.length).toBe(3);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(events[1]).toMatchObject({ type: 'turn.error', code: 'malformed_event', recoverable: false });
    expect((events[1] as { message: string }).message).toContain('progress');
    const state = foldAll(initialThreadState, events);
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'error', 'assistant']);
  });

  it('waits for a thread that does not exist yet and follows it from its first write', async () => {
    let exists = false;
    const server: typeof fetch = async (input, init) => {
      const path = String(input);
      if (path.endsWith('/events')) {
        if (!exists) return Response.json({ error: { code: 'unknown_thread', message: 'There is no thread "t1" here.' } }, { status: 404 });
        return streaming([`id: 1\ndata: ${JSON.stringify({ type: 'view.changed', seq: 1, ts: 1, view: { kind: 'records' } })}\n\n`])(input, init);
      }
      exists = true;
      return Response.json({ lastSeq: 1 });
    };
    const states: string[] = [];
    const remote = await createRemoteWorkspace({ url: 'http://server.test', manifest, fetch: server, retryMs: 60_000, onConnectionChange: (_t, state) => states.push(state) });
    remotes.push(remote);
    const events: ThreadEvent[] = [];
    remote.subscribe('t1', (e) => events.push(e));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(states).toEqual([]);
    // The client's own first write wakes the stream at once (no 60 s retry), and nothing was reported as failed.
    remote.setView({ threadId: 't1', view: { kind: 'records' } });
    await expect.poll(() => events.length, { timeout: 2_000 }).toBe(1);
    expect(states).toEqual(['open']);
  });
});

describe('createRemoteWorkspace: MCP App calls', () => {
  const manifest = { capabilities: [], driver: { id: 'x', label: 'X' }, alignment: 'strict' as const, anticipation: {} };

  it('offers readApp and callAppTool only when the server lists them, on their paths', async () => {
    const seen: string[] = [];
    const fetchStub: typeof fetch = async (input, init) => {
      seen.push(`${init?.method ?? 'GET'} ${String(input)} ${init?.body ?? ''}`);
      if (String(input).endsWith('/app')) return Response.json({ uri: 'ui://a/v.html', server: 'a', html: '<p>v</p>', csp: {}, permissions: [], problems: [] });
      return Response.json({ result: { content: [{ type: 'text', text: 'ok' }] }, lastSeq: 0 });
    };
    const without = await createRemoteWorkspace({ url: 'http://server.test', manifest: { ...manifest, features: [] }, fetch: fetchStub });
    expect(without.readApp).toBeUndefined();
    expect(without.callAppTool).toBeUndefined();
    const remote = await createRemoteWorkspace({ url: 'http://server.test', manifest: { ...manifest, features: ['readApp', 'callAppTool'] }, fetch: fetchStub });
    remotes.push(without, remote);
    expect((await remote.readApp!({ threadId: 't1', invocationId: 'inv 1' })).html).toBe('<p>v</p>');
    expect((await remote.callAppTool!({ threadId: 't1', invocationId: 'inv1', name: 'get-time', arguments: { zone: 'UTC' } })).result).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(seen).toEqual([
      'GET http://server.test/v1/threads/t1/invocations/inv%201/app ',
      'POST http://server.test/v1/threads/t1/invocations/inv1/app/calls {"name":"get-time","arguments":{"zone":"UTC"}}',
    ]);
  });
});
