import type { ServerResponse } from 'node:http';
import type { FakeBlock, FakeRefusalDetails, FakeStopReason, MessageReply } from './replies';

/**
 * The response writers: the final message as JSON, or the documented event stream
 * (`message_start`, `ping`, `content_block_start` / `content_block_delta` / `content_block_stop`,
 * one `message_delta` with `stop_reason`, `stop_details` and cumulative usage, `message_stop`),
 * or the way a scripted reply breaks off instead (hang, disconnect, reset, an `error` event).
 */

/** One reply, as the response says it. */
export interface ReplyMessage {
  /** The request's index: the message is `msg_fake_<index>`, the request `req_fake_<index>`. */
  index: number;
  model: string;
  /** The scripted blocks, streamed. */
  content: FakeBlock[];
  /** The final blocks (ids and signatures filled in). */
  blocks: any[];
  stop: FakeStopReason;
  stopDetails: FakeRefusalDetails | null;
  /** The input side of usage (input tokens, cache writes and reads). */
  input: { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number };
  output: number;
}

/** The non-streaming answer: the final message as JSON. */
export function writeMessage(res: ServerResponse, m: ReplyMessage): void {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${m.index}` });
  res.end(JSON.stringify({
    id: `msg_fake_${m.index}`, type: 'message', role: 'assistant', model: m.model, content: m.blocks,
    stop_reason: m.stop, stop_sequence: null, stop_details: m.stopDetails, usage: { ...m.input, output_tokens: m.output },
  }));
}

type Send = (type: string, data?: Record<string, unknown>) => Promise<void>;

/** The streaming answer; `answer` says how it ends. `delayMs` pauses after each event. */
export async function streamMessage(res: ServerResponse, m: ReplyMessage, answer: MessageReply, delayMs: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${m.index}` });
  const send: Send = async (type, data = {}) => {
    if (res.destroyed) return;
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  };
  await send('message_start', {
    message: { id: `msg_fake_${m.index}`, type: 'message', role: 'assistant', model: m.model, content: [], stop_reason: null, stop_sequence: null, stop_details: null, usage: { ...m.input, output_tokens: 1 } },
  });
  await send('ping');
  for (const [i, block] of m.content.entries()) {
    await streamBlock(send, i, block, m.blocks[i]!);
    await send('content_block_stop', { index: i });
    await send('ping');
  }
  await endStream(res, send, m, answer);
}

/** One block's `content_block_start` and deltas: text word by word, tool input as JSON fragments, thinking then its signature. */
async function streamBlock(send: Send, i: number, block: FakeBlock, final: any): Promise<void> {
  switch (block.type) {
    case 'text':
      await send('content_block_start', { index: i, content_block: { type: 'text', text: '' } });
      // A cited block's citations come first, one `citations_delta` each, then its text.
      for (const citation of (final as { citations?: unknown[] }).citations ?? []) await send('content_block_delta', { index: i, delta: { type: 'citations_delta', citation } });
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
}

/** After the blocks: `message_delta` and `message_stop`, or the scripted break. */
async function endStream(res: ServerResponse, send: Send, m: ReplyMessage, answer: MessageReply): Promise<void> {
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
    await send('error', { error: answer.streamError, request_id: `req_fake_${m.index}` });
    res.end();
    return;
  }
  await send('message_delta', { delta: { stop_reason: m.stop, stop_sequence: null, stop_details: m.stopDetails }, usage: { ...m.input, output_tokens: m.output } });
  await send('message_stop');
  res.end();
}
