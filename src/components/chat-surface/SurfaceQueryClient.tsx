import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { lazyChunk } from '../deferred/lazyChunk';

/** How React Query's client class is fetched (`import()`, a chunk of its own); an object, so a test can count or fail the loads. */
export const queryCoreChunk = {
  load: (): Promise<typeof import('./queryCore')> => import('./queryCore'),
};

const queryCore = lazyChunk(queryCoreChunk, '[chatsurface] React Query could not be loaded; the slash skills are not looked up:');

/** Asks for the surface's client; resolves with it once it is made. */
type WantClient = () => Promise<QueryClient>;

const WantClientContext = createContext<WantClient | null>(null);

/**
 * What the assembled surface gives its parts in place of `EnsureQueryClient`: the host's React
 * Query client when it has one; else one of the surface's own, made once per mount, but only when
 * a part first needs it (`useQueryClientLater`: the slash skills looked up once the user steps into
 * the message box, a picked node's name) or at once with `eager` (the host renders components of
 * its own in the surface, which may run queries of their own). Until then the parts below see no
 * client, and React Query's class is not loaded.
 */
export function SurfaceQueryClient({ eager = false, children }: { eager?: boolean; children?: ReactNode }) {
  const host = useContext(QueryClientContext);
  const [client, setClient] = useState<QueryClient | null>(null);
  const [want] = useState(() => {
    let asked: Promise<QueryClient> | null = null;
    return (): Promise<QueryClient> =>
      (asked ??= queryCore.load().then(
        (core) => {
          const made = new core.QueryClient();
          setClient(made);
          return made;
        },
        (error: unknown) => {
          asked = null;
          throw error;
        },
      ));
  });
  useEffect(() => {
    if (eager && !host) want().catch(() => {}); // logged by the chunk's load
  }, [eager, host, want]);
  useEffect(() => {
    if (!client) return;
    client.mount();
    return () => client.unmount();
  }, [client]);
  if (host) return <>{children}</>;
  return (
    <WantClientContext.Provider value={want}>
      <QueryClientContext.Provider value={client ?? undefined}>{children}</QueryClientContext.Provider>
    </WantClientContext.Provider>
  );
}

/**
 * The React Query client above, or undefined while the surface has not made its own yet; and
 * `want()`, which has it made (a no-op under a host's client or `EnsureQueryClient`) and resolves
 * with it.
 * @example
 * const { client, want } = useQueryClientLater();
 * useEffect(() => void want().catch(() => {}), [want]);
 */
export function useQueryClientLater(): { client: QueryClient | undefined; want: WantClient } {
  const client = useContext(QueryClientContext);
  const want = useContext(WantClientContext);
  // As React Query's own hooks do: a part that runs queries needs a client above it.
  if (!client && !want) throw new Error('No QueryClient set: put the surface inside <EnsureQueryClient> (or a QueryClientProvider), as <ChatSurface> does.');
  return useMemo(() => ({ client, want: client ? () => Promise.resolve(client) : want! }), [client, want]);
}
