import type { ReactNode } from 'react';
import type { ElementContent, RootContent } from 'hast';
import { common, createLowlight } from 'lowlight';

/**
 * The code highlighter: lowlight (highlight.js's grammars, producing a hast tree) with its
 * `common` languages. A chunk of its own, fetched by `loadHighlighter` the first time a code
 * block names a language: a page that never shows code never downloads it.
 */
const lowlight = createLowlight(common);

/**
 * `code` as React elements: text, and `<span class="hljs-…">` for its tokens (no HTML string is
 * ever set). Null when the language is not one lowlight knows (the block stays plain) or the
 * grammar gives up on the text.
 * @example
 * highlight('const a = 1;', 'ts'); // ['', <span className="hljs-keyword">const</span>, ' a = ', …]
 */
export function highlight(code: string, language: string): ReactNode[] | null {
  const name = language.toLowerCase();
  if (!lowlight.registered(name)) return null;
  try {
    return toReact(lowlight.highlight(name, code).children);
  } catch {
    return null;
  }
}

/** The tree's text and `span`s (all lowlight makes) as React nodes; anything else is dropped. */
function toReact(nodes: readonly (RootContent | ElementContent)[]): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element') return null;
    const className = node.properties.className;
    return (
      <span key={index} className={Array.isArray(className) ? className.join(' ') : undefined}>
        {toReact(node.children)}
      </span>
    );
  });
}
