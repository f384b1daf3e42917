import { lazyChunk } from '../deferred/lazyChunk';

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

const math = lazyChunk<MathRenderer>(mathChunk, '[chatsurface] KaTeX could not be loaded; formulas show their source:');

/**
 * Fetches KaTeX once (every formula shares the load). A failed load is forgotten, so the next
 * formula that shows tries again; the formulas waiting on it keep showing their source.
 */
export const loadMath = math.load;

/**
 * KaTeX once it has loaded, else null; `wanted`: this formula would use it, so it is fetched
 * (once) if it has not been. Every formula re-renders when it arrives. On the server: null (the
 * formulas show their source).
 */
export const useMath = math.use;

/** Forgets the loaded renderer (tests: each starts with nothing loaded). */
export const resetMath = math.reset;
