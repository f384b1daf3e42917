import type { EventOf } from '../events';
import type { Draft } from './draft';
import type { AssistantRow, Reasoning } from './rows';

/**
 * The model's reasoning on its reply's row: pieces appended in arrival order, closed by its
 * `reasoning.done`. Either may come before the row's `message.created` (the row is made then, as a
 * delta does); a done that arrives before pieces sent earlier (by seq) keeps them and stays done.
 */
export function foldReasoning(d: Draft, event: EventOf<'reasoning.delta' | 'reasoning.done'>): void {
  const i = d.find(event.message_id, 'assistant');
  const prior = d.row(i, 'assistant');
  const row: AssistantRow = prior ? { ...prior } : { kind: 'assistant', id: event.message_id, text: '', status: 'streaming' };
  const was = row.reasoning;
  const startedAt = was ? Math.min(was.startedAt, event.ts) : event.ts;
  let next: Reasoning;
  switch (event.type) {
    case 'reasoning.delta': {
      const reopened = was?.doneSeq !== undefined && event.seq > was.doneSeq;
      next = reopened
        ? { text: was.text + event.delta, status: 'streaming', startedAt, ...(was.redacted ? { redacted: true } : {}) }
        : { ...(was ?? { status: 'streaming' as const }), text: (was?.text ?? '') + event.delta, startedAt };
      break;
    }
    case 'reasoning.done': {
      // Done twice (reasoning that went on after a pause): the later one holds.
      if (was?.doneSeq !== undefined && was.doneSeq > event.seq) {
        next = { ...was, startedAt, ...(event.redacted ? { redacted: true } : {}) };
        break;
      }
      next = { text: was?.text ?? '', status: 'done', startedAt, endedAt: event.ts, doneSeq: event.seq };
      if (event.redacted || was?.redacted) next.redacted = true;
      break;
    }
    default:
      return event satisfies never;
  }
  row.reasoning = next;
  d.put(i, row);
}
