import { describe, expect, it } from 'vitest';
import { foldAll, initialThreadState, messageVersions, replyVersions, shownNodes, type AssistantRow, type ThreadState, type UserRow } from '../fold';

/** Edits and regenerations as branches (issue 40): the shown path, the shelf, and switching between versions. */

let seq = 0;
const at = () => ({ seq: ++seq, ts: seq });
const user = (id: string, branch: string | undefined, text = id, versionOf?: string) => ({
  type: 'message.created',
  ...at(),
  message_id: id,
  role: 'user',
  text,
  ...(branch ? { branch } : {}),
  ...(versionOf ? { version_of: versionOf } : {}),
});
const reply = (id: string, branch: string | undefined, text = id) => [
  { type: 'message.created', ...at(), message_id: id, role: 'assistant', text: '', ...(branch ? { branch } : {}) },
  { type: 'message.delta', ...at(), message_id: id, delta: text },
  { type: 'message.done', ...at(), message_id: id },
];
const regenerate = (messageId: string, replyId: string) => ({ type: 'reply.regenerated', ...at(), message_id: messageId, reply_id: replyId });
const select = (part: 'message' | 'reply', messageId: string, version: string) => ({ type: 'version.selected', ...at(), part, message_id: messageId, version });
const shown = (state: ThreadState) => state.rows.map((row) => row.id);
const text = (state: ThreadState, id: string) => (state.rows.find((row) => row.id === id) as AssistantRow | undefined)?.text;

/** Two turns, stamped as the host stamps them. */
function twoTurns() {
  seq = 0;
  return [user('u1', 'root'), ...reply('a1', 'u1.reply'), user('u2', 'u1.reply'), ...reply('a2', 'u2.reply')];
}

describe('versions: edits', () => {
  it('an edit of the second message shows the new version and its reply; the first version waits on the shelf', () => {
    const log = [...twoTurns(), user('u2b', 'u1.reply', 'again', 'u2'), ...reply('a2b', 'u2b.reply')];
    const state = foldAll(initialThreadState, log);
    expect(shown(state)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    expect(Object.keys(state.versions!.shelf).sort()).toEqual(['assistant:a2', 'user:u2']);
    const row = state.rows[2] as UserRow;
    expect(row.version_of).toBe('u2');
    expect(messageVersions(state.versions, row)).toEqual({ part: 'message', messageId: 'u2', version: 'u2b', index: 2, count: 2, previous: 'u2', next: null });
    expect(messageVersions(state.versions, state.rows[0] as UserRow)).toBeNull();
    expect(state.ids).toEqual(shown(state));
  });

  it('switching back shows the first version with its whole continuation, and again the other', () => {
    const edited = foldAll(initialThreadState, [...twoTurns(), user('u2b', 'u1.reply', 'again', 'u2'), ...reply('a2b', 'u2b.reply')]);
    const back = foldAll(edited, [select('message', 'u2', 'u2')]);
    expect(shown(back)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(text(back, 'a2')).toBe('a2');
    expect(messageVersions(back.versions, back.rows[2] as UserRow)).toMatchObject({ index: 1, count: 2, previous: null, next: 'u2b' });
    const forth = foldAll(back, [select('message', 'u2', 'u2b')]);
    expect(shown(forth)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    // The state it was folded from keeps its own rows.
    expect(shown(back)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(shown(edited)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
  });

  it('a message sent after switching to an older version continues that version; the newer one keeps its own', () => {
    let state = foldAll(initialThreadState, [...twoTurns(), user('u2b', 'u1.reply', 'again', 'u2'), ...reply('a2b', 'u2b.reply')]);
    state = foldAll(state, [select('message', 'u2', 'u2'), user('u3', 'u2.reply'), ...reply('a3', 'u3.reply')]);
    expect(shown(state)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
    state = foldAll(state, [select('message', 'u2', 'u2b')]);
    expect(shown(state)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    expect(shownNodes(state.rows, state.versions)).toEqual(['root', 'u1', 'u1.reply', 'u2b', 'u2b.reply']);
  });

  it('three edits of one message: every version is kept and reachable in order', () => {
    let state = foldAll(initialThreadState, twoTurns());
    for (const v of ['b', 'c', 'd']) state = foldAll(state, [user(`u2${v}`, 'u1.reply', v, 'u2'), ...reply(`a2${v}`, `u2${v}.reply`)]);
    const positions: string[] = [];
    let position = messageVersions(state.versions, state.rows[2] as UserRow);
    expect(position).toMatchObject({ index: 4, count: 4 });
    // Previous, previous, previous: down to the first; each with its own reply.
    while (position?.previous) {
      state = foldAll(state, [select('message', 'u2', position.previous)]);
      position = messageVersions(state.versions, state.rows[2] as UserRow);
      positions.push(`${position!.index}:${shown(state).slice(2).join(',')}`);
    }
    expect(positions).toEqual(['3:u2c,a2c', '2:u2b,a2b', '1:u2,a2']);
  });

  it('an edit of an old log (no branch stamps) still files the rows by their place', () => {
    seq = 0;
    const log = [user('u1', undefined), ...reply('a1', undefined), user('u2', undefined), ...reply('a2', undefined)];
    const state = foldAll(foldAll(initialThreadState, log), [user('u1b', 'root', 'again', 'u1'), ...reply('a1b', 'u1b.reply')]);
    expect(shown(state)).toEqual(['u1b', 'a1b']);
    expect(shown(foldAll(state, [select('message', 'u1', 'u1')]))).toEqual(['u1', 'a1', 'u2', 'a2']);
  });
});

describe('versions: regenerations', () => {
  it('a regenerated reply replaces the shown one under the same message; Previous shows the first again', () => {
    let state = foldAll(initialThreadState, [...twoTurns(), regenerate('u2', 'r2'), ...reply('a2r', 'r2')]);
    expect(shown(state)).toEqual(['u1', 'a1', 'u2', 'a2r']);
    expect(replyVersions(state.versions, 'u2')).toEqual({ part: 'reply', messageId: 'u2', version: 'r2', index: 2, count: 2, previous: 'u2.reply', next: null });
    expect(replyVersions(state.versions, 'u1')).toBeNull();
    state = foldAll(state, [select('reply', 'u2', 'u2.reply')]);
    expect(shown(state)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(replyVersions(state.versions, 'u2')).toMatchObject({ index: 1, next: 'r2' });
  });

  it('a late event of a reply not shown changes it on the shelf, and it shows when switched to', () => {
    let state = foldAll(initialThreadState, [...twoTurns().slice(0, -2), regenerate('u2', 'r2'), ...reply('a2r', 'r2')]);
    // a2's delta and done arrive after the regeneration (they were sent before it).
    state = foldAll(state, [
      { type: 'message.delta', seq: 7, ts: 7, message_id: 'a2', delta: 'a2' },
      { type: 'message.done', seq: 8, ts: 8, message_id: 'a2' },
    ]);
    expect(shown(state)).toEqual(['u1', 'a1', 'u2', 'a2r']);
    state = foldAll(state, [select('reply', 'u2', 'u2.reply')]);
    expect(state.rows.at(-1)).toMatchObject({ id: 'a2', text: 'a2', status: 'done' });
  });
});

describe('versions: what follows the version on screen', () => {
  it('the chips’ last capability and the cast are the shown version’s', () => {
    const chip = (id: string, capability: string, branch: string, done: boolean) => [
      { type: 'capability.started', ...at(), invocation_id: id, capability, title: capability, args: {}, branch },
      ...(done ? [{ type: 'capability.done', ...at(), invocation_id: id, result: { content: [{ type: 'text', text: 'ok' }] } }] : []),
    ];
    const before = [...twoTurns(), ...chip('i1', 'records.import', 'u2.reply', true)];
    let state = foldAll(initialThreadState, [...before, user('u2b', 'u1.reply', 'again', 'u2'), ...reply('a2b', 'u2b.reply'), ...chip('i2', 'records.enrich', 'u2b.reply', false)]);
    expect(state.lastCapability).toBeNull();
    expect(Object.keys(state.open)).toEqual(['i2']);
    state = foldAll(state, [select('message', 'u2', 'u2')]);
    expect(state.lastCapability).toBe('records.import');
    // The enrichment still runs, in the version not shown: the cast shows what the screen shows.
    expect(Object.keys(state.open)).toEqual([]);
    state = foldAll(state, [select('message', 'u2', 'u2b')]);
    expect(Object.keys(state.open)).toEqual(['i2']);
    expect(state.lastCapability).toBeNull();
  });
});

describe('versions: any arrival order', () => {
  it('the same shown path and shelf whatever order a branched log arrives in', () => {
    const log = [...twoTurns(), user('u2b', 'u1.reply', 'again', 'u2'), ...reply('a2b', 'u2b.reply'), regenerate('u2b', 'r9'), ...reply('a9', 'r9'), select('message', 'u2', 'u2')];
    const reference = foldAll(initialThreadState, log);
    expect(shown(reference)).toEqual(['u1', 'a1', 'u2', 'a2']);
    for (const order of [[...log].reverse(), [...log.slice(5), ...log.slice(0, 5)], log.filter((_, i) => i % 2).concat(log.filter((_, i) => !(i % 2)))]) {
      const state = foldAll(initialThreadState, order);
      expect(new Set(shown(state))).toEqual(new Set(shown(reference)));
      expect(Object.keys(state.versions!.shelf).sort()).toEqual(Object.keys(reference.versions!.shelf).sort());
      expect(state.versions!.groups).toEqual(reference.versions!.groups);
      // One event at a time, too.
      const single = order.reduce<ThreadState>((s, e) => foldAll(s, [e]), initialThreadState);
      expect(new Set(shown(single))).toEqual(new Set(shown(reference)));
    }
  });
});
