import { describe, expect, it } from 'vitest';
import { parseThreadEvent, type ThreadEvent } from './events';
import { foldAll, initialThreadState } from './fold';
import { historyOf } from './history';
import { loadSkillText, parseLoadSkill, readSkillMessage } from './skillField';

/** A thread logged before issue 38 (the directive in the text) and the same thread logged with the field. */
const log = (user: Record<string, unknown>): ThreadEvent[] => [
  { type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', turn_id: 'turn1', ...user } as ThreadEvent,
  { type: 'turn.started', seq: 2, ts: 2, turn_id: 'turn1', driver: { id: 'offline', label: 'Offline' } },
  { type: 'skill.activated', seq: 3, ts: 3, skill: 'Skill/summarize', title: '/summarize' },
  { type: 'model.message', seq: 4, ts: 4, turn_id: 'turn1', message: { role: 'user', text: 'the last import' } },
  { type: 'message.created', seq: 5, ts: 5, message_id: 'a1', role: 'assistant', text: 'Done.', turn_id: 'turn1' },
  { type: 'message.done', seq: 6, ts: 6, message_id: 'a1' },
  { type: 'turn.done', seq: 7, ts: 7, turn_id: 'turn1', outcome: 'answered' },
];
const old = log({ text: '[load_skill /summarize]\nthe last import' });
const typed = log({ text: 'the last import', skill: '/summarize' });

describe('the skill field of a user message', () => {
  it('an old event in the text form folds to the same row and state as one with the field', () => {
    const before = foldAll(initialThreadState, old);
    const now = foldAll(initialThreadState, typed);
    expect(before.rows[0]).toEqual({ kind: 'user', id: 'u1', text: 'the last import', skill: '/summarize', turn_id: 'turn1' });
    expect(before.rows.map((r) => r.kind)).toEqual(['user', 'assistant']);
    expect(before.rows).toEqual(now.rows);
    expect(before.activeSkills).toEqual(now.activeSkills);
    // Replayed, the model's history is the same too (it is the model.message events).
    expect(historyOf(old)).toEqual(historyOf(typed));
    // Folded one event at a time (as a stream replays it), the same.
    expect(old.reduce((s, e) => foldAll(s, [e]), initialThreadState).rows).toEqual(before.rows);
  });

  it('a message that is not a directive stays as it is; the field wins over text that looks like one', () => {
    expect(foldAll(initialThreadState, log({ text: 'please [load_skill /summarize]' })).rows[0]).toEqual({ kind: 'user', id: 'u1', text: 'please [load_skill /summarize]', turn_id: 'turn1' });
    expect(readSkillMessage('[load_skill /other]\nx', '/summarize')).toEqual({ text: '[load_skill /other]\nx', skill: '/summarize' });
    expect(readSkillMessage('[load_skill /summarize]')).toEqual({ text: '', skill: '/summarize' });
    expect(readSkillMessage('hello')).toEqual({ text: 'hello' });
  });

  it('the event schema checks the field: a slash name, or the event is malformed', () => {
    const ok = parseThreadEvent({ type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', text: 'x', skill: '/summarize' });
    expect(ok).toEqual({ ok: true, event: { type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', text: 'x', skill: '/summarize' } });
    for (const skill of ['summarize', '/Bad', 42]) {
      expect(parseThreadEvent({ type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', text: 'x', skill }).ok).toBe(false);
    }
  });

  it('the text form is read by one parser and written for a model only where it got it before', () => {
    expect(parseLoadSkill(loadSkillText('/summarize', 'the last import'))).toEqual({ name: '/summarize', task: 'the last import' });
    expect(loadSkillText({ name: '/summarize' }, 'x')).toBe('[load_skill /summarize]\nx');
  });
});
