import OpenAI, { APIUserAbortError } from 'openai';
import type { Usage } from '../events';
import type { DriverChunk, ModelDriver, ModelRequest } from '../model';
import { parseToolInput, toolCallChunk } from '../prompt/toolCalls';
import { addUsage, backoff, sleep } from '../driverFailures';
import { contextTooLong, failureOf, StreamCut, toModelError, type Failure } from './errors';
import { buildOpenAIRequest, estimateTokens, OPENAI_NOTES, type OpenAIRequestBody } from './request';

export interface OpenAIDriverOptions {
  /**
   * Where the server speaks Chat Completions, up to and including `/v1`:
   * `http://127.0.0.1:8080/v1` (llama.cpp's server), `http://127.0.0.1:11434/v1`
   * (Ollama). @default `OPENAI_BASE_URL`, else https://api.openai.com/v1
   */
  baseURL?: string;
  /** The API key, read on the server only. Local servers need none. @default `OPENAI_API_KEY`, else no key is sent */
  apiKey?: string;
  /** The model the server should answer with (`gpt-4o-mini`, `llama3.2`, the name llama.cpp's server was started with). */
  model: string;
  /**
   * More models the composer's model picker may choose, besides `model`.
   * @default none
   */
  models?: readonly string[];
  /** The reply's length limit. @default the server's own */
  maxTokens?: number;
  /** The field that carries `maxTokens`: older local servers read only `max_tokens`. @default 'max_completion_tokens' */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /**
   * Tries after a failed one: 408, 409, 429 and 5xx answers, a server error
   * in the middle of a reply, and a lost connection. The driver retries
   * itself (the SDK's own retries are off) so the message says what really
   * happened. @default 2
   */
  maxRetries?: number;
  /** First backoff when the server names no `retry-after`; doubles per retry, up to 8 s, with jitter. @default 500 */
  retryDelayMs?: number;
  /** The longest `retry-after` waited for; a longer one ends the turn with the wait in its message. @default 60_000 */
  maxRetryWaitMs?: number;
  /**
   * The model's context window in tokens. Older turns are left out so the
   * prompt fits; the driver corrects it (and its estimate) from what the
   * server reports. @default 128_000
   */
  contextWindow?: number;
  /** Per-request timeout in ms. @default the SDK's 10 minutes */
  timeoutMs?: number;
  /** A ready client (a proxy, custom fetch, Azure); the connection options above are then ignored. */
  client?: OpenAI;
  /** Shown on the surface (the model badge). @default the model's name */
  label?: string;
}

/**
 * A model behind any server that speaks OpenAI's Chat Completions (OpenAI,
 * llama.cpp's server, Ollama, vLLM, LM Studio) through the `openai` SDK:
 * streamed text becomes `message.delta` events, tool calls (their argument
 * deltas put together per index, several in one reply) go through the
 * registry, the turn's AbortSignal closes the connection, and usage
 * (cached prompt tokens included) lands on the same per-row figures as
 * Claude's. A thread never breaks on what the server answered: a call cut by
 * the length limit is dropped with a plain note, a full context window
 * leaves the oldest turns out, and 429 and 5xx are retried with backoff.
 * Runs on the server: the key never reaches a browser.
 * @example
 * const driver = createOpenAIDriver({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
 * createWorkspaceServer({ capabilities, driver });
 */
export function createOpenAIDriver(options: OpenAIDriverOptions): ModelDriver {
  const key = options.apiKey ?? readEnv('OPENAI_API_KEY');
  const client =
    options.client ??
    new OpenAI({
      // The SDK insists on a key; a local server takes none, so none is sent.
      apiKey: key || 'no-key',
      ...(key ? {} : { defaultHeaders: { Authorization: null } }),
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      maxRetries: 0,
    });
  const model = options.model;
  const maxRetries = Math.max(0, options.maxRetries ?? 2);
  const retryDelayMs = options.retryDelayMs ?? 500;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;
  const fit = new Map<string, { window: number; ratio: number }>();
  const fitOf = (m: string) => fit.get(m) ?? { window: options.contextWindow ?? 128_000, ratio: 1 };
  const learn = (m: string, change: Partial<{ window: number; ratio: number }>) => {
    const next = { ...fitOf(m), ...change };
    fit.set(m, { window: next.window, ratio: Math.min(4, Math.max(0.25, next.ratio)) });
  };
  const reserve = options.maxTokens ?? 1024;

  return {
    info: { id: 'openai', label: options.label ?? model },
    models: [model, ...(options.models ?? []).filter((m) => m !== model)],
    async *respond(request: ModelRequest): AsyncIterable<DriverChunk> {
      const stepModel = request.model ?? model;
      const build = () => {
        const { window, ratio } = fitOf(stepModel);
        return buildOpenAIRequest(request, {
          model,
          ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
          ...(options.maxTokensField ? { maxTokensField: options.maxTokensField } : {}),
          contextTokens: Math.max(1, Math.floor((window - reserve) / ratio)),
        });
      };
      let built = build();
      const { toolNames } = built;
      const context = { model: built.body.model, baseURL: client.baseURL };
      const total: Usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      const out = visibleText();
      const failures: Failure[] = [];
      let refitted = false;
      let attempt: ReturnType<typeof streamState>;

      for (;;) {
        const body: OpenAIRequestBody = built.body;
        attempt = streamState();
        try {
          const stream = await client.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsStreaming, { signal: request.signal, maxRetries: 0 });
          for await (const chunk of stream) {
            const text = attempt.apply(chunk);
            if (text === null) continue;
            const visible = out.push(text);
            if (visible) yield { type: 'text', text: visible };
          }
          if (!attempt.finished) throw new StreamCut();
        } catch (caught) {
          addUsage(total, attempt.usage());
          if (request.signal.aborted) throw toModelError(caught, context);
          const tooLong = contextTooLong(caught);
          if (tooLong && !refitted) {
            // The server counts differently: take its numbers and leave more out. A server that names none
            // (llama.cpp's "exceeds the available context size") has a window smaller than what was sent: a quarter less.
            refitted = true;
            const known = Number.isFinite(tooLong.maximum) && Number.isFinite(tooLong.tokens);
            const current = fitOf(stepModel);
            learn(
              stepModel,
              known
                ? { window: tooLong.maximum, ratio: Math.max(current.ratio, tooLong.tokens / estimateTokens(body)) }
                : { window: reserve + Math.floor(estimateTokens(body) * current.ratio * 0.75) },
            );
            const again = build();
            if (again.trimmedTurns > built.trimmedTurns) {
              built = again;
              continue;
            }
          }
          const failure = failureOf(caught);
          if (failure) failures.push(failure);
          const wait = failure?.retryable ? backoff(failure, failures.length - 1, retryDelayMs) : null;
          if (!failure?.retryable || failures.length > maxRetries || wait === null || wait > maxRetryWaitMs) {
            throw toModelError(caught, { ...context, failures, maxRetries, ...(wait !== null && wait > maxRetryWaitMs ? { waitMs: wait } : {}) });
          }
          if (out.shownSinceRestart) yield { type: 'text', text: out.restart() };
          await sleep(wait, request.signal);
          if (request.signal.aborted) throw new APIUserAbortError();
          continue;
        }
        const usage = attempt.usage();
        addUsage(total, usage);
        const sent = usage.input_tokens + (usage.cache_read_input_tokens ?? 0);
        if (sent > 0) learn(stepModel, { ratio: sent / estimateTokens(body) });
        break;
      }

      yield { type: 'usage', usage: total };
      const finish = attempt.finishReason();
      const calls = attempt.calls();
      const intents = calls.flatMap((call) => {
        const input = parseToolInput(call.json);
        return input && call.name ? [toolCallChunk(call.id, toolNames.get(call.name) ?? call.name, input, toolNames)] : [];
      });
      const lead = out.wrote ? '\n\n' : '';
      if (intents.length < calls.length) {
        const why = finish === 'length' ? 'My reply was cut off at the length limit before I could finish a step' : 'A step I started could not be read';
        yield { type: 'text', text: `${lead}${why}; ${intents.length ? 'that step was not run.' : 'ask me to go on.'}` };
      } else if (finish === 'length') {
        yield { type: 'text', text: out.wrote ? ' … (cut off: the reply reached its length limit)' : 'My reply reached its length limit before I wrote anything; ask me to go on.' };
      } else if (finish === 'content_filter') {
        yield { type: 'text', text: `${lead}The server's content filter stopped this reply.` };
      } else if (!out.wrote && !intents.length && attempt.refusal()) {
        yield { type: 'text', text: attempt.refusal() };
      }
      yield* intents;
    },
  };
}

// ─── The stream ──────────────────────────────────────────────────────────────

/** One tool call as it streamed: its id and name from its first delta, its arguments put together from all of them. */
interface StreamedCall {
  id: string;
  name: string;
  json: string;
}

/** One response: text deltas as they come, tool calls by index, the finish reason and the usage chunk. */
function streamState() {
  const calls = new Map<number, StreamedCall>();
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | null = null;
  let refusal = '';
  let done = false;
  return {
    /** True once a choice finished (a server may close without `[DONE]` after that). */
    get finished() {
      return done;
    },
    /** Reads a chunk; returns text to show, if any. */
    apply(chunk: OpenAI.ChatCompletionChunk): string | null {
      if (chunk.usage) usage = chunk.usage;
      // One choice is asked for (`n` is never set); a server that sends more is read for its first.
      const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
      if (!choice) return null;
      if (choice.finish_reason) {
        finish = choice.finish_reason;
        done = true;
      }
      const delta = choice.delta ?? {};
      for (const call of delta.tool_calls ?? []) {
        const index = typeof call.index === 'number' ? call.index : calls.size;
        const known = calls.get(index) ?? { id: '', name: '', json: '' };
        if (call.id) known.id = call.id;
        if (call.function?.name) known.name = known.name || call.function.name;
        if (call.function?.arguments) known.json += call.function.arguments;
        calls.set(index, known);
      }
      if (typeof delta.refusal === 'string') refusal += delta.refusal;
      return typeof delta.content === 'string' && delta.content ? delta.content : null;
    },
    /** The tokens of this response: the prompt's cached part as the cache read, the rest as input. */
    usage(): Usage {
      const prompt = usage?.prompt_tokens ?? 0;
      const cached = Math.min(prompt, usage?.prompt_tokens_details?.cached_tokens ?? 0);
      return { input_tokens: prompt - cached, output_tokens: usage?.completion_tokens ?? 0, cache_creation_input_tokens: 0, cache_read_input_tokens: cached };
    },
    finishReason: () => finish,
    refusal: () => refusal.trim(),
    /** The calls in index order; a call the server named no id for gets one, so its result can answer it. */
    calls(): StreamedCall[] {
      return [...calls.entries()].sort(([a], [b]) => a - b).map(([index, c]) => ({ ...c, id: c.id || `call_${index}_${Math.random().toString(36).slice(2, 10)}` }));
    },
  };
}

/**
 * The text a user sees: leading and trailing whitespace is held back until
 * real text follows, so a whitespace-only reply (as before a tool call) is
 * never shown nor kept.
 */
function visibleText() {
  let pending = '';
  let wrote = false;
  let since = false;
  return {
    get wrote() {
      return wrote;
    },
    get shownSinceRestart() {
      return since;
    },
    push(text: string): string | null {
      const all = pending + text;
      if (!all.trim()) {
        pending = all;
        return null;
      }
      const trailing = /\s*$/.exec(all)![0];
      const shown = all.slice(0, all.length - trailing.length);
      pending = trailing;
      const first = !wrote;
      wrote = true;
      since = true;
      return first ? shown.trimStart() : shown;
    },
    restart(): string {
      pending = '\n\n';
      since = false;
      return `\n\n${OPENAI_NOTES.restart}`;
    },
  };
}

function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name]?.trim() || undefined;
}
