import { afterEach, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../runtime/events';
import { createWorkspaceServer, type WorkspaceServer } from '../server/createWorkspaceServer';
import { bearerKeys } from '../server/authenticators';
import { createLocalWorkspace } from './localWorkspace';
import { createRemoteWorkspace, RemoteWorkspaceError, type RemoteWorkspace } from './remoteWorkspace';

/** The remote workspace's attachments against the real server: upload with progress, send with ids, read one's own, refusals in the server's words. */

const ALICE = 'remote-attach-alice-0123456789';
const BOB = 'remote-attach-bob-0123456789';
let server: WorkspaceServer | null = null;
const remotes: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const remote of remotes.splice(0)) remote.close();
  await server?.close();
  server = null;
});

async function start(limits: { maxPerMessage?: number; maxFileBytes?: number } = {}) {
  server = await createWorkspaceServer({
    capabilities: [],
    database: ':memory:',
    authenticate: bearerKeys([
      { id: 'alice', key: ALICE },
      { id: 'bob', key: BOB },
    ]),
    attachments: limits,
  });
  const { url } = await server.listen();
  const as = async (key: string) => {
    const remote = await createRemoteWorkspace({ url, retryMs: 50, headers: { authorization: `Bearer ${key}` }, fetch: (input, init) => fetch(input, init) });
    remotes.push(remote);
    return remote;
  };
  return { alice: await as(ALICE), bob: await as(BOB) };
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);

describe('createRemoteWorkspace: attachments', () => {
  it('uploads a file, sends it with a message (the ref on message.created), and reads it back', async () => {
    const { alice } = await start({ maxPerMessage: 3 });
    expect(alice.attachments?.maxPerMessage).toBe(3);
    const progress: [number, number][] = [];
    const ref = await alice.attachments!.upload({ threadId: 'main', file: new Blob(['name,email\nAda,ada@x.example\n'], { type: 'text/csv' }), name: 'people.csv', onProgress: (sent, total) => progress.push([sent, total]) });
    expect(ref).toMatchObject({ name: 'people.csv', media_type: 'text/csv', size: 29 });
    expect(ref.id).toMatch(/^att_/);
    expect(progress.at(0)).toEqual([0, 29]);
    expect(progress.at(-1)).toEqual([29, 29]);

    const events: ThreadEvent[] = [];
    alice.subscribe('main', (event) => events.push(event));
    await alice.send({ threadId: 'main', text: 'import this', attachments: [ref.id] });
    const created = events.find((e) => e.type === 'message.created' && e.role === 'user');
    expect(created).toMatchObject({ attachments: [ref] });

    const blob = await alice.attachments!.read(ref.id);
    expect(await blob.text()).toBe('name,email\nAda,ada@x.example\n');
    expect(blob.type).toMatch(/^text\/csv/);
  });

  it("refuses with the server's own words, and another user's file is not there", async () => {
    const { alice, bob } = await start({ maxFileBytes: 64 });
    const exe = new Blob([new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0])], { type: 'image/png' });
    const refused = await alice.attachments!.upload({ threadId: 'main', file: exe, name: 'photo.png' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RemoteWorkspaceError);
    expect((refused as RemoteWorkspaceError).status).toBe(415);
    expect((refused as RemoteWorkspaceError).serverMessage).toMatch(/^This file looks like .+, which cannot be attached here\. Attach PNG/);
    const big = await alice.attachments!.upload({ threadId: 'main', file: new Blob([new Uint8Array(200).fill(65)]), name: 'big.txt' }).catch((error: unknown) => error);
    expect((big as RemoteWorkspaceError).status).toBe(413);
    expect((big as RemoteWorkspaceError).serverMessage).toMatch(/^The file is larger than 64 bytes/);

    const ref = await alice.attachments!.upload({ threadId: 'main', file: new Blob([PNG], { type: 'image/png' }), name: 'dot.png' });
    await expect(bob.attachments!.read(ref.id)).rejects.toMatchObject({ status: 404 });
    // Bob cannot send it either: nothing is sent.
    await expect(bob.send({ threadId: 'main', text: 'look', attachments: [ref.id] })).rejects.toMatchObject({ status: 404, code: 'unknown_attachment' });
    await bob.attachments!.remove(ref.id);
    expect((await alice.attachments!.read(ref.id)).size).toBe(PNG.byteLength);
    await alice.attachments!.remove(ref.id);
    await expect(alice.attachments!.read(ref.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('createLocalWorkspace: attachments', () => {
  it('offers none, and refuses a send that names files in words, sending nothing', async () => {
    const local = createLocalWorkspace({ capabilities: [] });
    expect(local.attachments).toBeUndefined();
    const events: ThreadEvent[] = [];
    local.subscribe('t', (event) => events.push(event));
    await expect(local.send({ threadId: 't', text: 'import this', attachments: ['att_abc'] })).rejects.toThrow('This workspace runs in the page and keeps no files');
    expect(events.filter((e) => e.type === 'message.created')).toEqual([]);
  });
});
