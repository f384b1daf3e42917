import { useEffect, useSyncExternalStore } from 'react';

/**
 * A part of the markdown fetched on first use (the code highlighter, KaTeX): one shared load, a
 * failed load forgotten (logged with `failure`) so the next user of it tries again, and a hook
 * that hands every component the loaded part as soon as it arrives (null until then, and on the
 * server). `chunk.load` is read at each load, so a test can count or fail the loads (`vi.spyOn`).
 */
export function lazyChunk<T>(chunk: { load: () => Promise<T> }, failure: string) {
  let loaded: T | null = null;
  let loading: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const current = () => loaded;
  const none = () => null;

  const load = (): Promise<T> => {
    if (loaded) return Promise.resolve(loaded);
    loading ??= chunk.load().then(
      (part) => {
        loaded = part;
        for (const listener of listeners) listener();
        return part;
      },
      (error: unknown) => {
        loading = null;
        console.warn(failure, error);
        throw error;
      },
    );
    return loading;
  };

  /** The part once loaded, else null; `wanted`: this component would use it, so it is fetched (once). */
  const use = (wanted: boolean): T | null => {
    const part = useSyncExternalStore(subscribe, current, none);
    useEffect(() => {
      if (wanted && !part) load().catch(() => {}); // logged in load; the component keeps its plain form
    }, [wanted, part]);
    return part;
  };

  /** Forgets the loaded part (tests: each starts with nothing loaded). */
  const reset = (): void => {
    loaded = null;
    loading = null;
  };
  return { load, use, reset };
}
