import { deferred } from '../deferred/deferred';
import type { ContentPanelProps } from './ContentPanel';
import type { McpServersPanelProps } from '../mcp-servers/McpServersPanel';
import type { NodePickerProps } from './NodePicker';
import type { SlashPopupProps } from './SlashPopup';

// The slash UI's parts (the list's popup; the radix dialogs and cmdk) load apart from the
// page's first script. `<Slash.Root>` preloads the skill list when the browser is idle; the list,
// once shown, preloads the picker and the panel its skills open (a page whose user never types `/`
// fetches neither).

const opening = (
  <p role="status" data-part="slash-loading">
    Opening…
  </p>
);

/** The combobox's popup (a listbox placed against the combobox). */
export const slashPopup = deferred<SlashPopupProps>(() => import('./SlashPopup').then((m) => m.SlashPopup), 'Slash.Popup', null, 'The skill list');

/** The node picker of Pick skills (`/agent`, `/model`, `/harness`). */
export const nodePicker = deferred<NodePickerProps>(() => import('./NodePicker').then((m) => m.NodePicker), 'Slash.NodePicker', opening, 'The picker');

/** The content panel of OpenContent skills. */
export const contentPanel = deferred<ContentPanelProps>(() => import('./ContentPanel').then((m) => m.ContentPanel), 'Slash.ContentPanel', opening, 'The panel');

/** The form of the user's own MCP servers (`/mcp`). */
export const mcpServersPanel = deferred<McpServersPanelProps>(
  () => import('../mcp-servers/McpServersPanel').then((m) => m.McpServersPanel),
  'Slash.McpServersPanel',
  opening,
  'The MCP servers form',
);

/** Loads the skill list (on idle after the slash root mounts: typing `/` should show it at once). */
export function preloadSlashParts(): Promise<unknown> {
  return slashPopup.preload();
}

/** Loads the picker and the panel: once the skill list is shown, one of its skills may open them. */
export function preloadSkillViews(): Promise<unknown> {
  return Promise.all([nodePicker.preload(), contentPanel.preload()]);
}
