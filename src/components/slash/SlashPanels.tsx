import { useEffect, type ReactNode } from 'react';
import { useQueryClientLater } from '../chat-surface/SurfaceQueryClient';
import { Opening } from '../deferred/deferred';
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
      return (
        <WithQueryClient>
          <nodePicker.Part key={`${panel.query}\u0000${panel.filter}`} pick={panel} />
        </WithQueryClient>
      );
    case 'content':
      return (
        <WithQueryClient>
          <contentPanel.Part path={panel.path} skill={panel.skill} />
        </WithQueryClient>
      );
    case 'notice':
      return <SlashNotice notice={panel} />;
    case 'connectors':
      return <connectorsPanel.Part skill={panel.skill} />;
    default:
      return panel satisfies never;
  }
}
SlashPanels.displayName = 'Slash.Panels';

/** The picker and the panel run node queries: "Opening…" until the surface has made its React Query client (a slash command waited for it already). */
function WithQueryClient({ children }: { children: ReactNode }) {
  const { client, want } = useQueryClientLater();
  useEffect(() => {
    if (!client) want().catch(() => {});
  }, [client, want]);
  return client ? children : <Opening />;
}
