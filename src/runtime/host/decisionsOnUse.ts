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
  let made: Decisions | undefined;
  let loading: Promise<Decisions> | undefined;
  const part = (): Decisions | Promise<Decisions> =>
    made ??
    (loading ??= import('./decisions').then(
      (m) => (made = m.createDecisions(ctx, threads, leases, turns)),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
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
