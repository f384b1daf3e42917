import { describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../events';
import type { EventStore, ThreadRef } from './eventStore';
import type { ThreadIndex } from './threadIndex';

const owner = { user: 'alice', space: 'acme' };
const ref = (id: string, user = 'alice'): ThreadRef => ({ user, space: 'acme', id });

/** A user message and a streamed reply, at `ts`, starting at `seq`. */
function exchange(seq: number, ts: number, question: string, answer: string): ThreadEvent[] {
  return [
    { type: 'message.created', seq, ts, message_id: `u${seq}`, role: 'user', text: question },
    { type: 'message.created', seq: seq + 1, ts: ts + 1, message_id: `a${seq}`, role: 'assistant', text: '' },
    { type: 'message.delta', seq: seq + 2, ts: ts + 2, message_id: `a${seq}`, delta: answer.slice(0, 5) },
    { type: 'message.delta', seq: seq + 3, ts: ts + 3, message_id: `a${seq}`, delta: answer.slice(5) },
    { type: 'message.done', seq: seq + 4, ts: ts + 4, message_id: `a${seq}` },
  ];
}

async function indexOf(make: () => EventStore | Promise<EventStore>): Promise<[EventStore, ThreadIndex]> {
  const store = await make();
  expect(store.threads, 'the store keeps a thread index').toBeDefined();
  return [store, store.threads!];
}

const ids = async (index: ThreadIndex, query?: Parameters<ThreadIndex['list']>[1], who = owner) => (await index.list(who, query)).threads.map((t) => t.id);

/** The contract every store's thread index keeps; run once per engine. */
export function threadIndexSuite(engine: string, make: () => EventStore | Promise<EventStore>): void {
  describe(`ThreadIndex on ${engine}`, () => {
    it('lists the owner\'s threads with messages, newest activity first, titled by the first message, previewed by the last', async () => {
      const [store, index] = await indexOf(make);
      await store.append(ref('old'), exchange(1, 1_000, 'Import the customers CSV please', 'Imported 120 customers.'));
      await store.append(ref('new'), exchange(1, 5_000, 'Summarise  the\nQ3 report', 'Revenue grew 12 percent.'));
      // A view change is not a message: the thread is not listed until it has one.
      await store.append(ref('quiet'), [{ type: 'view.changed', seq: 1, ts: 9_000, view: { kind: 'record_list' } }]);
      const page = await index.list(owner);
      expect(page.threads).toEqual([
        { id: 'new', title: 'Summarise the Q3 report', preview: 'Revenue grew 12 percent.', lastActivity: 5_004, archived: false },
        { id: 'old', title: 'Import the customers CSV please', preview: 'Imported 120 customers.', lastActivity: 1_004, archived: false },
      ]);
      expect(page.nextCursor).toBeNull();
      // A later message moves the older thread up; its title stays the first message.
      await store.append(ref('old'), exchange(6, 7_000, 'Now the suppliers', 'Imported 8 suppliers.'));
      expect((await index.list(owner)).threads[0]).toMatchObject({ id: 'old', title: 'Import the customers CSV please', preview: 'Imported 8 suppliers.', lastActivity: 7_004 });
    });

    it('cuts a long first message to a title at a word', async () => {
      const [store, index] = await indexOf(make);
      const long = 'Please look through every invoice we sent last quarter and tell me which customers have not paid yet and why';
      await store.append(ref('t'), exchange(1, 10, long, 'On it.'));
      const title = (await index.get(ref('t')))!.title;
      expect(title.length).toBeLessThanOrEqual(80);
      expect(title.endsWith('…')).toBe(true);
      expect(long.startsWith(title.slice(0, -1))).toBe(true);
    });

    it('shows another user nothing of a thread, and lets them change none of it', async () => {
      const [store, index] = await indexOf(make);
      await store.append(ref('t1'), exchange(1, 10, 'alice secret plan', 'Noted.'));
      const bob = { user: 'bob', space: 'acme' };
      expect(await ids(index, {}, bob)).toEqual([]);
      expect(await ids(index, { search: 'secret' }, bob)).toEqual([]);
      expect(await index.get(ref('t1', 'bob'))).toBeNull();
      expect(await index.rename(ref('t1', 'bob'), 'mine now')).toBeNull();
      expect(await index.setArchived(ref('t1', 'bob'), true)).toBeNull();
      expect(await index.remove(ref('t1', 'bob'))).toBe(false);
      expect(await index.get(ref('t1'))).toMatchObject({ title: 'alice secret plan', archived: false });
      expect(await store.read(ref('t1'))).toHaveLength(5);
    });

    it('renames a thread, and search finds it by its new title', async () => {
      const [store, index] = await indexOf(make);
      await store.append(ref('t1'), exchange(1, 10, 'hello there', 'Hi.'));
      expect(await index.rename(ref('t1'), '  Quarterly   numbers ')).toMatchObject({ id: 't1', title: 'Quarterly numbers' });
      expect(await index.get(ref('t1'))).toMatchObject({ title: 'Quarterly numbers' });
      expect(await ids(index, { search: 'quarterly' })).toEqual(['t1']);
      // A later message does not undo the rename.
      await store.append(ref('t1'), exchange(6, 20, 'another question', 'Another answer.'));
      expect(await index.get(ref('t1'))).toMatchObject({ title: 'Quarterly numbers' });
    });

    it('hides archived threads unless asked for them, and brings them back when unarchived', async () => {
      const [store, index] = await indexOf(make);
      await store.append(ref('a'), exchange(1, 10, 'first', 'one'));
      await store.append(ref('b'), exchange(1, 20, 'second', 'two'));
      expect(await index.setArchived(ref('a'), true)).toMatchObject({ id: 'a', archived: true });
      expect(await ids(index)).toEqual(['b']);
      expect(await ids(index, { archived: true })).toEqual(['a']);
      expect(await ids(index, { archived: true, search: 'first' })).toEqual(['a']);
      await index.setArchived(ref('a'), false);
      expect(await ids(index)).toEqual(['b', 'a']);
      expect(await ids(index, { archived: true })).toEqual([]);
    });

    it('searches titles and message text, replies included, every word required, any case', async () => {
      const [store, index] = await indexOf(make);
      await store.append(ref('csv'), exchange(1, 10, 'Import the customers file', 'Imported 120 Customers from Berlin.'));
      await store.append(ref('q3'), exchange(1, 20, 'Summarise the report', 'Revenue in Berlin grew.'));
      expect(await ids(index, { search: 'berlin' })).toEqual(['q3', 'csv']);
      expect(await ids(index, { search: 'BERLIN revenue' })).toEqual(['q3']);
      expect(await ids(index, { search: 'customers' })).toEqual(['csv']);
      expect(await ids(index, { search: 'nothing-like-this' })).toEqual([]);
      // Search syntax in what a user types is only words.
      expect(await ids(index, { search: '"customers" (' })).toEqual(['csv']);
      expect(await ids(index, { search: '' })).toEqual(['q3', 'csv']);
    });

    it('pages through the list with a cursor, missing none and repeating none', async () => {
      const [store, index] = await indexOf(make);
      for (let i = 0; i < 5; i++) await store.append(ref(`t${i}`), exchange(1, i < 2 ? 100 : 100 + i * 10, `question ${i}`, `answer ${i}`));
      const seen: string[] = [];
      let cursor: string | undefined;
      const sizes: number[] = [];
      do {
        const page = await index.list(owner, { limit: 2, ...(cursor ? { cursor } : {}) });
        sizes.push(page.threads.length);
        seen.push(...page.threads.map((t) => t.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(sizes).toEqual([2, 2, 1]);
      // t0 and t1 share a last activity: the id breaks the tie.
      expect(seen).toEqual(['t4', 't3', 't2', 't1', 't0']);
    });

    it('deletes a thread for good: its events, its record and its place in the list and the search', async () => {
      const [store, index] = await indexOf(make);
      await store.append(ref('gone'), exchange(1, 10, 'delete me soon', 'Sure.'));
      await store.append(ref('kept'), exchange(1, 20, 'keep me', 'Sure.'));
      expect(await index.remove(ref('gone'))).toBe(true);
      expect(await store.read(ref('gone'))).toEqual([]);
      expect(await store.info(ref('gone'))).toBeNull();
      expect(await store.count(owner)).toBe(1);
      expect(await index.get(ref('gone'))).toBeNull();
      expect(await ids(index)).toEqual(['kept']);
      expect(await ids(index, { search: 'delete' })).toEqual([]);
      expect(await index.remove(ref('gone'))).toBe(false);
      // The id can be used again, from seq 1, with a title of its own.
      await store.append(ref('gone'), exchange(1, 30, 'a fresh start', 'Hello.'));
      expect(await index.get(ref('gone'))).toMatchObject({ title: 'a fresh start' });
      expect(await store.read(ref('kept'))).toHaveLength(5);
    });
  });
}
