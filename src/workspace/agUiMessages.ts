import type { Message } from '@ag-ui/core';
import { finishCall, openCall, type CallContext } from './agUiCalls';
import type { AgUiThread } from './agUiThread';

/** The text of a message's content: a string, or its text parts joined (images, audio and files have no text here). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part: { type?: unknown; text?: unknown }) => (part?.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('\n');
}

/**
 * A `MESSAGES_SNAPSHOT`'s messages as rows, each once (by message id; the thread's `seen`): user
 * messages as the user's, assistant messages as the agent's replies (a reasoning message just
 * before one as its reasoning), their tool calls as cards, tool messages as the results of their
 * calls. Developer, system and activity messages are not chat rows. Rows already shown are not
 * changed: a snapshot that rewrites a shown message's text is not reflected.
 */
export function showSnapshot(ctx: CallContext, messages: readonly Message[]): void {
  const { t, turnId, driver } = ctx;
  const { emit } = t.log;
  let reasoning: string | null = null;
  for (const m of messages) {
    const fresh = !t.seen.has(m.id);
    t.seen.add(m.id);
    switch (m.role) {
      case 'user':
        if (fresh) emit({ type: 'message.created', message_id: m.id, role: 'user', text: contentText(m.content) });
        break;
      case 'reasoning':
        if (fresh && m.content) reasoning = (reasoning ?? '') + m.content;
        break;
      case 'assistant': {
        const text = m.content ?? '';
        if (fresh && (text || reasoning)) {
          emit({ type: 'message.created', message_id: m.id, role: 'assistant', text, turn_id: turnId, driver });
          if (reasoning) {
            emit({ type: 'reasoning.delta', message_id: m.id, delta: reasoning });
            emit({ type: 'reasoning.done', message_id: m.id });
          }
          emit({ type: 'message.done', message_id: m.id });
        }
        reasoning = null;
        for (const call of m.toolCalls ?? []) openCall(ctx, call.id, call.function.name, call.function.arguments);
        break;
      }
      case 'tool':
        if (fresh) finishCall(t, m.toolCallId, contentText(m.content), m.error);
        break;
      default:
        // developer and system messages are instructions to the agent, activity messages the host's (`onEvent`).
        break;
    }
  }
}

/**
 * Text messages in roles other than the agent's, by `TEXT_MESSAGE_START`'s `role`: a `user`
 * message is the user's row (made whole at its end, since a user's row does not stream; one the
 * thread already shows, such as the user's own message echoed, is not repeated); `developer` and
 * `system` messages are instructions to the agent and are not shown. Each method says whether the
 * event was one of these (an assistant's is left to the caller).
 */
export function otherRoles(t: AgUiThread) {
  const open = new Map<string, { role: string; text: string }>();
  const show = (id: string) => {
    const message = open.get(id);
    open.delete(id);
    if (message?.role === 'user') t.log.emit({ type: 'message.created', message_id: id, role: 'user', text: message.text });
  };
  return {
    start(id: string, role: unknown): boolean {
      if (role === undefined || role === 'assistant') return false;
      // An echo of a message already shown: its content and end are swallowed too.
      open.set(id, { role: t.seen.has(id) ? 'seen' : String(role), text: '' });
      t.seen.add(id);
      return true;
    },
    content(id: string, delta: unknown): boolean {
      const message = open.get(id);
      if (message) message.text += String(delta ?? '');
      return message !== undefined;
    },
    end(id: string): boolean {
      if (!open.has(id)) return false;
      show(id);
      return true;
    },
    /** At the run's end: a user message that never ended is shown with what arrived. */
    flush(): void {
      for (const id of [...open.keys()]) show(id);
    },
  };
}
