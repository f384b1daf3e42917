import { useCallback, useState } from 'react';
import { useActionFocus } from '../../hooks/useActionFocus';
import { useOptionalChatSurface } from '../../hooks/context';
import { noteUserAction } from '../../hooks/userAction';
import type { DecisionRequest } from '../../workspace/types';
import { useMessages } from '../messages/context';

/** What a row that asks for a decision needs: focus, the call, and whether it is in flight or failed. */
export interface RowDecision<T extends HTMLElement> {
  ref: React.RefObject<T | null>;
  /** False outside a surface (a row rendered on its own shows no buttons). */
  canDecide: boolean;
  /** True while the workspace has not answered yet; buttons are disabled meanwhile. */
  busy: boolean;
  /** Why the last decision failed; the row stays pending and its buttons stay. */
  error: string | null;
  decide(decision: DecisionRequest['decision'], answer?: string): void;
}

/** The shared behaviour of proposal, approval and question rows. */
export function useRowDecision<T extends HTMLElement>(id: string, pending: boolean): RowDecision<T> {
  const surface = useOptionalChatSurface();
  const focus = useActionFocus<T>(id, pending);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const m = useMessages().row;

  const decide = useCallback(
    (decision: DecisionRequest['decision'], answer?: string) => {
      if (!surface) return;
      focus.willResolve();
      // The transcript follows to what the decision brings (the run, its result, the reply).
      noteUserAction(surface.store);
      setBusy(true);
      setError(null);
      const request: DecisionRequest = { threadId: surface.threadId, id, decision };
      if (answer !== undefined) request.answer = answer;
      let promise: Promise<void>;
      try {
        promise = Promise.resolve(surface.workspace.decide(request));
      } catch (reason) {
        promise = Promise.reject(reason);
      }
      promise.then(
        () => setBusy(false),
        (reason: unknown) => {
          setBusy(false);
          setError(m.notDecided(reason instanceof Error ? reason.message : String(reason)));
        },
      );
    },
    [surface, id, focus, m],
  );

  return { ref: focus.ref, canDecide: surface !== null, busy, error, decide };
}
