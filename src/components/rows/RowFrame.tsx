import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import type { DecisionRequest } from '../../workspace/types';
import { RowError } from './RowError';
import type { RowDecision } from './useRowDecision';
import { useMessages } from '../messages/context';

export interface RowFrameProps extends ComponentPropsWithRef<'article'> {
  /** `data-part` of the row, e.g. `proposal`. */
  part: string;
  /** `data-state` of the row, e.g. `pending`. */
  state: string;
  /** The small line above the title ("Suggested action"). */
  label: ReactNode;
  /** The row's title; it names the row (`aria-labelledby`). */
  heading: ReactNode;
  /** What came of it, shown once decided (null while pending). */
  outcome?: ReactNode;
  decision: RowDecision<HTMLElement>;
}

/**
 * The frame every row that asks for a decision shares: a focusable article
 * named by its title, its label, the row's own content, the outcome and the
 * error of a failed decision. `aria-busy` while the workspace answers.
 */
export function RowFrame({ part, state, label, heading, outcome = null, decision, children, ...props }: RowFrameProps) {
  const titleId = useId();
  return (
    <article tabIndex={-1} aria-labelledby={titleId} {...props} ref={decision.ref} data-part={part} data-state={state} aria-busy={decision.busy || undefined}>
      <p data-part="row-label">{label}</p>
      <p id={titleId} data-part="row-title">
        {heading}
      </p>
      {children}
      {outcome === null ? null : <p data-part="row-outcome">{outcome}</p>}
      <RowError error={decision.error} />
    </article>
  );
}

/** One button of a two-way choice: its word, the decision it sends, its `data-part`. */
export interface RowChoice {
  label: string;
  decision: DecisionRequest['decision'];
  part: string;
  variant?: 'primary' | 'danger' | undefined;
}

/** A pending row's choice buttons (Accept / Dismiss, Approve / Deny), each named with the row's title. */
export function RowChoices({ decision, title, choices }: { decision: RowDecision<HTMLElement>; title: string; choices: readonly RowChoice[] }) {
  const m = useMessages().row;
  if (!decision.canDecide) return null;
  return (
    <div data-part="row-actions">
      {choices.map((choice) => (
        <button
          key={choice.part}
          type="button"
          data-part={choice.part}
          aria-label={m.choice(choice.label, title)}
          data-variant={choice.variant}
          disabled={decision.busy}
          onClick={() => decision.decide(choice.decision)}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}
