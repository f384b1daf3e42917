import type { Element } from 'hast';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import { describe, expect, it, vi } from 'vitest';
import { remarkGfmParse } from './gfm';
import { remarkMathParse } from './mathSyntax';
import { leadingFence } from './leadingFence';
import { ParsedBlock } from './ParsedBlock';

/** react-markdown as is, its calls counted (what ParsedBlock sends through the parser). */
const parses = vi.hoisted(() => [] as string[]);
vi.mock('react-markdown', async (original) => {
  const actual = await original<typeof import('react-markdown')>();
  const Counted = (props: Parameters<typeof actual.default>[0]) => (parses.push(String(props.children)), actual.default(props));
  return { ...actual, default: Counted };
});

/** The `pre` elements the parser makes of `source` (as ParsedBlock parses it), and whether it made anything else. */
function parsed(source: string): { pres: Element[]; other: boolean } {
  const pres: Element[] = [];
  const html = renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={[remarkGfmParse, remarkMathParse]} components={{ pre: ({ node }) => (pres.push(node!), <pre />) }}>
      {source}
    </ReactMarkdown>,
  );
  return { pres, other: html !== '<pre></pre>' };
}

/** ParsedBlock's markup (React's ids for the language labels differ with the depth of the tree: compared as one). */
const html = (block: string) => renderToStaticMarkup(<ParsedBlock source={block} />).replace(/_R_\w+_/g, 'id');

/** The parts of a parsed node the code block reads, positions as offsets. */
const shape = (pre: Element) => JSON.parse(JSON.stringify(pre, (key, value) => (key === 'position' ? { start: value.start.offset, end: value.end.offset } : value)));

const SOLE = [
  '```ts\nconst a = 1;\n```',
  '```ts\nconst a = 1;',
  '```ts\nconst a = 1;\n',
  '```ts\nconst a = 1;\n\n',
  '```ts\nx\n  ',
  '```ts\nx\n  \n',
  '```ts\n\n',
  '```ts\n\n\n',
  '```ts  \nx',
  '```ts \t a b \t\nx',
  '```ts\nx\n\n```',
  '```ts',
  '```',
  '```ts\n',
  '```ts\n```',
  '``` ts  title="x.ts"  \nlet x\n```',
  '```\tts\n\tindented\n  two\n```',
  '````md\n```\ninner\n```\n````',
  '````md\n```\ninner\n```',
  '~~~python\nprint(1)\n~~~',
  '~~~ a`b\nx\n~~~~~',
  '```ts\nconst a = 1;\n   ```',
  '```ts\nconst a = 1;\n```   ',
  '```ts\nx\n``',
  '```ts\nx\n~~~',
  '```ts\nx\n    ```',
  '```mermaid\ngraph TD; A-->B',
  '```ts\n<b>&amp; \\n</b>\n\n\nmore lines\n```',
  '```ts\n' + Array.from({ length: 300 }, (_, i) => `w${String(i).padStart(3, '0')}`).join('') + '\n',
];

/** Blocks with more after the fence (a fence ends its block: the rest is parsed on its own). */
const WITH_REST = [
  '```ts\nx\n```\nmore text',
  '```ts\nx\n```\n',
  '```ts\nx\n```  \n  ',
  '```ts\nx\n```\n```js\ny\n```',
  '```ts\nx\n```\n===',
  '```ts\nx\n```\n- a list\n- [x] done',
  '```ts\nx\n```\nSee [the docs][d] and $x^2$.\n\n[d]: https://example.com',
  '~~~\nx\n~~~\n| a | b |\n|---|---|\n| 1 | 2 |',
];

const NOT_LEADING = [
  ' ```ts\nindented fence\n```',
  '```a`b\nnot a fence',
  '```t\\s\nescaped info',
  '```&amp;\nreference in info',
  '```ts\r\nx\r\n```',
  'text\n```ts\nx\n```',
  '$$\nx^2\n$$',
  '``inline``',
];

describe('leadingFence', () => {
  it.each(SOLE)('makes the element the parser makes of %j', (source) => {
    const { pres, other } = parsed(source);
    expect(pres).toHaveLength(1);
    expect(other).toBe(false);
    expect(leadingFence(source)).toEqual({ pre: expect.anything(), rest: '' });
    expect(shape(leadingFence(source)!.pre)).toEqual(shape(pres[0]!));
  });

  it.each(WITH_REST)('makes the parser\'s first element of %j, and the rest renders as the parser renders it', (source) => {
    const fence = leadingFence(source)!;
    expect(shape(fence.pre)).toEqual(shape(parsed(source).pres[0]!));
    // ParsedBlock (the fence from its text, the rest parsed) renders what the parser makes of the
    // whole block (a blank line in front: no fence at its start, so all of it goes through the parser).
    expect(html(source)).toBe(html('\n' + source));
  });

  it.each(NOT_LEADING)('leaves %j to the parser', (source) => {
    expect(leadingFence(source)).toBeNull();
  });

  it('agrees with the parser on every block it takes, over many generated ones', () => {
    // Blocks made of fence characters, spaces, tabs, line breaks and letters (a fixed sequence, so a failure repeats).
    let seed = 41;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pieces = ['```', '~~~', '`', '~', ' ', '\t', '\n', 'a', 'ts', '\n```', '\n~~~~', '\n   ```', '    ', '\n- a', '\n# b', '*c*'];
    let taken = 0;
    for (let i = 0; i < 400; i++) {
      let source = random() < 0.5 ? '```' : '~~~';
      for (let k = Math.floor(random() * 12); k > 0; k--) source += pieces[Math.floor(random() * pieces.length)];
      const fence = leadingFence(source);
      if (!fence) continue;
      taken++;
      const { pres, other } = parsed(source);
      expect({ source, shape: shape(fence.pre) }).toEqual({ source, shape: shape(pres[0]!) });
      if (!fence.rest) expect({ source, count: pres.length, other }).toEqual({ source, count: 1, other: false });
      else expect({ source, html: html(source) }).toEqual({ source, html: html('\n' + source) });
    }
    expect(taken).toBeGreaterThan(200);
  });
});

describe('ParsedBlock with a leading fence', () => {
  it('parses only what follows the fence: nothing while the block is one code block', () => {
    parses.length = 0;
    const code = '```ts\n' + 'const a = 1;\n'.repeat(200);
    const html = renderToStaticMarkup(<ParsedBlock source={code} />);
    expect(parses).toEqual([]);
    expect(html).toContain('data-part="code-block"');
    expect(html).toContain('const a = 1;');
    renderToStaticMarkup(<ParsedBlock source={code + '```\nThen **this**.'} />);
    expect(parses).toEqual(['Then **this**.']);
  });
});

