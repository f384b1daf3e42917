import { useContext, type ReactNode } from 'react';
import type { Element } from 'hast';
import ReactMarkdown, { type Components } from 'react-markdown';
import { CitationMarker, citationNumber } from './citationMarker';
import { CodeBlock } from './CodeBlock';
import { remarkGfmParse } from './gfm';
import { MarkdownLink } from './MarkdownLink';
import { isMermaidFence, MermaidDiagram } from './MermaidDiagram';
import { displayMathOf, isMath, MathFormula, ParsedSource } from './MathFormula';
import { remarkMathParse } from './mathSyntax';
import { safeUrl } from './safeUrl';
import { leadingFence } from './leadingFence';
import { LiveSource } from './codeFence';
import { useMessages } from '../messages/context';

const plugins = [remarkGfmParse, remarkMathParse];

/** Images never load from the transcript (a reply could leak data through an image URL): they show as links. */
const components: Components = {
  a: ({ href, children }) => (citationNumber(href) ? <CitationMarker n={citationNumber(href)!}>{children}</CitationMarker> : <MarkdownLink href={href}>{children}</MarkdownLink>),
  img: ({ src, alt }) => <ImageLink src={src} alt={alt} />,
  // `$$ … $$` blocks are a `pre` too (remark-math), and inline `$…$` a `code`.
  pre: ({ node }) => {
    const math = displayMathOf(node);
    return math ? <MathFormula node={math} at={node} display /> : isMermaidFence(node) ? <MermaidDiagram node={node} /> : <CodeBlock node={node} />;
  },
  code: ({ node, className, children }) => (isMath(node, 'math-inline') ? <MathFormula node={node} display={false} /> : <code className={className}>{children}</code>),
  p: ({ node, children }) => <Paragraph node={node}>{children}</Paragraph>,
  // GFM task-list boxes are read-only; they need a name of their own.
  input: ({ type, checked }) =>
    type === 'checkbox' ? <TaskBox checked={!!checked} /> : null,
  table: ({ children }) => <Table>{children}</Table>,
};

/**
 * A paragraph; one that is only a `$$…$$` formula (`$$x^2$$` on a line of its own, as models
 * often write a block formula) shows it as a block formula.
 */
function Paragraph({ node, children }: { node: Element | undefined; children?: ReactNode }) {
  const parsed = useContext(ParsedSource);
  const parts = node?.children.filter((child) => !(child.type === 'text' && !child.value.trim())) ?? [];
  const only = parts.length === 1 && parts[0]!.type === 'element' ? parts[0] : undefined;
  const offset = only?.position?.start.offset;
  if (isMath(only, 'math-inline') && offset !== undefined && parsed.startsWith('$$', offset)) return <MathFormula node={only} display />;
  return <p>{children}</p>;
}

function ImageLink({ src, alt }: { src: unknown; alt: string | undefined }) {
  return <MarkdownLink href={typeof src === 'string' ? src : undefined}>{useMessages().markdown.image(alt ?? '')}</MarkdownLink>;
}

function TaskBox({ checked }: { checked: boolean }) {
  const m = useMessages().markdown;
  return <input type="checkbox" checked={checked} disabled aria-label={checked ? m.done : m.notDone} />;
}

function Table({ children }: { children?: ReactNode }) {
  // Wide tables scroll inside the message; keyboard users can reach the scroller.
  return (
    <div data-part="markdown-table" tabIndex={0} role="group" aria-label={useMessages().markdown.table}>
      <table>{children}</table>
    </div>
  );
}

/** The rest of a paragraph whose start the caller already shows: its content, without a second `<p>`. */
const inlineComponents: Components = { ...components, p: ({ children }) => <>{children}</> };

/**
 * One markdown block through the parser (react-markdown + GFM + math), no
 * raw HTML, safe links. Its own chunk: `<Markdown>` loads it the first time a block
 * needs more than a plain paragraph. `inline`: the source is the rest of a
 * paragraph (see `plainHeadLength`), rendered into the caller's `<p>`.
 */
export function ParsedBlock({ source, inline = false }: { source: string; inline?: boolean }) {
  // A block that starts with a fenced code block (a long one streams so) takes it from its text,
  // not the parser (leadingFence: the same `pre` element); only what follows the fence is parsed.
  const fence = inline ? null : leadingFence(source);
  const parsed = fence ? fence.rest : source;
  return (
    <ParsedSource value={parsed}>
      {fence ? <FencePre node={fence.pre} /> : null}
      {fence && parsed ? '\n' : null}
      {parsed ? (
        <LiveRest source={parsed}>
          <ReactMarkdown remarkPlugins={plugins} components={inline ? inlineComponents : components} urlTransform={safeUrl}>
            {parsed}
          </ReactMarkdown>
        </LiveRest>
      ) : null}
    </ParsedSource>
  );
}

/**
 * What is parsed of a block (all of it, or the rest after its leading fence) is the live source
 * its code blocks and formulas read their offsets against. Its own component: the end of the
 * reply (the live source becoming null) re-renders it, not the parse (its children stay the same).
 */
function LiveRest({ source, children }: { source: string; children: ReactNode }) {
  const live = useContext(LiveSource);
  return <LiveSource value={live === null ? null : source}>{children}</LiveSource>;
}
const FencePre = components.pre as (props: { node: Element }) => ReactNode;
