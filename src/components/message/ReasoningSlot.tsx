import { deferred } from '../deferred/deferred';
import type { MessageReasoningProps } from './Reasoning';

/**
 * What stands in the disclosure's place while its code loads: the same box as its collapsed
 * button (`data-part="reasoning-toggle"`, one line), so nothing below it moves when it arrives.
 */
const placeholder = (
  <div data-part="reasoning" data-state="loading" aria-hidden="true">
    <span data-part="reasoning-toggle">{'\u00a0'}</span>
  </div>
);

const part = deferred<MessageReasoningProps>(() => import('./Reasoning').then((m) => m.MessageReasoning), 'ChatSurface.MessageReasoningSlot', placeholder);

/**
 * The model's reasoning above a reply (`MessageReasoning`), its code loaded on first use: only a
 * reply with reasoning fetches it.
 * @example
 * {row.reasoning ? <MessageReasoningSlot reasoning={row.reasoning} streaming={row.status === 'streaming'} /> : null}
 */
export const MessageReasoningSlot = part.Part;
/** Fetches the disclosure's code ahead of use. */
export const preloadMessageReasoning = part.preload;
