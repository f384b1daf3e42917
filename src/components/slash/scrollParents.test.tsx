import { describe, expect, it } from 'vitest';
import { scrollParents } from './anchoredPopup';

describe('scrollParents', () => {
  it('lists the page, then every ancestor that clips its overflow from the nearest out, across a shadow root', () => {
    const outer = document.createElement('div');
    outer.style.overflowY = 'auto';
    const host = document.createElement('div');
    outer.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const clipped = document.createElement('div');
    clipped.style.overflow = 'hidden';
    const plain = document.createElement('div');
    const anchor = document.createElement('textarea');
    plain.append(anchor);
    clipped.append(plain);
    shadow.append(clipped);
    document.body.append(outer);
    try {
      expect(scrollParents(anchor, window)).toEqual([window, clipped, outer]);
    } finally {
      outer.remove();
    }
  });

  it('is the page alone for an anchor with no scrolling ancestor, and leaves out a sibling that scrolls', () => {
    const list = document.createElement('div');
    list.style.overflowY = 'auto';
    const anchor = document.createElement('textarea');
    document.body.append(list, anchor);
    try {
      expect(scrollParents(anchor, window)).toEqual([window]);
    } finally {
      list.remove();
      anchor.remove();
    }
  });
});
