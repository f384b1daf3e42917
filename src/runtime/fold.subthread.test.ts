import { describe, expect, it } from 'vitest';
import { parseThreadEvent, type ThreadEvent } from './events';
import { foldAll, initialThreadState } from './fold';

const opened: ThreadEvent = { type: 'subthread.opened', seq: 2, ts: 1, subthread_id: 'main.sub-1', skill: 'Skill/review', title: '/review', task: 'the new records', turn_id: 'turn1' };
const done: ThreadEvent = { type: 'subthread.done', seq: 3, ts: 2, subthread_id: 'main.sub-1', outcome: 'done', summary: 'Three need attention.', title: '/review' };
const user: ThreadEvent = { type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', text: '[load_skill /review]\nthe new records', turn_id: 'turn1' };

describe('sub-thread events: parsed like the others', () => {
  it('accepts the three events and says which field is wrong otherwise', () => {
    expect(parseThreadEvent(opened)).toEqual({ ok: true, event: opened });
    expect(parseThreadEvent(done)).toEqual({ ok: true, event: done });
    const linked = { type: 'subthread.linked', seq: 1, ts: 1, parent_id: 'main', skill: 'Skill/review', title: '/review', task: 'x' };
    expect(parseThreadEvent(linked)).toEqual({ ok: true, event: linked });
    expect(parseThreadEvent({ ...done, outcome: 'finished' })).toMatchObject({ ok: false, error: expect.stringMatching(/^outcome: /) });
    expect(parseThreadEvent({ ...opened, subthread_id: '' })).toMatchObject({ ok: false, error: expect.stringMatching(/^subthread_id: /) });
    expect(parseThreadEvent({ ...linked, parent_id: undefined })).toMatchObject({ ok: false, error: expect.stringMatching(/^parent_id: /) });
  });
});

describe('sub-thread events: folded into rows', () => {
  it('opened makes a running link row; done moves it to its outcome and adds one summary row', () => {
    const running = foldAll(initialThreadState, [user, opened]);
    expect(running.rows[1]).toEqual({ kind: 'subthread', id: 'main.sub-1', skill: 'Skill/review', title: '/review', task: 'the new records', status: 'running', turn_id: 'turn1' });
    const ended = foldAll(running, [done]);
    expect(ended.rows.map((r) => [r.kind, 'status' in r ? r.status : (r as { outcome?: string }).outcome])).toEqual([
      ['user', undefined],
      ['subthread', 'done'],
      ['subthread_summary', 'done'],
    ]);
    expect(ended.rows[1]).toMatchObject({ summary: 'Three need attention.' });
    // A replay of done under another seq adds no second summary.
    expect(foldAll(ended, [{ ...done, seq: 4 }]).rows.filter((r) => r.kind === 'subthread_summary')).toHaveLength(1);
  });

  it('reaches the same rows when done arrives before opened', () => {
    const inOrder = foldAll(initialThreadState, [user, opened, done]);
    const reversed = foldAll(initialThreadState, [done, user, opened]);
    const byKind = (rows: typeof inOrder.rows) => Object.fromEntries(rows.map((r) => [r.kind, r]));
    expect(byKind(reversed.rows)).toEqual(byKind(inOrder.rows));
  });

  it('linked makes the child’s origin row, once', () => {
    const linked: ThreadEvent = { type: 'subthread.linked', seq: 1, ts: 1, parent_id: 'main', skill: 'Skill/review', title: '/review', task: 'x' };
    const state = foldAll(initialThreadState, [linked, { ...linked, seq: 2 }]);
    expect(state.rows).toEqual([{ kind: 'subthread_origin', id: 'main', skill: 'Skill/review', title: '/review', task: 'x' }]);
  });
});
