import { describe, expect, it } from 'vitest';
import { foldAll, initialThreadState, type ThreadState } from '../runtime/fold';
import { lastUserMessage, replyStartAt } from './useVersions';

let seq = 0;
const at = () => ({ seq: ++seq, ts: seq });
const user = (id: string, branch: string, extra: Record<string, unknown> = {}) => ({ type: 'message.created', ...at(), message_id: id, role: 'user', text: id, branch, ...extra });
const reply = (id: string, branch: string) => [
  { type: 'message.created', ...at(), message_id: id, role: 'assistant', text: id, branch },
  { type: 'message.done', ...at(), message_id: id },
];
const card = (id: string, branch: string) => ({ type: 'capability.started', ...at(), invocation_id: id, capability: 'records.count', title: 'Count records', args: {}, branch });

/** u1 → a1; u2 → a2, a card, a2x. */
function thread(): ThreadState {
  seq = 0;
  return foldAll(initialThreadState, [user('u1', 'root'), ...reply('a1', 'u1.reply'), user('u2', 'u1.reply'), ...reply('a2', 'u2.reply'), card('c1', 'u2.reply'), ...reply('a2x', 'u2.reply')]);
}

describe('replyStartAt', () => {
  it('names the user message whose reply a row starts: the first assistant row after it, past cards', () => {
    const state = thread();
    expect(state.rows.map((row) => row.id)).toEqual(['u1', 'a1', 'u2', 'a2', 'c1', 'a2x']);
    expect(state.rows.map((_, i) => replyStartAt(state.rows, i))).toEqual([null, 'u1', null, 'u2', null, null]);
  });

  it('a reply whose first row comes after a card still starts there; an index past the end is null', () => {
    seq = 0;
    const state = foldAll(initialThreadState, [user('u1', 'root'), card('c1', 'u1.reply'), ...reply('a1', 'u1.reply')]);
    expect(replyStartAt(state.rows, 2)).toBe('u1');
    expect(replyStartAt(state.rows, 9)).toBeNull();
  });
});

describe('lastUserMessage', () => {
  it('is the newest shown message of the user\'s: after an edit, the edit', () => {
    const state = thread();
    expect(lastUserMessage(state.rows)?.id).toBe('u2');
    const edited = foldAll(state, [user('u2b', 'u1.reply', { version_of: 'u2' }), ...reply('a2b', 'u2b.reply')]);
    expect(lastUserMessage(edited.rows)).toMatchObject({ id: 'u2b', version_of: 'u2' });
  });

  it('is null in an empty thread, and when the newest is a skill\'s message (not edited here)', () => {
    expect(lastUserMessage([])).toBeNull();
    seq = 0;
    const state = foldAll(initialThreadState, [user('u1', 'root'), user('u2', 'u1.reply', { skill: '/summarize' })]);
    expect(lastUserMessage(state.rows)).toBeNull();
  });
});
