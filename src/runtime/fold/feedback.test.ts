import { describe, expect, it } from 'vitest';
import { foldAll, initialThreadState, type AssistantRow } from '../fold';

const reply = [
  { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'user', text: 'How many records?' },
  { type: 'message.created', seq: 2, ts: 2, message_id: 'm2', role: 'assistant', text: 'There are ' },
  { type: 'message.delta', seq: 3, ts: 3, message_id: 'm2', delta: '6 records.' },
  { type: 'message.done', seq: 4, ts: 4, message_id: 'm2' },
];
const good = { type: 'message.feedback', seq: 5, ts: 5, message_id: 'm2', rating: 'good' };
const bad = { type: 'message.feedback', seq: 6, ts: 6, message_id: 'm2', rating: 'bad', comment: 'Wrong count: I have 7.' };
const withdrawn = { type: 'message.feedback', seq: 7, ts: 7, message_id: 'm2', rating: null };

const replyRow = (events: unknown[]) => foldAll(initialThreadState, events).rows.find((r): r is AssistantRow => r.kind === 'assistant')!;

describe('message.feedback', () => {
  it('shows the rating and comment the user left last on the reply', () => {
    expect(replyRow([...reply, good]).feedback).toEqual({ rating: 'good' });
    expect(replyRow([...reply, good, bad]).feedback).toEqual({ rating: 'bad', comment: 'Wrong count: I have 7.' });
  });

  it('a withdrawal clears it', () => {
    expect(replyRow([...reply, good, bad, withdrawn]).feedback).toBeUndefined();
  });

  it('reaches the same row in any arrival order, replays included', () => {
    const inOrder = replyRow([...reply, good, bad]);
    expect(replyRow([bad, ...reply, good])).toEqual(inOrder);
    expect(replyRow([good, bad, ...reply.slice().reverse()])).toEqual(inOrder);
    expect(replyRow([...reply, bad, good, bad])).toEqual(inOrder);
    expect(replyRow([withdrawn, ...reply, bad, good]).feedback).toBeUndefined();
  });

  it('keeps the text and status of the reply it rates', () => {
    const row = replyRow([...reply, bad]);
    expect(row).toMatchObject({ text: 'There are 6 records.', status: 'done' });
  });

  it('a malformed one (an unknown rating, a comment over 2,000 characters) is an error row and changes nothing', () => {
    const state = foldAll(initialThreadState, [
      ...reply,
      { type: 'message.feedback', seq: 5, ts: 5, message_id: 'm2', rating: 'meh' },
      { type: 'message.feedback', seq: 6, ts: 6, message_id: 'm2', rating: 'bad', comment: 'x'.repeat(2_001) },
    ]);
    expect(state.rows.filter((r) => r.kind === 'error')).toHaveLength(2);
    expect(state.rows.find((r): r is AssistantRow => r.kind === 'assistant')!.feedback).toBeUndefined();
  });
});
