import type { AnticipationMap } from '../../runtime/anticipation';
import type { CapabilityDescriptor } from '../../runtime/capability';
import { createEventLog, type EventLog } from '../../runtime/eventLog';
import type { DriverInfo, ThreadEventInput } from '../../runtime/events';
import { createId } from '../../runtime/ids';
import { invoke } from '../../runtime/invoke';
import { createRegistry } from '../../runtime/registry';
import type { DecisionRequest, WorkspaceAdapter } from '../../workspace/types';

/** What a script can do when the user sends a message. */
export interface ScriptApi {
  emit(event: ThreadEventInput): void;
  /** Runs a capability as part of the turn (stopped with it). */
  invoke(capability: string, args: unknown): Promise<unknown>;
  /** Aborted when the user stops the turn. */
  signal: AbortSignal;
  turnId: string;
}

export interface ScriptedWorkspaceOptions {
  capabilities?: readonly CapabilityDescriptor[];
  anticipation?: AnticipationMap;
  driver?: DriverInfo;
  /** Plays a turn: emits what the "model" says and does. The user's message and turn.started/done are emitted around it. */
  onSend?: (text: string, api: ScriptApi) => Promise<void> | void;
  /** Clock for event timestamps. @default Date.now */
  now?: () => number;
}

export interface ScriptedWorkspace extends WorkspaceAdapter {
  /** The thread's log: put any event on it. */
  readonly log: EventLog;
  /** Every decision the surface sent, in order. */
  readonly decisions: DecisionRequest[];
}

/**
 * A workspace whose model is a script, for component tests and stories of
 * rows the turn engine emits (proposals, approvals, questions, violations).
 * It is a real adapter: capabilities run through the runtime's `invoke`,
 * `decide` emits the resolution events (and runs an accepted proposal or an
 * approved change), `cancel` aborts, so rows react for real.
 * @example
 * const ws = scriptedWorkspace({ capabilities: [enrich] });
 * ws.log.emit({ type: 'proposal.created', proposal_id: 'p1', capability: 'enrich.batch', title: 'Enrich records', args: {} });
 */
export function scriptedWorkspace(options: ScriptedWorkspaceOptions = {}): ScriptedWorkspace {
  const log = createEventLog(options.now ? { now: options.now } : {});
  const registry = createRegistry(options.capabilities ?? []);
  const running = new Map<string, AbortController>();
  const decisions: DecisionRequest[] = [];

  const run = async (capability: string, args: unknown, threadId: string, turnSignal?: AbortSignal) => {
    const invocationId = createId('inv');
    const controller = new AbortController();
    running.set(invocationId, controller);
    try {
      const signal = turnSignal ? AbortSignal.any([controller.signal, turnSignal]) : controller.signal;
      return await invoke(capability, args, { registry, emit: log.emit, threadKey: threadId, signal, invocationId });
    } finally {
      running.delete(invocationId);
    }
  };

  /** What is waiting for the user, read back from the log. */
  const waiting = (id: string) => {
    for (const event of log.since()) {
      if (event.type === 'proposal.created' && event.proposal_id === id) return event;
      if (event.type === 'approval.requested' && event.approval_id === id) return event;
      if (event.type === 'clarify.requested' && event.question_id === id) return event;
      if (event.type === 'elicitation.requested' && event.elicitation_id === id) return event;
    }
    return null;
  };

  return {
    log,
    decisions,
    manifest: {
      capabilities: registry.describe(),
      driver: options.driver ?? { id: 'scripted', label: 'Scripted model' },
      alignment: 'strict',
      anticipation: options.anticipation ?? {},
    },
    async send({ threadId, text }) {
      const turnId = createId('turn');
      const controller = new AbortController();
      running.set(turnId, controller);
      log.emit({ type: 'message.created', message_id: createId('msg'), role: 'user', text, turn_id: turnId });
      log.emit({ type: 'turn.started', turn_id: turnId });
      let outcome: 'answered' | 'cancelled' = 'answered';
      try {
        await options.onSend?.(text, {
          emit: log.emit,
          invoke: (capability, args) => run(capability, args, threadId, controller.signal),
          signal: controller.signal,
          turnId,
        });
      } finally {
        if (controller.signal.aborted) {
          outcome = 'cancelled';
          log.emit({ type: 'turn.error', turn_id: turnId, code: 'cancelled', message: 'Stopped before the reply finished.', recoverable: true });
        }
        running.delete(turnId);
        log.emit({ type: 'turn.done', turn_id: turnId, outcome });
      }
    },
    invoke: ({ threadId, capability, args }) => run(capability, args, threadId),
    cancel({ id }) {
      running.get(id)?.abort(new Error('Cancelled by the user.'));
    },
    async decide(request) {
      decisions.push(request);
      const item = waiting(request.id);
      if (!item) throw new Error(`Nothing in this thread is waiting for an answer with id "${request.id}".`);
      if (item.type === 'proposal.created' && (request.decision === 'accept' || request.decision === 'dismiss')) {
        log.emit({ type: 'proposal.resolved', proposal_id: request.id, decision: request.decision === 'accept' ? 'accepted' : 'dismissed' });
        if (request.decision === 'accept') void run(item.capability, item.args, request.threadId);
        return;
      }
      if (item.type === 'approval.requested' && (request.decision === 'approve' || request.decision === 'deny')) {
        log.emit({ type: 'approval.resolved', approval_id: request.id, decision: request.decision === 'approve' ? 'approved' : 'denied' });
        if (request.decision === 'approve') void run(item.capability, item.args, request.threadId);
        return;
      }
      if (item.type === 'clarify.requested' && request.decision === 'answer' && request.answer) {
        log.emit({ type: 'clarify.answered', question_id: request.id, answer: request.answer });
        return;
      }
      if (item.type === 'elicitation.requested') {
        // An MCP tool's question: the form's values (JSON) accept it; deny declines, dismiss cancels.
        const action = request.decision === 'answer' || request.decision === 'accept' ? 'accept' : request.decision === 'deny' ? 'decline' : 'cancel';
        const content = request.decision === 'answer' && request.answer ? (JSON.parse(request.answer) as Record<string, string>) : undefined;
        log.emit({ type: 'elicitation.answered', elicitation_id: request.id, action, ...(content ? { content } : {}) });
        return;
      }
      throw new Error(`"${request.decision}" is not an answer to ${item.type.split('.')[0]} "${request.id}".`);
    },
    async feedback({ messageId, rating, comment }) {
      log.emit({ type: 'message.feedback', message_id: messageId, rating, ...(rating && comment ? { comment } : {}) });
    },
    setView({ view }) {
      log.emit({ type: 'view.changed', view });
    },
    subscribe(_threadId, listener, { since = 0 } = {}) {
      return log.subscribe(listener, since);
    },
  };
}
