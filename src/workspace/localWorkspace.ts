import type { AnticipationMap } from '../runtime/anticipation';
import type { CapabilityDescriptor } from '../runtime/capability';
import { createEventLog, type EventLog } from '../runtime/eventLog';
import { createId } from '../runtime/ids';
import { invoke } from '../runtime/invoke';
import type { ModelDriver, ModelMessage } from '../runtime/model';
import { createOfflineDriver } from '../runtime/offlineDriver';
import { createRegistry, type Registry } from '../runtime/registry';
import { runTurn } from '../runtime/turn';
import type { DecisionRequest, WorkspaceAdapter } from './types';

export interface LocalWorkspaceOptions {
  /** The verbs this workspace offers. */
  capabilities: readonly CapabilityDescriptor[];
  /** The model that answers. @default the offline driver */
  driver?: ModelDriver;
  /** `strict` proposes anything the user did not name; `loose` runs a single clear match. @default 'strict' */
  alignment?: 'strict' | 'loose';
  /** Suggested next verbs by `${view.kind}::${lastCapability | 'none'}`. @default {} */
  anticipation?: AnticipationMap;
  /** Clock for event timestamps. @default Date.now */
  now?: () => number;
}

export interface LocalWorkspace extends WorkspaceAdapter {
  /** The registry behind the manifest, for hosts that add tooling around it. */
  readonly registry: Registry;
}

/** A row waiting for the user: what to do with each decision. */
type PendingDecision = (request: DecisionRequest) => Promise<void>;

interface ThreadRuntime {
  log: EventLog;
  history: ModelMessage[];
  /** Abort controllers of running turns and invocations, by id. */
  running: Map<string, AbortController>;
  /** Proposals, approvals and questions waiting for the user, by id. */
  pending: Map<string, PendingDecision>;
  /** Turns of one thread run one after another. */
  queue: Promise<void>;
}

/**
 * A workspace that runs the runtime in the page: for stories, static demos and
 * tests. The offline model answers unless another driver is given.
 * @example
 * const workspace = createLocalWorkspace({ capabilities: [add, slowReport] });
 * <ChatSurface workspace={workspace} />
 */
export function createLocalWorkspace(options: LocalWorkspaceOptions): LocalWorkspace {
  const registry = createRegistry(options.capabilities);
  const driver = options.driver ?? createOfflineDriver();
  const threads = new Map<string, ThreadRuntime>();

  const thread = (threadId: string): ThreadRuntime => {
    let t = threads.get(threadId);
    if (!t) {
      t = {
        log: createEventLog(options.now ? { now: options.now } : {}),
        history: [],
        running: new Map(),
        pending: new Map(),
        queue: Promise.resolve(),
      };
      threads.set(threadId, t);
    }
    return t;
  };

  /** Runs one capability; one started by a turn also stops when the turn is stopped. */
  const run = async (t: ThreadRuntime, threadId: string, capability: string, args: unknown, turnId?: string) => {
    const invocationId = createId('inv');
    const controller = new AbortController();
    const turnSignal = turnId ? t.running.get(turnId)?.signal : undefined;
    t.running.set(invocationId, controller);
    try {
      return await invoke(capability, args, {
        registry,
        emit: t.log.emit,
        threadId,
        signal: turnSignal ? AbortSignal.any([controller.signal, turnSignal]) : controller.signal,
        invocationId,
        ...(turnId ? { turnId } : {}),
      });
    } finally {
      t.running.delete(invocationId);
    }
  };

  return {
    registry,
    manifest: {
      capabilities: registry.describe(),
      driver: driver.info,
      alignment: options.alignment ?? 'strict',
      anticipation: options.anticipation ?? {},
    },
    send({ threadId, text }) {
      const t = thread(threadId);
      const turn = t.queue.then(async () => {
        const turnId = createId('turn');
        const controller = new AbortController();
        t.running.set(turnId, controller);
        try {
          t.history = await runTurn({
            text,
            driver,
            capabilities: registry.describe(),
            history: t.history,
            emit: t.log.emit,
            signal: controller.signal,
            turnId,
            invoke: (capability, args, id) => run(t, threadId, capability, args, id),
          });
        } finally {
          t.running.delete(turnId);
        }
      });
      t.queue = turn.catch(() => undefined);
      return turn;
    },
    async invoke({ threadId, capability, args }) {
      const t = thread(threadId);
      const result = await run(t, threadId, capability, args);
      const title = registry.get(capability)?.title ?? capability;
      t.history = [...t.history, { role: 'tool', capability, title, args, result }];
      return result;
    },
    cancel({ threadId, id }) {
      threads.get(threadId)?.running.get(id)?.abort(new Error('Cancelled by the user.'));
    },
    async decide(request) {
      const pending = threads.get(request.threadId)?.pending.get(request.id);
      if (!pending) throw new Error(`Nothing in this thread is waiting for an answer with id "${request.id}".`);
      await pending(request);
    },
    setView({ threadId, view }) {
      thread(threadId).log.emit({ type: 'view.changed', view });
    },
    subscribe(threadId, listener, { since = 0 } = {}) {
      return thread(threadId).log.subscribe(listener, since);
    },
  };
}
