import { deferred, Opening } from '../deferred/deferred';
import type { ContentPanelProps } from './ContentPanel';
import type { ConnectorsPanelProps } from '../connectors/ConnectorsPanel';
import type { NodePickerProps } from './NodePicker';

// The views a slash skill opens (the radix dialogs and cmdk) load apart from the page's first
// script and from the skill list: the list, once shown, preloads the picker and the panel its
// skills open (a page whose user never types `/` fetches neither). The list itself is in
// `deferredParts.tsx`; the two are apart because the list preloads these views.

const opening = <Opening />;

/** The node picker of Pick skills (`/agent`, `/model`, `/harness`). */
export const nodePicker = deferred<NodePickerProps>(() => import('./NodePicker').then((m) => m.NodePicker), 'Slash.NodePicker', opening, 'picker');

/** The content panel of OpenContent skills. */
export const contentPanel = deferred<ContentPanelProps>(() => import('./ContentPanel').then((m) => m.ContentPanel), 'Slash.ContentPanel', opening, 'panel');

/** The form of the user's own MCP servers (`/mcp`). */
export const connectorsPanel = deferred<ConnectorsPanelProps>(
  () => import('../connectors/ConnectorsPanel').then((m) => m.ConnectorsPanel),
  'Slash.ConnectorsPanel',
  opening,
  'connectors',
);

/** Loads the picker and the panel: once the skill list is shown, one of its skills may open them. */
export function preloadSkillViews(): Promise<unknown> {
  return Promise.all([nodePicker.preload(), contentPanel.preload()]);
}
