import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState, type AssistantRow } from '../fold';
import type { ModelDriver } from '../model';
import { createMemoryEventStore } from '../stores/eventStore';
import type { FeedbackChange } from './hostTypes';
import { createThreadHost, FeedbackError, type ThreadHostOptions } from './threadHost';

const alice = { user: 'alice', space: 'acme' };
const bob = { user: 'bob', space: 'acme' };
const model = { id: 'test-model', label: 'Test model 1' };

/** A model that answers every message with one sentence; `hold` keeps the next reply streaming until released. */
function scriptedDriver() {
  let release: (() => void) | null = null;
  const driver: ModelDriver = {
    info: model,
    async *respond() {
      yield { type: 'text', text: 'There are ' };
      if (release === null) {
        await new Promise<void>((resolve) => (release = resolve));
      }
      yield { type: 'text', text: '6 records.' };
    },
  };
  return {
    driver,
    /** Lets the reply being written finish. */
    finish: () => release?.(),
    /** Replies finish at once from now on. */
    fast: () => (release = () => undefined),
  };
}

function setup(options: Partial<ThreadHostOptions> = {}) {
  const changes: FeedbackChange[] = [];
  const script = scriptedDriver();
  script.fast();
  const store = options.events ?? createMemoryEventStore();
  const host = createThreadHost({ capabilities: [], driver: script.driver, idleMs: Infinity, events: store, onFeedback: (c) => void changes.push(c), ...options });
  return { host, changes, store, script };
}

const replyOf = (events: readonly ThreadEvent[]) => foldAll(initialThreadState, events).rows.find((r): r is AssistantRow => r.kind === 'assistant')!;

afterEach(() => vi.restoreAllMocks());

describe('feedback on a reply', () => {
  it('records the rating in the thread and tells onFeedback once per change, with who, which reply and which model', async () => {
    const { host, changes, store } = setup();
    await host.send(alice, { threadId: 't1', text: 'how many records?' });
    const reply = replyOf(store.read({ ...alice, id: 't1' }) as ThreadEvent[]);

    await host.feedback(alice, { threadId: 't1', messageId: reply.id, rating: 'good' });
    await host.feedback(alice, { threadId: 't1', messageId: reply.id, rating: 'good' });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toEqual({ principal: alice, threadId: 't1', messageId: reply.id, rating: 'good', previous: null, text: 'There are 6 records.', model });

    await host.feedback(alice, { threadId: 't1', messageId: reply.id, rating: 'bad', comment: '  I have 7.  ' });
    expect(changes[1]).toMatchObject({ rating: 'bad', comment: 'I have 7.', previous: { rating: 'good' } });
    await host.feedback(alice, { threadId: 't1', messageId: reply.id, rating: null, comment: 'ignored' });
    expect(changes[2]).toMatchObject({ rating: null, previous: { rating: 'bad', comment: 'I have 7.' } });
    expect(changes[2]).not.toHaveProperty('comment');
    expect(changes).toHaveLength(3);

    const log = store.read({ ...alice, id: 't1' }) as ThreadEvent[];
    expect(log.filter((e) => e.type === 'message.feedback')).toHaveLength(3);
    expect(replyOf(log).feedback).toBeUndefined();
  });

  it('is read back by the host, also by a restarted one on the same store', async () => {
    const { host, store } = setup();
    await host.send(alice, { threadId: 't1', text: 'how many records?' });
    const reply = replyOf(store.read({ ...alice, id: 't1' }) as ThreadEvent[]);
    await host.feedback(alice, { threadId: 't1', messageId: reply.id, rating: 'bad', comment: 'Too vague.' });
    expect(await host.feedbackOf(alice, 't1')).toEqual([{ messageId: reply.id, rating: 'bad', comment: 'Too vague.', model }]);

    const restarted = setup({ events: store }).host;
    expect(await restarted.feedbackOf(alice, 't1')).toEqual([{ messageId: reply.id, rating: 'bad', comment: 'Too vague.', model }]);
    await host.close();
    await restarted.close();
  });

  it('refuses a reply that is not there (a user message, an unknown id, another user’s thread) in plain words', async () => {
    const { host, store, changes } = setup();
    await host.send(alice, { threadId: 't1', text: 'how many records?' });
    const log = store.read({ ...alice, id: 't1' }) as ThreadEvent[];
    const reply = replyOf(log);
    const mine = foldAll(initialThreadState, log).rows.find((r) => r.kind === 'user')!;

    await expect(host.feedback(alice, { threadId: 't1', messageId: mine.id, rating: 'good' })).rejects.toThrow(`There is no reply "${mine.id}" in this thread to rate.`);
    await expect(host.feedback(alice, { threadId: 't1', messageId: 'nope', rating: 'good' })).rejects.toBeInstanceOf(FeedbackError);
    await expect(host.feedback(bob, { threadId: 't1', messageId: reply.id, rating: 'good' })).rejects.toMatchObject({ code: 'unknown_message' });
    expect(await host.feedbackOf(bob, 't1')).toEqual([]);
    expect(changes).toEqual([]);
    expect(store.read({ ...bob, id: 't1' })).toEqual([]);
  });

  it('waits for a reply to finish before it can be rated', async () => {
    const script = scriptedDriver();
    const changes: FeedbackChange[] = [];
    const store = createMemoryEventStore();
    const host = createThreadHost({ capabilities: [], driver: script.driver, idleMs: Infinity, events: store, onFeedback: (c) => void changes.push(c) });
    const sending = host.send(alice, { threadId: 't1', text: 'how many records?' });
    await vi.waitFor(() => expect(replyOf(store.read({ ...alice, id: 't1' }) as ThreadEvent[])?.status).toBe('streaming'));
    const reply = replyOf(store.read({ ...alice, id: 't1' }) as ThreadEvent[]);
    await expect(host.feedback(alice, { threadId: 't1', messageId: reply.id, rating: 'good' })).rejects.toMatchObject({
      code: 'still_streaming',
      message: 'This reply is still being written: rate it once it is done.',
    });
    script.finish();
    await sending;
    await host.feedback(alice, { threadId: 't1', messageId: reply.id, rating: 'good' });
    expect(changes).toHaveLength(1);
  });

  it('keeps the rating when the host’s hook fails, and says so in the log', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { host, store } = setup({ onFeedback: () => Promise.reject(new Error('analytics down')) });
    await host.send(alice, { threadId: 't1', text: 'how many records?' });
    const reply = replyOf(store.read({ ...alice, id: 't1' }) as ThreadEvent[]);
    await host.feedback(alice, { threadId: 't1', messageId: reply.id, rating: 'good' });
    expect(replyOf(store.read({ ...alice, id: 't1' }) as ThreadEvent[]).feedback).toEqual({ rating: 'good' });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('the rating is kept in the thread'), expect.any(Error));
  });
});
