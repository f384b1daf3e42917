import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { isPlainParagraph } from './blocks';
import { remarkGfmParse } from './gfm';
import { Markdown, preloadMarkdown } from './Markdown';
import { ParsedBlock } from './ParsedBlock';
import { CURSOR_PAUSE_MS } from './useStreamPause';

describe('remarkGfmParse', () => {
  it('parses exactly as remark-gfm does (it is remark-gfm without the serializer)', () => {
    const sample = '| a | b |\n|:-|-:|\n| 1 | ~~2~~ |\n\n- [x] done\n- [ ] todo\n\nSee www.example.com and https://x.y/z, a note[^1].\n\n[^1]: The note.';
    const withRemarkGfm = renderToStaticMarkup(<ReactMarkdown remarkPlugins={[remarkGfm]}>{sample}</ReactMarkdown>);
    const withParseOnly = renderToStaticMarkup(<ReactMarkdown remarkPlugins={[remarkGfmParse]}>{sample}</ReactMarkdown>);
    expect(withParseOnly).toBe(withRemarkGfm);
    expect(withParseOnly).toContain('<table>');
    expect(withParseOnly).toContain('<del>2</del>');
  });
});

describe('plain paragraphs', () => {
  it('skip the parser and render exactly what the parser renders', () => {
    const plain = ['Saved note 3.', '#12 lorem ipsum dolor sit amet', 'Issue #5 (the second one) is fixed; 40% done, $3 left.', 'It is 2026-11-29 14:02 UTC', 'Ça marche, 日本語も大丈夫 👍', '#9991  sit amet consectetur adipiscing elit sed do ', 'ends in two spaces  ',
      // A `<` or `>` inside a line is text, or inline HTML, which shows as its text.
      'a < b and c > d', 'Vec<T> and Map<K, V>', 'w511<<END>>', 'press <b>bold</b> for <x-y>', 'a<div>b</div>', 'if a<3 then'];
    for (const text of plain) {
      expect(isPlainParagraph(text)).toBe(true);
      const ours = renderToStaticMarkup(<Markdown text={text} />).replace(/^<div data-part="markdown">|<\/div>$/g, '');
      expect(ours).toBe(renderToStaticMarkup(<ReactMarkdown remarkPlugins={[remarkGfmParse]}>{text}</ReactMarkdown>));
    }
  });

  it('are not mistaken for text that has markdown in it (an autolink, HTML or a quote at a line start)', () => {
    for (const text of ['# Title', '- item', '1. first', '> quote', 'a **b**', 'see www.example.com', 'mail ada@example.com', 'x_y_z', 'AT&amp;T', '<div>block</div>', '  <p>x</p>', '<https://example.com>', 'see <https://example.com>', 'call <tel:123>', 'go <irc:x>', '<b>bold</b> first', '>quote', 'line\nbreak', ' indented', 'https://example.com', 'a | b', '~~gone~~', 'esc\\aped']) {
      expect(isPlainParagraph(text)).toBe(false);
    }
  });
});

describe('<Markdown>', () => {
  // The parser is its own chunk: these tests read the parsed output (MarkdownLoading.test.tsx: before it loads).
  beforeAll(async () => {
    await preloadMarkdown();
  });

  it('streams a long plain paragraph into the same text nodes: the text already shown is left as it is', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${String(i % 1000).padStart(3, '0')}`).join('');
    const { container, rerender } = render(<Markdown text={words(300)} streaming />);
    const paragraph = container.querySelector('p')!;
    const first = paragraph.firstChild;
    rerender(<Markdown text={words(600)} streaming />);
    expect(container.querySelectorAll('p')).toHaveLength(1);
    expect(paragraph.textContent).toBe(words(600));
    expect(paragraph.firstChild).toBe(first);
    expect(first?.textContent).toBe(words(300).slice(0, 512));
  });

  it('parses only what follows the plain start of a long paragraph, and renders exactly what parsing it all renders', { timeout: 20_000 }, () => {
    const head = Array.from({ length: 300 }, (_, i) => `w${String(i).padStart(3, '0')}`).join('');
    const spaced = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    // Starts that end just before, at and just after a cut point (1,024), so a tail's syntax lands on every side of it.
    const starts = [...[1023, 1024, 1025].map((length) => head.slice(0, length)), spaced.slice(0, 1023), spaced.slice(0, 1025)];
    const tails = [
      '<<END>>', ' and **bold** text', 'x*em*y', ' then _under_ score', 'x_y_z', 'ada@example.com', ' mail ada@example.com now', '.ada+x@example.com',
      'www.example.com', ' see www.example.com', 'http://example.com', ' see https://example.com/a?b=1.', ' [docs](https://example.com/docs)',
      ' `code` here', ' AT&amp;T', ' a < b > c', ' ~~gone~~ ok', ' trailing  ', ' ![pic](https://x.y/p.png)', ' 1. not a list', ' # not a heading', '\\*escaped',
      // A `<` or `>` is text inside a line, but would start HTML or a quote where a cut starts a line.
      '<div>x</div> **y**', '>q *x*', '<b>b</b> *x*', '<<END>> and **bold**', 'Vec<T> *x*',
    ];
    for (const start of starts) {
      for (const tail of tails) {
        const text = start + tail;
        const ours = renderToStaticMarkup(<Markdown text={text} />).replace(/^<div data-part="markdown">|<\/div>$/g, '');
        // What the kit renders when the whole paragraph goes through the parser.
        expect(ours, JSON.stringify(tail)).toBe(renderToStaticMarkup(<ParsedBlock source={text} />));
      }
    }
  });

  it('keeps the text nodes already shown when syntax arrives late in a streaming paragraph', () => {
    const head = Array.from({ length: 600 }, (_, i) => `w${String(i % 1000).padStart(3, '0')}`).join('');
    const { container, rerender } = render(<Markdown text={head} streaming />);
    const paragraph = container.querySelector('p')!;
    const first = paragraph.firstChild;
    rerender(<Markdown text={head + '<<END>> and **bold'} streaming />);
    expect(container.querySelector('p')).toBe(paragraph);
    expect(paragraph.firstChild).toBe(first);
    expect(paragraph.querySelector('strong')).toHaveTextContent('bold');
    expect(paragraph.textContent).toBe(head + '<<END>> and bold');
  });

  it('streamed a few characters a frame, ends exactly as the whole reply renders', () => {
    const reply = 'w000'.repeat(200) + ' see https://example.com/a and **bold**, ada@example.com\n\nNext *para* `code`\n\nIf a < b, see <tel:5550100> or Vec<T>.';
    const { container, rerender } = render(<Markdown text="" streaming />);
    for (let i = 1; i <= reply.length; i += 7) rerender(<Markdown text={reply.slice(0, i)} streaming />);
    rerender(<Markdown text={reply} />);
    const whole = render(<Markdown text={reply} />);
    expect(container.innerHTML).toBe(whole.container.innerHTML);
    expect(container.querySelector('strong')).toHaveTextContent('bold');
    expect(container.querySelector('a[href="tel:5550100"]')).toHaveTextContent('tel:5550100');
    whole.unmount();
  });

  it('renders GitHub-flavoured markdown: tables, strikethrough, task lists and bare links', () => {
    const { container } = render(
      <Markdown text={'| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~ new\n\n- [x] done\n- [ ] todo\n\nSee www.example.com'} />,
    );
    expect(screen.getByRole('table')).toHaveTextContent('a');
    expect(screen.getAllByRole('cell').map((c) => c.textContent)).toEqual(['1', '2']);
    expect(container.querySelector('del')).toHaveTextContent('old');
    expect(screen.getByRole('checkbox', { name: 'Done' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Not done' })).not.toBeChecked();
    expect(screen.getByRole('link', { name: 'www.example.com' })).toHaveAttribute('href', 'http://www.example.com');
  });

  it('shows raw HTML as text and never creates its elements', () => {
    const { container } = render(<Markdown text={'Hi <img src=x onerror="alert(1)"> and <b>bold</b>\n\n<script>alert(2)</script>'} />);
    expect(container.querySelector('img, b, script')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.textContent).toContain('<script>alert(2)</script>');
  });

  it('opens safe links in a new tab without an opener, and keeps only the text of unsafe ones', () => {
    const { container } = render(<Markdown text={'[docs](https://example.com/docs) and [click](javascript:alert(1)) and [data](data:text/html,x)'} />);
    const link = screen.getByRole('link', { name: 'docs' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.queryByRole('link', { name: 'click' })).toBeNull();
    const blocked = [...container.querySelectorAll('[data-part="markdown-link"][data-state="blocked"]')].map((el) => el.textContent);
    expect(blocked).toEqual(['click', 'data']);
    expect(container.innerHTML).not.toContain('javascript:');
  });

  it('never loads an image from the text: it becomes a link to it', () => {
    const { container } = render(<Markdown text={'![chart](https://tracker.example/p.png?secret=1)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Image: chart' })).toHaveAttribute('href', 'https://tracker.example/p.png?secret=1');
  });

  it('renders a fenced code block with its language and a Copy button that copies the code', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { container } = render(<Markdown text={'```ts\nconst a = 1;\n```'} />);
    expect(container.querySelector('[data-part="code-block"]')).toHaveAttribute('data-language', 'ts');
    expect(container.querySelector('pre code')).toHaveTextContent('const a = 1;');
    const copy = screen.getByRole('button', { name: 'Copy ts code' });
    await act(async () => {
      fireEvent.click(copy);
    });
    expect(writeText).toHaveBeenCalledWith('const a = 1;');
    expect(copy).toHaveTextContent('Copied');
  });

  it('while streaming, closes a half-written construct instead of flashing its markers', () => {
    const { container, rerender } = render(<Markdown text="Some **bol" streaming />);
    expect(container.querySelector('strong')).toHaveTextContent('bol');
    expect(container.textContent).not.toContain('*');
    rerender(<Markdown text="Some **bold** text" streaming />);
    expect(container.querySelector('strong')).toHaveTextContent('bold');
  });

  it('says it is streaming on its own element (data-streaming, where the cursor shows), and no longer once done', () => {
    const { container, rerender } = render(<Markdown text="Half a rep" streaming />);
    expect(container.querySelector('[data-part="markdown"]')).toHaveAttribute('data-streaming', 'flowing');
    rerender(<Markdown text="Half a reply." />);
    expect(container.querySelector('[data-part="markdown"]')).not.toHaveAttribute('data-streaming');
  });

  it('says the stream is paused (the cursor blinks) once no text has come for a moment, and flowing again with the next text', () => {
    vi.useFakeTimers();
    try {
      const { container, rerender } = render(<Markdown text="" streaming />);
      const markdown = () => container.querySelector('[data-part="markdown"]');
      expect(markdown()).toHaveAttribute('data-streaming', 'paused'); // waiting for the first text
      rerender(<Markdown text="Half" streaming />);
      expect(markdown()).toHaveAttribute('data-streaming', 'flowing');
      act(() => vi.advanceTimersByTime(CURSOR_PAUSE_MS - 100));
      rerender(<Markdown text="Half a" streaming />);
      act(() => vi.advanceTimersByTime(CURSOR_PAUSE_MS - 100));
      expect(markdown()).toHaveAttribute('data-streaming', 'flowing');
      act(() => vi.advanceTimersByTime(100));
      expect(markdown()).toHaveAttribute('data-streaming', 'paused');
      rerender(<Markdown text="Half a rep" streaming />);
      expect(markdown()).toHaveAttribute('data-streaming', 'flowing');
      rerender(<Markdown text="Half a reply." />);
      act(() => vi.advanceTimersByTime(CURSOR_PAUSE_MS * 2));
      expect(markdown()).not.toHaveAttribute('data-streaming');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps finished blocks as they are while later text streams in', () => {
    const { container, rerender } = render(<Markdown text={'First paragraph.\n\nSecond'} streaming />);
    const first = container.querySelector('p');
    rerender(<Markdown text={'First paragraph.\n\nSecond paragraph, longer.\n\nThird'} streaming />);
    expect(container.querySelector('p')).toBe(first);
    expect(container.querySelectorAll('p')).toHaveLength(3);
  });
});
