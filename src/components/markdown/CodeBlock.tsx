import { useState } from 'react';
import type { Element, ElementContent } from 'hast';
import { useMessages } from '../messages/context';

export interface CodeBlockProps {
  /** The `<pre>` element of the parsed markdown. */
  node: Element | undefined;
}

/**
 * A fenced code block: its language, a Copy button and the code, scrollable
 * by keyboard.
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
    <div data-part="code-block" data-language={language}>
      <div data-part="code-block-header">
        <span data-part="code-block-language">{language ?? m.code}</span>
        <button type="button" data-part="code-block-copy" data-state={copied} onClick={copy} aria-label={m.copyLabel(label, language ?? '')}>
          {label}
        </button>
      </div>
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
    </div>
  );
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}
