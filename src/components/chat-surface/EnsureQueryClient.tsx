import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, useState, type ReactNode } from 'react';

/**
 * Gives the parts a React Query client: the host's when it has one (shared
 * cache), else one of the surface's own, made once per mount.
 * @example
 * <EnsureQueryClient><ChatSurface.Root …/></EnsureQueryClient>
 */
export function EnsureQueryClient({ children }: { children?: ReactNode }) {
  const host = useContext(QueryClientContext);
  const [own] = useState(() => (host ? null : new QueryClient()));
  if (host) return <>{children}</>;
  return <QueryClientProvider client={own!}>{children}</QueryClientProvider>;
}
