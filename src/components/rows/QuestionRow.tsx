import { useId, useState, type ComponentPropsWithRef } from 'react';
import type { QuestionRow as QuestionRowData } from '../../runtime/fold';
import { useRowDecision } from './useRowDecision';
import { RowFrame } from './RowFrame';
import { useMessages } from '../messages/context';

export interface QuestionRowProps extends ComponentPropsWithRef<'article'> {
  /** The clarifying question to show. */
  row: QuestionRowData;
}

/**
 * One clarifying question from the assistant, with its quick answers as
 * buttons and a box for an answer of the user's own. `data-state` is
 * pending|answered.
 * @example
 * <QuestionRow row={{ kind: 'question', id: 'q1', question: 'Once, or every week?', options: [{ label: 'Once', value: 'once' }], status: 'pending' }} />
 */
export function QuestionRow({ row, ...props }: QuestionRowProps) {
  const pending = row.status === 'pending';
  const decision = useRowDecision<HTMLElement>(row.id, pending);
  const [own, setOwn] = useState('');
  const m = useMessages().question;
  const inputId = useId();
  const answered = row.options.find((option) => option.value === row.answer)?.label ?? row.answer;
  return (
    <RowFrame
      {...props}
      part="question"
      state={row.status}
      label={m.label}
      heading={row.question || m.fallback}
      outcome={pending ? null : m.answered(answered ?? '')}
      decision={decision}
    >
      {pending && decision.canDecide ? (
        <>
          {row.options.length ? (
            <div data-part="row-actions" role="group" aria-label={m.quickAnswers}>
              {row.options.map((option) => (
                <button key={option.value} type="button" data-part="question-option" disabled={decision.busy} onClick={() => decision.decide('answer', option.value)}>
                  {option.label}
                </button>
              ))}
            </div>
          ) : null}
          <form
            data-part="question-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (own.trim()) decision.decide('answer', own.trim());
            }}
          >
            <label htmlFor={inputId} data-part="question-label">
              {row.options.length ? m.ownWords : m.yourAnswer}
            </label>
            <input id={inputId} data-part="question-input" value={own} onChange={(event) => setOwn(event.target.value)} disabled={decision.busy} autoComplete="off" />
            <button type="submit" data-part="question-submit" disabled={decision.busy || !own.trim()}>
              {m.answer}
            </button>
          </form>
        </>
      ) : null}
    </RowFrame>
  );
}
QuestionRow.displayName = 'ChatSurface.QuestionRow';
