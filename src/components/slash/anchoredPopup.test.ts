import { describe, expect, it } from 'vitest';
import { placePopup, popupMaxWidth, POPUP_OFFSET } from './anchoredPopup';

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

  it('is kept inside the surface sideways when it is narrower than the viewport, and no wider than it', () => {
    const surface = { left: 17, right: 373 };
    const phone = { width: 390, height: 844 };
    const width = popupMaxWidth(surface, phone.width);
    expect(width).toBe(373 - 8 - (17 + 8));
    const at = placePopup({ left: 25, top: 780, bottom: 820 }, { width, height: 298 }, phone, surface);
    expect(at.left).toBe(25);
    expect(at.left + width).toBeLessThanOrEqual(373 - 8);
    expect(placePopup({ left: 300, top: 780, bottom: 820 }, { width: 200, height: 298 }, phone, surface).left).toBe(373 - 8 - 200);
  });
});
