import { act, render, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIGHLIGHT_MAX } from './CodeBlock';
import { fenceIsOpen } from './codeFence';
import { highlighterChunk, loadHighlighter, resetHighlighter } from './loadHighlighter';
import { Markdown, preloadMarkdown } from './Markdown';

const block = (container: HTMLElement, index = 0) => container.querySelectorAll<HTMLElement>('[data-part="code-block"]')[index]!;
const tokens = (element: Element) => element.querySelectorAll('pre code span[class^="hljs-"]');

describe('fenceIsOpen', () => {
  it('is true while the closing fence has not come, false once it has or text follows', () => {
    expect(fenceIsOpen('```ts\nconst a', 0, 13)).toBe(true);
    expect(fenceIsOpen('```ts', 0, 5)).toBe(true);
    expect(fenceIsOpen('```ts\nconst a\n``', 0, 16)).toBe(true); // half a fence
    expect(fenceIsOpen('````ts\nconst a\n```', 0, 18)).toBe(true); // shorter than the opening one
    expect(fenceIsOpen('```ts\nconst a\n```', 0, 17)).toBe(false);
    expect(fenceIsOpen('```ts\nconst a\n```\n', 0, 17)).toBe(false);
    expect(fenceIsOpen('~~~ts\nconst a\n~~~', 0, 17)).toBe(false);
    expect(fenceIsOpen('```ts\nconst a\n```\nmore', 0, 17)).toBe(false);
    expect(fenceIsOpen('    indented code', 0, 17)).toBe(false);
  });
});

describe('code highlighting', () => {
  beforeAll(async () => {
    await preloadMarkdown();
  });
  beforeEach(() => resetHighlighter());
  afterEach(() => vi.restoreAllMocks());

  it('does not fetch the highlighter for a message without code, nor for a fence without a language', async () => {
    const load = vi.spyOn(highlighterChunk, 'load');
    const { container } = render(<Markdown text={'# Title\n\nSome **bold**, `inline code` and a list:\n\n- one\n- two\n\n```\nno language\n```'} />);
    await act(async () => {});
    expect(block(container)).toHaveAttribute('data-state', 'plain');
    expect(container.querySelector('pre code')).toHaveTextContent('no language');
    expect(load).not.toHaveBeenCalled();
  });

  it('shows the code plain at once, then with hljs-* token spans once the highlighter has loaded', async () => {
    const load = vi.spyOn(highlighterChunk, 'load');
    const source = 'const a: number = 1; // one';
    const { container } = render(<Markdown text={'```ts\n' + source + '\n```\n\n```python\ndef f():\n    return "x"\n```'} />);
    expect(block(container)).toHaveAttribute('data-state', 'plain');
    expect(container.querySelector('pre code')!.textContent).toBe(source);
    await waitFor(() => expect(block(container)).toHaveAttribute('data-state', 'highlighted'));
    expect(load).toHaveBeenCalledTimes(1); // shared by both blocks
    const ts = block(container);
    expect([...tokens(ts)].map((span) => span.className)).toEqual(expect.arrayContaining(['hljs-keyword', 'hljs-built_in', 'hljs-number', 'hljs-comment']));
    expect(ts.querySelector('pre code')!.textContent).toBe(source); // the same text, coloured
    await waitFor(() => expect(block(container, 1)).toHaveAttribute('data-state', 'highlighted'));
    expect(block(container, 1).querySelector('.hljs-string')).toHaveTextContent('"x"');
    // The code is named by its language for a screen reader.
    expect(ts.querySelector('pre')).toHaveAccessibleName('ts');
  });

  it('leaves an unknown language, and code past HIGHLIGHT_MAX, plain', async () => {
    await loadHighlighter();
    const long = 'x = 1\n'.repeat(Math.ceil(HIGHLIGHT_MAX / 6) + 1);
    const { container } = render(<Markdown text={'```klingon\nqaStaH nuq\n```\n\n```python\n' + long + '```\n\n```JSON\n{"a": 1}\n```'} />);
    expect(block(container)).toHaveAttribute('data-state', 'plain');
    expect(block(container)).toHaveAttribute('data-language', 'klingon');
    expect(tokens(block(container))).toHaveLength(0);
    expect(container.querySelector('pre code')).toHaveTextContent('qaStaH nuq');
    expect(block(container, 1)).toHaveAttribute('data-state', 'plain');
    expect(block(container, 2)).toHaveAttribute('data-state', 'highlighted'); // a language's name in capitals is known too
  });

  it('leaves the code plain when the highlighter cannot load, and a later code block tries again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const load = vi.spyOn(highlighterChunk, 'load').mockRejectedValueOnce(new Error('offline'));
    const { container, rerender } = render(<Markdown text={'```ts\nconst a = 1;\n```'} />);
    await act(async () => {});
    expect(load).toHaveBeenCalledTimes(1);
    expect(block(container)).toHaveAttribute('data-state', 'plain');
    expect(container.querySelector('pre code')).toHaveTextContent('const a = 1;');
    expect(console.warn).toHaveBeenCalled();
    // The next message with code fetches it again; both blocks are highlighted once it arrives.
    rerender(
      <>
        <Markdown text={'```ts\nconst a = 1;\n```'} />
        <Markdown text={'```bash\necho "hi"\n```'} />
      </>,
    );
    await waitFor(() => expect(block(container, 1)).toHaveAttribute('data-state', 'highlighted'));
    expect(load).toHaveBeenCalledTimes(2);
    expect(block(container)).toHaveAttribute('data-state', 'highlighted');
  });

  it('while streaming, leaves an open fence plain and highlights it once, when it closes', async () => {
    const { highlight } = await loadHighlighter();
    const spy = vi.fn(highlight);
    vi.spyOn(highlighterChunk, 'load').mockResolvedValue({ highlight: spy });
    resetHighlighter();
    await loadHighlighter();
    let text = 'Here:\n\n```ts\n';
    const { container, rerender } = render(<Markdown text={text} streaming />);
    for (let i = 0; i < 20; i++) {
      text += `const v${i} = ${i};\n`;
      rerender(<Markdown text={text} streaming />);
    }
    await act(async () => {});
    expect(block(container)).toHaveAttribute('data-state', 'plain');
    expect(tokens(block(container))).toHaveLength(0);
    expect(spy).not.toHaveBeenCalled();
    text += '```';
    rerender(<Markdown text={text} streaming />);
    expect(block(container)).toHaveAttribute('data-state', 'highlighted');
    expect(spy).toHaveBeenCalledTimes(1);
    // Text after the fence in the same block re-parses it, but the colours are not computed again.
    const first = tokens(block(container))[0];
    text += '\nand then';
    rerender(<Markdown text={text} streaming />);
    text += ' some more.\n\nNext paragraph';
    rerender(<Markdown text={text} streaming />);
    rerender(<Markdown text={text} />);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(tokens(block(container))[0]).toBe(first);
  });

  it('highlights a fence that was never closed once the reply is done', async () => {
    await loadHighlighter();
    const text = '```python\nprint("unfinished")';
    const { container, rerender } = render(<Markdown text={text} streaming />);
    expect(block(container)).toHaveAttribute('data-state', 'plain');
    rerender(<Markdown text={text} />);
    expect(block(container)).toHaveAttribute('data-state', 'highlighted');
    expect(block(container).querySelector('.hljs-string')).toHaveTextContent('"unfinished"');
  });
});
