import { errorResult, textResult } from '../results';
import type { SubThreadOutcome } from '../events';
import { createId } from '../ids';
import type { Principal } from '../principal';
import type { SkillMessage } from '../skillField';
import { threadKey } from '../stores/eventStore';
import type { TurnResult } from '../turn';
import { reportStoreError, type HostContext } from './hostContext';
import type { HostTurn, ThreadHost } from './hostTypes';
import type { Leases } from './leases';
import { enqueue, stateOf, type LiveThread, type LiveThreads } from './liveThread';
import { childThreadId, closeSubThread, linkEvent, openSubThread, originOf, runningSubThread, turnReport, type SubThreadLaunch } from './subThread';

type Report = { outcome: SubThreadOutcome; summary: string };

/** The sub-threads the host runs (issue 15; the rules are in `./subThread`): launched, linked to their parent, their outcome sent back. */
export interface SubThreads {
  /** Links a turn's controller to the parent's stop of this sub-thread; returns the unlink. */
  linkToParent(t: LiveThread, controller: AbortController): () => void;
  /** Opens the child thread and sends `message` there; the parent's row links to it at once (after the user's message when `shown`). */
  launch(t: LiveThread, turnId: string | undefined, launch: SubThreadLaunch, message: SkillMessage, shown?: boolean): string;
  /** A turn of a sub-thread ended: unless it waits for the user, its outcome goes back to the parent (or the door). */
  turnEnded(t: LiveThread, turnId: string, outcome: TurnResult['outcome'] | 'interrupted'): void;
  runSkillThread: ThreadHost['runSkillThread'];
}

/** `send` is the host's own: a sub-thread's message is a turn like any other. */
export function createSubThreads(ctx: HostContext, threads: LiveThreads, leases: Leases, send: (principal: Principal, request: HostTurn) => Promise<void>): SubThreads {
  const { busy } = leases;
  /** The parent's controller of each running sub-thread, by the child's key: stopping it stops the child's turns. */
  const stops = new Map<string, AbortController>();
  /** Threads a door's sub-thread skill runs in, by key: told when a turn there ends other than waiting. */
  const doorThreads = new Map<string, (report: Report) => void>();
  /** Nothing runs in the thread (it waits for the user, or it is not in memory). */
  const quiet = (key: string) => {
    const t = threads.get(key);
    return !t || (t.running.size === 0 && t.busy === 0);
  };

  const report = (principal: Principal, parentId: string, childId: string, outcome: Report) =>
    threads
      .withThread(principal, parentId, (p) =>
        busy(p, () =>
          enqueue(p, async () => {
            const row = runningSubThread(stateOf(p), childId);
            if (row) closeSubThread(p.history, p.emit, row, outcome);
            p.running.delete(childId);
            stops.delete(threadKey(ctx.refOf(principal, childId)));
          }),
        ),
      )
      .catch(reportStoreError);

  return {
    linkToParent(t, controller) {
      const parent = stops.get(t.key)?.signal;
      if (!parent) return () => undefined;
      if (parent.aborted) controller.abort(parent.reason);
      const stop = () => controller.abort(parent.reason);
      parent.addEventListener('abort', stop, { once: true });
      return () => parent.removeEventListener('abort', stop);
    },
    launch(t, turnId, launch, message, shown = true) {
      const childId = childThreadId(t.ref.id);
      const principal = t.principal;
      openSubThread(t.emit, launch, shown ? message : null, turnId, childId);
      const controller = new AbortController();
      t.running.set(childId, controller);
      const childKey = threadKey(ctx.refOf(principal, childId));
      stops.set(childKey, controller);
      controller.signal.addEventListener('abort', () => {
        // Stopped while the child waits for the user (no turn runs there): the parent hears it now.
        if (quiet(childKey)) void report(principal, t.ref.id, childId, { outcome: 'cancelled', summary: 'Stopped from the parent thread before it finished.' });
      }, { once: true });
      void threads
        .withThread(principal, childId, (c) => busy(c, () => enqueue(c, async () => void c.emit(linkEvent(t.ref.id, launch)))))
        .then(() => send(principal, { threadId: childId, ...message }))
        .catch((error: unknown) => report(principal, t.ref.id, childId, { outcome: 'failed', summary: `The sub-thread could not run: ${error instanceof Error ? error.message : String(error)}` }));
      return childId;
    },
    turnEnded(t, turnId, outcome) {
      const state = stateOf(t);
      const origin = originOf(state);
      const waiter = doorThreads.get(t.key);
      const ended = origin || waiter ? turnReport(state, turnId, outcome) : null;
      if (!ended) return;
      if (origin) void report(t.principal, origin.id, t.ref.id, ended);
      waiter?.(ended);
    },
    async runSkillThread(principal, { capability, task, signal }) {
      const descriptor = ctx.registry.get(capability);
      if (!descriptor) return errorResult(`There is no skill named "${capability}" here.`);
      const threadId = `${capability.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 80)}.sub-${createId('t').slice(2)}`;
      const words = typeof task === 'string' && task.trim() ? task.trim() : `Apply the ${descriptor.title} skill.`;
      const key = threadKey(ctx.refOf(principal, threadId));
      const stop = new AbortController();
      stops.set(key, stop);
      const ended = new Promise<Report>((resolve) => {
        doorThreads.set(key, resolve);
        const onAbort = () => {
          stop.abort(signal?.reason);
          // Waiting for the user, nothing runs there: the caller hears it now.
          if (quiet(key)) resolve({ outcome: 'cancelled', summary: 'Stopped before it finished.' });
        };
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await send(principal, { threadId, text: words, skill: `/${capability}` });
        const outcome = await ended;
        const meta = { thread_id: threadId, outcome: outcome.outcome };
        return outcome.outcome === 'done' ? textResult(outcome.summary, meta) : { ...errorResult(outcome.summary), structuredContent: meta };
      } finally {
        doorThreads.delete(key);
        stops.delete(key);
      }
    },
  };
}
