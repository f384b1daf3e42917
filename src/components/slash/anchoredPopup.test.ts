import { describe, expect, it } from 'vitest';
import { placePopup, POPUP_OFFSET } from './anchoredPopup';

const viewport = { width: 800, height: 600 };
const size = { width: 300, height: 298 };

describe('placePopup', () => {
  it('goes above the message box, aligned to its start, with room above', () => {
    expect(placePopup({ left: 20, top: 540, bottom: 580 }, size, viewport)).toEqual({ side: 'top', left: 20, top: 540 - POPUP_OFFSET - 298 });
  });

  it('goes below when there is not enough room above and more below', () => {
    expect(placePopup({ left: 20, top: 40, bottom: 80 }, size, viewport)).toEqual({ side: 'bottom', left: 20, top: 80 + POPUP_OFFSET });
  });

  it('stays above when neither side has the room but above has more', () => {
    expect(placePopup({ left: 20, top: 200, bottom: 240 }, size, { width: 800, height: 300 })).toMatchObject({ side: 'top' });
  });

  it('is kept inside the viewport sideways', () => {
    expect(placePopup({ left: 700, top: 540, bottom: 580 }, size, viewport).left).toBe(800 - 300 - 8);
    expect(placePopup({ left: -40, top: 540, bottom: 580 }, size, viewport).left).toBe(8);
  });
});
