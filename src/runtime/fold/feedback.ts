import type { EventOf } from '../events';
import type { Draft } from './draft';
import type { AssistantRow } from './rows';

/**
 * The user's rating of a reply: the `message.feedback` with the highest seq wins, so a change, a
 * withdrawal and their replays reach the same row in any order. One that arrives before its
 * reply's `message.created` makes the reply's row, which the created event then fills in.
 */
export function foldFeedback(d: Draft, event: EventOf<'message.feedback'>): void {
  const i = d.find(event.message_id, 'assistant');
  const prior = d.row(i, 'assistant');
  if ((prior?.feedbackSeq ?? 0) >= event.seq) return;
  const row: AssistantRow = prior ? { ...prior } : { kind: 'assistant', id: event.message_id, text: '', status: 'streaming' };
  row.feedbackSeq = event.seq;
  if (event.rating === null) delete row.feedback;
  else row.feedback = event.comment ? { rating: event.rating, comment: event.comment } : { rating: event.rating };
  d.put(i, row);
}
