import { useEffect, useState } from 'react';
import { lazyChunk } from '../deferred/lazyChunk';

/** What the virtualiser's chunk offers (./VirtualRows, with @tanstack/react-virtual). */
export interface VirtualRowsPart {
  VirtualRows: typeof import('./VirtualRows').VirtualRows;
}

/**
 * How the virtualiser is fetched: `import()`, so a page whose threads stay short (every row in
 * flow) never downloads it. An object, so a test can count or fail the loads (`vi.spyOn`).
 */
export const virtualRowsChunk = {
  load: (): Promise<VirtualRowsPart> => import('./VirtualRows'),
};

const chunk = lazyChunk<VirtualRowsPart>(virtualRowsChunk, '[chatsurface] The virtualiser could not be loaded; the newest rows show in flow:');

/** Fetches the virtualiser once (a failed load is forgotten, so the next want tries again). */
export const loadVirtualRows = chunk.load;

/**
 * The virtualiser once loaded, else null; `wanted`: the transcript would use it soon, so it is
 * fetched (once). `failed`: the load this component asked for failed (the transcript then keeps
 * every row in flow, so nothing is out of reach).
 */
export function useVirtualRowsPart(wanted: boolean): { part: VirtualRowsPart | null; failed: boolean } {
  const part = chunk.use(wanted);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!wanted || part) return;
    let current = true;
    // The same load as `use` started (one in flight at a time): only its outcome is read here.
    chunk.load().then(
      () => current && setFailed(false),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [wanted, part]);
  return { part, failed: failed && !part };
}

/** Forgets the loaded virtualiser (tests). */
export const resetVirtualRows = chunk.reset;
