import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPromptCache, estimateTokens, promptBlocks, type CacheUsage, type PromptCache } from './fakeAnthropicCache';

/**
 * A contract fake of Anthropic's Messages API on 127.0.0.1, for tests and the
 * cache bench (never for production). It is meant to be exactly as strict as
 * the real service: a fake that accepts more than the API is a bug.
 *
 * - Streams the documented event sequence: `message_start`, `ping`,
 *   `content_block_start` / `content_block_delta` (`text_delta`,
 *   `input_json_delta`, `thinking_delta`, `signature_delta`) /
 *   `content_block_stop`, one `message_delta` with `stop_reason`,
 *   `stop_details` and cumulative usage (cache fields included), then
 *   `message_stop`; or an `error` event mid-stream.
 * - Validates every request as the API does (`validateMessagesRequest`) and
 *   answers 400 with the API's error shape
 *   (`{ type: 'error', error: { type, message }, request_id }`) otherwise.
 * - Accepts the key as `x-api-key` or `authorization: Bearer`, can answer
 *   401/429/5xx/529 (with `retry-after`), and reports usage by Anthropic's
 *   prefix-cache rule (`fakeAnthropicCache.ts`).
 * - Behaves like the service after a refusal: a later request that still
 *   carries the refused turn is refused again.
 */

export type FakeStopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

export interface FakeRefusalDetails {
  category: 'cyber' | 'bio' | 'frontier_llm' | 'reasoning_extraction' | 'general_harms' | null;
  explanation: string | null;
}

export type FakeBlock =
  | { type: 'text'; text: string }
  /** A client tool call. `partial` streams only the first half of its JSON, as when `max_tokens` cuts it. */
  | { type: 'tool_use'; name: string; input: unknown; id?: string; partial?: boolean }
  | { type: 'thinking'; thinking: string; signature?: string }
  /** A server tool call (web search and the like): the API runs it, no `tool_result` is expected. */
  | { type: 'server_tool_use'; name: string; input: Record<string, unknown>; id?: string }
  | { type: 'web_search_tool_result'; tool_use_id: string; content: unknown };

/** How the fake answers one request. */
export type FakeReply =
  | { text: string }
  | { content: FakeBlock[]; stop_reason?: FakeStopReason; stop_details?: FakeRefusalDetails }
  /** An HTTP error with Anthropic's error body; `retryAfterMs` / `retryAfter` (seconds) set the retry headers. */
  | { status: number; type?: string; message?: string; retryAfterMs?: number; retryAfter?: number; shouldRetry?: boolean }
  /** Streams `text`, then keeps the connection open until the client closes it. */
  | { hang: string }
  /** Streams `text`, then an SSE `error` event (as the API does when it overloads mid-reply). */
  | { streamError: { type: string; message: string }; text?: string }
  /** Streams `text`, then ends the response without `message_delta` / `message_stop` (a dropped connection). */
  | { disconnect: string }
  /** Streams `text`, then breaks the socket (a connection reset mid-reply). */
  | { reset: string };

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
  /** The HTTP status answered. */
  status?: number;
  /** The error answered, as the API words it (an HTTP error; a scripted mid-stream error is not one). */
  error?: { type: string; message: string };
  /** True when the fake refused on its own because the request still carried a refused turn. */
  refusedAgain?: boolean;
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
  /** The model's context window in estimated tokens: a longer prompt is a 400 "prompt is too long". @default 200_000 */
  contextWindow?: number;
  /** Accept a conversation that ends with an assistant message (older models). Paused turns are always continued. @default false */
  prefill?: boolean;
  /** Largest body accepted, in bytes (413 above). @default 32 MB */
  maxBytes?: number;
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

/** An API error as the fake answers it. */
export interface ApiErrorAnswer {
  status: number;
  type: string;
  message: string;
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
  const contextWindow = options.contextWindow ?? 200_000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  /** Normalised assistant content the fake paused on: a request may end with exactly one of these. */
  const paused = new Set<string>();
  /** What a refused request carried: a later request with any of it is refused again. */
  const refused = { prompts: new Set<string>(), outputs: new Set<string>() };
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
        if (!res.headersSent) sendError(res, record, { status: 500, type: 'api_error', message: String(error) });
        else res.destroy();
      });
    });
  });

  async function handle(record: RecordedRequest, index: number, res: ServerResponse): Promise<void> {
    const bearer = record.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    record.authorized = record.headers['x-api-key'] === apiKey || bearer === apiKey;
    if (!record.authorized) return sendError(res, record, { status: 401, type: 'authentication_error', message: 'invalid x-api-key' });
    if (record.method !== 'POST' || !record.path.startsWith('/v1/messages')) {
      return sendError(res, record, { status: 404, type: 'not_found_error', message: `No route ${record.method} ${record.path}.` });
    }
    if (!record.headers['anthropic-version']) return sendError(res, record, { status: 400, type: 'invalid_request_error', message: 'anthropic-version: header is required' });
    if (record.bytes > maxBytes) return sendError(res, record, { status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' });
    if (!record.body || typeof record.body !== 'object' || Array.isArray(record.body)) {
      return sendError(res, record, { status: 400, type: 'invalid_request_error', message: 'The request body is not valid JSON.' });
    }
    const invalid = validateMessagesRequest(record.body, { prefill: options.prefill ?? false, paused });
    if (invalid) return sendError(res, record, invalid);
    const total = promptBlocks(record.body).blocks.reduce((n, b) => n + estimateTokens(b), 0);
    if (total > contextWindow) {
      return sendError(res, record, { status: 400, type: 'invalid_request_error', message: `prompt is too long: ${total} tokens > ${contextWindow} maximum` });
    }

    const carriesRefused = carries(record.body, refused);
    if (carriesRefused) record.refusedAgain = true;
    const answer: FakeReply = carriesRefused
      ? { content: [], stop_reason: 'refusal', stop_details: { category: null, explanation: null } }
      : await reply(record, index);
    if ('status' in answer) {
      return sendError(res, record, {
        status: answer.status,
        type: answer.type ?? errorType(answer.status),
        message: answer.message ?? `Fake ${answer.status}.`,
      }, answer);
    }
    const usage = cache.account(record.body);
    record.usage = usage;
    record.status = 200;
    const content: FakeBlock[] = 'content' in answer ? answer.content : [{ type: 'text', text: textOf(answer) }];
    const stop: FakeStopReason = 'content' in answer ? (answer.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn')) : 'end_turn';
    const stopDetails = stop === 'refusal' ? ('content' in answer && answer.stop_details ? answer.stop_details : { category: null, explanation: null }) : null;
    const model = String(record.body.model ?? 'claude-fake');
    const blocks = content.map((b) => finalBlock(b, () => `${b.type === 'server_tool_use' ? 'srvtoolu' : 'toolu'}_fake_${++ids}`));
    const input = { input_tokens: usage.input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens, cache_read_input_tokens: usage.cache_read_input_tokens };
    // The reply fills the window exactly when it stops there.
    const output = stop === 'model_context_window_exceeded' ? Math.max(1, contextWindow - usage.total_tokens) : Math.max(1, estimateTokens(JSON.stringify(blocks)));

    if (stop === 'pause_turn') paused.add(normalise([...finalAssistant(record.body, paused), ...blocks]));
    if (stop === 'refusal' && !carriesRefused) {
      const prompt = lastUserText(record.body);
      if (prompt) refused.prompts.add(prompt);
      for (const b of blocks) if (b.type === 'text' && b.text.trim()) refused.outputs.add(b.text.trim());
    }

    if (record.body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${index}` });
      res.end(JSON.stringify({
        id: `msg_fake_${index}`, type: 'message', role: 'assistant', model, content: blocks,
        stop_reason: stop, stop_sequence: null, stop_details: stopDetails, usage: { ...input, output_tokens: output },
      }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${index}` });
    const send = async (type: string, data: Record<string, unknown> = {}) => {
      if (res.destroyed) return;
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    };
    await send('message_start', {
      message: { id: `msg_fake_${index}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, stop_details: null, usage: { ...input, output_tokens: 1 } },
    });
    await send('ping');
    for (const [i, block] of content.entries()) {
      const final = blocks[i]!;
      switch (block.type) {
        case 'text':
          await send('content_block_start', { index: i, content_block: { type: 'text', text: '' } });
          for (const piece of block.text.match(/\S+\s*|\s+/g) ?? []) await send('content_block_delta', { index: i, delta: { type: 'text_delta', text: piece } });
          break;
        case 'tool_use':
        case 'server_tool_use': {
          const { id, name } = final as { id: string; name: string };
          await send('content_block_start', { index: i, content_block: { type: block.type, id, name, input: {} } });
          const json = JSON.stringify(block.input ?? {});
          const end = block.type === 'tool_use' && block.partial ? Math.max(1, Math.floor(json.length / 2)) : json.length;
          const half = Math.ceil(end / 2);
          // The API opens with an empty fragment.
          for (const piece of ['', json.slice(0, half), json.slice(half, end)]) await send('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: piece } });
          break;
        }
        case 'thinking': {
          await send('content_block_start', { index: i, content_block: { type: 'thinking', thinking: '', signature: '' } });
          for (const piece of block.thinking.match(/\S+\s*|\s+/g) ?? []) await send('content_block_delta', { index: i, delta: { type: 'thinking_delta', thinking: piece } });
          await send('content_block_delta', { index: i, delta: { type: 'signature_delta', signature: (final as { signature: string }).signature } });
          break;
        }
        default:
          await send('content_block_start', { index: i, content_block: final });
      }
      await send('content_block_stop', { index: i });
      await send('ping');
    }
    if ('hang' in answer) return; // the client's abort ends it
    if ('disconnect' in answer) {
      res.end();
      return;
    }
    if ('reset' in answer) {
      // Let what was streamed reach the client first, as when a connection breaks mid-reply.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.socket?.destroy();
      return;
    }
    if ('streamError' in answer) {
      await send('error', { error: answer.streamError, request_id: `req_fake_${index}` });
      res.end();
      return;
    }
    await send('message_delta', { delta: { stop_reason: stop, stop_sequence: null, stop_details: stopDetails }, usage: { ...input, output_tokens: output } });
    await send('message_stop');
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

// ─── Request validation: the API's 400s ──────────────────────────────────────

const USER_BLOCKS = ['text', 'image', 'document', 'search_result', 'tool_result'];
const ASSISTANT_BLOCKS = ['text', 'tool_use', 'thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result'];
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ValidateOptions {
  /** Accept a final assistant message (prefill). @default false */
  prefill?: boolean;
  /** Normalised assistant contents the fake paused on (`pause_turn`): continuing them is allowed. */
  paused?: ReadonlySet<string>;
}

/**
 * The Messages API's request checks, each with the API's own wording; `null`
 * when the request is valid. Consecutive messages of one role are combined
 * into one turn before the turn rules apply, as the API documents.
 */
export function validateMessagesRequest(body: any, options: ValidateOptions = {}): ApiErrorAnswer | null {
  const bad = (message: string): ApiErrorAnswer => ({ status: 400, type: 'invalid_request_error', message });
  if (typeof body.model !== 'string' || !body.model) return bad('model: Field required');
  if (body.max_tokens === undefined) return bad('max_tokens: Field required');
  if (!Number.isInteger(body.max_tokens)) return bad('max_tokens: Input should be a valid integer');
  if (body.max_tokens < 0) return bad('max_tokens: Input should be greater than or equal to 0');

  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) return bad('tools: Input should be a valid list');
    const names = new Set<string>();
    for (const [i, tool] of (body.tools as any[]).entries()) {
      if (tool?.type && tool.type !== 'custom') continue; // a server tool, e.g. web_search_20250305
      if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name)) return bad(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
      if (tool.input_schema?.type !== 'object') return bad(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
      if (names.has(tool.name)) return bad('tools: Tool names must be unique.');
      names.add(tool.name);
    }
  }

  if (body.system !== undefined && typeof body.system !== 'string') {
    if (!Array.isArray(body.system)) return bad('system: Input should be a valid string or list');
    for (const [i, block] of (body.system as any[]).entries()) {
      if (block?.type !== 'text' || typeof block.text !== 'string') return bad(`system.${i}: Input should be a text block`);
      if (!block.text) return bad('system: text content blocks must be non-empty');
    }
  }

  if (body.messages === undefined) return bad('messages: Field required');
  if (!Array.isArray(body.messages)) return bad('messages: Input should be a valid list');
  const messages = body.messages as any[];
  if (messages.length === 0) return bad('messages: at least one message is required');

  type Placed = { block: any; m: number; b: number };
  const turns: { role: 'user' | 'assistant'; first: number; last: number; blocks: Placed[] }[] = [];
  const toolIds = new Set<string>();
  for (const [m, message] of messages.entries()) {
    if (message?.role !== 'user' && message?.role !== 'assistant') return bad(`messages.${m}.role: Input should be 'user' or 'assistant'`);
    const final = m === messages.length - 1 && message.role === 'assistant';
    const content: any[] = typeof message.content === 'string' ? (message.content ? [{ type: 'text', text: message.content }] : []) : message.content;
    if (!Array.isArray(content)) return bad(`messages.${m}.content: Input should be a valid string or list`);
    if (content.length === 0 && !final) return bad(`messages.${m}: all messages must have non-empty content except for the optional final assistant message`);
    const allowed = message.role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS;
    for (const [b, block] of content.entries()) {
      const where = `messages.${m}.content.${b}`;
      if (!block || typeof block !== 'object' || !allowed.includes(block.type)) {
        return bad(`${where}: Input tag '${String(block?.type)}' found using 'type' does not match any of the expected tags: ${allowed.map((t) => `'${t}'`).join(', ')}`);
      }
      const textProblem = textRule(block);
      if (textProblem) return bad(textProblem);
      if (block.type === 'tool_use' || block.type === 'server_tool_use') {
        if (!isObject(block.input)) return bad(`${where}.${block.type}.input: Input should be a valid dictionary`);
        if (typeof block.id !== 'string' || !block.id) return bad(`${where}.${block.type}.id: Field required`);
        if (toolIds.has(block.id)) return bad(`${where}: \`tool_use\` ids must be unique`);
        toolIds.add(block.id);
      }
      if (block.type === 'tool_result') {
        if (typeof block.tool_use_id !== 'string') return bad(`${where}.tool_result.tool_use_id: Field required`);
        if (Array.isArray(block.content)) {
          for (const inner of block.content) {
            const innerProblem = textRule(inner);
            if (innerProblem) return bad(innerProblem);
          }
        }
      }
    }
    const last = turns[turns.length - 1];
    const placed = content.map((block, b) => ({ block, m, b }));
    if (last && last.role === message.role) {
      last.blocks.push(...placed);
      last.last = m;
    } else turns.push({ role: message.role, first: m, last: m, blocks: placed });
  }

  for (const [t, turn] of turns.entries()) {
    if (turn.role !== 'assistant') continue;
    const calls = turn.blocks.filter((p) => p.block.type === 'tool_use').map((p) => p.block.id as string);
    const next = turns[t + 1];
    const leading: string[] = [];
    for (const p of next?.blocks ?? []) {
      if (p.block.type !== 'tool_result') break;
      leading.push(p.block.tool_use_id);
    }
    const missing = calls.filter((id) => !leading.includes(id));
    if (missing.length) {
      const later = next?.blocks.some((p) => p.block.type === 'tool_result' && missing.includes(p.block.tool_use_id));
      if (later) {
        return bad(`messages.${next!.first}: Did not find ${calls.length} tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.`);
      }
      return bad(`messages.${turn.last}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
    }
  }
  for (const [t, turn] of turns.entries()) {
    if (turn.role !== 'user') continue;
    const previous = turns[t - 1];
    const calls = new Set((previous?.blocks ?? []).filter((p) => p.block.type === 'tool_use').map((p) => p.block.id as string));
    for (const p of turn.blocks) {
      if (p.block.type === 'tool_result' && !calls.has(p.block.tool_use_id)) {
        return bad(`messages.${p.m}.content.${p.b}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${p.block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
      }
    }
  }

  const tail = turns[turns.length - 1]!;
  if (tail.role === 'assistant') {
    const content = tail.blocks.map((p) => p.block);
    if (!options.prefill && !options.paused?.has(normalise(content))) {
      return bad('This model does not support assistant message prefill. The conversation must end with a user message.');
    }
    const end = content[content.length - 1];
    if (end?.type === 'text' && /\s$/.test(end.text)) return bad('messages: final assistant content cannot end with trailing whitespace');
  }

  const breakpoints = promptBlocks(body).breakpoints.length;
  if (breakpoints > 4) return bad(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
  return null;
}

function textRule(block: any): string | null {
  if (block?.type !== 'text') return null;
  if (typeof block.text !== 'string' || block.text === '') return 'messages: text content blocks must be non-empty';
  if (!block.text.trim()) return 'messages: text content blocks must contain non-whitespace text';
  return null;
}

// ─── Helpers ─────────────────────────────────────────────────────────────────

/** A scripted block as it appears in the final message (and as a client sends it back). */
function finalBlock(block: FakeBlock, id: () => string): any {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
    case 'server_tool_use':
      return { type: block.type, id: block.id ?? id(), name: block.name, input: block.input };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature ?? `sig_${Buffer.from(block.thinking).toString('base64url').slice(0, 16)}` };
    default:
      return { ...block };
  }
}

/** The final assistant turn of a request (consecutive assistant messages combined), or none. */
function finalAssistant(body: any, paused: ReadonlySet<string>): any[] {
  const out: any[] = [];
  const messages = (body.messages ?? []) as any[];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'assistant'; i--) {
    const content = typeof messages[i].content === 'string' ? [{ type: 'text', text: messages[i].content }] : messages[i].content;
    out.unshift(...content);
  }
  return out.length && paused.has(normalise(out)) ? out : [];
}

/** Assistant content as a comparable string: markers dropped, keys sorted, text without trailing whitespace, blank text left out. */
function normalise(content: readonly any[]): string {
  const blocks = content
    .map((b) => {
      const { cache_control: _marker, ...rest } = b ?? {};
      return rest.type === 'text' ? { ...rest, text: String(rest.text ?? '').trimEnd() } : rest;
    })
    .filter((b) => b.type !== 'text' || b.text);
  return JSON.stringify(sorted(blocks));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
  }
  return value;
}

function isObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** The text of the request's last user message (its last text block): what a refusal answered. */
function lastUserText(body: any): string | null {
  const messages = (body.messages ?? []) as any[];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content.trim() || null;
    const texts = (m.content as any[]).filter((b) => b?.type === 'text').map((b) => String(b.text).trim());
    return texts[texts.length - 1] || null;
  }
  return null;
}

/** True when the request still carries a refused prompt or refused output. */
function carries(body: any, refused: { prompts: ReadonlySet<string>; outputs: ReadonlySet<string> }): boolean {
  if (!refused.prompts.size && !refused.outputs.size) return false;
  for (const m of (body.messages ?? []) as any[]) {
    const texts: string[] = typeof m?.content === 'string' ? [m.content] : ((m?.content ?? []) as any[]).filter((b) => b?.type === 'text').map((b) => String(b.text));
    for (const text of texts) {
      if (m.role === 'user' && refused.prompts.has(text.trim())) return true;
      if (m.role === 'assistant' && [...refused.outputs].some((o) => text.includes(o))) return true;
    }
  }
  return false;
}

function textOf(answer: Exclude<FakeReply, { content: FakeBlock[] } | { status: number }>): string {
  if ('hang' in answer) return answer.hang;
  if ('disconnect' in answer) return answer.disconnect;
  if ('reset' in answer) return answer.reset;
  if ('streamError' in answer) return answer.text ?? '';
  return answer.text;
}

function sendError(
  res: ServerResponse,
  record: RecordedRequest,
  error: ApiErrorAnswer,
  headers: { retryAfterMs?: number; retryAfter?: number; shouldRetry?: boolean } = {},
): void {
  record.status = error.status;
  record.error = { type: error.type, message: error.message };
  const requestId = `req_fake_error_${Math.random().toString(36).slice(2, 10)}`;
  const out: Record<string, string> = {
    'content-type': 'application/json',
    'request-id': requestId,
    'x-should-retry': String(headers.shouldRetry ?? retryable(error.status)),
  };
  if (headers.retryAfterMs !== undefined) out['retry-after-ms'] = String(headers.retryAfterMs);
  if (headers.retryAfter !== undefined) out['retry-after'] = String(headers.retryAfter);
  res.writeHead(error.status, out);
  res.end(JSON.stringify({ type: 'error', error: { type: error.type, message: error.message }, request_id: requestId }));
}

function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status === 504) return 'timeout_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

function flat(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(req.headers)) out[key] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
