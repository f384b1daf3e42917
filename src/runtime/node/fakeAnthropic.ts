import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPromptCache, estimateTokens, type CacheUsage, type PromptCache } from './fakeAnthropicCache';

/**
 * A fake Anthropic Messages API on 127.0.0.1, for tests and the cache bench
 * (never for production). It streams server-sent events like the real API,
 * records every request, accepts the key as `x-api-key` or `authorization:
 * Bearer`, can answer 401/429/529 or fail mid-stream, and reports usage by
 * Anthropic's prefix-cache rule (`fakeAnthropicCache.ts`).
 */

export type FakeBlock = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: unknown; id?: string };

/** How the fake answers one request. */
export type FakeReply =
  | { text: string }
  | { content: FakeBlock[]; stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens' }
  /** An HTTP error with Anthropic's error body; `retryAfterMs` makes the SDK retry at once. */
  | { status: number; type?: string; message?: string; retryAfterMs?: number }
  /** Streams `text`, then keeps the connection open until the client closes it. */
  | { hang: string }
  /** Streams `text`, then an SSE `error` event (as the API does when it overloads mid-reply). */
  | { streamError: { type: string; message: string }; text?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  /** The body as sent. */
  raw: string;
  /** Body size in bytes. */
  bytes: number;
  /** The parsed body (undefined when it is not JSON). */
  body: any;
  authorized: boolean;
  /** Usage by the prefix rule; absent for refused requests. */
  usage?: CacheUsage;
  /** True when the client closed the connection before the reply ended. */
  closedEarly: boolean;
}

export interface FakeAnthropicOptions {
  /** The only key accepted. @default 'sk-fake-test-key' */
  apiKey?: string;
  /** Decides each answer (`index` counts every request, refused ones too). @default a short text */
  reply?: (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;
  /** Minimum cacheable prefix, in estimated tokens. @default 1024 */
  minCacheTokens?: number;
  /** Pause between streamed events. @default 0 */
  delayMs?: number;
}

export interface FakeAnthropic {
  /** Base URL for the SDK (`baseURL`). */
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  cache: PromptCache;
  /** Resolves when request `index` has ended or its connection closed. */
  settled(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the fake on a random port of 127.0.0.1.
 * @example
 * const fake = await startFakeAnthropic({ reply: () => ({ text: 'Hello.' }) });
 * createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url });
 */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const apiKey = options.apiKey ?? 'sk-fake-test-key';
  const cache = createPromptCache({ minTokens: options.minCacheTokens ?? 1024 });
  const requests: RecordedRequest[] = [];
  const done = new Map<number, Promise<void>>();
  const reply = options.reply ?? ((_r, i) => ({ text: `Fake reply ${i + 1}.` }));
  const delay = options.delayMs ?? 0;
  let ids = 0;

  const server = createServer((req, res) => {
    const index = requests.length;
    const record: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: flat(req), raw: '', bytes: 0, body: undefined, authorized: false, closedEarly: false };
    requests.push(record);
    done.set(index, new Promise((resolve) => res.on('close', () => {
      if (!res.writableEnded) record.closedEarly = true;
      resolve();
    })));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const buffer = Buffer.concat(chunks);
      record.raw = buffer.toString('utf8');
      record.bytes = buffer.length;
      try {
        record.body = JSON.parse(record.raw);
      } catch {
        record.body = undefined;
      }
      handle(record, index, res).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, 'api_error', String(error));
        else res.destroy();
      });
    });
  });

  async function handle(record: RecordedRequest, index: number, res: ServerResponse): Promise<void> {
    const bearer = record.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    record.authorized = record.headers['x-api-key'] === apiKey || bearer === apiKey;
    if (!record.authorized) return sendError(res, 401, 'authentication_error', 'invalid x-api-key');
    if (record.method !== 'POST' || !record.path.startsWith('/v1/messages')) return sendError(res, 404, 'not_found_error', `No route ${record.method} ${record.path}.`);
    if (!record.body || typeof record.body !== 'object') return sendError(res, 400, 'invalid_request_error', 'The body is not JSON.');
    const answer = await reply(record, index);
    if ('status' in answer) {
      return sendError(res, answer.status, answer.type ?? errorType(answer.status), answer.message ?? `Fake ${answer.status}.`, answer.retryAfterMs);
    }
    const usage = cache.account(record.body);
    if (usage.breakpoints > 4) {
      return sendError(res, 400, 'invalid_request_error', `A maximum of 4 blocks with cache_control may be provided. Found ${usage.breakpoints}.`);
    }
    record.usage = usage;
    const content: FakeBlock[] = 'content' in answer ? answer.content : [{ type: 'text', text: textOf(answer) }];
    const stop = 'content' in answer ? (answer.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn')) : 'end_turn';
    const model = String(record.body.model ?? 'claude-fake');
    const messageUsage = { input_tokens: usage.input_tokens, output_tokens: 1, cache_creation_input_tokens: usage.cache_creation_input_tokens, cache_read_input_tokens: usage.cache_read_input_tokens };
    const output = estimateTokens(JSON.stringify(content));

    if (record.body.stream !== true) {
      const blocks = content.map((b) => (b.type === 'text' ? b : { type: 'tool_use', id: b.id ?? `toolu_fake_${++ids}`, name: b.name, input: b.input }));
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${index}` });
      res.end(JSON.stringify({ id: `msg_fake_${index}`, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stop, stop_sequence: null, usage: { ...messageUsage, output_tokens: output } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${index}` });
    const send = async (type: string, data: Record<string, unknown>) => {
      if (res.destroyed) return;
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    };
    await send('message_start', { message: { id: `msg_fake_${index}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: messageUsage } });
    for (const [i, block] of content.entries()) {
      if (block.type === 'text') {
        if (!block.text) continue;
        await send('content_block_start', { index: i, content_block: { type: 'text', text: '' } });
        for (const piece of block.text.match(/\S+\s*|\s+/g) ?? []) await send('content_block_delta', { index: i, delta: { type: 'text_delta', text: piece } });
      } else {
        await send('content_block_start', { index: i, content_block: { type: 'tool_use', id: block.id ?? `toolu_fake_${++ids}`, name: block.name, input: {} } });
        const json = JSON.stringify(block.input ?? {});
        const half = Math.ceil(json.length / 2);
        for (const piece of [json.slice(0, half), json.slice(half)]) if (piece) await send('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: piece } });
      }
      await send('content_block_stop', { index: i });
    }
    if ('hang' in answer) return; // the client's abort ends it
    if ('streamError' in answer) {
      await send('error', { error: answer.streamError });
      res.end();
      return;
    }
    await send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: output } });
    await send('message_stop', {});
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    cache,
    settled: (index) => done.get(index) ?? Promise.reject(new Error(`The fake has no request ${index} (it has ${requests.length}).`)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function textOf(answer: Exclude<FakeReply, { content: FakeBlock[] } | { status: number }>): string {
  if ('hang' in answer) return answer.hang;
  if ('streamError' in answer) return answer.text ?? '';
  return answer.text;
}

function sendError(res: ServerResponse, status: number, type: string, message: string, retryAfterMs?: number): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': 'req_fake_error' };
  if (retryAfterMs !== undefined) headers['retry-after-ms'] = String(retryAfterMs);
  res.writeHead(status, headers);
  res.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

function flat(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(req.headers)) out[key] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
