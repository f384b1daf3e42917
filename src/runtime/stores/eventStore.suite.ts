import { describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../events';
import type { EventStore, ThreadRef } from './eventStore';

const alice: ThreadRef = { user: 'alice', space: 'acme', id: 't1' };
const bob: ThreadRef = { user: 'bob', space: 'acme', id: 't1' };

const event = (seq: number, text = `m${seq}`): ThreadEvent => ({ type: 'message.created', seq, ts: seq, message_id: `msg${seq}`, role: 'user', text });

/** The contract every EventStore keeps; run once per engine. */
export function eventStoreSuite(engine: string, make: () => EventStore | Promise<EventStore>): void {
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
  });
}
