import { useEffect, useSyncExternalStore } from 'react';

/** What the highlighter's chunk offers (./highlighter). */
export interface Highlighter {
  highlight: typeof import('./highlighter').highlight;
}

/**
 * How the highlighter's chunk is fetched: `import()`, so it is a chunk of its own that a page
 * showing no code never downloads. An object, so a test can count or fail the loads (`vi.spyOn`).
 */
export const highlighterChunk = {
  load: (): Promise<Highlighter> => import('./highlighter'),
};

let loaded: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;
const listeners = new Set<() => void>();

/**
 * Fetches the highlighter once (every caller shares the load). A failed load is forgotten, so
 * the next code block that asks tries again; the blocks waiting on it stay plain text.
 */
export function loadHighlighter(): Promise<Highlighter> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= highlighterChunk.load().then(
    (chunk) => {
      loaded = { highlight: chunk.highlight };
      for (const listener of listeners) listener();
      return loaded;
    },
    (error: unknown) => {
      loading = null;
      console.warn('[chatsurface] the code highlighter could not be loaded; code shows as plain text:', error);
      throw error;
    },
  );
  return loading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const current = () => loaded;
const none = () => null;

/**
 * The highlighter once it has loaded, else null; `wanted`: this block would use it, so it is
 * fetched (once) if it has not been. Every block re-renders when it arrives, also one whose own
 * load failed earlier and a later block's load succeeded. On the server: null (plain code).
 */
export function useHighlighter(wanted: boolean): Highlighter | null {
  const highlighter = useSyncExternalStore(subscribe, current, none);
  useEffect(() => {
    if (wanted && !highlighter) loadHighlighter().catch(() => {}); // logged in loadHighlighter; the code stays plain
  }, [wanted, highlighter]);
  return highlighter;
}

/** Forgets the loaded highlighter (tests: each starts with nothing loaded). */
export function resetHighlighter(): void {
  loaded = null;
  loading = null;
}
