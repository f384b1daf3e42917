import { createId } from '../ids';
import type { Emit } from '../events';
import { DELTA_WINDOW_MS } from './deltaCoalescer';

/**
 * The capability calls a model step writes, as their arguments stream (`call_args` chunks):
 * `invocation.args.delta` events for the card of the invocation each call becomes (its id made
 * here and handed to the run with `take`), at most one a frame per call (DELTA_WINDOW_MS), as
 * streamed text goes. Only calls the turn will run at once get a card (`willRun`: not a proposal,
 * an approval or a control tool); one written that still did not run (a cut or failed step, an
 * earlier call that made the turn wait) is ended by `dropRest` with the reason.
 */
export interface ArgsWriter {
  /** A piece of a call's arguments; ignored for a call the turn would not run at once. */
  push(callId: string, capability: string, delta: string): void;
  /** Sends what waits. */
  flush(): void;
  /** The invocation id the call's card has (undefined when it streamed none); the call now runs as it. */
  take(callId: string): string | undefined;
  /** Ends the cards of the calls written and not taken, saying why they did not run. */
  dropRest(reason: string): void;
}

/** `willRun`: the title of a capability the turn would run at once when called now, else undefined. */
export function createArgsWriter(emit: Emit, turnId: string, willRun: (capability: string) => string | undefined, windowMs = DELTA_WINDOW_MS): ArgsWriter {
  const calls = new Map<string, { invocationId: string; capability: string; title: string; taken: boolean }>();
  let waitingCall = '';
  let waiting = '';
  let timer: ReturnType<typeof setTimeout> | null = null;

  const send = (callId: string, delta: string) => {
    const call = calls.get(callId)!;
    emit({ type: 'invocation.args.delta', invocation_id: call.invocationId, call_id: callId, capability: call.capability, title: call.title, turn_id: turnId, delta });
  };
  const sendWaiting = () => {
    if (!waiting) return;
    const delta = waiting;
    waiting = '';
    send(waitingCall, delta);
  };
  const open = () => {
    timer = setTimeout(windowEnd, windowMs);
    (timer as { unref?: () => void }).unref?.();
  };
  function windowEnd() {
    timer = null;
    if (!waiting) return;
    sendWaiting();
    open();
  }
  const flush = () => {
    sendWaiting();
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  return {
    push(callId, capability, delta) {
      if (!delta) return;
      let call = calls.get(callId);
      if (!call) {
        const title = willRun(capability);
        if (title === undefined) return;
        call = { invocationId: createId('inv'), capability, title, taken: false };
        calls.set(callId, call);
        // A new call's card shows at once, where the model wrote it (after what waits of the one before).
        sendWaiting();
        send(callId, delta);
        if (timer === null) open();
        return;
      }
      if (call.taken) return;
      if (waiting && callId !== waitingCall) sendWaiting();
      if (timer === null) {
        send(callId, delta);
        open();
        return;
      }
      waitingCall = callId;
      waiting += delta;
    },
    flush,
    take(callId) {
      const call = calls.get(callId);
      if (!call || call.taken) return undefined;
      if (waitingCall === callId) flush();
      call.taken = true;
      return call.invocationId;
    },
    dropRest(reason) {
      flush();
      for (const [callId, call] of calls) {
        if (call.taken) continue;
        call.taken = true;
        emit({ type: 'invocation.args.delta', invocation_id: call.invocationId, call_id: callId, capability: call.capability, title: call.title, turn_id: turnId, delta: '', dropped: reason });
      }
    },
  };
}
