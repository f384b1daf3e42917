import { useState } from 'react';
import type { ConnectorInfo } from '../../workspace/connectorsProtocol';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';
import type { SignInState } from './useSignIns';

export interface ConnectorItemProps {
  server: ConnectorInfo;
  /** Removes it (and its tools and token) on the server; a rejection is shown beside the button. */
  onDisconnect(): Promise<void>;
  /** Opens its sign-in page (a server with `status: 'needs_auth'`); without it there is no Sign in button. */
  onSignIn?(): void;
  /** Where its sign-in on this page stands. @default none */
  signIn?: SignInState | undefined;
}

/**
 * One of the user's MCP servers: its name, address, state and tools, and
 * Disconnect. A server that signs users in with OAuth and needs this user
 * (`needs_auth`) says so in words with a Sign in button; while its pop-up is
 * open the item says it waits, and a blocked pop-up becomes a link.
 * `data-state` is connected|unavailable|needs_auth|signing-in|disconnecting.
 * @example
 * <ConnectorItem server={server} onDisconnect={() => api.disconnect(server.label)} onSignIn={() => signIns.start(server.label)} />
 */
export function ConnectorItem({ server, onDisconnect, onSignIn, signIn }: ConnectorItemProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const messages = useMessages();
  const m = messages.connectors;
  const tools = server.tools;
  const signingIn = server.status === 'needs_auth' && (signIn?.state === 'waiting' || signIn?.state === 'blocked');
  return (
    <li data-part="mcp-server" data-state={busy ? 'disconnecting' : signingIn ? 'signing-in' : server.status} aria-label={server.label}>
      <div data-part="mcp-server-head">
        <strong data-part="mcp-server-label">{server.label}</strong>
        <span data-part="mcp-server-url">{server.url}</span>
        <span data-part="mcp-server-status" data-state={server.status}>
          {server.status === 'connected' ? m.statusConnected : server.status === 'needs_auth' ? m.statusNeedsAuth : m.statusUnavailable}
        </span>
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
      {server.status === 'needs_auth' && onSignIn ? (
        <button type="button" data-part="mcp-server-sign-in" aria-label={m.signInLabel(server.label)} onClick={onSignIn}>
          {m.signIn}
        </button>
      ) : null}
      {signingIn && signIn?.state === 'waiting' ? (
        <p role="status" data-part="mcp-server-signing-in">
          {m.signingIn(server.label)}
        </p>
      ) : null}
      {signingIn && signIn?.state === 'blocked' ? (
        <p data-part="mcp-server-sign-in-blocked">
          {m.signInBlocked(server.label)}{' '}
          <a href={signIn.url} target="_blank" rel="noopener noreferrer">
            {m.signInLink(server.label)}
          </a>
        </p>
      ) : null}
      {signIn?.state === 'failed' ? (
        <p role="alert" data-part="mcp-server-sign-in-error">
          {signIn.message}
        </p>
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
