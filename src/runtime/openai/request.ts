import {
  canonicalJson,
  capabilitySchemas,
  CONTROL_TOOL_NAMES,
  CONTROL_TOOLS,
  remindersSlab,
  skillsSlab,
  sortKeys,
  spineSlab,
  turnContextSlab,
  violationLine,
} from '../prompt/slabs';
import { routeIntent } from '../prompt/router';
import { type CapabilityResult } from '../envelope';
import { resultText } from '../results';
import { CONTROL, type ModelMessage, type ModelRequest, type ViolationNote } from '../model';

/**
 * Maps the prompt slabs onto the Chat Completions API (OpenAI's, and every
 * server that speaks it: llama.cpp's server, Ollama, vLLM, LM Studio):
 *
 * | message            | slabs                                              |
 * |--------------------|----------------------------------------------------|
 * | tools              | the engine's 3 verbs, then [2] whitelist           |
 * | system             | [1] spine, [4] reminders, [3] active skills        |
 * | messages…          | [6] thread (earlier turns)                         |
 * | current user msg   | [5] suggestions, [7] corpus, notes, then [8]       |
 * | this turn's loop   | assistant tool calls, one `tool` message per call  |
 *
 * Servers that cache prompts (OpenAI's own caches a prefix of 1,024 tokens
 * or more, automatically) reuse the longest identical prefix: the tools and
 * the system message stay the same bytes from turn to turn while the
 * whitelist and the system slabs do, and the thread only grows at its end.
 *
 * What the API refuses is never sent: a `tool` message answers a call of
 * the assistant message just before it (a call with no result gets a "Not
 * run." one, a result with no call becomes a user note), and every call is
 * answered before the next user or assistant message.
 */

/**
 * What the driver writes into a reply when the server did something the user
 * must know about; the builder recognises them in the recorded conversation.
 */
export const OPENAI_NOTES = {
  /** Marks a reply started again after an interruption: what came before it is left out of later requests. */
  restart: '(The model was interrupted mid-reply and started the reply again.)',
  /** Opens the thread when older turns were left out to fit the model's context window (`contextTokens`). */
  trimmed: '[To fit the context window, earlier messages of this conversation were left out.]',
} as const;

const UTF8 = new TextEncoder();

/** Whole turns left out at a time when the thread must be trimmed, so the cached prefix stays put for several turns. */
const TRIM_STEP = 4;

export interface ToolCallParam {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessageParam =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCallParam[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface FunctionToolParam {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A Chat Completions request body (streaming, with usage in the last chunk). */
export interface OpenAIRequestBody {
  model: string;
  messages: ChatMessageParam[];
  tools: FunctionToolParam[];
  max_completion_tokens?: number;
  max_tokens?: number;
  stream: true;
  stream_options: { include_usage: true };
}

export interface BuiltRequest {
  body: OpenAIRequestBody;
  /** Tool name in the request → capability name or `CONTROL` verb. */
  toolNames: ReadonlyMap<string, string>;
  /** Earlier turns left out to fit `contextTokens` (0 when all fit). */
  trimmedTurns: number;
}

export interface BuildOptions {
  /** The model when the composer has none selected. */
  model: string;
  /** The reply's length limit; unset leaves it to the server. */
  maxTokens?: number;
  /**
   * Which field carries `maxTokens`: OpenAI's current `max_completion_tokens`
   * or the older `max_tokens` that some local servers still read. @default 'max_completion_tokens'
   */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /** The most the request may weigh, in `estimateTokens` units: beyond it the oldest turns are left out. @default no limit */
  contextTokens?: number;
}

/**
 * Builds the request for a model step. Pure and deterministic: the same
 * request gives the same bytes.
 * @example
 * const { body } = buildOpenAIRequest(request, { model: 'llama3.2' });
 */
export function buildOpenAIRequest(request: ModelRequest, options: BuildOptions): BuiltRequest {
  const names = toolNameMap(request.capabilities.map((c) => c.name));
  const forward = new Map<string, string>([
    [CONTROL.propose, CONTROL_TOOL_NAMES.propose],
    [CONTROL.ask, CONTROL_TOOL_NAMES.ask],
    [CONTROL.standing, CONTROL_TOOL_NAMES.standing],
    ...[...names].map(([tool, name]): [string, string] => [name, tool]),
  ]);
  const toolName = (capability: string) => forward.get(capability) ?? sanitize(capability);

  const tools: FunctionToolParam[] = [...CONTROL_TOOLS, ...capabilitySchemas(request.capabilities)].map((t) => ({
    type: 'function',
    function: { name: toolName(t.name), description: t.description, parameters: t.input_schema },
  }));
  // The control tools already carry their API names; toolName leaves them as they are.

  const system = [spineSlab(request.alignment ?? 'strict'), remindersSlab(request.reminders ?? ''), skillsSlab(request.skills ?? [])].filter(Boolean).join('\n\n');

  const current = lastUserIndex(request.messages);
  const titles = new Map(request.capabilities.map((c) => [c.name, c.title]));
  const turnContext = turnContextSlab({
    suggestions: request.suggestions ?? [],
    corpus: request.corpus ?? [],
    violations: request.violations ?? [],
    route: request.route ?? routeIntent(current >= 0 ? (request.messages[current] as { text: string }).text : ''),
    titles,
  });
  const turn: ModelMessage[] = current >= 0 ? request.messages.slice(current) : request.messages.slice();
  const earlier = turnsOf(current >= 0 ? request.messages.slice(0, current) : []);
  const model = request.model ?? options.model;
  const limit = options.maxTokens !== undefined ? { [options.maxTokensField ?? 'max_completion_tokens']: options.maxTokens } : {};

  const assemble = (dropped: number): OpenAIRequestBody => {
    const kept = earlier.slice(dropped).flat();
    const thread: ModelMessage[] = dropped ? [{ role: 'user', text: OPENAI_NOTES.trimmed }, ...kept] : kept;
    const messages = mergeRoles([{ role: 'system', content: system }, ...renderMessages(thread, toolName), ...renderMessages(turn, toolName, turnContext)]);
    return { model, messages, tools, ...limit, stream: true, stream_options: { include_usage: true } };
  };

  let dropped = 0;
  let body = assemble(0);
  const budget = options.contextTokens;
  if (budget !== undefined && earlier.length && estimateTokens(body) > budget) {
    const sizes = earlier.map((t) => estimateTokens(renderMessages(t, toolName)));
    let excess = estimateTokens(body) - budget;
    let need = 0;
    while (need < earlier.length && excess > 0) excess -= sizes[need++]!;
    dropped = Math.min(Math.ceil(need / TRIM_STEP) * TRIM_STEP, earlier.length);
    body = assemble(dropped);
    while (dropped < earlier.length && estimateTokens(body) > budget) body = assemble(++dropped);
  }
  const toolNames = new Map<string, string>([...forward].map(([name, tool]) => [tool, name]));
  return { body, toolNames, trimmedTurns: dropped };
}

/** What a value weighs in a request, estimated as the UTF-8 bytes of its JSON / 4 (rounded up). */
export function estimateTokens(value: unknown): number {
  return Math.ceil(UTF8.encode(JSON.stringify(value) ?? '').length / 4);
}

/**
 * Tool names for capability names: the API allows `^[a-zA-Z0-9_-]{1,64}$`,
 * so dots become `_`; a clash with another tool gets a numbered suffix.
 */
export function toolNameMap(capabilities: readonly string[]): Map<string, string> {
  const taken = new Set<string>(Object.values(CONTROL_TOOL_NAMES));
  const map = new Map<string, string>();
  for (const name of capabilities) {
    let tool = sanitize(name);
    for (let n = 2; taken.has(tool); n++) tool = `${sanitize(name).slice(0, 60)}_${n}`;
    taken.add(tool);
    map.set(tool, name);
  }
  return map;
}

function sanitize(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tool';
}

function lastUserIndex(messages: readonly ModelMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return -1;
}

/** The conversation in turns, each starting at a user message: cutting between turns never separates a call from its result. */
function turnsOf(messages: readonly ModelMessage[]): ModelMessage[][] {
  const out: ModelMessage[][] = [];
  for (const m of messages) {
    if (m.role === 'user' || out.length === 0) out.push([m]);
    else out[out.length - 1]!.push(m);
  }
  return out;
}

/** An assistant reply as it goes back to the model: what came before a restart is left out. */
function replyText(text: string): string {
  const restart = text.lastIndexOf(OPENAI_NOTES.restart);
  return restart >= 0 ? text.slice(restart + OPENAI_NOTES.restart.length).trimStart() : text;
}

/** Tool arguments must be a JSON object: anything else (a cut call) is never sent. */
function isInput(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Renders conversation messages as API messages. `tool` messages follow the
 * assistant message that made the calls, in call order; a call without a
 * result gets a "Not run." one; a result whose call is not the one just
 * made (the user ran it directly, or its call was never sent) becomes a note
 * in a user message. `context` prefixes the first user message.
 */
function renderMessages(messages: readonly ModelMessage[], toolName: (c: string) => string, context?: string): ChatMessageParam[] {
  const out: ChatMessageParam[] = [];
  let pending: string[] = [];
  const skipped = new Set<string>();
  const results = new Map<string, string>();
  const flush = () => {
    for (const id of pending) out.push({ role: 'tool', tool_call_id: id, content: results.get(id) ?? 'Not run.' });
    pending = [];
    results.clear();
  };
  let contextUsed = false;
  for (const m of messages) {
    if (m.role === 'tool' && m.call_id && pending.includes(m.call_id) && !results.has(m.call_id)) {
      results.set(m.call_id, toolContent(m.result, m.violations));
      continue;
    }
    if (m.role === 'tool' && m.call_id && skipped.has(m.call_id)) continue;
    flush();
    if (m.role === 'assistant') {
      const calls: ToolCallParam[] = [];
      for (const call of m.calls ?? []) {
        const input = sortKeys(call.args ?? {});
        if (!isInput(input) || !call.id || calls.some((c) => c.id === call.id)) {
          skipped.add(call.id);
          continue;
        }
        calls.push({ id: call.id, type: 'function', function: { name: toolName(call.capability), arguments: JSON.stringify(input) } });
        pending.push(call.id);
      }
      const text = replyText(m.text);
      if (!text.trim() && !calls.length) continue;
      out.push({ role: 'assistant', content: text.trim() ? text : null, ...(calls.length ? { tool_calls: calls } : {}) });
    } else if (m.role === 'user') {
      const text = m.text.trim() ? m.text : '(empty message)';
      const withContext = context !== undefined && !contextUsed ? `${context}\n\n${text}` : text;
      if (context !== undefined) contextUsed = true;
      out.push({ role: 'user', content: withContext });
    } else {
      const note = `[${m.title} was run directly by the user with ${canonicalJson(m.args ?? {})}${m.result.isError ? ' and failed' : ''}.]\n${resultBody(m.result, m.violations)}`;
      out.push({ role: 'user', content: note });
    }
  }
  flush();
  return out;
}

/** A result as a `tool` message's text (the API takes text only there: an image is named, `[image image/png]`, not sent). */
function toolContent(result: CapabilityResult, violations: readonly ViolationNote[] | undefined): string {
  const body = resultBody(result, violations);
  return result.isError ? `Failed: ${body}` : body;
}

/** A result as text: its text blocks, its structured content as JSON, and any failed checks. */
function resultBody(result: CapabilityResult, violations?: readonly ViolationNote[]): string {
  const parts: string[] = [];
  const text = resultText(result).trim();
  if (text) parts.push(text);
  if (result.structuredContent && Object.keys(result.structuredContent).length) parts.push(`structuredContent: ${canonicalJson(result.structuredContent)}`);
  for (const v of violations ?? []) parts.push(violationLine(v));
  return parts.join('\n') || (result.isError ? 'Failed without a message.' : 'Done.');
}

/**
 * Consecutive user messages become one, and an assistant message without
 * calls takes the next assistant message in: some servers' chat templates
 * (llama.cpp's, Ollama's) insist that user and assistant alternate.
 */
function mergeRoles(messages: readonly ChatMessageParam[]): ChatMessageParam[] {
  const out: ChatMessageParam[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last?.role === 'user' && m.role === 'user') {
      out[out.length - 1] = { role: 'user', content: `${last.content}\n\n${m.content}` };
    } else if (last?.role === 'assistant' && m.role === 'assistant' && !last.tool_calls) {
      const content = [last.content, m.content].filter((c): c is string => !!c).join('\n\n');
      out[out.length - 1] = { role: 'assistant', content: content || null, ...(m.tool_calls ? { tool_calls: m.tool_calls } : {}) };
    } else {
      out.push(m);
    }
  }
  return out;
}
