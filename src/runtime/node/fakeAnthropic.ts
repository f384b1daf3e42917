import { createPromptCache, estimateTokens, type PromptCache } from './fakeAnthropicCache';
import { admit } from './fakeAnthropic/admit';
import { errorType, sendError } from './fakeAnthropic/errors';
import { createServiceMemory } from './fakeAnthropic/memory';
import { planReply, refusedAgain, type FakeReply } from './fakeAnthropic/replies';
import type { RecordedRequest } from './fakeAnthropic/requests';
import { streamMessage, writeMessage } from './fakeAnthropic/respond';
import { listen } from './fakeAnthropic/server';
import { createThinkingSigner, thinkingEnabled } from './fakeAnthropic/thinking';

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
 * - Extended thinking: scripted thinking and redacted thinking are streamed only when the
 *   request enables thinking, signed with a key of the fake's own; the signatures are checked
 *   when the blocks come back, and the API's thinking rules are enforced (`fakeAnthropic/thinking.ts`).
 * - Citations: a scripted text block's `citations` name a document or search result of the
 *   request; when the request carries it with citations on, the block streams them as
 *   `citations_delta` (quoting the source as the API does), else the text comes uncited. The
 *   API's citation rules are enforced (`fakeAnthropic/citations.ts`).
 * - Behaves like the service after a refusal: a later request that still
 *   carries the refused turn is refused again.
 */

export type { FakeBlock, FakeRefusalDetails, FakeReply, FakeStopReason } from './fakeAnthropic/replies';
export type { FakeCitation } from './fakeAnthropic/citations';
export type { RecordedRequest } from './fakeAnthropic/requests';
export type { ApiErrorAnswer } from './fakeAnthropic/errors';
export { validateMessagesRequest, type ValidateOptions } from './fakeAnthropic/validate';

// Its parts, in src/runtime/node/fakeAnthropic/: server.ts (start, stop, the request ledger),
// admit.ts and validate.ts (the API's checks and 400s), errors.ts (the API's error answers),
// thinking.ts (extended thinking's rules and signatures), citations.ts (citable sources, their rules and the citations replies make), replies.ts (the scripted replies), memory.ts (paused and refused turns), respond.ts (the JSON
// and streaming response writers).

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

/**
 * Starts the fake on a random port of 127.0.0.1.
 * @example
 * const fake = await startFakeAnthropic({ reply: () => ({ text: 'Hello.' }) });
 * createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url });
 */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const apiKey = options.apiKey ?? 'sk-fake-test-key';
  const cache = createPromptCache({ minTokens: options.minCacheTokens ?? 1024 });
  const reply = options.reply ?? ((_r, i) => ({ text: `Fake reply ${i + 1}.` }));
  const delay = options.delayMs ?? 0;
  const contextWindow = options.contextWindow ?? 200_000;
  const admission = { apiKey, contextWindow, maxBytes: options.maxBytes ?? 32 * 1024 * 1024, prefill: options.prefill ?? false };
  const memory = createServiceMemory();
  const signer = createThinkingSigner();
  let ids = 0;

  const server = await listen(async (record, index, res) => {
    const refusal = admit(record, { ...admission, paused: memory.paused, thinking: signer });
    if (refusal) return sendError(res, record, refusal);

    const carriesRefused = memory.carriesRefused(record.body);
    if (carriesRefused) record.refusedAgain = true;
    const answer: FakeReply = carriesRefused ? refusedAgain() : await reply(record, index);
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
    const { content, blocks, stop, stopDetails } = planReply(answer, () => ++ids, signer, thinkingEnabled(record.body), record.body);
    const input = { input_tokens: usage.input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens, cache_read_input_tokens: usage.cache_read_input_tokens };
    // The reply fills the window exactly when it stops there.
    const output = stop === 'model_context_window_exceeded' ? Math.max(1, contextWindow - usage.total_tokens) : Math.max(1, estimateTokens(JSON.stringify(blocks)));

    if (stop === 'pause_turn') memory.rememberPause(record.body, blocks);
    if (stop === 'refusal' && !carriesRefused) memory.rememberRefusal(record.body, blocks);

    const message = { index, model: String(record.body.model ?? 'claude-fake'), content, blocks, stop, stopDetails, input, output };
    if (record.body.stream !== true) return writeMessage(res, message);
    await streamMessage(res, message, answer, delay);
  });

  return { url: server.url, apiKey, requests: server.requests, cache, settled: server.settled, close: server.close };
}
