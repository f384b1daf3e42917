import { afterEach, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState, type ThreadState } from '../runtime/fold';
import type { ModelDriver, ModelRequest } from '../runtime/model';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';
import { pathOf, routes } from '../workspace/protocol';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/** The load-skill directive as a typed field on the workspace protocol (issue 38). */

const KEY = 'skill-field-key-0123456789';
let server: WorkspaceServer | null = null;
const remotes: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const remote of remotes.splice(0)) remote.close();
  await server?.close();
  server = null;
});

async function start() {
  const requests: ModelRequest[] = [];
  const driver: ModelDriver = {
    info: { id: 'probe', label: 'Probe' },
    async *respond(request) {
      requests.push(request);
      yield { type: 'text', text: 'ok' };
    },
  };
  server = await createWorkspaceServer({ capabilities: [], driver, database: ':memory:', authenticate: bearerKeys([{ id: 'dev', key: KEY }]) });
  const { url } = await server.listen();
  const remote = await createRemoteWorkspace({ url, retryMs: 50, headers: { authorization: `Bearer ${KEY}` } });
  remotes.push(remote);
  return { url, remote, requests };
}

function watch(remote: RemoteWorkspace, threadId: string) {
  const events: ThreadEvent[] = [];
  remote.subscribe(threadId, (event) => void events.push(event));
  return { events, state: (): ThreadState => foldAll(initialThreadState, events) };
}

const post = (url: string, threadId: string, body: unknown) =>
  fetch(`${url}${pathOf(routes.send.path, { threadId })}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a turn request with a skill', () => {
  it('loads the skill: the model gets its instructions and the task alone, the log keeps the field', async () => {
    const { remote, requests } = await start();
    const thread = watch(remote, 't1');
    await remote.send({ threadId: 't1', text: 'the last import', skill: '/summarize' });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.skills?.map((s) => s.title)).toEqual(['/summarize']);
    expect(requests[0]!.messages.at(-1)).toEqual({ role: 'user', text: 'the last import' });
    expect(thread.events.find((e) => e.type === 'message.created')).toMatchObject({ role: 'user', text: 'the last import', skill: '/summarize' });
    expect(thread.events.some((e) => e.type === 'skill.activated')).toBe(true);
    expect(thread.state().rows[0]).toMatchObject({ kind: 'user', text: 'the last import', skill: '/summarize' });
  });

  it('a request in the legacy text form gives the model the same request and logs the same message', async () => {
    const { remote, requests } = await start();
    const typed = watch(remote, 'typed');
    const legacy = watch(remote, 'legacy');
    await remote.send({ threadId: 'typed', text: 'the last import', skill: '/summarize' });
    await remote.send({ threadId: 'legacy', text: '[load_skill /summarize]\nthe last import' });
    expect(requests).toHaveLength(2);
    // The same request, byte for byte (the signal and callbacks aside).
    expect(JSON.stringify(requests[1])).toBe(JSON.stringify(requests[0]));
    // Ids differ between the two threads (and so does the reply a row is filed under, named after its message).
    const strip = (events: ThreadEvent[]) => events.map(({ seq: _s, ts: _t, ...rest }) => ({ ...rest, ...('message_id' in rest ? { message_id: 'm' } : {}), ...('turn_id' in rest ? { turn_id: 't' } : {}), ...('branch' in rest ? { branch: 'b' } : {}) }));
    expect(strip(legacy.events).filter((e) => e.type !== 'model.message')).toEqual(strip(typed.events).filter((e) => e.type !== 'model.message'));
  });

  it('the protocol refuses a malformed skill with a 400 and runs nothing', async () => {
    const { url, remote, requests } = await start();
    for (const skill of ['summarize', '/Summarize', '/sum marize', '', 42, null, `/${'a'.repeat(65)}`]) {
      const response = await post(url, 't1', { text: 'the last import', skill });
      expect(response.status, JSON.stringify(skill)).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(/^skill: /);
    }
    expect(requests).toHaveLength(0);
    // A well-formed one is taken.
    expect((await post(url, 't1', { text: 'the last import', skill: '/summarize' })).status).toBe(200);
    expect(requests).toHaveLength(1);
    remote.close();
  });

  it('the host refuses a malformed skill from a workspace in the page too', async () => {
    await start();
    await expect(server!.host.send({ user: 'dev' }, { threadId: 't1', text: 'x', skill: 'summarize' })).rejects.toThrow(/slash name/);
  });
});
