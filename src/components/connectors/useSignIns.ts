import { useCallback, useEffect, useRef, useState } from 'react';
import { MCP_SIGN_IN_MESSAGE, type ConnectorInfo, type ConnectorsApi } from '../../workspace/connectorsProtocol';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';

/** Where one server's sign-in stands on this page. */
export type SignInState = { state: 'waiting' } | { state: 'blocked'; url: string } | { state: 'failed'; message: string };

/** How often the list is read again while a sign-in is open (the pop-up may not be able to tell this page). */
const POLL_MS = 2_000;
/** How long a sign-in is waited for. */
const WAIT_MS = 10 * 60_000;

/**
 * The sign-ins of the `/mcp` panel: `start(label)` opens a pop-up at once (still in the click, so
 * it is not blocked), asks the server for the sign-in page and sends the pop-up there; a blocked
 * pop-up becomes a link. While one is open the list is read again when the landing page posts
 * back (from this window's pop-up only) and every 2 s, until the server is no longer `needs_auth`.
 */
export function useSignIns(api: ConnectorsApi | undefined, servers: readonly ConnectorInfo[], refresh: () => Promise<void>, announce: (text: string) => void) {
  const [signIns, setSignIns] = useState<Record<string, SignInState>>({});
  const popups = useRef(new Map<string, Window>());
  const started = useRef(new Map<string, number>());
  const m = useMessages();
  const set = (label: string, state: SignInState | null) =>
    setSignIns((all) => {
      const { [label]: _old, ...rest } = all;
      return state ? { ...rest, [label]: state } : rest;
    });

  const start = useCallback(
    async (label: string) => {
      if (!api?.authorize) return;
      const popup = typeof window.open === 'function' ? window.open('', `chatsurface-sign-in-${label}`, 'popup,width=520,height=700') : null;
      set(label, { state: 'waiting' });
      started.current.set(label, Date.now());
      try {
        const { url } = await api.authorize(label);
        // Only a web page: never a `javascript:` URL run in a window of this origin.
        if (!/^https?:\/\//i.test(url)) throw new Error(`the server answered a sign-in address that is not a web page (${url.slice(0, 80)})`);
        if (popup && !popup.closed) {
          popup.location.href = url;
          popups.current.set(label, popup);
        } else set(label, { state: 'blocked', url });
      } catch (error) {
        popup?.close();
        started.current.delete(label);
        set(label, { state: 'failed', message: m.connectors.signInFailed(label, reasonOf(error, m)) });
      }
    },
    [api, m],
  );

  const open = Object.entries(signIns).filter(([, s]) => s.state !== 'failed').map(([label]) => label);
  const waiting = open.length > 0;
  useEffect(() => {
    if (!waiting) return;
    const onMessage = (event: MessageEvent) => {
      const fromOurs = [...popups.current.values()].some((p) => p === event.source);
      if (fromOurs && (event.data as { type?: unknown } | null)?.type === MCP_SIGN_IN_MESSAGE) void refresh();
    };
    window.addEventListener('message', onMessage);
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => {
      window.removeEventListener('message', onMessage);
      clearInterval(timer);
    };
  }, [waiting, refresh]);

  // A server that is no longer waiting for its user: the sign-in is done (or the server is gone).
  useEffect(() => {
    for (const label of open) {
      const server = servers.find((s) => s.label === label);
      const since = Date.now() - (started.current.get(label) ?? 0);
      // Just connected, the list not read again yet: not gone.
      if (!server && since < 5_000) continue;
      if (server?.status === 'needs_auth' && since < WAIT_MS) continue;
      set(label, null);
      started.current.delete(label);
      popups.current.get(label)?.close();
      popups.current.delete(label);
      if (server?.status === 'connected') announce(m.connectors.signedIn(label, server.tools.length));
    }
  }, [servers]); // eslint-disable-line react-hooks/exhaustive-deps

  return { signIns, start };
}
