import { memo, useMemo, type ComponentPropsWithRef } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import { completePartialBlock, isPlainParagraph, splitBlocks } from './blocks';
import { CodeBlock } from './CodeBlock';
import { remarkGfmParse } from './gfm';
import { MarkdownLink } from './MarkdownLink';
import { safeUrl } from './safeUrl';

export interface MarkdownProps extends Omit<ComponentPropsWithRef<'div'>, 'children'> {
  /** The markdown source (GitHub-flavoured). Raw HTML in it shows as text. */
  text: string;
  /** True while the text is still arriving: the last block is closed before it is parsed. @default false */
  streaming?: boolean;
}

const plugins = [remarkGfmParse];

/** Images never load from the transcript (a reply could leak data through an image URL): they show as links. */
const components: Components = {
  a: ({ href, children }) => <MarkdownLink href={href}>{children}</MarkdownLink>,
  img: ({ src, alt }) => <MarkdownLink href={typeof src === 'string' ? src : undefined}>{alt ? `Image: ${alt}` : 'Image'}</MarkdownLink>,
  pre: ({ node }) => <CodeBlock node={node} />,
  // GFM task-list boxes are read-only; they need a name of their own.
  input: ({ type, checked }) =>
    type === 'checkbox' ? <input type="checkbox" checked={!!checked} disabled aria-label={checked ? 'Done' : 'Not done'} /> : null,
  table: ({ children }) => (
    // Wide tables scroll inside the message; keyboard users can reach the scroller.
    <div data-part="markdown-table" tabIndex={0} role="group" aria-label="Table">
      <table>{children}</table>
    </div>
  ),
};

/**
 * Assistant text as markdown: GFM (tables, task lists, strikethrough,
 * autolinks), no raw HTML, only http(s)/mailto/tel links, opened in a new tab
 * with `rel="noopener noreferrer"`. The text is split into blocks and each
 * block is memoised, so a streamed token re-parses only the last block, and
 * a half-written construct is closed first, so it never flickers. A block of
 * plain text skips the parser (it would render as the same `<p>`).
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
  if (isPlainParagraph(source)) return <p>{textChunks(source)}</p>;
  return (
    <ReactMarkdown remarkPlugins={plugins} components={components} urlTransform={safeUrl}>
      {source}
    </ReactMarkdown>
  );
});
