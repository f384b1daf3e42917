import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState, type UserRow } from '../runtime/fold';
import type { ModelDriver, ModelRequest } from '../runtime/model';
import { createAnthropicDriver } from '../runtime/anthropic/driver';
import { startFakeAnthropic } from '../runtime/node/fakeAnthropic';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from './createWorkspaceServer';

/** Attachments over HTTP: upload refusals that store nothing, reading one's own only, the served headers. */

const ALICE = 'attach-alice-key-0123456789';
const BOB = 'attach-bob-key-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'chatsurface-attach-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let server: WorkspaceServer | null = null;
let folder = '';
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(options: Partial<WorkspaceServerOptions> = {}) {
  folder = mkdtempSync(join(dir, 's-'));
  server = await createWorkspaceServer({
    capabilities: [],
    database: join(folder, 'workspace.db'),
    authenticate: bearerKeys([
      { id: 'alice', key: ALICE },
      { id: 'bob', key: BOB },
    ]),
    ...options,
  });
  return server;
}

const stored = () => readdirSync(join(folder, 'attachments'));
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);
const EXE = (() => {
  const bytes = new Uint8Array(4096);
  bytes.set([0x4d, 0x5a, 0x90, 0x00, 0x03]);
  return bytes;
})();
const text = (s: string) => new TextEncoder().encode(s);

function upload(body: BodyInit | null, { key = ALICE, name = 'file', type = 'application/octet-stream', thread = 'main', headers = {} as Record<string, string> } = {}) {
  return server!.fetch(
    new Request(`http://127.0.0.1/v1/threads/${thread}/attachments?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, ...(type ? { 'content-type': type } : {}), ...headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
  );
}
const get = (id: string, key = ALICE) => server!.fetch(new Request(`http://127.0.0.1/v1/attachments/${id}`, { headers: { authorization: `Bearer ${key}` } }));
const remove = (id: string, key = ALICE) =>
  server!.fetch(new Request(`http://127.0.0.1/v1/attachments/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }));

/** `total` bytes of PNG-looking data in 64 KiB chunks, without a length; counts what the server pulled. */
function streamed(total: number) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      const chunk = new Uint8Array(Math.min(65_536, total - pulled));
      if (pulled === 0) chunk.set(PNG);
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

describe('uploading an attachment', () => {
  it('stores a PNG sent as bytes, typed from its content, and serves it back to its owner only', async () => {
    await start();
    const res = await upload(PNG, { name: 'C:\\photos\\cat\u202e.png', type: 'image/jpeg' });
    expect(res.status).toBe(201);
    const { attachment } = (await res.json()) as { attachment: { id: string; name: string; media_type: string; size: number } };
    expect(attachment).toEqual({ id: expect.stringMatching(/^att_/), name: 'cat.png', media_type: 'image/png', size: PNG.byteLength });

    const own = await get(attachment.id);
    expect(own.status).toBe(200);
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(PNG);
    expect(own.headers.get('content-type')).toBe('image/png');
    expect(own.headers.get('content-disposition')).toMatch(/^inline; filename="cat.png"/);
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    expect(own.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);

    // Another user's file answers exactly as an id that was never there.
    const theirs = await get(attachment.id, BOB);
    const never = await get('att_nothing00');
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual({ error: { code: 'unknown_attachment', message: `There is no attachment "${attachment.id}" here.` } });
    expect((await never.json()) as unknown).toEqual({ error: { code: 'unknown_attachment', message: 'There is no attachment "att_nothing00" here.' } });
    expect((await remove(attachment.id, BOB)).status).toBe(404);
    expect((await get(attachment.id)).status).toBe(200);
    expect((await remove(attachment.id)).status).toBe(204);
    expect((await get(attachment.id)).status).toBe(404);
    expect(stored()).toEqual([]);
  });

  it('refuses a 30 MB file the moment it passes 20 MB, in plain words, and stores nothing', async () => {
    await start();
    const body = streamed(30 * 1024 * 1024);
    const res = await upload(body.stream, { name: 'big.png' });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { code: 'file_too_large', message: 'The file is larger than 20 MB, the most one attachment may be here; nothing was stored.' },
    });
    expect(body.pulled()).toBeLessThan(21 * 1024 * 1024);
    expect(stored()).toEqual([]);
    // Said at once when the length is declared.
    const declared = await upload(PNG, { headers: { 'content-length': String(30 * 1024 * 1024) } });
    expect(declared.status).toBe(413);
  });

  it('over a real socket, the 413 reaches a client still sending the 30 MB', async () => {
    const { port } = await (await start()).listen();
    const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/v1/threads/main/attachments?name=big.png', headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/octet-stream' } },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ ...(res.statusCode !== undefined ? { status: res.statusCode } : {}), body }));
        },
      );
      req.on('error', reject);
      let sent = 0;
      const pump = () => {
        while (sent < 30) {
          const chunk = Buffer.alloc(1024 * 1024);
          if (sent++ === 0) chunk.set(PNG);
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'file_too_large' } });
    expect(stored()).toEqual([]);
  });

  it('refuses an .exe renamed .png, naming what it looks like, and stores nothing', async () => {
    await start();
    const res = await upload(EXE, { name: 'holiday.png', type: 'image/png' });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      error: {
        code: 'unsupported_file_type',
        message: 'This file looks like a Windows program (.exe or .dll), which cannot be attached here. Attach PNG, JPEG, GIF, WebP, PDF, plain text, CSV, Markdown or JSON.',
      },
    });
    expect(stored()).toEqual([]);
  });

  it('takes text as UTF-8 without NUL: CSV, JSON and Markdown from the content and the type sent', async () => {
    await start();
    const csv = await upload(text('name,total\nann,3\nbob,4\n'), { name: 'data.csv' });
    expect(((await csv.json()) as { attachment: { media_type: string } }).attachment.media_type).toBe('text/csv');
    const json = await upload(text('{"a": [1, 2]}'), { name: 'a.json' });
    expect(((await json.json()) as { attachment: { media_type: string } }).attachment.media_type).toBe('application/json');
    const md = await upload(text('# Notes\n\nSome *words*.'), { name: 'notes.md', type: 'text/markdown' });
    const { attachment } = (await md.json()) as { attachment: { id: string; media_type: string } };
    expect(attachment.media_type).toBe('text/markdown');
    const served = await get(attachment.id);
    expect(served.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; /);
    const plain = await upload(text('just words'), { name: 'a.txt' });
    expect(((await plain.json()) as { attachment: { media_type: string } }).attachment.media_type).toBe('text/plain');
    expect(stored()).toHaveLength(4);
  });

  it('refuses bad text whole, even past the first bytes: not UTF-8, NUL, JSON that does not parse, HTML, SVG', async () => {
    await start();
    // Sent in chunks of 1,000 bytes: the bad bytes come well after the first ones the type is sniffed from.
    const late = (tail: number[]) => {
      const bytes = new Uint8Array([...text('a'.repeat(2000)), ...tail, ...text('b')]);
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, (at += 1000)));
        },
      });
    };
    const notUtf8 = await upload(late([0xc3, 0x28]), { name: 'x.txt' });
    expect(notUtf8.status).toBe(415);
    expect(((await notUtf8.json()) as { error: { message: string } }).error.message).toMatch(/not UTF-8 text/);
    const nul = await upload(late([0]), { name: 'x.txt' });
    expect(((await nul.json()) as { error: { message: string } }).error.message).toMatch(/NUL bytes/);
    const badJson = await upload(text('{"a": '), { name: 'x.json', type: 'application/json' });
    expect(badJson.status).toBe(415);
    expect(((await badJson.json()) as { error: { message: string } }).error.message).toMatch(/^It was sent as JSON but is not valid JSON/);
    const html = await upload(text('<!DOCTYPE html><script>alert(1)</script>'), { name: 'page.txt' });
    expect(((await html.json()) as { error: { message: string } }).error.message).toMatch(/^This file looks like an HTML page/);
    const svg = await upload(text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), { name: 'logo.png', type: 'image/png' });
    expect(((await svg.json()) as { error: { message: string } }).error.message).toMatch(/^This file looks like an SVG image/);
    expect(stored()).toEqual([]);
  });

  it('a host that lists SVG still has it served as a download, sandboxed', async () => {
    await start({ attachments: { types: ['image/svg+xml', 'text/html'] } });
    const res = await upload(text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), { name: 'logo.svg' });
    const { attachment } = (await res.json()) as { attachment: { id: string; media_type: string } };
    expect(attachment.media_type).toBe('image/svg+xml');
    const served = await get(attachment.id);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="logo.svg"/);
    expect(served.headers.get('content-security-policy')).toMatch(/^sandbox/);
    const page = await upload(text('<html><body>hi</body></html>'), { name: 'a.html' });
    expect((await get(((await page.json()) as { attachment: { id: string } }).attachment.id)).headers.get('content-disposition')).toMatch(/^attachment; /);
  });

  it('counts a user’s quota across files (413 in words), and each user’s apart', async () => {
    await start({ attachments: { maxBytesPerUser: 3000 } });
    expect((await upload(text('a'.repeat(2000)))).status).toBe(201);
    const over = await upload(text('b'.repeat(2000)));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({
      error: {
        code: 'attachment_quota',
        message: 'Your attachments here come to 2 KB of the 2.9 KB you may keep, and this file does not fit; nothing was stored. Remove some attachments first.',
      },
    });
    expect((await upload(text('b'.repeat(2000)), { key: BOB })).status).toBe(201);
    expect(stored()).toHaveLength(2);
  });

  it('follows the guard’s rules: sign-in, no form posts, no other sites, a valid thread id', async () => {
    await start();
    expect((await upload(PNG, { key: 'wrong-key-0123456789' })).status).toBe(401);
    expect((await upload(text('a=b'), { type: 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await upload(text('hello'), { type: 'text/plain' })).status).toBe(415);
    expect((await upload(PNG, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await upload(PNG, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await upload(PNG, { thread: 'bad%20id' })).status).toBe(400);
    expect((await upload(new Uint8Array(0))).status).toBe(400);
    expect(stored()).toEqual([]);
    // Reading is behind the same guard: another site's <img> gets nothing.
    const img = await server!.fetch(new Request('http://127.0.0.1/v1/attachments/att_x', { headers: { authorization: `Bearer ${ALICE}`, 'sec-fetch-site': 'cross-site' } }));
    expect(img.status).toBe(403);
  });
});

describe('a message that carries files', () => {
  const seen: ModelRequest[] = [];
  const driver: ModelDriver = {
    info: { id: 'probe', label: 'Probe' },
    async *respond(request) {
      seen.push(request);
      yield { type: 'text', text: 'Got it.' };
    },
  };
  const send = (body: unknown, key = ALICE, thread = 'main') =>
    server!.fetch(new Request(`http://127.0.0.1/v1/threads/${thread}/turns`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const events = async (thread = 'main', key = ALICE) => {
    const res = await server!.fetch(new Request(`http://127.0.0.1/v1/threads/${thread}/events`, { headers: { authorization: `Bearer ${key}` } }));
    return res.status;
  };
  const uploaded = async (body: Uint8Array<ArrayBuffer>, name: string, key = ALICE) => ((await (await upload(body, { name, key })).json()) as { attachment: { id: string } }).attachment.id;

  it('keeps the files on the user’s row and in the model’s history, and the driver reads their bytes', async () => {
    seen.length = 0;
    await start({ driver });
    const png = await uploaded(PNG, 'cat.png');
    const csv = await uploaded(text('a,b\n1,2\n'), 'data.csv');
    expect((await send({ text: 'what is in these?', attachments: [png, csv, png] })).status).toBe(200);
    const log: readonly ThreadEvent[] = await server!.host.events.read({ user: 'alice', space: 'default', id: 'main' });
    const files = [
      { id: png, name: 'cat.png', media_type: 'image/png', size: PNG.byteLength },
      { id: csv, name: 'data.csv', media_type: 'text/csv', size: 8 },
    ];
    const created = log.find((e) => e.type === 'message.created' && e.role === 'user');
    expect(created).toMatchObject({ attachments: files });
    const row = foldAll(initialThreadState, log).rows.find((r): r is UserRow => r.kind === 'user')!;
    expect(row.attachments).toEqual(files);
    const request = seen.at(-1)!;
    expect(request.messages.at(-1)).toEqual({ role: 'user', text: 'what is in these?', attachments: files });
    expect(await request.readAttachment!(files[0]!, new AbortController().signal)).toEqual(PNG);
  });

  it('refuses another user’s file, an unknown one and too many, in words, and sends nothing', async () => {
    seen.length = 0;
    await start({ driver, attachments: { maxPerMessage: 2 } });
    const theirs = await uploaded(PNG, 'cat.png', BOB);
    const res = await send({ text: 'look', attachments: [theirs] });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'unknown_attachment', message: `There is no attachment "${theirs}" here; nothing was sent.` } });
    const ids = [await uploaded(PNG, 'a.png'), await uploaded(PNG, 'b.png'), await uploaded(PNG, 'c.png')];
    const many = await send({ text: 'look', attachments: ids });
    expect(many.status).toBe(413);
    expect(((await many.json()) as { error: { message: string } }).error.message).toBe('One message may carry at most 2 files; this one has 3.');
    expect((await send({ text: 'look', attachments: ['not an id'] })).status).toBe(400);
    expect(seen).toHaveLength(0);
    expect(await events()).toBe(404);
  });
});

describe('attachments to the model, end to end against the fake Messages API', () => {
  it('an uploaded image, PDF and CSV reach the request as the API’s blocks, and the API takes it', async () => {
    const fake = await startFakeAnthropic({ reply: () => ({ text: 'A chart, a report and a table.' }) });
    try {
      await start({ driver: createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url, retryDelayMs: 1, citations: true }) });
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwnwEIGAAY+AL/8cdYWwAAAABJRU5ErkJggg==', 'base64');
      const pdf = text('%PDF-1.4\n3 0 obj << /Type /Page >> endobj\n%%EOF\n');
      const ids: string[] = [];
      for (const [body, name] of [[new Uint8Array(png), 'chart.png'], [pdf, 'report.pdf'], [text('name,total\nann,3\n'), 'sales.csv']] as const) {
        const res = await upload(body, { name });
        ids.push(((await res.json()) as { attachment: { id: string } }).attachment.id);
      }
      const res = await server!.fetch(
        new Request('http://127.0.0.1/v1/threads/main/turns', { method: 'POST', headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'What are these?', attachments: ids }) }),
      );
      expect(res.status).toBe(200);
      const sent = fake.requests.at(-1)!;
      expect(sent.status).toBe(200);
      const content = (sent.body.messages as { content: Record<string, any>[] }[]).at(-1)!.content;
      expect(content.filter((b) => b.type !== 'text')).toEqual([
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(pdf).toString('base64') }, title: 'report.pdf', citations: { enabled: true } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'name,total\nann,3\n' }, title: 'sales.csv', context: 'A text/csv file the user attached.', citations: { enabled: true } },
      ]);
    } finally {
      await fake.close();
    }
  });
});
