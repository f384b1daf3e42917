import { describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../events';
import type { EventStore, ThreadRef } from './eventStore';

const alice: ThreadRef = { user: 'alice', space: 'acme', id: 't1' };
const bob: ThreadRef = { user: 'bob', space: 'acme', id: 't1' };

const event = (seq: number, text = `m${seq}`): ThreadEvent => ({ type: 'message.created', seq, ts: seq, message_id: `msg${seq}`, role: 'user', text });

export interface EventStoreSuiteOptions {
  /**
   * Two stores over one new, empty database, as two server instances (or
   * processes) would hold them. Leave it out for an engine that lives in one
   * process (memory): the cases of concurrent writers then skip themselves.
   */
  twins?: () => readonly [EventStore, EventStore] | Promise<readonly [EventStore, EventStore]>;
}

/** The contract every EventStore keeps; run once per engine. */
export function eventStoreSuite(engine: string, make: () => EventStore | Promise<EventStore>, options: EventStoreSuiteOptions = {}): void {
  const { twins } = options;
  describe(`EventStore on ${engine}`, () => {
    it('knows no thread before its first event, and creates it with that event', async () => {
      const store = await make();
      expect(await store.info(alice)).toBeNull();
      expect(await store.read(alice)).toEqual([]);
      await store.append(alice, [event(1), event(2)]);
      expect(await store.info(alice)).toMatchObject({ lastSeq: 2, open: false });
      expect((await store.read(alice)).map((e) => e.seq)).toEqual([1, 2]);
      expect((await store.read(alice, 1)).map((e) => e.seq)).toEqual([2]);
    });

    it('keeps the same thread id of two users apart', async () => {
      const store = await make();
      await store.append(alice, [event(1, 'secret of alice')]);
      expect(await store.info(bob)).toBeNull();
      expect(await store.read(bob)).toEqual([]);
      await store.append(bob, [event(1, 'bob here')]);
      expect((await store.read(alice))[0]).toMatchObject({ text: 'secret of alice' });
      expect((await store.read(bob))[0]).toMatchObject({ text: 'bob here' });
      expect(await store.count({ user: 'alice', space: 'acme' })).toBe(1);
      expect(await store.count({ user: 'alice', space: 'other' })).toBe(0);
    });

    it('refuses a seq that leaves a gap or repeats one, and keeps what it had', async () => {
      const store = await make();
      await store.append(alice, [event(1)]);
      await expect(async () => store.append(alice, [event(3)])).rejects.toThrow(/does not follow 1/);
      await expect(async () => store.append(alice, [event(1)])).rejects.toThrow(/does not follow 1/);
      expect((await store.read(alice)).map((e) => e.seq)).toEqual([1]);
    });

    it('lists threads marked open until they are marked quiet', async () => {
      const store = await make();
      await store.setOpen(alice, true);
      expect(await store.listOpen()).toEqual([]);
      await store.append(alice, [event(1)]);
      await store.append(bob, [event(1)]);
      await store.setOpen(alice, true);
      expect(await store.listOpen()).toEqual([alice]);
      await store.setOpen(alice, false);
      expect(await store.listOpen()).toEqual([]);
    });

    it('stores events as JSON round trips, ids like __proto__ included', async () => {
      const store = await make();
      const odd: ThreadEvent = { type: 'message.created', seq: 1, ts: 5, message_id: '__proto__', role: 'user', text: '{"a":1} \u2028 ü' };
      await store.append({ ...alice, id: '__proto__' }, [odd]);
      expect(await store.read({ ...alice, id: '__proto__' })).toEqual([odd]);
    });

    it.skipIf(!twins)('lets only one of two instances create a thread with seq 1, and tells the other why', async () => {
      const [a, b] = await twins!();
      // Async wrappers: a store that answers at once throws at once.
      const results = await Promise.allSettled([a, b].map(async (store, i) => store.append(alice, [event(1, `from ${i}`)])));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(String(refused.reason)).toMatch(/Event seq 1 does not follow 1 in thread t1\./);
      expect(await b.read(alice)).toEqual(await a.read(alice));
      expect(await a.info(alice)).toMatchObject({ lastSeq: 1 });
    });

    it.skipIf(!twins)('keeps seqs contiguous, without gaps or repeats, while two instances append to one thread at once', async () => {
      const [a, b] = await twins!();
      await a.append(alice, [event(1)]);
      /** Appends `rounds` batches of two, each after the last seq it reads; a lost race is refused whole and retried. */
      const writer = async (store: EventStore, name: string, rounds: number) => {
        for (let done = 0; done < rounds; ) {
          const last = (await store.info(alice))!.lastSeq;
          try {
            await store.append(alice, [event(last + 1, `${name}${done}a`), event(last + 2, `${name}${done}b`)]);
            done++;
          } catch (error) {
            if (!/does not follow/.test(String(error))) throw error;
          }
        }
      };
      await Promise.all([writer(a, 'a', 15), writer(b, 'b', 15)]);
      const events = await b.read(alice);
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 61 }, (_, i) => i + 1));
      // Each batch landed whole: its two events sit side by side.
      const texts = events.slice(1).map((e) => (e as { text: string }).text);
      for (let i = 0; i < texts.length; i += 2) expect(texts[i]!.replace(/a$/, 'b')).toBe(texts[i + 1]);
      expect(new Set(texts).size).toBe(60);
      expect(await a.info(alice)).toMatchObject({ lastSeq: 61 });
    });
  });
}
