import type { DriverInfo } from '../runtime/events';
import type { Registry } from '../runtime/registry';
import { parseArgs, type AgUiThread } from './agUiThread';

/** What the tool-call translation needs from the round. */
export interface CallContext {
  t: AgUiThread;
  turnId: string;
  driver: DriverInfo;
  /** The page's capabilities: a tool found here is a frontend tool, whose card `invoke` opens. */
  registry: Registry;
}

/**
 * Opens the card of one of the agent's own tool calls (a frontend tool's card is opened by
 * `invoke` when it runs in the page). `args` is set when the whole call is known at once (a
 * messages snapshot); streamed arguments go to the card's output instead. A call already known
 * to the thread is left as it is.
 */
export function openCall(ctx: CallContext, id: string, name: string, args?: string): void {
  const { t, registry } = ctx;
  if (t.calls.has(id)) return;
  t.calls.set(id, { name, args: args ?? '' });
  if (registry.get(name)) return;
  t.open.add(id);
  t.log.emit({
    type: 'capability.started',
    invocation_id: id,
    capability: name,
    title: registry.get(name)?.title ?? name,
    args: args === undefined ? {} : parseArgs(args),
    turn_id: ctx.turnId,
    call_id: id,
  });
}

/** A result for one of the agent's own open calls: its card ends, done (or failed when the agent says the call failed). */
export function finishCall(t: AgUiThread, id: string, text: string, error?: string): void {
  if (!t.open.delete(id)) return;
  if (error !== undefined) {
    const capability = t.calls.get(id)?.name ?? 'tool';
    t.log.emit({ type: 'capability.error', invocation_id: id, capability, error: { code: 'tool_error', message: error || text || 'The tool failed.' }, recoverable: false });
    return;
  }
  t.log.emit({ type: 'capability.done', invocation_id: id, result: { content: [{ type: 'text', text }] } });
}

/** How a run ended, for the calls it left without a result. */
export type RunEnd = 'finished' | 'failed' | 'cancelled';

/**
 * Ends the cards of the agent's own calls still open when a run ends without their results
 * (never on an interrupt, whose answer may bring them): done with no result when the run
 * finished, failed in plain words when it failed or was stopped, or when the user denied the call.
 */
export function closeOpenCalls(t: AgUiThread, end: RunEnd): void {
  if (!t.open.size) return;
  const denied = deniedCalls(t);
  for (const id of t.open) {
    const capability = t.calls.get(id)?.name ?? 'tool';
    const fail = (code: string, message: string) => t.log.emit({ type: 'capability.error', invocation_id: id, capability, error: { code, message }, recoverable: false });
    if (denied.has(id)) fail('denied', 'Not run: you denied it.');
    else if (end === 'failed') fail('run_failed', 'The run failed before this call returned a result.');
    else if (end === 'cancelled') fail('cancelled', 'The run was stopped before this call returned a result.');
    else t.log.emit({ type: 'capability.done', invocation_id: id, result: { content: [] } });
  }
  t.open.clear();
}

/** The calls whose approval the user denied (from the thread's log). */
function deniedCalls(t: AgUiThread): Set<string> {
  const callOf = new Map<string, string>();
  const denied = new Set<string>();
  for (const event of t.log.since(0)) {
    if (event.type === 'approval.requested' && event.call_id) callOf.set(event.approval_id, event.call_id);
    if (event.type === 'approval.resolved' && event.decision === 'denied') {
      const call = callOf.get(event.approval_id);
      if (call) denied.add(call);
    }
  }
  return denied;
}
