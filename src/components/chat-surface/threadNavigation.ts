import { createContext, useContext } from 'react';

/** What lets a row move the surface to another of its threads (a sub-thread and back). */
export interface ThreadNavigation {
  /** Shows that thread (the switcher lists it). */
  open(threadId: string): void;
  /** The name the switcher gives a thread, when it has one. */
  nameOf(threadId: string): string | undefined;
}

export const ThreadNavigationContext = createContext<ThreadNavigation | null>(null);

/**
 * The surface's thread navigation; null outside `ChatSurface` (a row then shows its link as text).
 * @example
 * const nav = useThreadNavigation();
 * nav?.open(row.id);
 */
export function useThreadNavigation(): ThreadNavigation | null {
  return useContext(ThreadNavigationContext);
}
