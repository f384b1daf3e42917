import { afterEach, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState, type AssistantRow } from '../runtime/fold';
import type { FeedbackChange } from '../runtime/host/hostTypes';
import type { ModelDriver } from '../runtime/model';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';
import { pathOf, routes } from '../workspace/protocol';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/** Feedback on a reply over the workspace protocol: the route, the server's onFeedback, another user's thread. */

const ALICE = 'feedback-alice-key-0123456789';
const BOB = 'feedback-bob-key-0123456789';
let server: WorkspaceServer | null = null;
const remotes: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const remote of remotes.splice(0)) remote.close();
  await server?.close();
  server = null;
});

async function start() {
  const changes: FeedbackChange[] = [];
  const driver: ModelDriver = {
    info: { id: 'probe', label: 'Probe 2' },
    async *respond() {
      yield { type: 'text', text: 'There are 6 records.' };
    },
  };
  server = await createWorkspaceServer({
    capabilities: [],
    driver,
    database: ':memory:',
    authenticate: bearerKeys([
      { id: 'alice', key: ALICE },
      { id: 'bob', key: BOB },
    ]),
    onFeedback: (change) => void changes.push(change),
  });
  const { url } = await server.listen();
  const remote = await createRemoteWorkspace({ url, retryMs: 50, headers: { authorization: `Bearer ${ALICE}` } });
  remotes.push(remote);
  return { url, remote, changes };
}

const post = (url: string, key: string, threadId: string, body: unknown) =>
  fetch(`${url}${pathOf(routes.feedback.path, { threadId })}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('feedback over the workspace protocol', () => {
  it('a remote workspace rates a reply: the event reaches its stream, onFeedback hears the principal and the model, the host reads it back', async () => {
    const { remote, changes } = await start();
    expect(remote.feedback).toBeTypeOf('function');
    const events: ThreadEvent[] = [];
    remote.subscribe('t1', (event) => void events.push(event));
    await remote.send({ threadId: 't1', text: 'how many records?' });
    const reply = foldAll(initialThreadState, events).rows.find((r): r is AssistantRow => r.kind === 'assistant')!;

    await remote.feedback!({ threadId: 't1', messageId: reply.id, rating: 'bad', comment: 'I have 7.' });
    expect(foldAll(initialThreadState, events).rows.find((r): r is AssistantRow => r.kind === 'assistant')!.feedback).toEqual({ rating: 'bad', comment: 'I have 7.' });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ principal: { user: 'alice' }, threadId: 't1', messageId: reply.id, rating: 'bad', comment: 'I have 7.', model: { id: 'probe', label: 'Probe 2' } });
    expect(await server!.host.feedbackOf(changes[0]!.principal, 't1')).toEqual([{ messageId: reply.id, rating: 'bad', comment: 'I have 7.', model: { id: 'probe', label: 'Probe 2' } }]);
  });

  it('another user’s reply is not there (404); a bad rating or an overlong comment is a 400 in plain words; nothing reaches onFeedback', async () => {
    const { url, remote, changes } = await start();
    const events: ThreadEvent[] = [];
    remote.subscribe('t1', (event) => void events.push(event));
    await remote.send({ threadId: 't1', text: 'how many records?' });
    const reply = foldAll(initialThreadState, events).rows.find((r): r is AssistantRow => r.kind === 'assistant')!;

    const foreign = await post(url, BOB, 't1', { messageId: reply.id, rating: 'good' });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ error: { code: 'unknown_message' } });

    const bad = await post(url, ALICE, 't1', { messageId: reply.id, rating: 'great' });
    expect(bad.status).toBe(400);
    const long = await post(url, ALICE, 't1', { messageId: reply.id, rating: 'bad', comment: 'x'.repeat(2_001) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(await long.json())).toMatch(/2000|2,000/);
    expect(changes).toEqual([]);
  });
});
