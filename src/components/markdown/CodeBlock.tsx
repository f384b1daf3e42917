import { memo, useContext, useId, useMemo, useState, type ReactNode } from 'react';
import type { Element, ElementContent } from 'hast';
import { useMessages } from '../messages/context';
import { fenceIsOpen, LiveSource } from './codeFence';
import { useHighlighter } from './loadHighlighter';

export interface CodeBlockProps {
  /** The `<pre>` element of the parsed markdown. */
  node: Element | undefined;
}

/** Longer code is not highlighted (its colours would cost a long task for little): it stays plain. */
export const HIGHLIGHT_MAX = 20_000;

/**
 * A fenced code block: its language, a Copy button and the code, scrollable
 * by keyboard. Code that names a language lowlight knows is highlighted
 * (`data-state="highlighted"`) once the highlighter's chunk has loaded (it is
 * fetched when the first such block shows); until then, if it cannot load,
 * for an unknown language and past HIGHLIGHT_MAX characters it is plain text
 * (`data-state="plain"`), laid out exactly as the highlighted code (only the
 * colours differ).
 *
 * While a reply streams, a fence that is still open is not highlighted: the
 * block renders again every frame, and highlighting it each time would cost
 * a pass of the grammar over the whole block per frame, growing with the code
 * (the plain text costs only its text node; a block that starts with the fence
 * is not parsed as markdown either: `leadingFence` makes its element). It is
 * highlighted once, when its closing fence arrives or the reply ends; later
 * deltas of the reply leave it as it is (the colours are memoised on the code
 * and its language).
 * @example
 * <CodeBlock node={preElement} />
 */
export function CodeBlock({ node }: CodeBlockProps) {
  const code = node?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  const className = code?.properties.className;
  const language = Array.isArray(className)
    ? className.map(String).find((name) => name.startsWith('language-'))?.slice('language-'.length)
    : undefined;
  const text = code ? textOf(code).replace(/\n$/, '') : '';
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const live = useContext(LiveSource);
  const position = node?.position;
  // In a streaming block, a block whose place in the source is not known counts as open (plain).
  const start = position?.start.offset;
  const end = position?.end.offset;
  const open = live !== null && (start === undefined || end === undefined || fenceIsOpen(live, start, end));
  // The chunk is fetched as soon as a block names a language (also while its fence is open, so
  // the colours are ready when it closes); a block without one never asks for it.
  const highlighter = useHighlighter(language !== undefined && text.length <= HIGHLIGHT_MAX);
  const colours = useMemo(
    () => (highlighter && language && !open && text.length <= HIGHLIGHT_MAX ? highlighter.highlight(text, language) : null),
    [highlighter, language, open, text],
  );
  const labelId = useId();

  const m = useMessages().markdown;
  const label = copied === 'copied' ? m.copied : copied === 'failed' ? m.copyFailed : m.copy;
  const copy = () => {
    const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (!clipboard) return setCopied('failed');
    clipboard.writeText(text).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  };

  return (
    <div data-part="code-block" data-language={language} data-state={colours ? 'highlighted' : 'plain'}>
      <div data-part="code-block-header">
        <span data-part="code-block-language" id={labelId}>
          {language ?? m.code}
        </span>
        <button type="button" data-part="code-block-copy" data-state={copied} onClick={copy} aria-label={m.copyLabel(label, language ?? '')}>
          {label}
        </button>
      </div>
      {/* Named by the language shown above it, so a screen reader says which code it steps into. */}
      <pre tabIndex={0} role="group" aria-labelledby={labelId}>
        {colours ? <Highlighted colours={colours} /> : <code>{text}</code>}
      </pre>
    </div>
  );
}

/** The highlighted code: one element, so a render that brings the same colours leaves its spans alone. */
const Highlighted = memo(function Highlighted({ colours }: { colours: ReactNode[] }) {
  return <code className="hljs">{colours}</code>;
});

/** The text of a parsed element (a code block's code). */
export function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}
