import { SlashNotice } from './SlashNotice';
import { contentPanel, connectorsPanel, nodePicker } from './deferredViews';
import { useSlash } from './context';

/**
 * Shows what the last slash command opened: the node picker, the content
 * panel or an inline notice (nothing otherwise). Place it beside the composer.
 * The picker and the panel load their code on first use (or when the browser
 * is idle after `<Slash.Root>` mounts) and say "Opening…" until then.
 * @example
 * <Slash.Panels />
 */
export function SlashPanels() {
  const { panel } = useSlash('Panels');
  if (!panel) return null;
  switch (panel.kind) {
    case 'pick':
      return <nodePicker.Part key={`${panel.query}\u0000${panel.filter}`} pick={panel} />;
    case 'content':
      return <contentPanel.Part path={panel.path} skill={panel.skill} />;
    case 'notice':
      return <SlashNotice notice={panel} />;
    case 'connectors':
      return <connectorsPanel.Part skill={panel.skill} />;
    default:
      return panel satisfies never;
  }
}
SlashPanels.displayName = 'Slash.Panels';
