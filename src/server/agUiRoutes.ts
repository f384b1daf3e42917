import { EventType, type BaseEvent, type Interrupt, type RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { EventEncoder } from '@ag-ui/encoder';
import { Hono } from 'hono';
import { resultText } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import { initialThreadState, isWaiting, type DecisionRow, type ThreadState } from '../runtime/fold';
import { fold } from '../runtime/foldEvents';
import type { ThreadHost } from '../runtime/host/threadHost';
import { createId } from '../runtime/ids';
import type { Principal } from '../runtime/principal';
import { THREAD_ID, THREAD_ID_RULE, type DecisionBody } from '../workspace/protocol';
import { AG_UI_SIGN_IN, errorResponse, readJson, unauthorizedResponse } from './http';

export interface AgUiRoutesOptions {
  host: ThreadHost;
  /** The caller, as the workspace protocol's `authenticate` says; null answers 401. */
  principal(request: Request): Promise<Principal | null>;
}

/**
 * The AG-UI endpoint, `POST /v1/ag-ui`: any AG-UI client (`@ag-ui/client`'s
 * `HttpAgent`, CopilotKit) drives the kit's own thread host. The body is a
 * `RunAgentInput` (validated with `@ag-ui/core`'s schema): its `threadId` is
 * the thread (the caller's own), its last user message is the turn, and a
 * `resume` entry answers what the thread waits on (an approval, a question,
 * a proposal). The run's thread events come back as AG-UI events, encoded by
 * `@ag-ui/encoder` (SSE, or length-prefixed protobuf frames under
 * `application/vnd.ag-ui.event+proto` when the `Accept` header prefers it): replies
 * as text messages, invocations as tool calls with their results, progress
 * as `CUSTOM` `chatsurface.progress`, and a turn that waits ends the run with
 * an `interrupt` outcome whose interrupt ids are the rows' ids. The thread
 * keeps its own history, so earlier messages in the input are not replayed.
 */
export function agUiRoutes(options: AgUiRoutesOptions): Hono {
  const { host } = options;
  const app = new Hono();

  app.post('/v1/ag-ui', async (c) => {
    const principal = await options.principal(c.req.raw);
    if (!principal) return unauthorizedResponse(AG_UI_SIGN_IN);
    const raw = await readJson(c);
    if (!raw.ok) return raw.response;
    const parsed = RunAgentInputSchema.safeParse(raw.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return errorResponse(400, 'invalid_run_input', `The body is not an AG-UI RunAgentInput: ${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : parsed.error.message}.`);
    }
    const input = parsed.data as RunAgentInput;
    if (!THREAD_ID.test(input.threadId)) return errorResponse(400, 'invalid_thread_id', THREAD_ID_RULE);
    const text = lastUserText(input);
    if (!input.resume?.length && !text) return errorResponse(400, 'nothing_to_run', 'The input has no user message to answer and nothing to resume.');

    const encoder = new EventEncoder({ accept: c.req.header('accept') ?? 'text/event-stream' });
    const { threadId, runId } = input;
    const stream = new TransformStream<Uint8Array, Uint8Array>();
    const writer = stream.writable.getWriter();
    // `encodeBinary` is the negotiated framing: SSE text as bytes, or (when the Accept header asks for
    // `application/vnd.ag-ui.event+proto`) each event as protobuf behind a 4-byte big-endian length.
    // (`encode` is SSE whatever was negotiated.)
    const write = (event: Record<string, unknown>) => {
      void writer.write(encoder.encodeBinary(event as unknown as BaseEvent)).catch(() => undefined);
    };

    const run = async () => {
      write({ type: EventType.RUN_STARTED, threadId, runId });
      let failed: { message: string; code: string } | null = null;
      const since = await host.lastSeq(principal, threadId);
      // The thread as this run's events leave it: the rows still waiting at its end are its interrupts.
      let state: ThreadState = { ...initialThreadState, appliedUpTo: since };
      const toAgUi = agUiTranslator();
      const translate = (event: ThreadEvent) => {
        for (const out of toAgUi(event)) write(out);
        state = fold(state, event);
        if (event.type === 'turn.error') failed = { message: event.message, code: event.code };
      };
      const unsubscribe = host.subscribe(principal, threadId, translate, since);
      try {
        if (input.resume?.length) {
          for (const entry of input.resume) {
            const payload = (entry.payload ?? {}) as { approved?: unknown; answer?: unknown };
            await host.decide(principal, { threadId, ...decisionOf(entry.interruptId, entry.status, payload) });
          }
        } else {
          await host.send(principal, { threadId, text: text! });
        }
      } catch (error) {
        failed = { message: error instanceof Error ? error.message : String(error), code: 'run_failed' };
      } finally {
        unsubscribe();
      }
      const ended = failed as { message: string; code: string } | null;
      const interrupts = state.rows.filter(isWaiting).map(interruptOf);
      if (ended) write({ type: EventType.RUN_ERROR, message: ended.message, code: ended.code });
      else write({ type: EventType.RUN_FINISHED, threadId, runId, outcome: interrupts.length ? { type: 'interrupt', interrupts } : { type: 'success' } });
      await writer.close().catch(() => undefined);
    };
    void run();
    return new Response(stream.readable, { headers: { 'content-type': encoder.getContentType(), 'cache-control': 'no-cache' } });
  });

  return app;
}

/** The text of the input's last user message (string content, or its text parts). */
function lastUserText(input: RunAgentInput): string | null {
  const message = [...input.messages].reverse().find((m) => m.role === 'user');
  if (!message) return null;
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content.trim() || null;
  if (Array.isArray(content)) {
    const text = content.flatMap((part: { type?: string; text?: string }) => (part.type === 'text' && part.text ? [part.text] : [])).join('\n');
    return text.trim() || null;
  }
  return null;
}

/** A resume entry as the host's decision on the row with that id. */
function decisionOf(id: string, status: 'resolved' | 'cancelled', payload: { approved?: unknown; answer?: unknown }): DecisionBody {
  const resolved = status === 'resolved';
  if (id.startsWith('approval')) return { id, decision: resolved && payload.approved !== false ? 'approve' : 'deny' };
  if (id.startsWith('proposal')) return { id, decision: resolved && payload.approved !== false ? 'accept' : 'dismiss' };
  if (!resolved) return { id, decision: 'dismiss' };
  return { id, decision: 'answer', answer: typeof payload.answer === 'string' ? payload.answer : String(payload.answer ?? '') };
}

/** The id of a reply's reasoning as an AG-UI reasoning message (message ids are one space in AG-UI). */
export const reasoningMessageId = (messageId: string) => `${messageId}.reasoning`;

/**
 * One run's thread events as AG-UI events, in order: `toAgUi` for each, and a reply's reasoning
 * (`reasoning.delta` / `reasoning.done`) as a reasoning span with one reasoning message
 * (`REASONING_START`, `REASONING_MESSAGE_START` / `_CONTENT` / `_END`, `REASONING_END`; its
 * id is `reasoningMessageId(reply)`, `metadata["chatsurface/redacted"]` when the provider hid
 * some). A reply that opens empty (as one that reasons first does) starts its text message at
 * its first text, so a client lists the reasoning before the reply it led to.
 */
export function agUiTranslator(): (event: ThreadEvent) => Record<string, unknown>[] {
  /** Replies created empty whose TEXT_MESSAGE_START waits for their first text or their end. */
  const held = new Set<string>();
  /** Replies whose reasoning span is open. */
  const reasoning = new Set<string>();
  const start = (id: string) => {
    if (!held.delete(id)) return [];
    return [{ type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant' }];
  };
  const openReasoning = (id: string) => {
    if (reasoning.has(id)) return [];
    reasoning.add(id);
    const messageId = reasoningMessageId(id);
    return [{ type: EventType.REASONING_START, messageId }, { type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' }];
  };
  return (event) => {
    switch (event.type) {
      case 'message.created':
        if (event.role === 'assistant' && !event.text) {
          held.add(event.message_id);
          return [];
        }
        return toAgUi(event);
      case 'message.delta':
        return event.delta ? [...start(event.message_id), ...toAgUi(event)] : [];
      case 'message.done':
        return [...closeReasoning(event.message_id), ...start(event.message_id), ...toAgUi(event)];
      case 'reasoning.delta':
        if (!event.delta) return [];
        return [...openReasoning(event.message_id), { type: EventType.REASONING_MESSAGE_CONTENT, messageId: reasoningMessageId(event.message_id), delta: event.delta }];
      case 'reasoning.done':
        return [...openReasoning(event.message_id), ...closeReasoning(event.message_id, event.redacted)];
      default:
        return toAgUi(event);
    }
  };
  function closeReasoning(id: string, redacted?: boolean): Record<string, unknown>[] {
    if (!reasoning.delete(id)) return [];
    const messageId = reasoningMessageId(id);
    const metadata = redacted ? { metadata: { 'chatsurface/redacted': true } } : {};
    return [{ type: EventType.REASONING_MESSAGE_END, messageId, ...metadata }, { type: EventType.REASONING_END, messageId, ...metadata }];
  }
}

/**
 * One thread event as AG-UI events. Events a client has no use for (the
 * user's own message, view and composer changes) become nothing; a decision
 * the thread waits for is not an event but an interrupt at the run's end
 * (`interruptOf`).
 */
export function toAgUi(event: ThreadEvent): Record<string, unknown>[] {
  switch (event.type) {
    case 'message.created':
      if (event.role !== 'assistant') return [];
      return [
        { type: EventType.TEXT_MESSAGE_START, messageId: event.message_id, role: 'assistant' },
        ...(event.text ? [{ type: EventType.TEXT_MESSAGE_CONTENT, messageId: event.message_id, delta: event.text }] : []),
      ];
    case 'message.delta':
      return event.delta ? [{ type: EventType.TEXT_MESSAGE_CONTENT, messageId: event.message_id, delta: event.delta }] : [];
    case 'message.done':
      return [{ type: EventType.TEXT_MESSAGE_END, messageId: event.message_id }];
    case 'capability.started':
      return [
        { type: EventType.TOOL_CALL_START, toolCallId: event.invocation_id, toolCallName: event.capability },
        { type: EventType.TOOL_CALL_ARGS, toolCallId: event.invocation_id, delta: JSON.stringify(event.args ?? {}) },
        { type: EventType.TOOL_CALL_END, toolCallId: event.invocation_id },
      ];
    case 'capability.progress':
      return [
        {
          type: EventType.CUSTOM,
          name: 'chatsurface.progress',
          value: { toolCallId: event.invocation_id, progress: event.progress, ...(event.total !== undefined ? { total: event.total } : {}), ...(event.message ? { message: event.message } : {}) },
        },
      ];
    case 'capability.done':
      return [{ type: EventType.TOOL_CALL_RESULT, messageId: createId('msg'), toolCallId: event.invocation_id, role: 'tool', content: resultText(event.result) || JSON.stringify(event.result) }];
    case 'capability.error':
      return [{ type: EventType.TOOL_CALL_RESULT, messageId: createId('msg'), toolCallId: event.invocation_id, role: 'tool', content: `Error: ${event.error.message}` }];
    default:
      return [];
  }
}

/** A row that waits for the user's decision (the fold's `isWaiting`) as an AG-UI interrupt; its id is the row's. */
function interruptOf(row: DecisionRow): Interrupt {
  switch (row.kind) {
    case 'approval':
      return { id: row.id, reason: 'approval', message: `${row.title}: ${row.reason}`, metadata: { capability: row.capability, args: row.args } };
    case 'proposal':
      return { id: row.id, reason: 'proposal', message: `Run ${row.title}?`, metadata: { capability: row.capability, args: row.args } };
    case 'question':
      return {
        id: row.id,
        reason: 'question',
        message: row.question,
        ...(row.options.length ? { responseSchema: { type: 'string', enum: row.options.map((o) => o.value) } } : {}),
      };
    default:
      return row satisfies never;
  }
}
