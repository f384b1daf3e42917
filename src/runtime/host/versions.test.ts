import { describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState, messageVersions, replyVersions, type ThreadState, type UserRow } from '../fold';
import type { ModelDriver, ModelMessage } from '../model';
import { createMemoryEventStore, type EventStore } from '../stores/eventStore';
import { createThreadHost, VersionError } from './threadHost';

const alice = { user: 'alice', space: 'acme' };
const bob = { user: 'bob', space: 'acme' };

/** A model that echoes the user's last message, and remembers every conversation it was sent; `hold` keeps the next reply open until `release`. */
function echoDriver() {
  const requests: ModelMessage[][] = [];
  let held: Promise<void> | null = null;
  let release = () => undefined as void;
  let n = 0;
  const driver: ModelDriver = {
    info: { id: 'echo', label: 'Echo' },
    async *respond({ messages, signal }) {
      requests.push([...messages]);
      const last = [...messages].reverse().find((m) => m.role === 'user');
      yield { type: 'text', text: `#${++n} about ${last && 'text' in last ? last.text : '?'}` };
      if (held) {
        const wait = held;
        held = null;
        await Promise.race([wait, new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))]);
      }
    },
  };
  return {
    driver,
    requests,
    hold: () => (held = new Promise<void>((resolve) => (release = resolve))),
    release: () => release(),
  };
}

const said = (messages: readonly ModelMessage[]) => messages.map((m) => `${m.role}:${'text' in m ? m.text : ''}`);
const stateOf = async (store: EventStore, threadId = 't1'): Promise<ThreadState> => foldAll(initialThreadState, (await store.read({ ...alice, id: threadId })) as ThreadEvent[]);
const shownTexts = (state: ThreadState) => state.rows.map((r) => ('text' in r ? r.text : r.kind));

function setup(store: EventStore = createMemoryEventStore()) {
  const echo = echoDriver();
  const host = createThreadHost({ capabilities: [], driver: echo.driver, idleMs: Infinity, events: store });
  return { host, store, echo };
}

describe('versions on the host', () => {
  it('an edit makes a new version with its own reply; the model hears the shown branch only; a switch back restores the first', async () => {
    const { host, store, echo } = setup();
    await host.send(alice, { threadId: 't1', text: 'one' });
    await host.send(alice, { threadId: 't1', text: 'two' });
    const second = (await stateOf(store)).rows.filter((r) => r.kind === 'user')[1]!;
    await host.send(alice, { threadId: 't1', text: 'two, edited', edits: second.id });
    let state = await stateOf(store);
    expect(shownTexts(state)).toEqual(['one', '#1 about one', 'two, edited', '#3 about two, edited']);
    // The edited turn's request: the first exchange and the new version, not the old one.
    expect(said(echo.requests[2]!)).toEqual(['user:one', 'assistant:#1 about one', 'user:two, edited']);
    const edited = state.rows[2] as UserRow;
    expect(messageVersions(state.versions, edited)).toMatchObject({ index: 2, count: 2, previous: second.id });

    await host.showVersion(alice, { threadId: 't1', part: 'message', messageId: second.id, version: second.id });
    await host.send(alice, { threadId: 't1', text: 'three' });
    state = await stateOf(store);
    expect(shownTexts(state)).toEqual(['one', '#1 about one', 'two', '#2 about two', 'three', '#4 about three']);
    expect(said(echo.requests[3]!)).toEqual(['user:one', 'assistant:#1 about one', 'user:two', 'assistant:#2 about two', 'user:three']);
  });

  it('regenerate answers the same message again; Previous shows the first reply; the next turn continues the shown reply', async () => {
    const { host, store, echo } = setup();
    await host.send(alice, { threadId: 't1', text: 'one' });
    const first = (await stateOf(store)).rows[0]!;
    await host.regenerate(alice, { threadId: 't1', messageId: first.id });
    let state = await stateOf(store);
    expect(shownTexts(state)).toEqual(['one', '#2 about one']);
    expect(state.rows.filter((r) => r.kind === 'user')).toHaveLength(1);
    expect(said(echo.requests[1]!)).toEqual(['user:one']);
    const position = replyVersions(state.versions, first.id)!;
    expect(position).toMatchObject({ index: 2, count: 2 });
    await host.showVersion(alice, { threadId: 't1', part: 'reply', messageId: first.id, version: position.previous! });
    await host.send(alice, { threadId: 't1', text: 'two' });
    state = await stateOf(store);
    expect(shownTexts(state)).toEqual(['one', '#1 about one', 'two', '#3 about two']);
    expect(said(echo.requests[2]!)).toEqual(['user:one', 'assistant:#1 about one', 'user:two']);
  });

  it('versions survive a restart: a new host on the same store shows the same versions and sends the model the shown branch', async () => {
    const store = createMemoryEventStore();
    const a = setup(store);
    await a.host.send(alice, { threadId: 't1', text: 'one' });
    const first = (await stateOf(store)).rows[0]!;
    await a.host.send(alice, { threadId: 't1', text: 'uno', edits: first.id });
    await a.host.close();
    const b = setup(store);
    await b.host.send(alice, { threadId: 't1', text: 'dos' });
    const state = await stateOf(store);
    expect(shownTexts(state)).toEqual(['uno', '#2 about uno', 'dos', '#1 about dos']);
    expect(said(b.echo.requests[0]!)).toEqual(['user:uno', 'assistant:#2 about uno', 'user:dos']);
  });

  it('editing while a reply streams stops it first, then writes the new version', async () => {
    const { host, store, echo } = setup();
    await host.send(alice, { threadId: 't1', text: 'one' });
    echo.hold();
    const running = host.send(alice, { threadId: 't1', text: 'two' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const two = (await stateOf(store)).rows.find((r) => r.kind === 'user' && r.text === 'two')!;
    await host.send(alice, { threadId: 't1', text: 'two again', edits: two.id });
    await running;
    const state = await stateOf(store);
    expect(state.activeTurn).toBeNull();
    expect(shownTexts(state).slice(2)).toEqual(['two again', '#3 about two again']);
    // The stopped reply stays with its version.
    await host.showVersion(alice, { threadId: 't1', part: 'message', messageId: two.id, version: two.id });
    const back = await stateOf(store);
    expect(back.rows.slice(2).map((r) => r.kind)).toEqual(['user', 'assistant', 'error']);
  });

  it('refuses in plain words: a switch while a reply streams, an unknown or hidden message, another user’s thread', async () => {
    const { host, store, echo } = setup();
    await host.send(alice, { threadId: 't1', text: 'one' });
    const one = (await stateOf(store)).rows[0]!;
    await host.send(alice, { threadId: 't1', text: 'uno', edits: one.id });
    echo.hold();
    const running = host.send(alice, { threadId: 't1', text: 'more' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(host.showVersion(alice, { threadId: 't1', part: 'message', messageId: one.id, version: one.id })).rejects.toMatchObject({ name: 'VersionError', code: 'busy' });
    echo.release();
    await running;
    // The first version is hidden now: it cannot be edited or answered again until it is shown.
    await expect(host.send(alice, { threadId: 't1', text: 'x', edits: one.id })).rejects.toBeInstanceOf(VersionError);
    await expect(host.regenerate(alice, { threadId: 't1', messageId: 'nope' })).rejects.toThrow('There is no message "nope" shown in this thread');
    await expect(host.showVersion(alice, { threadId: 't1', part: 'message', messageId: one.id, version: 'forged' })).rejects.toMatchObject({ code: 'unknown_version' });
    await expect(host.showVersion(bob, { threadId: 't1', part: 'message', messageId: one.id, version: one.id })).rejects.toMatchObject({ code: 'unknown_version' });
    await expect(host.regenerate(bob, { threadId: 't1', messageId: one.id })).rejects.toMatchObject({ code: 'unknown_message' });
    // Nothing was written by the refusals.
    expect((await stateOf(store)).rows.filter((r) => r.kind === 'user')).toHaveLength(2);
  });
});
