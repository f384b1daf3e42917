import { useState } from 'react';
import type { ConnectorInfo } from '../../workspace/connectorsProtocol';

export interface ConnectorItemProps {
  server: ConnectorInfo;
  /** Removes it (and its tools and token) on the server; a rejection is shown beside the button. */
  onDisconnect(): Promise<void>;
}

/**
 * One of the user's MCP servers: its name, address, state and tools, and
 * Disconnect. `data-state` is connected|unavailable|disconnecting.
 * @example
 * <ConnectorItem server={server} onDisconnect={() => api.disconnect(server.label)} />
 */
export function ConnectorItem({ server, onDisconnect }: ConnectorItemProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tools = server.tools;
  return (
    <li data-part="mcp-server" data-state={busy ? 'disconnecting' : server.status} aria-label={server.label}>
      <div data-part="mcp-server-head">
        <strong data-part="mcp-server-label">{server.label}</strong>
        <span data-part="mcp-server-url">{server.url}</span>
        <span data-part="mcp-server-status" data-state={server.status}>{server.status === 'connected' ? 'Connected' : 'Unavailable'}</span>
      </div>
      {server.problems.length ? (
        <ul data-part="mcp-server-problems" aria-label={`Problems of ${server.label}`}>
          {server.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {tools.length ? (
        <details data-part="mcp-server-tools">
          <summary>
            {tools.length} {tools.length === 1 ? 'tool' : 'tools'}
          </summary>
          <ul aria-label={`Tools of ${server.label}`}>
            {tools.map((t) => (
              <li key={t.name} data-kind={t.kind}>
                {t.title}
                {t.needsApproval ? <span data-part="mcp-server-tool-approval"> · asks first</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <button
        type="button"
        data-part="mcp-server-disconnect"
        aria-label={`Disconnect ${server.label}`}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await onDisconnect();
          } catch (e) {
            setError(`Could not disconnect ${server.label}: ${e instanceof Error ? e.message : String(e)}`);
            setBusy(false);
          }
        }}
      >
        {busy ? 'Disconnecting…' : 'Disconnect'}
      </button>
      {error ? (
        <p role="alert" data-part="mcp-server-error">
          {error}
        </p>
      ) : null}
    </li>
  );
}
ConnectorItem.displayName = 'Connectors.Item';
