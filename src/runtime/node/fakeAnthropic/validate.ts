import { promptBlocks } from '../fakeAnthropicCache';
import type { ApiErrorAnswer } from './errors';
import { normalise } from './memory';
import { citationProblem } from './citations';
import { mediaProblem } from './media';
import { loopThinkingProblem, signatureProblem, thinkingEnabled, thinkingParameterProblem, type ThinkingSigner } from './thinking';

/**
 * The Messages API's request body checks (its 400s), each with the API's own wording. Each
 * check below returns the first problem it finds, or null; they run in the API's order.
 */

const USER_BLOCKS = ['text', 'image', 'document', 'search_result', 'tool_result'];
const ASSISTANT_BLOCKS = ['text', 'tool_use', 'thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result'];
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ValidateOptions {
  /** Accept a final assistant message (prefill). @default false */
  prefill?: boolean;
  /** Normalised assistant contents the fake paused on (`pause_turn`): continuing them is allowed. */
  paused?: ReadonlySet<string>;
  /** Checks the thinking blocks that come back (the fake's own signatures). @default signatures are not checked */
  thinking?: ThinkingSigner;
}

/** A content block and where it is: message `m`, block `b`. */
type Placed = { block: any; m: number; b: number };
/** Consecutive messages of one role, combined. */
type Turn = { role: 'user' | 'assistant'; first: number; last: number; blocks: Placed[] };

/**
 * The Messages API's request checks, each with the API's own wording; `null`
 * when the request is valid. Consecutive messages of one role are combined
 * into one turn before the turn rules apply, as the API documents.
 */
export function validateMessagesRequest(body: any, options: ValidateOptions = {}): ApiErrorAnswer | null {
  const bad = (message: string): ApiErrorAnswer => ({ status: 400, type: 'invalid_request_error', message });
  const parameters = parameterProblem(body);
  if (parameters) return bad(parameters);
  const turns = turnsOf(body.messages);
  if (typeof turns === 'string') return bad(turns);
  const problem =
    toolPairProblem(turns) ??
    citationProblem(turns.flatMap((t) => (t.role === 'user' ? t.blocks : [])), body) ??
    mediaProblem(turns.flatMap((t) => (t.role === 'user' ? t.blocks : []))) ??
    (options.thinking ? signatureProblem(turns.flatMap((t) => t.blocks), options.thinking) : null) ??
    (thinkingEnabled(body) ? loopThinkingProblem(turns) : null) ??
    tailProblem(turns, options) ??
    breakpointProblem(body);
  return problem ? bad(problem) : null;
}

/** `model`, `max_tokens`, `tools` and `system`. */
function parameterProblem(body: any): string | null {
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required';
  if (body.max_tokens === undefined) return 'max_tokens: Field required';
  if (!Number.isInteger(body.max_tokens)) return 'max_tokens: Input should be a valid integer';
  if (body.max_tokens < 0) return 'max_tokens: Input should be greater than or equal to 0';
  const thinking = thinkingParameterProblem(body);
  if (thinking) return thinking;

  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) return 'tools: Input should be a valid list';
    const names = new Set<string>();
    for (const [i, tool] of (body.tools as any[]).entries()) {
      if (tool?.type && tool.type !== 'custom') continue; // a server tool, e.g. web_search_20250305
      if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name)) return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
      if (tool.input_schema?.type !== 'object') return `tools.${i}.custom.input_schema.type: Input should be 'object'`;
      if (names.has(tool.name)) return 'tools: Tool names must be unique.';
      names.add(tool.name);
    }
  }

  if (body.system !== undefined && typeof body.system !== 'string') {
    if (!Array.isArray(body.system)) return 'system: Input should be a valid string or list';
    for (const [i, block] of (body.system as any[]).entries()) {
      if (block?.type !== 'text' || typeof block.text !== 'string') return `system.${i}: Input should be a text block`;
      if (!block.text) return 'system: text content blocks must be non-empty';
    }
  }
  return null;
}

/** The messages as turns (consecutive messages of one role combined), or the first problem of a message or block. */
function turnsOf(messages: any): Turn[] | string {
  if (messages === undefined) return 'messages: Field required';
  if (!Array.isArray(messages)) return 'messages: Input should be a valid list';
  if (messages.length === 0) return 'messages: at least one message is required';

  const turns: Turn[] = [];
  const toolIds = new Set<string>();
  for (const [m, message] of (messages as any[]).entries()) {
    if (message?.role !== 'user' && message?.role !== 'assistant') return `messages.${m}.role: Input should be 'user' or 'assistant'`;
    const final = m === messages.length - 1 && message.role === 'assistant';
    const content: any[] = typeof message.content === 'string' ? (message.content ? [{ type: 'text', text: message.content }] : []) : message.content;
    if (!Array.isArray(content)) return `messages.${m}.content: Input should be a valid string or list`;
    if (content.length === 0 && !final) return `messages.${m}: all messages must have non-empty content except for the optional final assistant message`;
    const allowed = message.role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS;
    for (const [b, block] of content.entries()) {
      const problem = blockProblem(block, `messages.${m}.content.${b}`, allowed, toolIds);
      if (problem) return problem;
    }
    const last = turns[turns.length - 1];
    const placed = content.map((block, b) => ({ block, m, b }));
    if (last && last.role === message.role) {
      last.blocks.push(...placed);
      last.last = m;
    } else turns.push({ role: message.role, first: m, last: m, blocks: placed });
  }
  return turns;
}

/** One content block at `where`: its type allowed for the role, its text, a tool call's input and unique id, a tool result's id. */
function blockProblem(block: any, where: string, allowed: readonly string[], toolIds: Set<string>): string | null {
  if (!block || typeof block !== 'object' || !allowed.includes(block.type)) {
    return `${where}: Input tag '${String(block?.type)}' found using 'type' does not match any of the expected tags: ${allowed.map((t) => `'${t}'`).join(', ')}`;
  }
  const textProblem = textRule(block);
  if (textProblem) return textProblem;
  if (block.type === 'tool_use' || block.type === 'server_tool_use') {
    if (!isObject(block.input)) return `${where}.${block.type}.input: Input should be a valid dictionary`;
    if (typeof block.id !== 'string' || !block.id) return `${where}.${block.type}.id: Field required`;
    if (toolIds.has(block.id)) return `${where}: \`tool_use\` ids must be unique`;
    toolIds.add(block.id);
  }
  if (block.type === 'thinking' && (typeof block.thinking !== 'string' || typeof block.signature !== 'string')) return `${where}.thinking.${typeof block.thinking !== 'string' ? 'thinking' : 'signature'}: Field required`;
  if (block.type === 'redacted_thinking' && typeof block.data !== 'string') return `${where}.redacted_thinking.data: Field required`;
  if (block.type === 'tool_result') {
    if (typeof block.tool_use_id !== 'string') return `${where}.tool_result.tool_use_id: Field required`;
    if (Array.isArray(block.content)) {
      for (const inner of block.content) {
        const innerProblem = textRule(inner);
        if (innerProblem) return innerProblem;
      }
    }
  }
  return null;
}

/** Each tool call answered at the start of the next turn, and each tool result answering a call of the turn before. */
function toolPairProblem(turns: readonly Turn[]): string | null {
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
        return `messages.${next!.first}: Did not find ${calls.length} tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.`;
      }
      return `messages.${turn.last}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  for (const [t, turn] of turns.entries()) {
    if (turn.role !== 'user') continue;
    const previous = turns[t - 1];
    const calls = new Set((previous?.blocks ?? []).filter((p) => p.block.type === 'tool_use').map((p) => p.block.id as string));
    for (const p of turn.blocks) {
      if (p.block.type === 'tool_result' && !calls.has(p.block.tool_use_id)) {
        return `messages.${p.m}.content.${p.b}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${p.block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
  }
  return null;
}

/** A conversation ends with a user turn, unless prefill is on or it continues a paused turn. */
function tailProblem(turns: readonly Turn[], options: ValidateOptions): string | null {
  const tail = turns[turns.length - 1]!;
  if (tail.role !== 'assistant') return null;
  const content = tail.blocks.map((p) => p.block);
  if (!options.prefill && !options.paused?.has(normalise(content))) {
    return 'This model does not support assistant message prefill. The conversation must end with a user message.';
  }
  const end = content[content.length - 1];
  if (end?.type === 'text' && /\s$/.test(end.text)) return 'messages: final assistant content cannot end with trailing whitespace';
  return null;
}

function breakpointProblem(body: any): string | null {
  const breakpoints = promptBlocks(body).breakpoints.length;
  return breakpoints > 4 ? `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.` : null;
}

function textRule(block: any): string | null {
  if (block?.type !== 'text') return null;
  if (typeof block.text !== 'string' || block.text === '') return 'messages: text content blocks must be non-empty';
  if (!block.text.trim()) return 'messages: text content blocks must contain non-whitespace text';
  return null;
}

function isObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
