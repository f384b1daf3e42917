import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';
import { nodeEventWriter } from './nodeEventWriter';

/**
 * The thread stream over real sockets, as the Node server writes it: a
 * subscriber that stops reading is ended once the bytes it has not taken pass
 * the high-water mark (256 KiB), and resumes from `Last-Event-ID`; the
 * producer and the other subscribers never wait for it.
 */

/** `count` outputs of `size` bytes, one per turn of the event loop: far more than a stalled socket's buffers hold. */
const bulk = defineCapability({
  name: 'bulk.emit',
  title: 'Emit output',
  description: 'Writes output lines.',
  input: z.object({ count: z.number().int().min(1), size: z.number().int().min(1) }),
  handler: async ({ count, size }, ctx) => {
    for (let i = 0; i < count; i++) {
      ctx.output(`${i} ${'x'.repeat(size)}`, 'log');
      await new Promise((resolve) => setImmediate(resolve));
    }
    return textResult(`${count} lines`, { count });
  },
});

const LOCAL = { user: 'local' };
const THREAD = 'stream';
/** 160 × 64 KB: about 10 MB, past what the kernel's socket buffers take (about 4 MB here) before the server sees them fill. */
const BURST = { count: 160, size: 65_536 };

let server: WorkspaceServer | null = null;
const remotes: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const remote of remotes.splice(0)) remote.close();
  await server?.close();
  server = null;
});

async function start(options: { allowedOrigins?: string[] } = {}) {
  server = await createWorkspaceServer({ capabilities: [bulk], database: ':memory:', ...options });
  const { url } = await server.listen();
  await server.host.setView(LOCAL, { threadId: THREAD, view: { kind: 'log' } });
  return url;
}

/** The `id:` of every whole frame in `text`, and what is left after the last one. */
function frameIds(text: string): { ids: number[]; rest: string } {
  const ids: number[] = [];
  let at = 0;
  let cut: number;
  while ((cut = text.indexOf('\n\n', at)) !== -1) {
    const id = /^id: (\d+)$/m.exec(text.slice(at, cut))?.[1];
    if (id) ids.push(Number(id));
    at = cut + 2;
  }
  return { ids, rest: text.slice(at) };
}

describe('the thread stream under a slow subscriber', () => {
  it('drops a subscriber that stops reading; it reconnects with Last-Event-ID and receives every event once, in order', async () => {
    const url = await start();
    let streams = 0;
    const wire: number[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    // The page's fetch, its first event stream read only once the producer is done (a stalled tab).
    const slowFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith('/events') || !response.body) return response;
      const stalled = ++streams === 1;
      const decoder = new TextDecoder();
      let text = '';
      const body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          async transform(chunk, controller) {
            if (stalled) await released;
            const read = frameIds(text + decoder.decode(chunk, { stream: true }));
            wire.push(...read.ids);
            text = read.rest;
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(body, response);
    };
    const remote = await createRemoteWorkspace({ url, fetch: slowFetch, retryMs: 20 });
    remotes.push(remote);
    const delivered: number[] = [];
    remote.subscribe(THREAD, (event: ThreadEvent) => delivered.push(event.seq));
    await expect.poll(() => streams).toBe(1);

    await server!.host.invoke(LOCAL, { threadId: THREAD, capability: 'bulk.emit', args: BURST });
    const lastSeq = await server!.host.lastSeq(LOCAL, THREAD);
    release();

    const all = Array.from({ length: lastSeq }, (_, i) => i + 1);
    await expect.poll(() => delivered.length, { timeout: 20_000 }).toBe(lastSeq);
    expect(delivered).toEqual(all);
    // Ended once its unread bytes passed the mark, then resumed: each event on the wire once, in order.
    expect(streams).toBeGreaterThan(1);
    expect(wire).toEqual(all);
  }, 30_000);

  it('lets the producer finish and the other subscribers read everything while one subscriber takes nothing', async () => {
    const url = await start();
    const remote = await createRemoteWorkspace({ url, retryMs: 20 });
    remotes.push(remote);
    const delivered: number[] = [];
    remote.subscribe(THREAD, (event: ThreadEvent) => delivered.push(event.seq));

    // A raw subscriber that reads the head and then nothing.
    const stalled = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${url}/v1/threads/${THREAD}/events`, { headers: { accept: 'text/event-stream' } }, resolve).on('error', reject);
    });
    stalled.pause();
    await expect.poll(() => delivered.length).toBe(1);

    await server!.host.invoke(LOCAL, { threadId: THREAD, capability: 'bulk.emit', args: BURST });
    const lastSeq = await server!.host.lastSeq(LOCAL, THREAD);
    await expect.poll(() => delivered.length, { timeout: 20_000 }).toBe(lastSeq);
    expect(delivered).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));

    // The stalled one was ended after a part: when it reads again it gets that part, in order, then the end.
    stalled.setEncoding('utf8');
    let text = '';
    stalled.on('data', (chunk: string) => (text += chunk));
    stalled.resume();
    await new Promise((resolve) => stalled.once('end', resolve));
    const { ids } = frameIds(text);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThan(lastSeq);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
  }, 30_000);

  it('writes the stream straight to the socket with the head the middleware made: a listed origin gets its CORS answer', async () => {
    const url = await start({ allowedOrigins: ['https://app.example.com'] });
    const controller = new AbortController();
    const response = await fetch(`${url}/v1/threads/${THREAD}/events`, { headers: { accept: 'text/event-stream', origin: 'https://app.example.com' }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('\n\n', text.indexOf('id: 1'))) text += (await reader.read()).value ?? '';
    expect(text).toMatch(/^retry: 1000\n\nid: 1\nevent: view.changed\n/);
    controller.abort();
  });
});

describe('nodeEventWriter', () => {
  it('is there only for a Node response, waits for its head, and writes to it directly', async () => {
    expect(nodeEventWriter(undefined)).toBeUndefined();
    expect(nodeEventWriter({ outgoing: {} })).toBeUndefined();
    const checks: string[] = [];
    const node = http.createServer((_request, response) => {
      const writer = nodeEventWriter({ incoming: _request, outgoing: response })!;
      checks.push(writer.state());
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      checks.push(writer.state());
      writer.write(new TextEncoder().encode('id: 1\ndata: {}\n\n'));
      response.end();
      checks.push(writer.state());
    });
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const { port } = node.address() as { port: number };
    const text = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    node.close();
    expect(checks).toEqual(['waiting', 'open', 'closed']);
    expect(text).toBe('id: 1\ndata: {}\n\n');
  });

  it('writes a chunk framed once, straight to the socket, once the head is on it; the body reads back whole', async () => {
    const frame = (id: number, size = 0) => new TextEncoder().encode(`id: ${id}\ndata: ${'x'.repeat(size)}\n\n`);
    const shared = frame(2);
    const large = frame(4, 70_000);
    const socketWrites: unknown[] = [];
    const node = http.createServer((request, response) => {
      const writer = nodeEventWriter({ incoming: request, outgoing: response })!;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // The head built but not sent: the first write goes through the response, with the head.
      writer.write(frame(1));
      const socket = response.socket!;
      const write = socket.write.bind(socket) as (chunk: unknown) => boolean;
      socket.write = ((chunk: unknown) => (socketWrites.push(chunk), write(chunk))) as typeof socket.write;
      // Two clients' worth of one chunk, an empty chunk (which would end a chunked body), then one over 64 KiB.
      writer.write(shared);
      writer.write(shared);
      writer.write(new Uint8Array(0));
      writer.write(frame(3));
      writer.write(large);
      response.end();
    });
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const { port } = node.address() as { port: number };
    const text = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    node.close();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    expect(text).toBe(decode(frame(1)) + decode(shared) + decode(shared) + decode(frame(3)) + decode(large));
    // One socket write per small chunk, the chunk framed once for both clients.
    expect(socketWrites[0]).toBe(socketWrites[1]);
    expect(decode(socketWrites[0] as Uint8Array)).toBe(`${shared.byteLength.toString(16)}\r\n${decode(shared)}\r\n`);
    expect(decode(socketWrites[2] as Uint8Array)).toBe(`${frame(3).byteLength.toString(16)}\r\n${decode(frame(3))}\r\n`);
  });
});
