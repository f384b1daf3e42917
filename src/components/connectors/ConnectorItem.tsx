import { useState } from 'react';
import type { ConnectorInfo } from '../../workspace/connectorsProtocol';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';

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
  const messages = useMessages();
  const m = messages.connectors;
  const tools = server.tools;
  return (
    <li data-part="mcp-server" data-state={busy ? 'disconnecting' : server.status} aria-label={server.label}>
      <div data-part="mcp-server-head">
        <strong data-part="mcp-server-label">{server.label}</strong>
        <span data-part="mcp-server-url">{server.url}</span>
        <span data-part="mcp-server-status" data-state={server.status}>{server.status === 'connected' ? m.statusConnected : m.statusUnavailable}</span>
      </div>
      {server.problems.length ? (
        <ul data-part="mcp-server-problems" aria-label={m.problemsOf(server.label)}>
          {server.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {tools.length ? (
        <details data-part="mcp-server-tools">
          <summary>
            {m.tools(tools.length)}
          </summary>
          <ul aria-label={m.toolsOf(server.label)}>
            {tools.map((t) => (
              <li key={t.name} data-kind={t.kind}>
                {t.title}
                {t.needsApproval ? <span data-part="mcp-server-tool-approval">{m.asksFirst}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <button
        type="button"
        data-part="mcp-server-disconnect"
        aria-label={m.disconnectLabel(server.label)}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await onDisconnect();
          } catch (e) {
            setError(m.disconnectFailed(server.label, reasonOf(e, messages)));
            setBusy(false);
          }
        }}
      >
        {busy ? m.disconnecting : m.disconnect}
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
