// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { READER_INPUT_MS, readerLeft, watchReaderInput } from './readerScroll';

describe('readerLeft', () => {
  it("counts a move up as the reader's when their input came with it", () => {
    expect(readerLeft(40, 600, true)).toBe(true);
    expect(readerLeft(40, 600, true, true)).toBe(true);
  });

  it('takes a short move up just after a resize, with no input, for the browser pulling the view back to a shrunk end', () => {
    expect(readerLeft(13, 285, false, true)).toBe(false);
    expect(readerLeft(120, 600, false)).toBe(false);
  });

  it("counts a script's move up when nothing resized just before it, and any move longer than a screenful", () => {
    expect(readerLeft(40, 600, false, false)).toBe(true);
    expect(readerLeft(4200, 600, false, true)).toBe(true);
  });

  it('never counts a move down or none', () => {
    expect(readerLeft(0, 600, true, false)).toBe(false);
    expect(readerLeft(-200, 600, true, false)).toBe(false);
  });
});

describe('watchReaderInput', () => {
  function setup() {
    let now = 1_000;
    const log = document.createElement('div');
    const row = document.createElement('div');
    const box = document.createElement('textarea');
    log.append(row, box);
    document.body.append(log);
    const input = watchReaderInput(log, () => now);
    return { log, row, box, input, later: (ms: number) => (now += ms), done: () => (input.stop(), log.remove()) };
  }

  it('sees the wheel turned up, a touch, a scrolling key and the scrollbar, for a while after', () => {
    const { log, row, input, later, done } = setup();
    expect(input.recent()).toBe(false);
    row.dispatchEvent(new WheelEvent('wheel', { deltaY: 120, bubbles: true }));
    expect(input.recent()).toBe(false);
    row.dispatchEvent(new WheelEvent('wheel', { deltaY: -120, bubbles: true }));
    expect(input.recent()).toBe(true);
    later(READER_INPUT_MS + 1);
    expect(input.recent()).toBe(false);
    log.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageUp', bubbles: true }));
    expect(input.recent()).toBe(true);
    later(READER_INPUT_MS + 1);
    row.dispatchEvent(new Event('touchmove', { bubbles: true }));
    expect(input.recent()).toBe(true);
    later(READER_INPUT_MS + 1);
    // A press on a row is not the scrollbar; on the log itself it is, for as long as it is held.
    row.dispatchEvent(new MouseEvent('pointerdown', { bubbles: true }));
    expect(input.recent()).toBe(false);
    log.dispatchEvent(new MouseEvent('pointerdown', { bubbles: true }));
    later(READER_INPUT_MS * 5);
    expect(input.recent()).toBe(true);
    window.dispatchEvent(new MouseEvent('pointerup'));
    expect(input.recent()).toBe(true);
    later(READER_INPUT_MS + 1);
    expect(input.recent()).toBe(false);
    done();
  });

  it('does not take keys typed into a field for scrolling, and stops listening when stopped', () => {
    const { row, box, input, done } = setup();
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
    expect(input.recent()).toBe(false);
    input.stop();
    row.dispatchEvent(new WheelEvent('wheel', { deltaY: -120, bubbles: true }));
    expect(input.recent()).toBe(false);
    done();
  });
});
