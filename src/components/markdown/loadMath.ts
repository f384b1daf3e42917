import { useEffect, useSyncExternalStore } from 'react';

/** What the math chunk offers (./math): KaTeX and its CSS and fonts. */
export interface MathRenderer {
  renderMath: typeof import('./math').renderMath;
}

/**
 * How the math chunk is fetched: `import()`, so KaTeX (and its stylesheet, which Vite splits
 * with the chunk) is a chunk of its own that a page showing no formula never downloads. An
 * object, so a test can count or fail the loads (`vi.spyOn`).
 */
export const mathChunk = {
  load: (): Promise<MathRenderer> => import('./math'),
};

let loaded: MathRenderer | null = null;
let loading: Promise<MathRenderer> | null = null;
const listeners = new Set<() => void>();

/**
 * Fetches KaTeX once (every formula shares the load). A failed load is forgotten, so the next
 * formula that shows tries again; the formulas waiting on it keep showing their source.
 */
export function loadMath(): Promise<MathRenderer> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= mathChunk.load().then(
    (chunk) => {
      loaded = { renderMath: chunk.renderMath };
      for (const listener of listeners) listener();
      return loaded;
    },
    (error: unknown) => {
      loading = null;
      console.warn('[chatsurface] KaTeX could not be loaded; formulas show their source:', error);
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
 * KaTeX once it has loaded, else null; `wanted`: this formula would use it, so it is fetched
 * (once) if it has not been. Every formula re-renders when it arrives. On the server: null (the
 * formulas show their source).
 */
export function useMath(wanted: boolean): MathRenderer | null {
  const math = useSyncExternalStore(subscribe, current, none);
  useEffect(() => {
    if (wanted && !math) loadMath().catch(() => {}); // logged in loadMath; the source stays
  }, [wanted, math]);
  return math;
}

/** Forgets the loaded renderer (tests: each starts with nothing loaded). */
export function resetMath(): void {
  loaded = null;
  loading = null;
}
