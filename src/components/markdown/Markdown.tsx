import { Component, memo, Suspense, use, useMemo, useRef, type ComponentPropsWithRef, type ComponentType, type ReactNode } from 'react';
import { completePartialBlock, firstSyntax, firstSyntaxAfter, isPlainParagraph, plainHeadLength, plainText, splitBlocks } from './blocks';
import { LiveSource } from './codeFence';
import { PlainParagraph } from './PlainParagraph';
import { useStreamPause } from './useStreamPause';

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
type ParsedPart = ComponentType<{ source: string; inline?: boolean }>;
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
 * plain text skips the parser (it would render as the same `<p>`), a long
 * paragraph whose start is plain sends only the rest through it, and the
 * parser's code loads only once a block needs it.
 * @example
 * <Markdown text={row.text} streaming={row.status === 'streaming'} />
 */
export function Markdown({ text, streaming = false, ...props }: MarkdownProps) {
  const blocks = useMemo(() => splitBlocks(text), [text]);
  const last = blocks.length - 1;
  // Where the growing last block's first syntax character is, found again only in its new text.
  const scan = useRef({ block: '', first: -1 });
  let tail: { source: string; first: number } | null = null;
  if (streaming && last >= 0) {
    const block = blocks[last]!;
    const first = firstSyntaxAfter(scan.current.block, scan.current.first, block);
    scan.current = { block, first };
    tail = completeTail(block, first);
  }
  const paused = useStreamPause(text, streaming);
  return (
    <div {...props} data-part="markdown" data-streaming={streaming ? (paused ? 'paused' : 'flowing') : undefined}>
      {blocks.map((block, index) =>
        tail && index === last ? <MarkdownBlock key={index} source={tail.source} first={tail.first} live /> : <MarkdownBlock key={index} source={block} />,
      )}
    </div>
  );
}
Markdown.displayName = 'ChatSurface.Markdown';

/**
 * The streaming last block with its half-written constructs closed; of a long
 * paragraph with a plain start, only the part after that start is looked at
 * (the start has nothing to close), so a frame does not rescan the whole reply.
 */
function completeTail(block: string, first: number): { source: string; first: number } {
  if (first < 0) return { source: block, first }; // nothing to close
  const head = plainHeadLength(block, HEAD_STEP, first);
  const source = head ? block.slice(0, head) + completePartialBlock(block.slice(head)) : completePartialBlock(block);
  // Closing changes only what follows the head (a dropped marker may leave no syntax at all).
  const at = firstSyntax(source.slice(head));
  return { source, first: at < 0 ? -1 : head + at };
}

/**
 * The step a paragraph's plain start is cut at: the parser gets at most this much of the plain
 * text before the first syntax character (micromark spends microseconds on every character of it).
 */
const HEAD_STEP = 64;

/**
 * `first`: where the source's first syntax character is, when the caller knows (-1: none); it
 * follows from the source, so only the source decides a re-render (a reply that finishes with
 * the text it streamed is not parsed again). `live`: the block is the growing end of a streaming
 * reply, whose plain text is laid out by `PlainParagraph` (only its last lines each frame).
 */
const MarkdownBlock = memo(function MarkdownBlock({ source, first = firstSyntax(source), live = false }: { source: string; first?: number; live?: boolean }) {
  // A plain paragraph renders exactly as the parser would render it, without the parser. Both
  // paragraph forms put the text nodes first, so when syntax arrives late in a streaming
  // paragraph the nodes already shown stay, and only the rest goes through the parser.
  if (isPlainParagraph(source, first)) return <PlainParagraph text={plainText(source)} live={live} />;
  const head = plainHeadLength(source, HEAD_STEP, first);
  if (head > 0) {
    return (
      <PlainParagraph text={source.slice(0, head)} live={live}>
        <ParsedOrText source={source.slice(head)} inline />
      </PlainParagraph>
    );
  }
  // Its code blocks learn whether the block is still streaming (an open fence is not highlighted
  // yet): a context, so the end of the reply reaches them without parsing the block again.
  return (
    <LiveSource value={live ? source : null}>
      <ParsedOrText source={source} />
    </LiveSource>
  );
}, (before, after) => before.source === after.source && before.live === after.live);

/** The block's text as typed (line breaks kept): while the parser loads, or if it cannot. Inside a paragraph: a span. */
const asText = (source: string, state: 'loading' | 'failed', inline: boolean) =>
  inline ? (
    <span data-part="markdown-source" data-state={state}>
      {source}
    </span>
  ) : (
    <p data-part="markdown-source" data-state={state}>
      {source}
    </p>
  );

function Parsed({ source, inline }: { source: string; inline: boolean }) {
  const Block = use(loadParser());
  return <Block source={source} inline={inline} />;
}

/**
 * The parsed block, or its text while the parser's code loads (and if it cannot be loaded).
 * `inline`: the rest of a paragraph whose plain start is already shown (its `<p>` is the caller's).
 */
const ParsedOrText = memo(function ParsedOrText({ source, inline = false }: { source: string; inline?: boolean }) {
  return (
    <TextOnError source={source} inline={inline}>
      <Suspense fallback={asText(source, 'loading', inline)}>
        <Parsed source={source} inline={inline} />
      </Suspense>
    </TextOnError>
  );
});

class TextOnError extends Component<{ source: string; inline: boolean; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('[chatsurface] the markdown parser could not be loaded:', error);
  }
  override render() {
    return this.state.failed ? asText(this.props.source, 'failed', this.props.inline) : this.props.children;
  }
}
