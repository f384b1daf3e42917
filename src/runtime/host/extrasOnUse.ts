import { loadOnce } from '../loadOnce';
import type { Elicitations } from './elicitations';
import type { FeedbackPart } from './feedback';
import type { HostContext } from './hostContext';
import type { Leases } from './leases';
import { stateOf, type LiveThreads } from './liveThread';

/**
 * The host's parts a chat may never use (`./hostExtras`), each loaded on its first use: a
 * running tool's first question, the first decision of a question's row, the first rating, an
 * MCP App's first view (`createLocalWorkspace`). A chat that uses none of them carries none of
 * their code. A failed load (a chunk the network lost) is tried again on the next use.
 */

type HostExtras = typeof import('./hostExtras');

const extras = loadOnce<HostExtras>(() => import('./hostExtras'), 'its code for this');

/** Loads the host's extra parts once (at once when they are in). */
export const loadHostExtras = extras.load;

/** The host's MCP elicitations (`./elicitations`), made on first use; the decide path of every other row goes on at once. */
export function elicitationsOnUse(threads: LiveThreads, leases: Leases, options: { waitMs?: number } = {}): Elicitations {
  // One for the host, however many first uses meet: a question is answered where it was asked.
  const made = loadOnce(() => extras.load().then((m) => m.createElicitations(threads, leases, options)), 'its code for this');
  return {
    ask: (threadKey, ask, signal) => made.load().then((e) => e.ask(threadKey, ask, signal)),
    async decide(principal, request, next) {
      const loaded = made.current();
      if (loaded) return loaded.decide(principal, request, next);
      // Nothing asked here yet: only a question's row (one from before a restart, which it closes as interrupted) needs the code.
      const t = await threads.opened(principal, request.threadId, false);
      const question = t !== null && stateOf(t).rows.some((r) => r.kind === 'elicitation' && r.id === request.id);
      return question ? (await made.load()).decide(principal, request, next) : next(principal, request);
    },
  };
}

/** The host's ratings of replies (`./feedback`), made on first use. */
export function feedbackOnUse(ctx: HostContext, threads: LiveThreads, leases: Leases): FeedbackPart {
  const part = loadOnce(() => extras.load().then((m) => m.createFeedback(ctx, threads, leases)), 'its code for this').load;
  return {
    feedback: async (principal, request) => (await part()).feedback(principal, request),
    feedbackOf: async (principal, threadId) => (await part()).feedbackOf(principal, threadId),
  };
}
