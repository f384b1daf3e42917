import { resolveCitations, type FakeCitation } from './citations';

/**
 * The scripted replies: what a test tells the fake to answer, and the final message a reply
 * makes (its blocks with ids and signatures filled in, its stop reason and stop details).
 */

export type FakeStopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

export interface FakeRefusalDetails {
  category: 'cyber' | 'bio' | 'frontier_llm' | 'reasoning_extraction' | 'general_harms' | null;
  explanation: string | null;
}

export type FakeBlock =
  /**
   * Text; `citations` cite the request's documents or search results (streamed as
   * `citations_delta` before the text), each only when the request carries it with citations on.
   */
  | { type: 'text'; text: string; citations?: FakeCitation[] }
  /** A client tool call. `partial` streams only the first half of its JSON, as when `max_tokens` cuts it. */
  | { type: 'tool_use'; name: string; input: unknown; id?: string; partial?: boolean }
  /** Sent only when the request enables thinking; signed by the fake unless `signature` says otherwise. */
  | { type: 'thinking'; thinking: string; signature?: string }
  /** Reasoning the safety systems hid: an opaque `data` the fake makes (and checks when it comes back). */
  | { type: 'redacted_thinking'; data?: string }
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

/** A reply that answers with a message (every reply but an HTTP error). */
export type MessageReply = Exclude<FakeReply, { status: number }>;

/** What the service answers when a request still carries a refused turn. */
export function refusedAgain(): MessageReply {
  return { content: [], stop_reason: 'refusal', stop_details: { category: null, explanation: null } };
}

/** A message reply as the final message says it. */
export interface PlannedReply {
  /** The scripted blocks, as streamed. */
  content: FakeBlock[];
  /** The blocks of the final message (and as a client sends them back). */
  blocks: any[];
  stop: FakeStopReason;
  stopDetails: FakeRefusalDetails | null;
}

/** Signs the reasoning the fake sends (`thinking.ts`). */
export interface ReplySigner {
  sign(thinking: string): string;
  redact(hidden: string): string;
}

/**
 * The final message of a reply; `nextId` numbers the tool calls that name no id. Thinking blocks
 * are sent only when the request enables thinking (as the API does), signed with `signer`.
 */
export function planReply(answer: MessageReply, nextId: () => number, signer: ReplySigner, thinking = true, body?: unknown): PlannedReply {
  const scripted: FakeBlock[] = 'content' in answer ? answer.content : [{ type: 'text', text: textOf(answer) }];
  const content = thinking ? scripted : scripted.filter((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking');
  const stop: FakeStopReason = 'content' in answer ? (answer.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn')) : 'end_turn';
  const stopDetails = stop === 'refusal' ? ('content' in answer && answer.stop_details ? answer.stop_details : { category: null, explanation: null }) : null;
  const blocks = content.map((b) => finalBlock(b, () => `${b.type === 'server_tool_use' ? 'srvtoolu' : 'toolu'}_fake_${nextId()}`, signer, body));
  return { content, blocks, stop, stopDetails };
}

/** A scripted block as it appears in the final message (and as a client sends it back). */
function finalBlock(block: FakeBlock, id: () => string, signer: ReplySigner, body: unknown): any {
  switch (block.type) {
    case 'text': {
      const citations = resolveCitations(block.citations, body);
      return citations.length ? { type: 'text', text: block.text, citations } : { type: 'text', text: block.text };
    }
    case 'tool_use':
    case 'server_tool_use':
      return { type: block.type, id: block.id ?? id(), name: block.name, input: block.input };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature ?? signer.sign(block.thinking) };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data ?? signer.redact('hidden reasoning') };
    default:
      return { ...block };
  }
}

function textOf(answer: Exclude<FakeReply, { content: FakeBlock[] } | { status: number }>): string {
  if ('hang' in answer) return answer.hang;
  if ('disconnect' in answer) return answer.disconnect;
  if ('reset' in answer) return answer.reset;
  if ('streamError' in answer) return answer.text ?? '';
  return answer.text;
}
