import { isMissingModule, MissingPeerError } from '../../runtime/peers';
import { lazyChunk } from '../deferred/lazyChunk';

/**
 * What the diagrams need of the optional peer `mermaid`: its `initialize` and `render`, or
 * stand-ins of the same shape (tests, stories). Written loosely, so the kit's published types
 * never name that package: a page without it type-checks without `skipLibCheck`.
 */
export interface MermaidModule {
  initialize(config: Record<string, unknown>): void;
  render(id: string, text: string): Promise<{ svg: string }>;
}

/**
 * How `mermaid` is fetched: `import()` the first time a reply shows a ```mermaid fence, so a page
 * showing no diagram never downloads it (and a host that did not install it never needs to: the
 * fence then stays code, with a note). An object, so a test or a story can count, fail or replace
 * the load (`vi.spyOn`).
 */
export const mermaidChunk = {
  load: (): Promise<MermaidModule> =>
    import('mermaid').then(
      (module) => module.default as unknown as MermaidModule,
      (error: unknown) => {
        throw isMissingModule(error, 'mermaid') ? new MissingPeerError('mermaid', error) : error;
      },
    ),
};

const mermaid = lazyChunk<MermaidModule>(mermaidChunk, '[chatsurface] mermaid could not be loaded; diagrams show their source:');

/** Fetches mermaid once (every diagram shares the load); a failed load is forgotten, so the next diagram tries again. */
export const loadMermaid: () => Promise<MermaidModule> = mermaid.load;

/** Forgets the loaded mermaid (tests and stories: each starts with nothing loaded). */
export const resetMermaid: () => void = mermaid.reset;
