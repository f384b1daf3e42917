import { Component, memo, Suspense, use, useMemo, type ComponentPropsWithRef, type ComponentType, type ReactNode } from 'react';
import { completePartialBlock, isPlainParagraph, plainText, splitBlocks } from './blocks';

export interface MarkdownProps extends Omit<ComponentPropsWithRef<'div'>, 'children'> {
  /** The markdown source (GitHub-flavoured). Raw HTML in it shows as text. */
  text: string;
  /** True while the text is still arriving: the last block is closed before it is parsed. @default false */
  streaming?: boolean;
}

/**
 * The parser (react-markdown, micromark, GFM: most of the surface's weight) is a chunk of its
 * own, fetched the first time a block needs it; until it arrives the block shows its text.
 * The promise carries React's thenable fields once settled, so `use` reads it synchronously.
 */
type ParsedPart = ComponentType<{ source: string }>;
type Tracked = Promise<ParsedPart> & { status?: 'fulfilled' | 'rejected'; value?: ParsedPart };
let parser: Tracked | null = null;
function loadParser(): Promise<ParsedPart> {
  if (!parser) {
    const promise: Tracked = import('./ParsedBlock').then(
      (m) => Object.assign(promise, { status: 'fulfilled' as const, value: m.ParsedBlock }).value!,
      (error: unknown) => {
        parser = null; // tried again on the next block that needs it
        throw error;
      },
    );
    parser = promise;
  }
  return parser;
}

/** Starts loading the markdown parser (tests; a part that knows formatted text is coming). */
export const preloadMarkdown = (): Promise<unknown> => loadParser();

/**
 * Assistant text as markdown: GFM (tables, task lists, strikethrough,
 * autolinks), no raw HTML, only http(s)/mailto/tel links, opened in a new tab
 * with `rel="noopener noreferrer"`. The text is split into blocks and each
 * block is memoised, so a streamed token re-parses only the last block, and
 * a half-written construct is closed first, so it never flickers. A block of
 * plain text skips the parser (it would render as the same `<p>`), and the
 * parser's code loads only once a block needs it.
 * @example
 * <Markdown text={row.text} streaming={row.status === 'streaming'} />
 */
export function Markdown({ text, streaming = false, ...props }: MarkdownProps) {
  const blocks = useMemo(() => splitBlocks(text), [text]);
  const last = blocks.length - 1;
  return (
    <div {...props} data-part="markdown">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} source={streaming && index === last ? completePartialBlock(block) : block} />
      ))}
    </div>
  );
}
Markdown.displayName = 'ChatSurface.Markdown';

/** Characters per text node of a plain paragraph (see `textChunks`). */
const CHUNK = 512;

/**
 * A long paragraph as text nodes of CHUNK characters cut at fixed offsets:
 * as a reply streams, the earlier nodes keep their exact text, so React leaves
 * them alone and the browser keeps their shaped glyphs; only the last node
 * changes. Adjacent text nodes wrap as one text (no break at a cut).
 */
function textChunks(text: string): string | string[] {
  if (text.length <= CHUNK) return text;
  const out: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK) out.push(text.slice(i, i + CHUNK));
  return out;
}

const MarkdownBlock = memo(function MarkdownBlock({ source }: { source: string }) {
  // A plain paragraph renders exactly as the parser would render it, without the parser.
  if (isPlainParagraph(source)) return <p>{textChunks(plainText(source))}</p>;
  return <ParsedOrText source={source} />;
});

/** The block's text as typed (line breaks kept): while the parser loads, or if it cannot. */
const asText = (source: string, state: 'loading' | 'failed') => (
  <p data-part="markdown-source" data-state={state}>
    {source}
  </p>
);

function Parsed({ source }: { source: string }) {
  const Block = use(loadParser());
  return <Block source={source} />;
}

/** The parsed block, or its text while the parser's code loads (and if it cannot be loaded). */
function ParsedOrText({ source }: { source: string }) {
  return (
    <TextOnError source={source}>
      <Suspense fallback={asText(source, 'loading')}>
        <Parsed source={source} />
      </Suspense>
    </TextOnError>
  );
}

class TextOnError extends Component<{ source: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('[chatsurface] the markdown parser could not be loaded:', error);
  }
  override render() {
    return this.state.failed ? asText(this.props.source, 'failed') : this.props.children;
  }
}
