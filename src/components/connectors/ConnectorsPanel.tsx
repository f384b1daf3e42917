import { Dialog } from 'radix-ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useChatSurface } from '../../hooks/context';
import type { ConnectorInfo } from '../../workspace/connectorsProtocol';
import { focusComposer, useSlash } from '../slash/context';
import { ConnectorForm } from './ConnectorForm';
import { ConnectorItem } from './ConnectorItem';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';
import { useSignIns } from './useSignIns';

export interface ConnectorsPanelProps {
  /** The skill that opened it, e.g. `/mcp`. */
  skill: string;
}

type Load = { state: 'loading' } | { state: 'ready'; servers: ConnectorInfo[] } | { state: 'error'; message: string };


/**
 * The panel `/mcp` opens: the user's own MCP servers (name, address, whether
 * it is reachable, its tools) with Disconnect, and the form to connect
 * another. The token goes to the server and is never shown again. Escape or
 * Close returns focus to the message box. `data-state` is loading|ready|error.
 * @example
 * <ConnectorsPanel skill="/mcp" />
 */
export function ConnectorsPanel({ skill }: ConnectorsPanelProps) {
  const { workspace } = useChatSurface();
  const { closePanel } = useSlash('ConnectorsPanel');
  const api = workspace.connectors;
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [announcement, setAnnouncement] = useState('');
  const messages = useMessages();
  const m = messages.connectors;
  const content = useRef<HTMLDivElement>(null);

  const refresh = useCallback(async () => {
    if (!api) return setLoad({ state: 'error', message: m.notTaken(skill) });
    try {
      setLoad({ state: 'ready', servers: await api.list() });
    } catch (error) {
      setLoad({ state: 'error', message: m.notLoaded(reasonOf(error, messages)) });
    }
  }, [api, skill, m]);
  useEffect(() => void refresh(), [refresh]);

  const servers = load.state === 'ready' ? load.servers : [];
  const { signIns, start: signIn } = useSignIns(api, servers, refresh, setAnnouncement);
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : closePanel())}>
      <Dialog.Content
        ref={content}
        data-part="mcp-servers"
        data-state={load.state}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          focusComposer(content.current);
        }}
      >
        <Dialog.Title data-part="mcp-servers-title">{m.title}</Dialog.Title>
        <Dialog.Description data-part="mcp-servers-description">
          {m.description}
        </Dialog.Description>
        {load.state === 'loading' ? (
          <p role="status" data-part="mcp-servers-loading">
            {m.loading}
          </p>
        ) : load.state === 'error' ? (
          <p role="alert" data-part="mcp-servers-error">
            {load.message}
          </p>
        ) : servers.length ? (
          <ul aria-label={m.list} data-part="mcp-servers-list">
            {servers.map((server) => (
              <ConnectorItem
                key={server.label}
                server={server}
                signIn={signIns[server.label]}
                {...(api?.authorize ? { onSignIn: () => void signIn(server.label) } : {})}
                onDisconnect={async () => {
                  await api!.disconnect(server.label);
                  setAnnouncement(m.disconnected(server.label));
                  await refresh();
                }}
              />
            ))}
          </ul>
        ) : (
          <p data-part="mcp-servers-empty">{m.empty}</p>
        )}
        {api ? (
          <ConnectorForm
            onConnect={async (request) => {
              const server = await api.connect(request);
              if (server.status === 'needs_auth' && api.authorize) {
                // Still in the click's activation: the pop-up opens now, the list is read after.
                void signIn(server.label);
                setAnnouncement(m.signInOpened(server.label));
              } else setAnnouncement(m.connected(server.label, server.tools.length));
              await refresh();
            }}
          />
        ) : null}
        <p role="status" data-part="mcp-servers-announcement">
          {announcement}
        </p>
        <Dialog.Close data-part="mcp-servers-close">{m.close}</Dialog.Close>
      </Dialog.Content>
    </Dialog.Root>
  );
}
ConnectorsPanel.displayName = 'Slash.ConnectorsPanel';
