import { deferred } from '../deferred/deferred';
import type { SlashPopupProps } from './SlashPopup';
import { lastSegment } from './findNode';
import type { SkillDiscoveryProps, StatusNameProps } from './slashQueries';

// The slash UI's list (the combobox's popup) and the parts that run node queries load apart from
// the page's first script: `<Slash.Root>` fetches them once the user steps into the message box
// (`prepare`). The views its skills open are in `deferredViews.tsx` (the list preloads them once
// shown).

/** The combobox's popup (a listbox placed against the combobox). */
export const slashPopup = deferred<SlashPopupProps>(() => list().then((m) => m.SlashPopup), 'Slash.Popup', null, 'skillList');

/** One chunk for the popup and the queries (./slashList): they are wanted at the same moment. */
const list = () => import('./slashList');

/** The discovery query's runner (renders nothing). */
export const skillDiscovery = deferred<SkillDiscoveryProps>(() => list().then((m) => m.SkillDiscovery), 'Slash.SkillDiscovery', null, 'skillList');

/** A picked node's name in the status row: its path's last segment until the chunk is there. */
export const statusName = deferred<StatusNameProps>(() => list().then((m) => m.StatusName), 'Slash.StatusName', ({ path }) => lastSegment(path), 'skillList');

/** Loads the skill list and the node queries (the user stepped into the message box: typing `/` should show the list at once). */
export function preloadSlashParts(): Promise<unknown> {
  return Promise.all([slashPopup.preload(), skillDiscovery.preload()]);
}
