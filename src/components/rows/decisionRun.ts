import { useCallback, useRef, useSyncExternalStore } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import type { ApprovalRow, ProposalRow, Row } from '../../runtime/fold';
import type { RunStatus } from '../../runtime/runStatus';

/** How many rows after a decision its run is looked for (it comes right after it: the run's card, maybe a message before). */
const RUN_WITHIN_ROWS = 40;

const noSubscribe = () => () => {};

/** Whether `row` is the run a decision led to: the same model tool call when both name one, else the same capability. */
function isRunOf(row: Row, decision: ApprovalRow | ProposalRow): row is Extract<Row, { kind: 'invocation' }> {
  if (row.kind !== 'invocation') return false;
  if (decision.call_id && row.call_id) return row.call_id === decision.call_id;
  return row.capability === decision.capability;
}

/**
 * The status of the run an approved approval or an accepted proposal led to (the first card of its
 * capability, or of its tool call, after it), or undefined until that run is in the thread (or
 * outside a surface). A decision row words its outcome from it: "Approved: it is running." becomes
 * "Approved: it finished." once the run is done. Where the rows were found is kept, so a settled
 * run costs a look-up, not a scan, on every later change of the thread.
 */
export function useDecisionRun(decision: ApprovalRow | ProposalRow, decided: boolean): RunStatus | undefined {
  const surface = useOptionalChatSurface();
  const store = surface?.store;
  const at = useRef({ self: -1, run: -1 });
  const read = useCallback((): RunStatus | undefined => {
    if (!store || !decided) return undefined;
    const rows = store.getState().thread.rows;
    const seen = at.current;
    const known = rows[seen.run];
    if (known && isRunOf(known, decision) && seen.run > seen.self) return known.state;
    let self = rows[seen.self]?.id === decision.id && rows[seen.self]?.kind === decision.kind ? seen.self : -1;
    for (let i = rows.length - 1; self < 0 && i >= 0; i--) if (rows[i]!.id === decision.id && rows[i]!.kind === decision.kind) self = i;
    seen.self = self;
    if (self < 0) return undefined;
    const end = Math.min(rows.length, self + 1 + RUN_WITHIN_ROWS);
    for (let i = self + 1; i < end; i++) {
      const row = rows[i]!;
      if (isRunOf(row, decision)) {
        seen.run = i;
        return row.state;
      }
    }
    return undefined;
  }, [store, decided, decision]);
  return useSyncExternalStore(store ? store.subscribe : noSubscribe, read, read);
}
