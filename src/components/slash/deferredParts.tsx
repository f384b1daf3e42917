import { deferred } from '../deferred/deferred';
import type { SlashPopupProps } from './SlashPopup';

// The slash UI's list (the combobox's popup) loads apart from the page's first script:
// `<Slash.Root>` preloads it when the browser is idle. The views its skills open are in
// `deferredViews.tsx` (the list preloads them once shown).

/** The combobox's popup (a listbox placed against the combobox). */
export const slashPopup = deferred<SlashPopupProps>(() => import('./SlashPopup').then((m) => m.SlashPopup), 'Slash.Popup', null, 'skillList');

/** Loads the skill list (on idle after the slash root mounts: typing `/` should show it at once). */
export function preloadSlashParts(): Promise<unknown> {
  return slashPopup.preload();
}
