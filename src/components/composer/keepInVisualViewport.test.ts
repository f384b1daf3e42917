// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepInVisualViewport } from './keepInVisualViewport';

/** A visual viewport that an on-screen keyboard shrinks. */
function fakeViewport(height: number) {
  const target = new EventTarget();
  return Object.assign(target, { height, offsetTop: 0, width: 390 });
}

afterEach(() => vi.restoreAllMocks());

describe('keepInVisualViewport', () => {
  it('scrolls the focused box back above an on-screen keyboard, and stops watching when told', async () => {
    const viewport = fakeViewport(800);
    Object.defineProperty(window, 'visualViewport', { configurable: true, value: viewport });
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((run) => {
      run(0);
      return 1;
    });
    const box = document.createElement('textarea');
    document.body.append(box);
    vi.spyOn(box, 'getBoundingClientRect').mockReturnValue({ top: 700, bottom: 740, left: 0, right: 300, width: 300, height: 40, x: 0, y: 700, toJSON: () => ({}) });
    const scroll = vi.fn();
    box.scrollIntoView = scroll;

    const stop = keepInVisualViewport(box);
    expect(scroll).not.toHaveBeenCalled(); // 740 < 800: in view

    viewport.height = 460; // the keyboard opens
    viewport.dispatchEvent(new Event('resize'));
    expect(scroll).toHaveBeenCalledWith({ block: 'nearest' });

    stop();
    viewport.dispatchEvent(new Event('resize'));
    expect(scroll).toHaveBeenCalledTimes(1);
  });
});
