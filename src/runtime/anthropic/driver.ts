import Anthropic, { AnthropicError, APIError } from '@anthropic-ai/sdk';
import type { Usage } from '../events';
import type { AttachmentReader, DriverChunk, ModelDriver, ModelRequest, ThinkingBlock } from '../model';
import { parseToolInput, toolCallChunk } from '../prompt/toolCalls';
import { addUsage, backoff, sleep } from '../driverFailures';
import { readAttachments } from './attachments';
import { citationOf, type ApiCitation } from './citations';
import { failureOf, promptTooLong, StreamCut, toModelError, type Failure } from './errors';
import { buildAnthropicRequest, DEFAULT_ANTHROPIC_MODEL, DRIVER_NOTES, estimateTokens, thinkingProblem, type AnthropicRequestBody, type ThinkingConfig } from './request';

export interface AnthropicDriverOptions {
  /** The API key. Read on the server only. @default the SDK reads `ANTHROPIC_API_KEY` */
  apiKey?: string;
  /** @default `ANTHROPIC_BASE_URL`, else https://api.anthropic.com */
  baseURL?: string;
  /** Used when the composer has no model selection. @default 'claude-sonnet-5-5' */
  model?: string;
  /** @default 2048 */
  maxTokens?: number;
  /**
   * Tries after a failed one: 408, 409, 429 and 5xx answers (529 included,
   * as the API's `x-should-retry` says), an overloaded or api error in the
   * middle of a reply, and a lost connection. The driver retries itself (the
   * SDK's own retries are off) so the message says what really happened.
   * @default 2
   */
  maxRetries?: number;
  /** First backoff when the API names no `retry-after`; doubles per retry, up to 8 s, with jitter. @default 500 */
  retryDelayMs?: number;
  /** The longest `retry-after` waited for; a longer one ends the turn with the wait in its message. @default 60_000 */
  maxRetryWaitMs?: number;
  /**
   * The model's context window in tokens. Older turns are left out so the
   * prompt leaves `maxTokens` free; the driver corrects it (and its token
   * estimate) from what the API reports. @default 200_000
   */
  contextWindow?: number;
  /** Continuations of a `pause_turn` within one model step. @default 5 */
  maxContinuations?: number;
  /** Per-request timeout in ms. @default the SDK's 10 minutes */
  timeoutMs?: number;
  /** A ready client (a proxy, custom fetch); the connection options above are then ignored. */
  client?: Anthropic;
  /** Shown on the surface. @default 'Claude' */
  label?: string;
  /**
   * Extended thinking, as the Messages API takes it: `{ type: 'enabled', budget_tokens }` with a
   * budget of at least 1024 tokens and below `maxTokens` (checked here: a bad one throws). The
   * model's reasoning then streams into a "Thinking…" disclosure above its reply, and its
   * thinking blocks (with their signatures) go back to the API with the conversation, unmodified,
   * before the tool calls of the loop they belong to. The driver sets no `temperature` and no
   * forcing `tool_choice`, which the API refuses with thinking. @default off
   */
  thinking?: ThinkingConfig;
  /**
   * Citations: capability results go to the model as citable search results (each titled with
   * the capability's title), and the sources its reply cites (those, and any documents or search
   * results the API was given) show as numbered markers after the cited text and a "Sources" list
   * under the reply. Citations the API streams are read whether or not this is on. @default false
   */
  citations?: boolean;
  /**
   * Reads the bytes of files users attached, when the turn brings no reader of its own (the
   * workspace server passes its attachment store's with each request): images go as image blocks,
   * PDFs and text files as documents (citable with `citations`). Without either, a file goes as a
   * note naming it. @default none
   */
  readAttachment?: AttachmentReader;
}

/**
 * Claude through `@anthropic-ai/sdk`: streamed text becomes `message.delta`
 * events, tool use goes through the registry, the AbortSignal of the turn
 * closes the connection, and 401/429/529/unreachable become clear rows.
 * A thread never breaks on what the API answered: whitespace-only text is
 * not kept, a tool call cut by `max_tokens` is dropped with a plain note, a
 * refusal is shown and left out of later requests, a full context window
 * leaves the oldest turns out, `pause_turn` is continued, and overloads and
 * 5xx are retried with backoff.
 * Runs on the server: the SDK refuses to run in a browser, so the key never
 * reaches one.
 * @example
 * const driver = createAnthropicDriver({ model: 'claude-sonnet-5-5' });
 * createLocalWorkspace({ capabilities, driver });
 */
export function createAnthropicDriver(options: AnthropicDriverOptions = {}): ModelDriver {
  const client =
    options.client ??
    new Anthropic({
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    });
  const model = options.model ?? DEFAULT_ANTHROPIC_MODEL;
  const maxTokens = options.maxTokens ?? 2048;
  const maxRetries = Math.max(0, options.maxRetries ?? 2);
  const retryDelayMs = options.retryDelayMs ?? 500;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;
  const maxContinuations = options.maxContinuations ?? 5;
  const thinking = options.thinking;
  const misuse = thinkingProblem(thinking, maxTokens);
  if (misuse) throw new Error(`createAnthropicDriver: ${misuse}`);
  /** Per model: its context window and API tokens per estimated token, as the API reported them. */
  const fit = new Map<string, { window: number; ratio: number }>();
  const fitOf = (m: string) => fit.get(m) ?? { window: options.contextWindow ?? 200_000, ratio: 1 };
  const learn = (m: string, change: Partial<{ window: number; ratio: number }>) => {
    const next = { ...fitOf(m), ...change };
    // A stand-in API may report any usage: keep the estimate within what real tokenizers do.
    fit.set(m, { window: next.window, ratio: Math.min(4, Math.max(0.25, next.ratio)) });
  };

  return {
    info: { id: 'anthropic', label: options.label ?? 'Claude' },
    async *respond(request: ModelRequest): AsyncIterable<DriverChunk> {
      const stepModel = request.model ?? model;
      // The files' bytes are read once per step, before the (pure) build.
      const attachments = await readAttachments(request.messages, request.readAttachment ?? options.readAttachment, request.signal);
      const build = () => {
        const { window, ratio } = fitOf(stepModel);
        return buildAnthropicRequest(request, { model, maxTokens, contextTokens: Math.max(1, Math.floor((window - maxTokens) / ratio)), ...(thinking ? { thinking } : {}), ...(options.citations ? { citations: true } : {}), attachments });
      };
      let built = build();
      const { toolNames } = built;
      const context = { model: built.body.model, baseURL: client.baseURL };
      const total: Usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      const out = visibleText();
      /** Content of paused responses, sent back so the model goes on (`pause_turn`). */
      const continued: unknown[] = [];
      const calls: StreamedBlock[] = [];
      /** The thinking blocks of the responses that ended well, as they go back to the API. */
      const thought: ThinkingBlock[] = [];
      const failures: Failure[] = [];
      let refitted = false;
      let continuations = 0;
      let result: { stopReason: string | null; stopDetails: { explanation?: string | null } | null };

      for (;;) {
        const body: AnthropicRequestBody = continued.length
          ? { ...built.body, messages: [...built.body.messages, { role: 'assistant', content: assistantContent(continued) as never }] }
          : built.body;
        // The SDK's stream helper keeps the message as it streams (its blocks, stop reason and
        // usage); the driver reads the raw events from it to show text as each delta comes.
        const stream = client.messages.stream(body as unknown as Anthropic.MessageStreamParams, { signal: request.signal, maxRetries: 0 });
        const attempt = streamState(stream);
        try {
          for await (const event of stream) yield* chunksOf(event, attempt, out, toolNames);
          if (!attempt.stopped) throw new StreamCut();
        } catch (caught) {
          const error = unwrapHelperError(caught);
          addUsage(total, attempt.usage());
          if (request.signal.aborted) throw toModelError(error, context);
          const tooLong = promptTooLong(error);
          if (tooLong && !refitted && !continued.length) {
            // The API counts differently: take its numbers and leave more out.
            refitted = true;
            learn(stepModel, { window: tooLong.maximum, ratio: Math.max(fitOf(stepModel).ratio, tooLong.tokens / estimateTokens(body)) });
            const again = build();
            if (again.trimmedTurns > built.trimmedTurns) {
              built = again;
              continue;
            }
          }
          const failure = failureOf(error);
          if (failure) failures.push(failure);
          const wait = failure?.retryable ? backoff(failure, failures.length - 1, retryDelayMs) : null;
          if (!failure?.retryable || failures.length > maxRetries || wait === null || wait > maxRetryWaitMs) {
            throw toModelError(error, { ...context, failures, maxRetries, ...(wait !== null && wait > maxRetryWaitMs ? { waitMs: wait } : {}) });
          }
          if (out.shownSinceRestart) yield { type: 'text', text: out.restart() };
          await sleep(wait, request.signal);
          continue;
        }
        const usage = attempt.usage();
        addUsage(total, usage);
        const sent = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
        const { stopReason, stopDetails } = attempt.stop();
        if (sent > 0) learn(stepModel, { ratio: sent / estimateTokens(body) });
        if (stopReason === 'model_context_window_exceeded') learn(stepModel, { window: sent + usage.output_tokens });
        calls.push(...attempt.blocks().filter((b) => b.type === 'tool_use'));
        thought.push(...attempt.blocks().flatMap(thinkingOf));
        if (stopReason === 'pause_turn' && continuations < maxContinuations) {
          continuations++;
          continued.push(...attempt.blocks().map(sendBack));
          continue;
        }
        result = { stopReason, stopDetails };
        break;
      }

      yield { type: 'usage', usage: total };
      if (thought.length) yield { type: 'thinking', blocks: thought };
      const { stopReason, stopDetails } = result;
      if (stopReason === 'refusal') {
        const explanation = stopDetails?.explanation?.trim();
        yield {
          type: 'text',
          text: `${out.wrote ? '\n\n' : ''}${DRIVER_NOTES.refusal}${explanation ? ` ${explanation}` : ''} This exchange is left out of the conversation from here on; rephrase the request to try again.`,
        };
        return;
      }
      const intents = calls.flatMap((call) => {
        const input = parseToolInput(call.json);
        return input ? [toolCallChunk(call.id, toolNames.get(call.name) ?? call.name, input, toolNames)] : [];
      });
      const cutCall = intents.length < calls.length;
      const lead = out.wrote ? '\n\n' : '';
      if (cutCall) {
        const why =
          stopReason === 'max_tokens' ? 'My reply was cut off at the length limit before I could finish a step'
          : stopReason === 'model_context_window_exceeded' ? 'My reply filled the context window before I could finish a step'
          : 'A step I started could not be read';
        const after = stopReason === 'model_context_window_exceeded' ? ' The oldest messages will be left out from now on to make room.' : '';
        yield { type: 'text', text: `${lead}${why}; ${intents.length ? 'that step was not run.' : 'ask me to go on.'}${after}` };
      } else if (stopReason === 'max_tokens') {
        yield { type: 'text', text: out.wrote ? ' … (cut off: the reply reached its length limit)' : 'My reply reached its length limit before I wrote anything; ask me to go on.' };
      } else if (stopReason === 'model_context_window_exceeded') {
        yield { type: 'text', text: `${out.wrote ? ' … ' : ''}(cut off: this conversation has filled Claude's context window, so the oldest messages will be left out from now on to make room.)` };
      } else if (stopReason === 'pause_turn' && !intents.length) {
        yield { type: 'text', text: `${lead}Claude paused this reply ${continuations + 1} times; ask it to go on.` };
      }
      yield* intents;
    },
  };
}

// ─── The stream ──────────────────────────────────────────────────────────────

type MessageStream = ReturnType<Anthropic['messages']['stream']>;

/** One content block as it streamed, with the raw JSON of a tool call's input. */
interface StreamedBlock {
  block: Anthropic.ContentBlock;
  type: string;
  id: string;
  name: string;
  /**
   * The tool input's JSON exactly as it streamed. Kept by hand: the helper parses a cut input
   * with a partial-JSON parser into part of an object, and a cut call must be dropped instead.
   */
  json: string;
}

/**
 * One response: the SDK's helper accumulates the message (blocks, stop reason, usage: the API's
 * usage fields are cumulative, and it overwrites them as they come); this adds what the driver
 * needs besides (the text of each delta, where a paragraph starts, whether the stream ended).
 */
function streamState(stream: MessageStream) {
  // The snapshot the helper updates in place. Read from its event, not `finalMessage()`: a
  // response cut before `message_stop` has none, and the usage it reported so far still counts.
  let message: Anthropic.Message | undefined;
  stream.on('streamEvent', (_event: Anthropic.MessageStreamEvent, snapshot: Anthropic.Message) => {
    message = snapshot;
  });
  const json = new Map<number, string>();
  /** Types of the blocks by index, as they started. */
  const types = new Map<number, string>();
  let fresh = false;
  let lastType: string | undefined;
  let reasoning: DriverChunk | null = null;
  /** The tool calls by block index, as they started (`tool_use` only: the API's own server tools run there). */
  const calls = new Map<number, { id: string; name: string }>();
  let args: { call_id: string; name: string; delta: string } | null = null;
  /** Citations streamed for each text block (`citations_delta`), by index; those of the block that just ended. */
  const citing = new Map<number, ApiCitation[]>();
  let cited: ApiCitation[] = [];
  const state = {
    stopped: false,
    /**
     * Reads an event; returns text to show, if any (each text delta as it came). Reasoning it
     * read (a thinking delta, the end of a thinking or redacted block) is then in `reasoning()`.
     */
    apply(event: Anthropic.MessageStreamEvent): string | null {
      reasoning = null;
      args = null;
      cited = [];
      switch (event.type) {
        case 'content_block_start':
          // A text block after a tool call or thinking is a new paragraph; consecutive text blocks (citations) run on.
          fresh = event.content_block.type === 'text' && lastType !== undefined && lastType !== 'text';
          lastType = event.content_block.type;
          types.set(event.index, event.content_block.type);
          if (event.content_block.type === 'tool_use') calls.set(event.index, { id: event.content_block.id, name: event.content_block.name });
          return null;
        case 'content_block_delta':
          if (!message?.content[event.index]) return null;
          if (event.delta.type === 'text_delta') return event.delta.text;
          if (event.delta.type === 'input_json_delta') {
            json.set(event.index, (json.get(event.index) ?? '') + event.delta.partial_json);
            const call = calls.get(event.index);
            if (call && event.delta.partial_json) args = { call_id: call.id, name: call.name, delta: event.delta.partial_json };
          }
          if (event.delta.type === 'thinking_delta' && event.delta.thinking) reasoning = { type: 'reasoning', text: event.delta.thinking };
          if (event.delta.type === 'citations_delta') citing.set(event.index, [...(citing.get(event.index) ?? []), event.delta.citation as ApiCitation]);
          return null;
        case 'content_block_stop': {
          const type = types.get(event.index);
          if (type === 'thinking') reasoning = { type: 'reasoning_end' };
          if (type === 'redacted_thinking') reasoning = { type: 'reasoning_end', redacted: true };
          if (type === 'text') cited = citing.get(event.index) ?? [];
          return null;
        }
        case 'message_stop':
          state.stopped = true;
          return null;
        default:
          return null; // ping, and event types added later
      }
    },
    /** The citations of the text block the last event ended (none for any other event). */
    cited(): readonly ApiCitation[] {
      return cited;
    },
    /** The piece of a tool call's arguments the last event carried, if any (the API's tool name). */
    args(): { call_id: string; name: string; delta: string } | null {
      return args;
    },
    /** The reasoning the last event carried, if any. */
    reasoning(): DriverChunk | null {
      return reasoning;
    },
    /** True once per text block that follows another kind of block. */
    newBlock(): boolean {
      const was = fresh;
      fresh = false;
      return was;
    },
    /** The tokens of this response so far (0 for a count the API left out). */
    usage() {
      const u = message?.usage;
      const n = (v: number | null | undefined) => (typeof v === 'number' ? v : 0);
      return {
        input_tokens: n(u?.input_tokens),
        output_tokens: n(u?.output_tokens),
        cache_creation_input_tokens: n(u?.cache_creation_input_tokens),
        cache_read_input_tokens: n(u?.cache_read_input_tokens),
      };
    },
    stop(): { stopReason: string | null; stopDetails: { explanation?: string | null } | null } {
      return { stopReason: message?.stop_reason ?? null, stopDetails: (message?.stop_details as { explanation?: string | null } | null | undefined) ?? null };
    },
    blocks(): StreamedBlock[] {
      return (message?.content ?? []).map((block, index) => {
        const named = block as { id?: unknown; name?: unknown };
        return { block, type: block.type, id: String(named.id ?? ''), name: String(named.name ?? ''), json: json.get(index) ?? '' };
      });
    },
  };
  return state;
}

/**
 * What one streamed event shows: the reasoning it carried, its text (each delta as it came), and
 * the citations of a text block it ended, with the block's span of the shown text (a block's
 * citations may stream before or after its text: its span is known once it ends).
 */
function* chunksOf(event: Anthropic.MessageStreamEvent, attempt: ReturnType<typeof streamState>, out: ReturnType<typeof visibleText>, toolNames: ReadonlyMap<string, string>): Generator<DriverChunk> {
  const text = attempt.apply(event);
  const reasoning = attempt.reasoning();
  if (reasoning) yield reasoning;
  const args = attempt.args();
  if (args) yield { type: 'call_args', call_id: args.call_id, capability: toolNames.get(args.name) ?? args.name, delta: args.delta };
  if (event.type === 'content_block_start' && event.content_block.type === 'text') out.openSpan();
  if (text !== null) {
    const visible = out.push(text, attempt.newBlock());
    if (visible) yield { type: 'text', text: visible };
  }
  for (const cited of attempt.cited()) {
    const citation = citationOf(cited, out.span());
    if (citation) yield { type: 'citation', citation };
  }
}

/**
 * The error as the raw stream raised it, for the mapping (errors.ts): the helper wraps an error
 * that is not the SDK's own (a socket that broke: undici's `terminated`) in a plain
 * `AnthropicError` with the original as its cause, and a response with no event at all ends in
 * its "request ended without sending any chunks", where the raw stream simply ended (a cut).
 */
function unwrapHelperError(error: unknown): unknown {
  if (!(error instanceof AnthropicError) || error instanceof APIError) return error;
  if (error.cause instanceof Error) return error.cause;
  if (error.message === 'request ended without sending any chunks') return new StreamCut();
  return error;
}

/**
 * The text a user sees: leading and trailing whitespace is held back until
 * real text follows, so a whitespace-only block (as before a tool call) is
 * never shown nor kept; a new text block starts a new paragraph.
 */
function visibleText() {
  let pending = '';
  let wrote = false;
  let since = false;
  /** Characters shown so far (the step's text as the reply has it). */
  let length = 0;
  /** Where the current text block's text starts in it, once any of it showed. */
  let spanStart: number | null = null;
  return {
    /** A text block starts: its span starts with its first shown text. */
    openSpan() {
      spanStart = null;
    },
    /** The current text block's span of the shown text (empty, at the end, when none of it showed). */
    span(): { start: number; end: number } {
      return { start: spanStart ?? length, end: length };
    },
    /** True once any text was shown in this step. */
    get wrote() {
      return wrote;
    },
    /** True when text was shown since the last restart note. */
    get shownSinceRestart() {
      return since;
    },
    push(text: string, newBlock: boolean): string | null {
      if (newBlock && wrote) pending = '\n\n';
      const all = pending + text;
      if (!all.trim()) {
        pending = all;
        return null;
      }
      const trailing = /\s*$/.exec(all)![0];
      const lead = all.length - text.length;
      const full = all.slice(0, all.length - trailing.length);
      pending = trailing;
      const first = !wrote;
      wrote = true;
      since = true;
      const shown = first ? full.trimStart() : full;
      // The block's text starts after what was held back before it (a first text has none).
      if (spanStart === null) spanStart = first ? length : length + lead;
      length += shown.length;
      return shown;
    },
    /** The note shown before a reply starts again after an interruption. */
    restart(): string {
      pending = '\n\n';
      since = false;
      const note = `\n\n${DRIVER_NOTES.restart}`;
      length += note.length;
      return note;
    },
  };
}

/** A streamed block as it goes back to the API to continue a paused turn. */
function sendBack({ block, json }: StreamedBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text, ...(block.citations?.length ? { citations: block.citations } : {}) };
    case 'tool_use':
    case 'server_tool_use':
      return { type: block.type, id: block.id, name: block.name, input: parseToolInput(json) ?? {} };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    default:
      return { ...block };
  }
}

/** A finished response's thinking block as the API must get it back; nothing for other blocks. */
function thinkingOf({ block }: StreamedBlock): ThinkingBlock[] {
  if (block.type === 'thinking') return [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
  if (block.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: block.data }];
  return [];
}

/** Paused content as a final assistant message: no blank text, no trailing whitespace. */
function assistantContent(blocks: readonly unknown[]): unknown[] {
  const out = (blocks as { type: string; text?: string }[]).filter((b) => b.type !== 'text' || b.text?.trim());
  const last = out[out.length - 1];
  if (last?.type === 'text') out[out.length - 1] = { ...last, text: last.text!.trimEnd() };
  return out;
}
