import type { AgentSubscriber } from '@ag-ui/client';
import type { ActivityDeltaEvent, ActivitySnapshotEvent, BaseEvent, CustomEvent, Interrupt, Message, RawEvent } from '@ag-ui/core';
import type { DriverInfo } from '../runtime/events';
import { createId } from '../runtime/ids';
import type { Registry } from '../runtime/registry';
import { closeOpenCalls, finishCall, openCall } from './agUiCalls';
import { contentText, otherRoles, showSnapshot } from './agUiMessages';
import type { AgUiModules } from './agUiPeer';
import type { AgUiThread } from './agUiThread';

/** The agent's events that are not conversation, for the host: `CUSTOM`, `RAW`, `ACTIVITY_SNAPSHOT` and `ACTIVITY_DELTA`. */
export type AgUiHostEvent = CustomEvent | RawEvent | ActivitySnapshotEvent | ActivityDeltaEvent;

/** What one run of the agent left for the turn to act on. */
export interface Round {
  /** Calls of the page's own tools, to run in the page before the next round. */
  frontendCalls: { id: string; name: string; args: string }[];
  /** The run ended on these (approval or question rows). */
  interrupts: Interrupt[];
  failed: { message: string; code?: string } | null;
  /** The run said it was cancelled. */
  cancelled: boolean;
}

export interface RoundContext {
  t: AgUiThread;
  threadId: string;
  turnId: string;
  driver: DriverInfo;
  /** The page's capabilities: a tool found here is a frontend tool. */
  registry: Registry;
  EventType: AgUiModules['EventType'];
  /** Open agent steps by name: the id of each one's card (they may span rounds). */
  steps: Map<string, string>;
  onState?: (threadId: string, state: unknown) => void;
  onEvent?: (threadId: string, event: AgUiHostEvent) => void;
}

/**
 * A subscriber that turns one run's AG-UI events into thread events: text into rows by
 * its role (the agent's replies, the user's messages; developer and system messages not
 * shown), reasoning (REASONING_*) into the reasoning of the reply it leads to, messages
 * snapshots into the rows not shown yet, the agent's own tool calls and steps into cards
 * (a call left without a result ends with the run); custom, raw and activity events go to
 * the host's `onEvent`. What the turn must act on (frontend calls, interrupts, a failure)
 * is gathered in `round`.
 */
export function roundSubscriber(ctx: RoundContext): { subscriber: AgentSubscriber; round: Round } {
  const { t, turnId, driver, registry, EventType, steps } = ctx;
  const { emit } = t.log;
  const others = otherRoles(t);
  const toHost = (event: AgUiHostEvent) => {
    if (event.type === EventType.CUSTOM) showProgress(t, event);
    try {
      ctx.onEvent?.(ctx.threadId, event);
    } catch (error) {
      console.error('createAgUiWorkspace: onEvent threw', error);
    }
  };
  const round: Round = { frontendCalls: [], interrupts: [], failed: null, cancelled: false };
  // A reasoning message opens the reply row it leads to (named by the reasoning's id); the text
  // message that follows it is that row (`rowOf`). A row that got reasoning and no text is
  // closed when a tool call or the run's end comes instead.
  const rows = new Map<string, string>();
  const rowOf = (id: unknown) => rows.get(String(id)) ?? String(id);
  let waitingForText: string | null = null;
  const closeWaiting = () => {
    if (waitingForText !== null) emit({ type: 'message.done', message_id: waitingForText });
    waitingForText = null;
  };
  const reasoningDone = new Set<string>();
  const endReasoning = (e: Record<string, unknown>) => {
    const row = rowOf(e.messageId);
    if (reasoningDone.has(row)) return;
    reasoningDone.add(row);
    const redacted = (e.metadata as Record<string, unknown> | undefined)?.['chatsurface/redacted'] === true;
    emit({ type: 'reasoning.done', message_id: row, ...(redacted ? { redacted: true } : {}) });
  };
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => {
      const e = event as BaseEvent & Record<string, unknown>;
      switch (event.type) {
        case EventType.TEXT_MESSAGE_START:
          if (others.start(String(e.messageId), e.role)) break;
          t.seen.add(String(e.messageId));
          if (waitingForText !== null) {
            rows.set(String(e.messageId), waitingForText);
            waitingForText = null;
            break;
          }
          emit({ type: 'message.created', message_id: String(e.messageId), role: 'assistant', text: '', turn_id: turnId, driver });
          break;
        case EventType.TEXT_MESSAGE_CONTENT:
          if (others.content(String(e.messageId), e.delta)) break;
          emit({ type: 'message.delta', message_id: rowOf(e.messageId), delta: String(e.delta) });
          break;
        case EventType.TEXT_MESSAGE_END:
          if (others.end(String(e.messageId))) break;
          emit({ type: 'message.done', message_id: rowOf(e.messageId) });
          break;
        case EventType.REASONING_START:
        case EventType.REASONING_MESSAGE_START: {
          const id = String(e.messageId);
          t.seen.add(id);
          if (rows.has(id)) break;
          // A span and its messages (ids of their own, or one) before any text: one reply's reasoning.
          if (waitingForText !== null) {
            rows.set(id, waitingForText);
            break;
          }
          rows.set(id, id);
          waitingForText = id;
          emit({ type: 'message.created', message_id: id, role: 'assistant', text: '', turn_id: turnId, driver });
          break;
        }
        case EventType.REASONING_MESSAGE_CONTENT:
          if (!rows.has(String(e.messageId)) || !e.delta) break;
          reasoningDone.delete(rowOf(e.messageId));
          emit({ type: 'reasoning.delta', message_id: rowOf(e.messageId), delta: String(e.delta) });
          break;
        case EventType.REASONING_MESSAGE_END:
        case EventType.REASONING_END:
          if (rows.has(String(e.messageId))) endReasoning(e);
          break;
        case EventType.TOOL_CALL_START:
          closeWaiting();
          openCall(ctx, String(e.toolCallId), String(e.toolCallName));
          break;
        case EventType.TOOL_CALL_ARGS: {
          const call = t.calls.get(String(e.toolCallId));
          if (!call) break;
          call.args += String(e.delta);
          if (t.open.has(String(e.toolCallId))) emit({ type: 'capability.output', invocation_id: String(e.toolCallId), stream: 'log', text: String(e.delta) });
          break;
        }
        case EventType.TOOL_CALL_END: {
          const id = String(e.toolCallId);
          const call = t.calls.get(id);
          if (call && registry.get(call.name)) round.frontendCalls.push({ id, ...call });
          break;
        }
        case EventType.TOOL_CALL_RESULT:
          if (e.messageId) t.seen.add(String(e.messageId));
          finishCall(t, String(e.toolCallId), contentText(e.content));
          break;
        case EventType.MESSAGES_SNAPSHOT:
          closeWaiting();
          showSnapshot(ctx, (e.messages ?? []) as Message[]);
          break;
        case EventType.CUSTOM:
        case EventType.RAW:
        case EventType.ACTIVITY_SNAPSHOT:
        case EventType.ACTIVITY_DELTA:
          toHost(e as AgUiHostEvent);
          break;
        case EventType.STEP_STARTED: {
          const id = createId('step');
          const name = String(e.stepName);
          steps.set(name, id);
          emit({ type: 'capability.started', invocation_id: id, capability: 'agent.step', title: name, args: {}, turn_id: turnId, actor: { id: 'agent', name: driver.label } });
          break;
        }
        case EventType.STEP_FINISHED: {
          const id = steps.get(String(e.stepName));
          if (!id) break;
          steps.delete(String(e.stepName));
          emit({ type: 'capability.done', invocation_id: id, result: { content: [{ type: 'text', text: `${String(e.stepName)} finished.` }] } });
          break;
        }
        case EventType.RUN_ERROR:
          closeWaiting();
          others.flush();
          closeOpenCalls(t, 'failed');
          round.failed = { message: String(e.message), ...(typeof e.code === 'string' ? { code: e.code } : {}) };
          break;
        case EventType.RUN_FINISHED: {
          closeWaiting();
          const finished = e.outcome as { type?: string; interrupts?: Interrupt[] } | undefined;
          others.flush();
          if (finished?.type === 'interrupt') round.interrupts = finished.interrupts ?? [];
          if (finished?.type === 'cancelled') round.cancelled = true;
          // An interrupt's answer may bring a call's result; any other end leaves none to come.
          if (finished?.type !== 'interrupt') closeOpenCalls(t, round.cancelled ? 'cancelled' : 'finished');
          break;
        }
        default:
          break;
      }
    },
    onStateChanged: ({ state }) => ctx.onState?.(ctx.threadId, state),
  };
  return { subscriber, round };
}

/** The kit's own AG-UI endpoint sends a tool's progress as `CUSTOM` `chatsurface.progress`: shown on the call's card. */
function showProgress(t: AgUiThread, event: CustomEvent): void {
  const value = event.value as { toolCallId?: unknown; progress?: unknown; total?: unknown; message?: unknown } | null;
  if (event.name !== 'chatsurface.progress' || typeof value?.toolCallId !== 'string' || !t.open.has(value.toolCallId) || typeof value.progress !== 'number') return;
  t.log.emit({
    type: 'capability.progress',
    invocation_id: value.toolCallId,
    progress: value.progress,
    ...(typeof value.total === 'number' && value.total > 0 ? { total: value.total } : {}),
    ...(typeof value.message === 'string' ? { message: value.message } : {}),
  });
}
