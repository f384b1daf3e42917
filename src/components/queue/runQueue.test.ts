import { describe, expect, it } from 'vitest';
import { createThreadStore } from '../../hooks/threadStore';
import { createMessageQueue } from './queueStore';
import { runQueue } from './runQueue';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('runQueue', () => {
  it('a message whose send fails goes back to the front of the queue, paused, with why; nothing after it is sent', async () => {
    const queue = createMessageQueue();
    const thread = createThreadStore();
    const sent: string[] = [];
    const runner = runQueue({
      queue,
      thread,
      send: (text) => {
        sent.push(text);
        return Promise.reject(new Error('The server is restarting'));
      },
      stop: () => undefined,
      reasonOf: (error) => (error as Error).message,
    });
    queue.add('first');
    queue.add('second');
    await settle();
    expect(sent).toEqual(['first']);
    expect(queue.getState()).toMatchObject({ paused: true, error: 'The server is restarting' });
    expect(queue.getState().items.map((m) => m.text)).toEqual(['first', 'second']);
    runner.dispose();
  });

  it('waits while a reply is running, and sends once it has ended', async () => {
    const queue = createMessageQueue();
    const thread = createThreadStore();
    const sent: string[] = [];
    const runner = runQueue({ queue, thread, send: async (text) => void sent.push(text), stop: () => undefined, reasonOf: String });
    thread.receive({ type: 'turn.started', seq: 1, ts: 1, turn_id: 't1' });
    thread.flush();
    queue.add('next');
    await settle();
    expect(sent).toEqual([]);
    thread.receive({ type: 'turn.done', seq: 2, ts: 2, turn_id: 't1', outcome: 'answered' });
    thread.flush();
    await settle();
    expect(sent).toEqual(['next']);
    expect(queue.getState().items).toEqual([]);
    runner.dispose();
  });
});
