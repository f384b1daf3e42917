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
import { CONTROL, type ModelMessage, type ModelRequest, type ThinkingBlock, type ViolationNote } from '../model';
import { attachmentBlocks, type AttachmentBytes, type DocumentBlock } from './attachments';
import { searchResultOf, type SearchResultBlock } from './citations';

/**
 * Maps the prompt slabs onto the Messages API, whose cached prefix is
 * ordered tools → system → messages and which takes at most 4
 * `cache_control` breakpoints:
 *
 * | physical           | slabs                                   | breakpoint                  |
 * |--------------------|-----------------------------------------|-----------------------------|
 * | tools              | the engine's 3 verbs, then [2] whitelist |                             |
 * | system[0]          | [1] spine                               |                             |
 * | system[1]          | [4] reminders (when set)                | ① end of the stable prefix  |
 * | system[2]          | [3] active skills (when any)            | ② end of system             |
 * | messages…          | [6] thread (earlier turns)              | ③ last block of the thread  |
 * | current user msg   | [5] suggestions, [7] corpus, notes, [8] | none: uncached              |
 * | this turn's loop   | tool calls and results so far           | ④ last block (steps ≥ 2)    |
 *
 * Reminders sit before skills because they change per deployment while
 * skills change within a conversation: the more volatile slab goes later.
 * Tool definitions come first in the API's prefix, so a whitelist change
 * invalidates everything; every other change keeps the tools and spine.
 */

export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-5-5';

/**
 * What the driver writes into a reply when the API did something the user
 * must know about. The words are shown as they are; the request builder
 * recognises them in the recorded conversation (`ModelMessage` has no other
 * place for the fact) and keeps the thread valid for the next request.
 */
export const DRIVER_NOTES = {
  /** Starts the notice of a refusal: the refused turn is left out of every later request. */
  refusal: 'Claude declined to go on with this request.',
  /** Marks a reply started again after an interruption: what came before it is left out of later requests. */
  restart: '(Claude was interrupted mid-reply and started the reply again.)',
  /** Opens the thread when older turns were left out to fit the context window (`contextTokens`). */
  trimmed: '[To fit the context window, earlier messages of this conversation were left out.]',
  /** Stands in for a refused turn in later requests. */
  refusedTurn: '[An earlier request in this conversation was declined and is left out.]',
} as const;

const UTF8 = new TextEncoder();
const NO_FILES: AttachmentBytes = new Map();

/** Whole turns left out at a time when the thread must be trimmed, so the cached prefix stays put for several turns. */
const TRIM_STEP = 4;

type CacheControl = { type: 'ephemeral' };
const EPHEMERAL: CacheControl = { type: 'ephemeral' };

export interface TextBlock { type: 'text'; text: string; cache_control?: CacheControl }
interface ImageBlock { type: 'image'; source: { type: 'base64'; media_type: string; data: string }; cache_control?: CacheControl }
interface ToolUseBlock { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl }
interface ToolResultBlock { type: 'tool_result'; tool_use_id: string; content: (TextBlock | ImageBlock | SearchResultBlock)[]; is_error?: boolean; cache_control?: CacheControl }
/** A thinking block takes no `cache_control` (the API refuses one). */
type ThinkingParam = ThinkingBlock & { cache_control?: never };
/** A block that may end a message and carry a cache breakpoint. */
type CacheableBlock = TextBlock | ImageBlock | DocumentBlock | ToolUseBlock | ToolResultBlock;
export type ContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolUseBlock | ToolResultBlock | ThinkingParam;
export interface MessageParam { role: 'user' | 'assistant'; content: ContentBlock[] }
export interface ToolParam { name: string; description: string; input_schema: Record<string, unknown>; cache_control?: CacheControl }

/** A Messages API request body (streaming). */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  tools: ToolParam[];
  system: TextBlock[];
  messages: MessageParam[];
  /** Extended thinking, when the driver enables it. */
  thinking?: ThinkingConfig;
  stream: true;
}

/**
 * Extended thinking as the Messages API takes it: `budget_tokens` at least 1024 and below
 * `max_tokens`. With it on, the request sets no `temperature` and no forcing `tool_choice` (the
 * API refuses both), and every assistant message goes back with its thinking blocks first.
 */
export type ThinkingConfig = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };

/** The least `budget_tokens` the API takes. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * Why a thinking configuration cannot be sent with `maxTokens`, in words a developer can act on;
 * null when it can.
 */
export function thinkingProblem(thinking: ThinkingConfig | undefined, maxTokens: number): string | null {
  if (!thinking || thinking.type === 'disabled') return null;
  const budget = thinking.budget_tokens;
  if (!Number.isInteger(budget) || budget < MIN_THINKING_BUDGET) return `thinking.budget_tokens must be a whole number of at least ${MIN_THINKING_BUDGET} (it is ${budget}).`;
  if (budget >= maxTokens) return `thinking.budget_tokens (${budget}) must be below maxTokens (${maxTokens}): raise maxTokens or lower the budget.`;
  return null;
}

export interface BuiltRequest {
  body: AnthropicRequestBody;
  /** Tool name in the request → capability name or `CONTROL` verb. */
  toolNames: ReadonlyMap<string, string>;
  /** Earlier turns left out to fit `contextTokens` (0 when all fit). */
  trimmedTurns: number;
}

export interface BuildOptions {
  /** @default DEFAULT_ANTHROPIC_MODEL (the composer's selection wins) */
  model?: string;
  /** @default 2048 */
  maxTokens?: number;
  /**
   * The most the whole request may weigh, in `estimateTokens` units: beyond
   * it the oldest turns of the thread are left out (never the current turn),
   * and the thread opens with a note saying so. @default no limit
   */
  contextTokens?: number;
  /** Extended thinking (see `ThinkingConfig`). @default off */
  thinking?: ThinkingConfig;
  /**
   * Capability results go to the model as citable `search_result` blocks (citations enabled on
   * every one: the API takes all or none), so its reply can cite them. @default false
   */
  citations?: boolean;
  /**
   * The bytes of the files users' messages carry, read before the build (`readAttachments`): each
   * goes as an image or a document block (documents citable with `citations`); a file not here goes
   * as a note naming it. @default none read
   */
  attachments?: AttachmentBytes;
}

/**
 * Builds the request for a model step. Pure and deterministic: the same
 * request gives the same bytes, and the bytes before each breakpoint stay
 * the same from turn to turn while the whitelist and system slabs do.
 * @example
 * const { body } = buildAnthropicRequest(request);
 */
export function buildAnthropicRequest(request: ModelRequest, options: BuildOptions = {}): BuiltRequest {
  const names = toolNameMap(request.capabilities.map((c) => c.name));
  const forward = new Map<string, string>([
    [CONTROL.propose, CONTROL_TOOL_NAMES.propose],
    [CONTROL.ask, CONTROL_TOOL_NAMES.ask],
    [CONTROL.standing, CONTROL_TOOL_NAMES.standing],
    ...[...names].map(([tool, name]): [string, string] => [name, tool]),
  ]);
  const toolName = (capability: string) => forward.get(capability) ?? sanitize(capability);

  const tools: ToolParam[] = [
    ...CONTROL_TOOLS.map((t) => ({ ...t })),
    ...capabilitySchemas(request.capabilities).map((t) => ({ ...t, name: toolName(t.name) })),
  ];

  const system: TextBlock[] = [{ type: 'text', text: spineSlab(request.alignment ?? 'strict') }];
  const reminders = remindersSlab(request.reminders ?? '');
  if (reminders) system.push({ type: 'text', text: reminders });
  system[system.length - 1]!.cache_control = EPHEMERAL;
  const skills = skillsSlab(request.skills ?? []);
  if (skills) system.push({ type: 'text', text: skills, cache_control: EPHEMERAL });

  const current = lastUserIndex(request.messages);
  const titles = new Map(request.capabilities.map((c) => [c.name, c.title]));
  const turnContext = turnContextSlab({
    suggestions: request.suggestions ?? [],
    corpus: request.corpus ?? [],
    violations: request.violations ?? [],
    route: request.route ?? routeIntent(current >= 0 ? (request.messages[current] as { text: string }).text : ''),
    titles,
  });
  const turn: ModelMessage[] = current >= 0 ? request.messages.slice(current) : [];
  const earlier = turnsOf(withoutRefusedTurns(request.messages.slice(0, Math.max(current, 0))));
  const model = request.model ?? options.model ?? DEFAULT_ANTHROPIC_MODEL;
  const maxTokens = options.maxTokens ?? 2048;
  const thinking = options.thinking?.type === 'enabled' ? options.thinking : undefined;
  const render = (messages: readonly ModelMessage[], context?: string) => renderMessages(messages, toolName, context, !!thinking, !!options.citations, options.attachments);

  const assemble = (dropped: number): AnthropicRequestBody => {
    const kept = earlier.slice(dropped).flat();
    const threadMessages: ModelMessage[] = dropped ? [{ role: 'user', text: DRIVER_NOTES.trimmed }, ...kept] : kept;
    const thread = render(threadMessages);
    const threadEnd = lastBlock(thread);
    const rendered = render(turn, turnContext);
    if (threadEnd) threadEnd.cache_control = EPHEMERAL;
    if (current >= 0 && current < request.messages.length - 1) {
      const loopEnd = lastBlock(rendered);
      if (loopEnd) loopEnd.cache_control = EPHEMERAL;
    }
    return { model, max_tokens: maxTokens, tools, system, messages: mergeRoles([...thread, ...rendered]), ...(thinking ? { thinking: { ...thinking } } : {}), stream: true };
  };

  let dropped = 0;
  let body = assemble(0);
  const budget = options.contextTokens;
  if (budget !== undefined && earlier.length && estimateTokens(body) > budget) {
    // Whole turns, oldest first, in steps of TRIM_STEP: the cut (and so the cached prefix) moves only every few turns.
    const sizes = earlier.map((t) => estimateTokens(render(t)));
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

/**
 * What a value weighs in a request, estimated as the UTF-8 bytes of its JSON
 * / 4 (rounded up). The driver scales it by what the API reports.
 */
export function estimateTokens(value: unknown): number {
  let files = 0;
  // A file's base64 is not what it costs: an image is at most about 1,600 tokens, a PDF about 3,000 a page (~50 KB).
  const json =
    JSON.stringify(value, (key, v: unknown) => {
      if (key !== 'source' || !v || typeof v !== 'object') return v;
      const source = v as { type?: unknown; media_type?: unknown; data?: unknown };
      if (source.type !== 'base64' || typeof source.data !== 'string') return v;
      files += source.media_type === 'application/pdf' ? Math.ceil((source.data.length * 3) / 4 / 50_000) * 3_000 : 1_600;
      return { type: source.type, media_type: source.media_type };
    }) ?? '';
  return Math.ceil(UTF8.encode(json).length / 4) + files;
}

/** How many `cache_control` breakpoints a body carries (the API allows 4). */
export function countBreakpoints(body: Pick<AnthropicRequestBody, 'tools' | 'system' | 'messages'>): number {
  const marked = (b: { cache_control?: unknown }) => (b.cache_control ? 1 : 0);
  return (
    body.tools.reduce((n, t) => n + marked(t), 0) +
    body.system.reduce((n, b) => n + marked(b), 0) +
    body.messages.reduce((n, m) => n + m.content.reduce((k, b) => k + marked(b), 0), 0)
  );
}

/**
 * Tool names for capability names: the API allows `[A-Za-z0-9_-]{1,64}`, so
 * dots become `_`; a clash with another tool gets a numbered suffix.
 * Deterministic for a given (sorted) list.
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

type Rendered = { role: 'user' | 'assistant'; blocks: ContentBlock[] };

/**
 * The conversation in turns: each starts at a user message (the first may
 * start with direct runs before any). Cutting between turns never separates
 * a tool call from its result.
 */
function turnsOf(messages: readonly ModelMessage[]): ModelMessage[][] {
  const out: ModelMessage[][] = [];
  for (const m of messages) {
    if (m.role === 'user' || out.length === 0) out.push([m]);
    else out[out.length - 1]!.push(m);
  }
  return out;
}

/**
 * Leaves refused turns out (the API refuses again while a refused turn is in
 * context): from the user message that started it to the refused reply. A
 * short note stands in for it, naming the capabilities that ran meanwhile.
 */
function withoutRefusedTurns(messages: readonly ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant' || !m.text.includes(DRIVER_NOTES.refusal)) {
      out.push(m);
      continue;
    }
    let start = out.length;
    while (start > 0 && out[start - 1]!.role !== 'user') start--;
    if (start > 0) start--;
    const ran = out.slice(start).flatMap((x) => (x.role === 'tool' && !x.result.isError ? [x.title] : []));
    out.splice(start);
    const note = ran.length ? `${DRIVER_NOTES.refusedTurn.slice(0, -1)} Capabilities that ran during it: ${[...new Set(ran)].join(', ')}.]` : DRIVER_NOTES.refusedTurn;
    out.push({ role: 'user', text: note });
  }
  return out;
}

/** An assistant reply as it goes back to the model: what came before a restart is left out. */
function replyText(text: string): string {
  const restart = text.lastIndexOf(DRIVER_NOTES.restart);
  return restart >= 0 ? text.slice(restart + DRIVER_NOTES.restart.length).trimStart() : text;
}

/** Tool input must be a JSON object: anything else (a cut call) is never sent. */
function isInput(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Renders conversation messages as API messages. Tool results follow the
 * assistant message that asked for them, in call order; a call without a
 * result gets a "not run" one; a capability the user ran directly becomes a
 * note in a user message. `context` prefixes the first user message.
 * Whitespace-only text is never sent, nor a call whose input is not an
 * object (nor its result). With `thinking`, an assistant message opens with its thinking blocks,
 * exactly as they came (the API checks their signatures, and requires them before the calls of
 * the tool loop it continues); without it they are left out.
 */
function renderMessages(messages: readonly ModelMessage[], toolName: (c: string) => string, context?: string, thinking = false, citations = false, files: AttachmentBytes = NO_FILES): Rendered[] {
  const out: Rendered[] = [];
  let pendingCalls: string[] = [];
  const skipped = new Set<string>();
  const results = new Map<string, ToolResultBlock>();
  const flushResults = () => {
    if (pendingCalls.length === 0) return;
    const blocks = pendingCalls.map(
      (id) => results.get(id) ?? { type: 'tool_result' as const, tool_use_id: id, content: [{ type: 'text' as const, text: 'Not run.' }], is_error: true },
    );
    out.push({ role: 'user', blocks });
    pendingCalls = [];
    results.clear();
  };
  let contextUsed = false;
  for (const m of messages) {
    if (m.role === 'tool' && m.call_id && pendingCalls.includes(m.call_id)) {
      results.set(m.call_id, toolResult(m.call_id, m.result, m.violations, citations ? m : undefined));
      continue;
    }
    if (m.role === 'tool' && m.call_id && skipped.has(m.call_id)) continue;
    flushResults();
    if (m.role === 'assistant') {
      const blocks: ContentBlock[] = [];
      if (thinking) for (const block of m.thinking ?? []) blocks.push(block.type === 'thinking' ? { type: 'thinking', thinking: block.thinking, signature: block.signature } : { type: 'redacted_thinking', data: block.data });
      const text = replyText(m.text);
      if (text.trim()) blocks.push({ type: 'text', text });
      for (const call of m.calls ?? []) {
        const input = sortKeys(call.args ?? {});
        if (!isInput(input)) {
          skipped.add(call.id);
          continue;
        }
        blocks.push({ type: 'tool_use', id: call.id, name: toolName(call.capability), input });
        pendingCalls.push(call.id);
      }
      if (blocks.some((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking')) out.push({ role: 'assistant', blocks });
    } else if (m.role === 'user') {
      const blocks: ContentBlock[] = [];
      if (context !== undefined && !contextUsed) {
        blocks.push({ type: 'text', text: context });
        contextUsed = true;
      }
      // Files before the words that ask about them, as the API recommends.
      if (m.attachments?.length) blocks.push(...attachmentBlocks(m.attachments, files, citations));
      blocks.push({ type: 'text', text: m.text.trim() ? m.text : '(empty message)' });
      out.push({ role: 'user', blocks });
    } else {
      const note = `[${m.title} was run directly by the user with ${canonicalJson(m.args ?? {})}${m.result.isError ? ' and failed' : ''}.]\n${resultBody(m.result, m.violations)}`;
      out.push({ role: 'user', blocks: [{ type: 'text', text: note }] });
    }
  }
  flushResults();
  return out;
}

/** A tool result: its body as text, or (`cited`: the capability) as a citable search result; then its images. */
function toolResult(id: string, result: CapabilityResult, violations: readonly ViolationNote[] | undefined, cited?: { capability: string; title: string }): ToolResultBlock {
  const content: (TextBlock | ImageBlock | SearchResultBlock)[] = [];
  for (const block of result.content) {
    if (block.type === 'image') content.push({ type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } });
  }
  content.unshift(cited ? searchResultOf(cited.capability, cited.title, resultParts(result, violations)) : { type: 'text', text: resultBody(result, violations) });
  return { type: 'tool_result', tool_use_id: id, content, ...(result.isError ? { is_error: true } : {}) };
}

/** A result as text: its text blocks, its structured content as JSON, and any failed checks. */
function resultBody(result: CapabilityResult, violations?: readonly ViolationNote[]): string {
  return resultParts(result, violations).join('\n');
}

/** A result's parts: its text, its structured content as JSON, each failed check; a word when it has none. */
function resultParts(result: CapabilityResult, violations?: readonly ViolationNote[]): string[] {
  const parts: string[] = [];
  const text = resultText(result).trim();
  if (text) parts.push(text);
  if (result.structuredContent && Object.keys(result.structuredContent).length) parts.push(`structuredContent: ${canonicalJson(result.structuredContent)}`);
  for (const v of violations ?? []) parts.push(violationLine(v));
  return parts.length ? parts : [result.isError ? 'Failed without a message.' : 'Done.'];
}

/** Consecutive messages of one role become one message (the API alternates roles). */
function mergeRoles(messages: readonly Rendered[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last && last.role === m.role) last.content.push(...m.blocks);
    else out.push({ role: m.role, content: [...m.blocks] });
  }
  // Tool results must open the user message that answers a tool call.
  for (const m of out) {
    if (m.role !== 'user') continue;
    const results = m.content.filter((b) => b.type === 'tool_result');
    if (results.length && m.content[0]?.type !== 'tool_result') m.content = [...results, ...m.content.filter((b) => b.type !== 'tool_result')];
  }
  return out;
}

/** The last block of the messages: never a thinking block (those open an assistant message that has more). */
function lastBlock(messages: readonly Rendered[]): CacheableBlock | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = messages[i]!.blocks;
    const last = blocks[blocks.length - 1];
    if (last && last.type !== 'thinking' && last.type !== 'redacted_thinking') return last;
  }
  return undefined;
}
