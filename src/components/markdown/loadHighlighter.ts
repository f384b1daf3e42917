import { lazyChunk } from '../deferred/lazyChunk';

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

const highlighter = lazyChunk<Highlighter>(highlighterChunk, '[chatsurface] the code highlighter could not be loaded; code shows as plain text:');

/**
 * Fetches the highlighter once (every caller shares the load). A failed load is forgotten, so
 * the next code block that asks tries again; the blocks waiting on it stay plain text.
 */
export const loadHighlighter = highlighter.load;

/**
 * The highlighter once it has loaded, else null; `wanted`: this block would use it, so it is
 * fetched (once) if it has not been. Every block re-renders when it arrives, also one whose own
 * load failed earlier and a later block's load succeeded. On the server: null (plain code).
 */
export const useHighlighter = highlighter.use;

/** Forgets the loaded highlighter (tests: each starts with nothing loaded). */
export const resetHighlighter = highlighter.reset;
