import { useId, useState } from 'react';
import type { Reasoning } from '../../runtime/fold';
import { useMessages } from '../messages/context';

export interface MessageReasoningProps {
  /** The reply's reasoning, as the fold keeps it (`AssistantRow.reasoning`). */
  reasoning: Reasoning;
  /** The reply still streams: reasoning not yet closed is then still going on. */
  streaming: boolean;
}

/** Where the reasoning stands, as `data-state` says it. */
export type ReasoningState = 'streaming' | 'done' | 'redacted';

/** The disclosure's state: hidden by the provider wins; open reasoning of a reply that ended (cut off, failed) is done. */
export function reasoningState(reasoning: Reasoning, streaming: boolean): ReasoningState {
  if (reasoning.redacted) return 'redacted';
  return reasoning.status === 'streaming' && streaming ? 'streaming' : 'done';
}

/**
 * The model's reasoning above its reply: collapsed, a button that says "Thinking…" while it
 * thinks and "Thought for 4 s" once done (`aria-expanded`), opening the text below it, which
 * streams while it is open. Reasoning the provider hid says so in plain words instead of its text
 * (`data-state="redacted"`). The assistant row renders it through `MessageReasoningSlot`, which
 * loads this code on first use.
 * @example
 * <MessageReasoning reasoning={{ text: 'The user wants…', status: 'done', startedAt: 0, endedAt: 4000 }} streaming={false} />
 */
export function MessageReasoning({ reasoning, streaming }: MessageReasoningProps) {
  const words = useMessages().reasoning;
  const [open, setOpen] = useState(false);
  const id = useId();
  const state = reasoningState(reasoning, streaming);
  const hidden = reasoning.redacted ? <p data-part="reasoning-note">{words.redacted}</p> : null;
  // Hidden, with nothing readable: the plain sentence alone, nothing to open.
  if (state === 'redacted' && !reasoning.text) {
    return (
      <div data-part="reasoning" data-state={state}>
        {hidden}
      </div>
    );
  }
  const label =
    state === 'streaming' ? words.thinking : reasoning.endedAt !== undefined ? words.thoughtFor(reasoning.endedAt - reasoning.startedAt) : words.thought;
  return (
    <div data-part="reasoning" data-state={state}>
      <button type="button" data-part="reasoning-toggle" data-state={state} aria-expanded={open} aria-controls={id} onClick={() => setOpen((v) => !v)}>
        <span data-part="reasoning-chevron" aria-hidden="true" />
        {label}
      </button>
      <div data-part="reasoning-text" id={id} role="region" aria-label={words.label} aria-busy={state === 'streaming' || undefined} hidden={!open}>
        {open ? reasoning.text : null}
        {open ? hidden : null}
      </div>
    </div>
  );
}
MessageReasoning.displayName = 'ChatSurface.MessageReasoning';
