import { createContext, useContext, useLayoutEffect, useMemo, useRef } from 'react';
import type { Element, ElementContent } from 'hast';
import { useMessages } from '../messages/context';
import { fenceIsOpen, LiveSource } from './codeFence';
import { useMath } from './loadMath';

/**
 * The source the parser read (what `position` offsets point into), so a formula that is not
 * rendered shows exactly what was typed, `$` signs and all. `ParsedBlock` provides it.
 */
export const ParsedSource = createContext<string>('');

/** Longer formulas are not rendered (KaTeX would cost a long task): they show their source. */
export const MATH_MAX = 10_000;

export interface MathFormulaProps {
  /** The parsed formula: `code.math-inline`, or the `code.math-display` of a `$$` block. */
  node: Element | undefined;
  /** Where the formula's source is: the `$$` block's `pre` (its `code` has no position), else `node`. */
  at?: Element | undefined;
  /** A block formula (`$$ … $$`), centred on a line of its own; else one inside the text. */
  display: boolean;
}

/**
 * A formula of the reply (`$…$`, `$$…$$`), rendered by KaTeX once its chunk has loaded (it is
 * fetched when the first formula shows), with MathML for screen readers
 * (`data-part="math"`, `data-display="inline|block"`, `data-state="rendered"`). Until then, if
 * it cannot load, on the server and past MATH_MAX characters, its source shows as typed
 * (`data-state="source"`); a formula KaTeX cannot parse shows its source in a `code` element
 * titled with why (`data-state="error"`), never an error.
 *
 * While a reply streams, a `$$` block whose closing `$$` has not come shows its source: it is
 * rendered once, when it closes (or the reply ends), not re-laid out on every delta.
 * @example
 * <MathFormula node={codeElement} display={false} />
 */
export function MathFormula({ node, at = node, display }: MathFormulaProps) {
  const tex = node ? textOf(node) : '';
  const parsed = useContext(ParsedSource);
  const live = useContext(LiveSource);
  const start = at?.position?.start.offset;
  const end = at?.position?.end.offset;
  const source = start !== undefined && end !== undefined && parsed ? parsed.slice(start, end) : display ? `$$\n${tex}\n$$` : `$${tex}$`;
  const open = display && live !== null && (start === undefined || end === undefined || fenceIsOpen(live, start, end));
  const math = useMath(tex.length <= MATH_MAX);
  const rendered = useMemo(() => (math && !open && tex.trim() && tex.length <= MATH_MAX ? math.renderMath(tex, display) : null), [math, open, tex, display]);
  const m = useMessages().markdown;
  const Tag = display ? 'div' : 'span';
  // A wide block formula scrolls sideways: keyboard users can reach the scroller.
  const block = display ? { role: 'group', 'aria-label': m.formula, tabIndex: 0 } : {};
  if (rendered instanceof Error) {
    return (
      <Tag key="error" data-part="math" data-display={display ? 'block' : 'inline'} data-state="error" {...block}>
        <code data-part="math-error-source" title={m.formulaError}>{source}</code>
      </Tag>
    );
  }
  if (rendered) return <Rendered key="rendered" element={rendered} display={display} props={block} />;
  return (
    <Tag key="source" data-part="math" data-display={display ? 'block' : 'inline'} data-state="source">
      {source}
    </Tag>
  );
}

/** KaTeX's element, put in place as it is (React renders no children here, so it never touches them). */
function Rendered({ element, display, props }: { element: globalThis.Element; display: boolean; props: object }) {
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    ref.current?.replaceChildren(element);
  }, [element]);
  const Tag = display ? 'div' : 'span';
  return <Tag ref={ref as never} data-part="math" data-display={display ? 'block' : 'inline'} data-state="rendered" {...props} />;
}

/** The `code` element of a `$$` block's `pre` when it is math (`math-display`), else undefined. */
export function displayMathOf(pre: Element | undefined): Element | undefined {
  const code = pre?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  return isMath(code, 'math-display') ? code : undefined;
}

/** Whether the element is remark-math's `code` of the given kind (`math-inline`, `math-display`). */
export function isMath(node: Element | undefined, kind: 'math-inline' | 'math-display'): node is Element {
  const className = node?.properties.className;
  return Array.isArray(className) && className.includes(kind);
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}
