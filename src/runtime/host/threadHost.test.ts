import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState } from '../fold';
import type { ModelDriver } from '../model';
import { createOfflineDriver } from '../offlineDriver';
import { createMemoryEventStore } from '../stores/eventStore';
import { historyOf } from '../history';
import { NothingWaitingError, ThreadLimitError, createThreadHost, type ThreadHostOptions } from './threadHost';

const add = defineCapability({
  name: 'math.add',
  title: 'Add numbers',
  description: 'Adds a and b.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(`The sum is ${a + b}.`, { sum: a + b }),
});
const wipe = defineCapability({
  name: 'records.wipe',
  title: 'Wipe records',
  description: 'Deletes every record.',
  kind: 'mutate',
  input: z.object({}),
  handler: () => textResult('Wiped.', { wiped: true }),
});

const alice = { user: 'alice', space: 'acme' };
const bob = { user: 'bob', space: 'acme' };

function host(options: Partial<ThreadHostOptions> = {}) {
  return createThreadHost({ capabilities: [add, wipe], driver: createOfflineDriver({ delayMs: 0 }), alignment: 'loose', idleMs: Infinity, ...options });
}

function collect(h: ReturnType<typeof host>, principal: typeof alice, threadId: string) {
  const events: ThreadEvent[] = [];
  const stop = h.subscribe(principal, threadId, (e) => events.push(e));
  return { events, stop, state: () => foldAll(initialThreadState, events) };
}

describe('createThreadHost: threads belong to their principal', () => {
  it('keeps one thread id of two users apart: neither sees, decides or cancels in the other’s', async () => {
    const h = host();
    const a = collect(h, alice, 't1');
    const b = collect(h, bob, 't1');
    await h.send(alice, { threadId: 't1', text: 'add numbers a=2 b=3' });
    expect(a.state().rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    expect(b.events).toEqual([]);
    expect(await h.exists(bob, 't1')).toBe(false);
    await h.send(alice, { threadId: 't1', text: 'wipe records now' });
    const approval = a.state().rows.find((r) => r.kind === 'approval')!;
    await expect(h.decide(bob, { threadId: 't1', id: approval.id, decision: 'approve' })).rejects.toBeInstanceOf(NothingWaitingError);
    expect(await h.cancel(bob, { threadId: 't1', id: approval.id })).toBe(false);
    expect(a.state().rows.find((r) => r.id === approval.id)).toMatchObject({ status: 'pending' });
    await h.decide(alice, { threadId: 't1', id: approval.id, decision: 'approve' });
    expect(a.state().rows.find((r) => r.id === approval.id)).toMatchObject({ status: 'approved' });
  });

  it('a subscription to a thread that was never written creates nothing, and hears its first events', async () => {
    const store = createMemoryEventStore();
    const h = host({ events: store });
    const a = collect(h, alice, 'later');
    expect(await h.exists(alice, 'later')).toBe(false);
    expect(h.liveThreads).toBe(0);
    expect(store.count(alice)).toBe(0);
    await h.setView(alice, { threadId: 'later', view: { kind: 'records' } });
    expect(a.events.map((e) => e.type)).toEqual(['view.changed']);
    expect(await h.exists(alice, 'later')).toBe(true);
  });

  it('refuses a thread past the per-user cap, clearly, and keeps the others', async () => {
    const h = host({ maxThreadsPerUser: 2 });
    await h.setView(alice, { threadId: 'a', view: { kind: 'x' } });
    await h.setView(alice, { threadId: 'b', view: { kind: 'x' } });
    await expect(h.setView(alice, { threadId: 'c', view: { kind: 'x' } })).rejects.toBeInstanceOf(ThreadLimitError);
    await expect(h.send(alice, { threadId: 'c', text: 'hi' })).rejects.toThrow('You already have 2 threads');
    await h.setView(alice, { threadId: 'a', view: { kind: 'y' } });
    await h.setView(bob, { threadId: 'c', view: { kind: 'x' } });
  });

  it('a chip never skips an approval: a destructive verb run directly waits for it, and approving runs it', async () => {
    const h = host();
    const a = collect(h, alice, 't1');
    const result = await h.invoke(alice, { threadId: 't1', capability: 'records.wipe', args: {} });
    expect(result.structuredContent).toEqual({ waiting_for_approval: true });
    const approval = a.state().rows.find((r) => r.kind === 'approval')!;
    expect(approval).toMatchObject({ title: 'Wipe records', status: 'pending' });
    expect(a.state().rows.some((r) => r.kind === 'invocation')).toBe(false);
    await h.decide(alice, { threadId: 't1', id: approval.id, decision: 'approve' });
    expect(a.state().rows.find((r) => r.kind === 'invocation')).toMatchObject({ capability: 'records.wipe', state: 'done' });
    await expect(h.decide(alice, { threadId: 't1', id: approval.id, decision: 'approve' })).rejects.toBeInstanceOf(NothingWaitingError);
  });
});

describe('createThreadHost: one reducer, bounded memory, nothing lost', () => {
  it('evicts idle threads and rehydrates them from the log: the same state, history and next request', async () => {
    const store = createMemoryEventStore();
    const requests: unknown[][] = [];
    const offline = createOfflineDriver({ delayMs: 0 });
    const driver: ModelDriver = {
      info: offline.info,
      respond(request) {
        requests.push([...request.messages]);
        return offline.respond(request);
      },
    };
    let clock = 1_000;
    const h = host({ events: store, driver, idleMs: 60_000, now: () => clock });
    await h.send(alice, { threadId: 't1', text: 'add numbers a=1 b=2' });
    await h.invoke(alice, { threadId: 't1', capability: 'math.add', args: { a: 5, b: 5 } });
    await h.setView(alice, { threadId: 't1', view: { kind: 'sums' } });
    const before = foldAll(initialThreadState, store.read({ ...alice, id: 't1' }));
    expect(h.liveThreads).toBe(1);
    clock += 120_000;
    expect(h.evictIdle()).toBe(1);
    expect(h.liveThreads).toBe(0);

    // A second host on the same store (a restarted server) and the first, rehydrated, build the same request.
    const again = host({ events: store, driver, now: () => clock });
    await h.send(alice, { threadId: 't1', text: 'add numbers a=3 b=4' });
    const rehydrated = requests.at(-1);
    expect(h.liveThreads).toBe(1);
    const log = store.read({ ...alice, id: 't1' });
    expect(foldAll(initialThreadState, log).rows.slice(0, before.rows.length)).toEqual(before.rows);
    expect(foldAll(initialThreadState, log).activeView).toEqual({ kind: 'sums' });
    expect(historyOf(log).slice(0, rehydrated!.length)).toEqual(rehydrated);
    again.close();
  });

  it('a turn stopped by a restart before any reply says so once, in plain words', async () => {
    const store = createMemoryEventStore();
    const ref = { user: 'alice', space: 'acme', id: 't2' };
    store.append(ref, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', text: 'hi', turn_id: 'turn1' },
      { type: 'turn.started', seq: 2, ts: 1, turn_id: 'turn1' },
    ]);
    store.setOpen(ref, true);
    await host({ events: store }).recover();
    const state = foldAll(initialThreadState, store.read(ref));
    expect(state.activeTurn).toBeNull();
    expect(state.rows.at(-1)).toMatchObject({ kind: 'error', code: 'interrupted', message: 'The server restarted during this turn, so it stopped here. Ask again to go on.' });
  });

  it('recovers a thread a dead process left mid-turn: the reply and the invocation end as interrupted, the turn is over', async () => {
    const store = createMemoryEventStore();
    const ref = { user: 'alice', space: 'acme', id: 't1' };
    const cut: ThreadEvent[] = [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', text: 'count', turn_id: 'turn1' },
      { type: 'turn.started', seq: 2, ts: 1, turn_id: 'turn1' },
      { type: 'model.message', seq: 3, ts: 1, turn_id: 'turn1', message: { role: 'user', text: 'count' } },
      { type: 'model.message', seq: 4, ts: 1, turn_id: 'turn1', message: { role: 'assistant', text: '', calls: [{ id: 'call1', capability: 'math.add', args: { a: 1, b: 1 } }] } },
      { type: 'capability.started', seq: 5, ts: 2, invocation_id: 'inv1', capability: 'math.add', title: 'Add numbers', args: { a: 1, b: 1 }, turn_id: 'turn1', call_id: 'call1' },
      { type: 'message.created', seq: 6, ts: 3, message_id: 'a1', role: 'assistant', text: '', turn_id: 'turn1' },
      { type: 'message.delta', seq: 7, ts: 3, message_id: 'a1', delta: 'Counting' },
    ];
    store.append(ref, cut);
    store.setOpen(ref, true);
    const h = host({ events: store });
    expect(await h.recover()).toBe(1);
    const log = store.read(ref);
    const state = foldAll(initialThreadState, log);
    expect(state.activeTurn).toBeNull();
    expect(state.rows.find((r) => r.id === 'a1')).toMatchObject({ status: 'interrupted', text: 'Counting' });
    expect(state.rows.find((r) => r.id === 'inv1')).toMatchObject({ state: 'failed', error: { code: 'interrupted' } });
    // The cut reply says what happened; no second notice.
    expect(state.rows.filter((r) => r.kind === 'error')).toEqual([]);
    // Every call the model made has its result, and the words that arrived are kept.
    expect(historyOf(log).slice(2)).toEqual([
      { role: 'tool', call_id: 'call1', capability: 'math.add', title: 'Add numbers', args: { a: 1, b: 1 }, result: expect.objectContaining({ isError: true }) },
      { role: 'assistant', text: 'Counting' },
    ]);
    expect(store.listOpen()).toEqual([]);
    // A second recovery adds nothing.
    expect(await host({ events: store }).recover()).toBe(0);
    expect(store.read(ref)).toHaveLength(log.length);
  });
});

describe('createThreadHost: skills load when consulted', () => {
  it('a SKILL.md the model consults in turn N is in the active-skills slab for the rest of turn N, and after', async () => {
    const { defineSkillCapability } = await import('../sources/skill');
    const crawl = defineSkillCapability('---\nname: crawl-plan\ndescription: Plans a crawl.\n---\nFetch politely: one page a second.', { file: 'crawl-plan/SKILL.md' });
    const seen: Array<readonly string[]> = [];
    const driver: ModelDriver = {
      info: { id: 'scripted', label: 'Scripted' },
      async *respond(request) {
        seen.push((request.skills ?? []).map((s) => s.body));
        const last = request.messages.at(-1);
        if (last?.role === 'user' && last.text === 'plan a crawl') yield { type: 'invoke', capability: 'crawl-plan', args: {} };
        else yield { type: 'text', text: 'Planned.' };
      },
    };
    const h = host({ capabilities: [crawl], driver });
    await h.send(alice, { threadId: 't1', text: 'plan a crawl' });
    // Step 1 had no skill; step 2 of the same turn has its whole body.
    expect(seen).toEqual([[], ['Fetch politely: one page a second.']]);
    await h.send(alice, { threadId: 't1', text: 'and now?' });
    expect(seen.at(-1)).toEqual(['Fetch politely: one page a second.']);
  });
});

describe('createThreadHost: a proposal accepted in words', () => {
  it('runs once and is no longer waiting for a click: Accept afterwards finds nothing to decide', async () => {
    let runs = 0;
    const counted = defineCapability({
      name: 'math.add',
      title: 'Add numbers',
      description: 'Adds a and b.',
      input: z.object({ a: z.number(), b: z.number() }),
      handler: ({ a, b }) => {
        runs++;
        return textResult(`The sum is ${a + b}.`, { sum: a + b });
      },
    });
    // A model that wants to add whatever it is told.
    const driver: ModelDriver = {
      info: { id: 'scripted', label: 'Scripted' },
      async *respond({ messages }) {
        const last = messages.at(-1)!;
        if (last.role === 'tool') {
          yield { type: 'text', text: 'Done.' };
          return;
        }
        yield { type: 'invoke', capability: 'math.add', args: { a: 2, b: 3 } };
      },
    };
    const h = createThreadHost({ capabilities: [counted], driver, alignment: 'strict', idleMs: Infinity });
    const a = collect(h, alice, 't1');
    await h.send(alice, { threadId: 't1', text: 'two and three together' });
    const proposal = a.state().rows.find((r) => r.kind === 'proposal')!;
    expect(proposal).toMatchObject({ status: 'pending', capability: 'math.add' });
    expect(runs).toBe(0);
    await h.send(alice, { threadId: 't1', text: 'yes, do that' });
    expect(runs).toBe(1);
    expect(a.state().rows.find((r) => r.id === proposal.id)).toMatchObject({ status: 'accepted' });
    await expect(h.decide(alice, { threadId: 't1', id: proposal.id, decision: 'accept' })).rejects.toBeInstanceOf(NothingWaitingError);
    expect(runs).toBe(1);
  });
});
