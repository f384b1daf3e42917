import { loadOnce } from '../loadOnce';
import type { Decisions } from './decisions';
import type { HostContext } from './hostContext';
import type { Leases } from './leases';
import type { LiveThreads } from './liveThread';
import type { Turns } from './turns';

/**
 * The host's decisions (`./decisions`): approvals, proposals, questions, skill offers, chip
 * calls. Each needs the turn parts first anyway, so the module loads beside them, on the first
 * decision, chip call or approval request; once it is in, a decision starts in the same task, as
 * before. A failed load (a chunk the network lost) is tried again on the next use.
 */
export function decisionsOnUse(ctx: HostContext, threads: LiveThreads, leases: Leases, turns: Turns): Decisions {
  const made = loadOnce(() => import('./decisions').then((m) => m.createDecisions(ctx, threads, leases, turns)), 'its code for this answer');
  const part = (): Decisions | Promise<Decisions> => made.current() ?? made.load();
  const on = <T>(use: (d: Decisions) => Promise<T>): Promise<T> => {
    const d = part();
    return d instanceof Promise ? d.then(use) : use(d);
  };
  return {
    decide: (principal, request) => on((d) => d.decide(principal, request)),
    invoke: (t, principal, request) => on((d) => d.invoke(t, principal, request)),
    requestApproval: (t, request) => on((d) => d.requestApproval(t, request)),
  };
}
