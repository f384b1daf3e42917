import { ContentPanel } from './ContentPanel';
import { NodePicker } from './NodePicker';
import { SlashNotice } from './SlashNotice';
import { useSlash } from './context';

/**
 * Shows what the last slash command opened: the node picker, the content
 * panel or an inline notice (nothing otherwise). Place it beside the composer.
 * @example
 * <Slash.Panels />
 */
export function SlashPanels() {
  const { panel } = useSlash('Panels');
  if (!panel) return null;
  switch (panel.kind) {
    case 'pick':
      return <NodePicker key={`${panel.query}\u0000${panel.filter}`} pick={panel} />;
    case 'content':
      return <ContentPanel path={panel.path} skill={panel.skill} />;
    case 'notice':
      return <SlashNotice notice={panel} />;
    default:
      return panel satisfies never;
  }
}
SlashPanels.displayName = 'Slash.Panels';
