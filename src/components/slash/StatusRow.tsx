import { useEffect, type ComponentPropsWithRef } from 'react';
import { useComposerSelection } from '../../hooks/useComposerSelection';
import { useQueryClientLater } from '../chat-surface/SurfaceQueryClient';
import { statusName } from './deferredParts';
import { lastSegment } from './findNode';
import { useMessages } from '../messages/context';

const FIELDS = [
  { field: 'harness', label: 'harness', nodeType: 'Harness' },
  { field: 'agentName', label: 'agent', nodeType: 'Agent' },
  { field: 'modelName', label: 'model', nodeType: 'Model' },
] as const;

export type StatusRowProps = ComponentPropsWithRef<'div'>;

/**
 * The thread's harness, agent and model, read-only, above the message box:
 * what the next message will use. Shows each node's name (its path's last
 * segment until the name is known, or when the workspace cannot look it up)
 * and "default" for what is not picked. Hidden while nothing is picked (the
 * defaults need no row).
 * @example
 * <Slash.StatusRow />
 */
export function StatusRow(props: StatusRowProps) {
  const composer = useComposerSelection();
  const m = useMessages().status;
  // Only when something differs from the default: the defaults need no row of their own.
  if (!composer.harness && !composer.agentName && !composer.modelName) return null;
  return (
    <div role="group" aria-label={m.label} aria-live="polite" {...props} data-part="composer-status">
      {FIELDS.map(({ field, label, nodeType }) => (
        <StatusItem key={field} field={field} label={m[label]} nodeType={nodeType} path={composer[field]} />
      ))}
    </div>
  );
}
StatusRow.displayName = 'Slash.StatusRow';

function StatusItem({ field, label, nodeType, path }: { field: string; label: string; nodeType: string; path: string | undefined }) {
  const fallback = useMessages().status.default;
  // The node's name is looked up by a node query (React Query's client and the query's code come
  // on first use, see ./slashQueries): its path's last segment shows until then.
  const { client, want } = useQueryClientLater();
  useEffect(() => {
    if (path) want().catch(() => {});
  }, [path, want]);
  const name = path ? client ? <statusName.Part path={path} nodeType={nodeType} /> : lastSegment(path) : fallback;
  return (
    <span data-part="composer-status-item" data-field={field} data-state={path ? 'set' : 'default'}>
      <span data-part="composer-status-label">{label}:</span> <span data-part="composer-status-value">{name}</span>
    </span>
  );
}
