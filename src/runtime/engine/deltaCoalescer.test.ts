import { describe, expect, it } from 'vitest';
import { createEventLog } from '../eventLog';
import type { ThreadEvent } from '../events';
import { createDeltaCoalescer, DELTA_WINDOW_MS } from './deltaCoalescer';

const wait = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
const deltasOf = (events: readonly ThreadEvent[]) => events.filter((e) => e.type === 'message.delta').map((e) => (e.type === 'message.delta' ? e.delta : ''));

describe('createDeltaCoalescer', () => {
  it('sends each chunk of a slow stream as it comes', async () => {
    const log = createEventLog();
    const deltas = createDeltaCoalescer(log.emit);
    for (const word of ['one ', 'two ', 'three']) {
      deltas.push('m1', word);
      expect(deltasOf(log.since()).join('')).toContain(word);
      await wait(DELTA_WINDOW_MS * 3);
    }
    deltas.flush();
    expect(deltasOf(log.since())).toEqual(['one ', 'two ', 'three']);
  });

  it('joins a burst: the first chunk at once, the rest in one event when the reply ends, nothing lost', () => {
    const log = createEventLog();
    const deltas = createDeltaCoalescer(log.emit);
    let text = '';
    for (let i = 0; i < 2000; i++) {
      const chunk = `w${i} `;
      text += chunk;
      deltas.push('m1', chunk);
    }
    expect(deltasOf(log.since())).toEqual(['w0 ']);
    deltas.flush();
    expect(deltasOf(log.since())).toHaveLength(2);
    expect(deltasOf(log.since()).join('')).toBe(text);
  });

  it('sends what waits once a frame while a fast stream goes on, then the next chunk after a pause at once', async () => {
    const log = createEventLog();
    const deltas = createDeltaCoalescer(log.emit);
    deltas.push('m1', 'a');
    deltas.push('m1', 'b');
    deltas.push('m1', 'c');
    expect(deltasOf(log.since())).toEqual(['a']);
    await wait(DELTA_WINDOW_MS * 2);
    expect(deltasOf(log.since())).toEqual(['a', 'bc']);
    await wait(DELTA_WINDOW_MS * 2);
    deltas.push('m1', 'd');
    expect(deltasOf(log.since())).toEqual(['a', 'bc', 'd']);
    deltas.flush();
    expect(deltasOf(log.since())).toEqual(['a', 'bc', 'd']);
  });

  it('keeps each message its own text and the order of events', () => {
    const log = createEventLog();
    const deltas = createDeltaCoalescer(log.emit);
    deltas.push('m1', 'first ');
    deltas.push('m1', 'reply');
    deltas.push('m2', 'second');
    deltas.flush();
    log.emit({ type: 'message.done', message_id: 'm2' });
    expect(log.since().map((e) => (e.type === 'message.delta' ? `${e.message_id}:${e.delta}` : e.type))).toEqual(['m1:first ', 'm1:reply', 'm2:second', 'message.done']);
  });
});
