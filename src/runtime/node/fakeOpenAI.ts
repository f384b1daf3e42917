import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateChatRequest, type OpenAIErrorAnswer } from './fakeOpenAIValidate';

export { validateChatRequest, type OpenAIErrorAnswer, type ValidateOptions } from './fakeOpenAIValidate';

/**
 * A contract fake of OpenAI's Chat Completions API (what llama.cpp's server,
 * Ollama and vLLM speak too) on 127.0.0.1, for tests and the demo's e2e
 * (never for production). It is meant to be exactly as strict as the real
 * service: a fake that accepts more than the API is a bug.
 *
 * - Streams the documented `chat.completion.chunk` objects as `data:` lines:
 *   a first chunk with the role, content deltas, tool calls (the first delta
 *   of each carries `index`, `id`, `type`, `function.name`; later ones the
 *   `arguments` in pieces), a last chunk with `finish_reason`, then (with
 *   `stream_options.include_usage`) one with empty `choices` and the usage,
 *   `prompt_tokens_details.cached_tokens` included, then `data: [DONE]`.
 * - Validates every request as the API does (`validateChatRequest`) and
 *   answers with its error shape `{ error: { message, type, param, code } }`
 *   and status; each refusal is kept in `rejections`.
 * - Can answer 401, 404, 429 (with `retry-after`), 5xx and a context-length
 *   400, an error in the middle of a stream, or cut the connection.
 * - Reports cached prompt tokens by OpenAI's rule: the longest prefix shared
 *   with an earlier request, once it reaches 1,024 tokens, in steps of 128.
 */

/** One scripted tool call: `arguments` as an object (sent as JSON) or the exact text to stream. */
export interface FakeToolCall {
  name: string;
  arguments?: Record<string, unknown> | string;
  id?: string;
}

export type FakeOpenAIReply =
  | {
      /** Text, streamed in the pieces given (a string is one piece per word). */
      text?: string | readonly string[];
      toolCalls?: readonly FakeToolCall[];
      /** Pieces each call's arguments stream in. @default 3 */
      argumentPieces?: number;
      /** @default 'tool_calls' with calls, else 'stop' */
      finish?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
      /** Close the connection after this many chunks (no finish, no `[DONE]`). */
      cutAfter?: number;
      /** An error payload in the stream after this many chunks (a 200 that fails mid-reply). */
      errorAfter?: { chunks: number; message: string; type?: string; code?: string | null };
      /** Pause between chunks, for this reply. */
      delayMs?: number;
      /** Stream the text, then hold the connection open (no finish) until the client closes it: a reply to stop. */
      hang?: boolean;
    }
  | { status: number; message?: string; type?: string; code?: string | null; param?: string | null; retryAfter?: number };

export interface RecordedOpenAIRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  raw: string;
  /** The parsed body (undefined when it is not JSON). */
  body: any;
  status?: number;
  /** The error answered (a refusal or a scripted error). */
  error?: OpenAIErrorAnswer;
  /** True when the fake refused the request on its own, as the API would: the client sent something it must not. */
  rejected?: boolean;
  /** Usage reported for it. */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens: number };
  closedEarly: boolean;
}

export interface FakeOpenAIOptions {
  /** The only key accepted; `null` accepts any and none, as a local server does. @default 'sk-fake-openai-key' */
  apiKey?: string | null;
  /** Models served; another is a 404 `model_not_found`. @default ['gpt-fake'] */
  models?: readonly string[];
  /** Decides each answer (`index` counts every request, refused ones too). @default a short text */
  reply?: (request: RecordedOpenAIRequest, index: number) => FakeOpenAIReply | Promise<FakeOpenAIReply>;
  /** Pause between chunks. @default 0 */
  delayMs?: number;
  /** The context window in estimated tokens (JSON bytes / 4): a longer prompt is a 400 `context_length_exceeded`. @default 128_000 */
  contextWindow?: number;
  /** Host to listen on. @default '127.0.0.1' */
  host?: string;
  /** Port to listen on. @default a free one */
  port?: number;
}

export interface FakeOpenAI {
  /** The base URL for the SDK, ending in `/v1`. */
  url: string;
  apiKey: string | null;
  requests: RecordedOpenAIRequest[];
  /** The requests the fake refused as the API would (never a scripted error). */
  rejections(): RecordedOpenAIRequest[];
  /** Resolves when request `index` has ended or its connection closed. */
  settled(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the fake.
 * @example
 * const fake = await startFakeOpenAI({ reply: () => ({ text: 'Hello.' }) });
 * createOpenAIDriver({ baseURL: fake.url, apiKey: fake.apiKey, model: 'gpt-fake' });
 */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const apiKey = options.apiKey === undefined ? 'sk-fake-openai-key' : options.apiKey;
  const models = options.models ?? ['gpt-fake'];
  const reply = options.reply ?? ((_r, i) => ({ text: `Fake reply ${i + 1}.` }));
  const contextWindow = options.contextWindow ?? 128_000;
  const requests: RecordedOpenAIRequest[] = [];
  const done = new Map<number, Promise<void>>();
  const prefixes: string[] = [];
  let ids = 0;

  const handle = async (record: RecordedOpenAIRequest, index: number, res: ServerResponse) => {
    const refusal = admit(record, apiKey, models, contextWindow);
    if (refusal) {
      // A request the client should never have sent: a body the API's rules refuse. (A bad key, an unknown
      // model or a prompt over the window are the server's answers to a valid request, not the client's mistake.)
      record.rejected = refusal.status === 400 && refusal.code !== 'context_length_exceeded';
      return sendError(res, record, refusal);
    }
    const answer = await reply(record, index);
    if ('status' in answer) {
      return sendError(res, record, scriptedError(answer), answer.retryAfter);
    }
    const prompt = JSON.stringify([record.body.tools ?? [], record.body.messages]);
    const cached = cachedTokens(prompt, prefixes);
    prefixes.push(prompt);
    const promptTokens = estimate(prompt);
    const id = `chatcmpl-fake${++ids}`;
    await streamReply(res, record, { id, model: String(record.body.model), answer, promptTokens, cached, usage: record.body.stream_options?.include_usage === true, delayMs: ('delayMs' in answer ? answer.delayMs : undefined) ?? options.delayMs ?? 0, callBase: ids });
  };

  const server = createServer((req, res) => {
    const index = requests.length;
    const record: RecordedOpenAIRequest = { method: req.method ?? '', path: req.url ?? '', headers: flat(req.headers), raw: '', body: undefined, closedEarly: false };
    requests.push(record);
    done.set(index, new Promise((resolve) => res.on('close', () => {
      if (!res.writableEnded) record.closedEarly = true;
      resolve();
    })));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      record.raw = Buffer.concat(chunks).toString('utf8');
      try {
        record.body = JSON.parse(record.raw);
      } catch {
        record.body = undefined;
      }
      handle(record, index, res).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, record, { status: 500, message: String(error), type: 'server_error', param: null, code: null });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/v1`,
    apiKey,
    requests,
    rejections: () => requests.filter((r) => r.rejected),
    settled: (index) => done.get(index) ?? Promise.reject(new Error(`The fake has no request ${index} (it has ${requests.length}).`)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** What the API answers before it reads the conversation: the key, the route, the JSON, the body's rules, the window. */
function admit(record: RecordedOpenAIRequest, apiKey: string | null, models: readonly string[], contextWindow: number): OpenAIErrorAnswer | null {
  const bearer = record.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
  if (apiKey !== null && bearer !== apiKey) {
    const message = bearer
      ? `Incorrect API key provided: ${bearer.slice(0, 3)}***${bearer.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`
      : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
    return { status: 401, message, type: 'invalid_request_error', param: null, code: bearer ? 'invalid_api_key' : null };
  }
  if (record.method !== 'POST' || record.path.split('?')[0] !== '/v1/chat/completions') {
    return { status: 404, message: `Invalid URL (${record.method} ${record.path})`, type: 'invalid_request_error', param: null, code: null };
  }
  if (!record.body || typeof record.body !== 'object' || Array.isArray(record.body)) {
    return { status: 400, message: "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)", type: 'invalid_request_error', param: null, code: null };
  }
  const invalid = validateChatRequest(record.body, { models });
  if (invalid) return invalid;
  const tokens = estimate(JSON.stringify([record.body.tools ?? [], record.body.messages]));
  if (tokens > contextWindow) {
    return {
      status: 400,
      message: `This model's maximum context length is ${contextWindow} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    };
  }
  return null;
}

function scriptedError(answer: { status: number; message?: string; type?: string; code?: string | null; param?: string | null }): OpenAIErrorAnswer {
  const type = answer.type ?? (answer.status === 429 ? 'requests' : answer.status >= 500 ? 'server_error' : 'invalid_request_error');
  const code = answer.code !== undefined ? answer.code : answer.status === 429 ? 'rate_limit_exceeded' : null;
  const message = answer.message ?? (answer.status >= 500 ? 'The server had an error while processing your request. Sorry about that!' : `Fake ${answer.status}.`);
  return { status: answer.status, message, type, param: answer.param ?? null, code };
}

function sendError(res: ServerResponse, record: RecordedOpenAIRequest, error: OpenAIErrorAnswer, retryAfter?: number): void {
  record.status = error.status;
  record.error = error;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': `req_fake${Math.random().toString(36).slice(2, 10)}` };
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  res.writeHead(error.status, headers);
  res.end(JSON.stringify({ error: { message: error.message, type: error.type, param: error.param, code: error.code } }));
}

interface StreamPlan {
  id: string;
  model: string;
  answer: Extract<FakeOpenAIReply, { text?: unknown }>;
  promptTokens: number;
  cached: number;
  usage: boolean;
  delayMs: number;
  callBase: number;
}

/** The reply as the documented chunks, one `data:` line each, then `data: [DONE]`. */
async function streamReply(res: ServerResponse, record: RecordedOpenAIRequest, plan: StreamPlan): Promise<void> {
  const { answer } = plan;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: plan.id,
    object: 'chat.completion.chunk',
    created,
    model: plan.model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(plan.usage ? { usage: null } : {}),
  });
  const pieces = typeof answer.text === 'string' ? (answer.text.match(/\S+\s*|\s+/g) ?? []) : [...(answer.text ?? [])];
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of pieces) chunks.push(chunk({ content: piece }));
  const calls = answer.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    const id = call.id ?? `call_fake${plan.callBase}_${index}`;
    chunks.push(chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    const n = Math.max(1, answer.argumentPieces ?? 3);
    const size = Math.ceil(args.length / n) || 1;
    for (let at = 0; at < args.length; at += size) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + size) } }] }));
  }
  const finish = answer.finish ?? (calls.length ? 'tool_calls' : 'stop');
  const hangAt = answer.hang ? chunks.length : -1;
  chunks.push(chunk({}, finish));
  const completion = Math.max(1, estimate(JSON.stringify([pieces, calls])));
  record.usage = { prompt_tokens: plan.promptTokens, completion_tokens: completion, cached_tokens: plan.cached };
  if (plan.usage) {
    chunks.push({
      id: plan.id,
      object: 'chat.completion.chunk',
      created,
      model: plan.model,
      system_fingerprint: 'fp_fake',
      choices: [],
      usage: {
        prompt_tokens: plan.promptTokens,
        completion_tokens: completion,
        total_tokens: plan.promptTokens + completion,
        prompt_tokens_details: { cached_tokens: plan.cached, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    });
  }
  record.status = 200;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const [n, c] of chunks.entries()) {
    if (answer.cutAfter !== undefined && n >= answer.cutAfter) return void res.destroy();
    if (n === hangAt) return new Promise<void>((resolve) => res.on('close', () => resolve()));
    if (answer.errorAfter && n >= answer.errorAfter.chunks) {
      const e = answer.errorAfter;
      res.write(`data: ${JSON.stringify({ error: { message: e.message, type: e.type ?? 'server_error', param: null, code: e.code ?? null } })}\n\n`);
      return void res.end();
    }
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify(c)}\n\n`);
    if (plan.delayMs) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
  }
  res.end('data: [DONE]\n\n');
}

/** OpenAI's prompt-cache rule: the longest prefix shared with an earlier request, from 1,024 tokens, in steps of 128. */
function cachedTokens(prompt: string, earlier: readonly string[]): number {
  let best = 0;
  for (const e of earlier) {
    const max = Math.min(e.length, prompt.length);
    let i = 0;
    while (i < max && e.charCodeAt(i) === prompt.charCodeAt(i)) i++;
    best = Math.max(best, i);
  }
  const tokens = Math.floor(best / 4);
  return tokens < 1024 ? 0 : Math.floor(tokens / 128) * 128;
}

function estimate(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}

function flat(headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(headers)) out[key] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
