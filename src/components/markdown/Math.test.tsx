import { act, render, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { endsInOpenFence, firstSyntax, firstSyntaxAfter, isPlainParagraph, splitBlocks } from './blocks';
import { fenceIsOpen } from './codeFence';
import { loadMath, mathChunk, resetMath } from './loadMath';
import { Markdown, preloadMarkdown } from './Markdown';
import { MATH_MAX } from './MathFormula';

const formulas = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('[data-part="math"]')];
const formula = (container: HTMLElement, index = 0) => formulas(container)[index]!;

describe('math in the block helpers', () => {
  it('sees a `$` with a non-space after it as possible syntax, a lone `$ ` not', () => {
    expect(firstSyntax('so $x^2$ grows')).toBe(3);
    expect(isPlainParagraph('It costs $ 5, or 5 $ in cash.')).toBe(true);
    expect(isPlainParagraph('Up to $ 5 or $ 6.')).toBe(true);
    expect(isPlainParagraph('It is $x$.')).toBe(false);
    expect(isPlainParagraph('Only $3 left.')).toBe(true);
    expect(isPlainParagraph('$5 and $10')).toBe(false); // parsed: the same text (see below)
  });

  it('finds a `$…$` whose closing `$` streams in long after its opening one', () => {
    const previous = 'So $x + y + z' + ' + w'.repeat(20) + ' **a';
    const first = firstSyntaxAfter('', -1, previous);
    expect(first).toBe(previous.indexOf('**'));
    expect(firstSyntaxAfter(previous, first, previous + '**$ done')).toBe(3);
    expect(firstSyntaxAfter('Only $3', -1, 'Only $3 left')).toBe(-1);
  });

  it('keeps a `$$` block with a blank line in it as one block, and `$$x$$` on a line is no fence', () => {
    expect(splitBlocks('Before\n\n$$\na\n\nb\n$$\n\nAfter')).toEqual(['Before', '$$\na\n\nb\n$$', 'After']);
    expect(splitBlocks('$$x^2$$\n\nAfter')).toEqual(['$$x^2$$', 'After']);
    expect(endsInOpenFence('$$\n\\frac{a}{b')).toBe(true);
    expect(endsInOpenFence('$$\na\n$$')).toBe(false);
    expect(fenceIsOpen('$$\n\\frac{a}{b', 0, 13)).toBe(true);
    expect(fenceIsOpen('$$\na\n$$', 0, 7)).toBe(false);
  });
});

describe('math', () => {
  beforeAll(async () => {
    await preloadMarkdown();
  });
  beforeEach(() => resetMath());
  afterEach(() => vi.restoreAllMocks());

  it('does not fetch KaTeX for a message without math: prices, code and a lone `$` stay text', async () => {
    const load = vi.spyOn(mathChunk, 'load');
    const text = 'It costs $5 and $10, or $ 20 in **cash**.\n\nIn the shell: `echo $HOME$`\n\n```sh\necho "$PATH$"\n```';
    const { container } = render(<Markdown text={text} />);
    await act(async () => {});
    expect(formulas(container)).toEqual([]);
    expect(container.querySelector('p')!.textContent).toBe('It costs $5 and $10, or $ 20 in cash.');
    expect(container.querySelector('strong')).toHaveTextContent('cash');
    expect(load).not.toHaveBeenCalled();
  });

  it('renders inline and block math with KaTeX, with MathML for screen readers', async () => {
    const load = vi.spyOn(mathChunk, 'load');
    const { container } = render(<Markdown text={'Euler: $e^{i\\pi} + 1 = 0$, and $x$.\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$'} />);
    // The source, as typed, until KaTeX arrives.
    expect(formula(container)).toHaveAttribute('data-state', 'source');
    expect(formula(container).textContent).toBe('$e^{i\\pi} + 1 = 0$');
    expect(formula(container, 2).textContent).toBe('$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$');
    await waitFor(() => expect(formula(container)).toHaveAttribute('data-state', 'rendered'));
    expect(load).toHaveBeenCalledTimes(1); // shared by all three
    const [inline, , block] = formulas(container);
    expect(inline).toHaveAttribute('data-display', 'inline');
    expect(inline!.tagName).toBe('SPAN');
    expect(inline!.closest('p')).not.toBeNull();
    expect(inline!.querySelector('.katex')).not.toBeNull();
    expect(inline!.querySelector('math annotation[encoding="application/x-tex"]')).toHaveTextContent('e^{i\\pi} + 1 = 0');
    expect(inline!.querySelector('.katex-html')).toHaveAttribute('aria-hidden', 'true');
    expect(block).toHaveAttribute('data-display', 'block');
    expect(block).toHaveAttribute('data-state', 'rendered');
    expect(block!.querySelector('.katex-display .katex math[display="block"]')).not.toBeNull();
    expect(block).toHaveAccessibleName('Formula');
    expect(container.querySelector('[data-part="code-block"]')).toBeNull();
  });

  it('shows `$$x$$` alone on its line as a block formula, and inside a sentence inline', async () => {
    await loadMath();
    const { container } = render(<Markdown text={'$$a^2 + b^2 = c^2$$\n\nSo $$c$$ is the longest.'} />);
    await waitFor(() => expect(formula(container, 1)).toHaveAttribute('data-state', 'rendered'));
    expect(formula(container)).toHaveAttribute('data-display', 'block');
    expect(formula(container).closest('p')).toBeNull();
    expect(formula(container, 1)).toHaveAttribute('data-display', 'inline');
  });

  it('shows a formula KaTeX cannot parse as its source in a titled code element, without throwing', async () => {
    await loadMath();
    const { container } = render(<Markdown text={'Broken: $\\frac{1}{$ and fine: $y$.\n\n$$\n\\begin{matrix} a\n$$'} />);
    await waitFor(() => expect(formula(container, 1)).toHaveAttribute('data-state', 'rendered'));
    const broken = formula(container);
    expect(broken).toHaveAttribute('data-state', 'error');
    expect(broken.querySelector('code')).toHaveTextContent('$\\frac{1}{$');
    expect(broken.querySelector('code')).toHaveAttribute('title', 'This formula could not be shown, so it is written out as typed');
    expect(formula(container, 2)).toHaveAttribute('data-state', 'error');
    expect(formula(container, 2).querySelector('code')!.textContent).toBe('$$\n\\begin{matrix} a\n$$');
  });

  it('makes no link, image, class or style from \\href, \\url, \\includegraphics and \\html… commands', async () => {
    await loadMath();
    const text = [
      '$\\href{javascript:alert(1)}{x}$ $\\url{javascript:alert(2)}$ $\\includegraphics{https://example.com/a.png}$',
      '$\\htmlClass{evil}{y}$ $\\htmlId{evil}{z}$ $\\htmlStyle{background:url(https://example.com/b)}{w}$ $\\htmlData{x=1}{v}$',
    ].join('\n');
    const { container } = render(<Markdown text={text} />);
    await waitFor(() => expect(formula(container)).toHaveAttribute('data-state', 'rendered'));
    expect(formulas(container)).toHaveLength(7);
    expect(container.querySelector('a, img, [href], [src], .evil, #evil, [data-x]')).toBeNull();
    // The commands show as their (red) names; the TeX is only text (MathML's annotation), in no attribute.
    const attributes = [...container.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((a) => a.value));
    expect(attributes.filter((value) => /javascript|example\.com|evil/.test(value))).toEqual([]);
    expect(formula(container)).toHaveTextContent('\\href');
  });

  it('keeps a streaming `$$` block as its source until it closes, then renders it once', async () => {
    await loadMath();
    const head = 'The area:\n\n$$\nA = \\pi r^2';
    const { container, rerender } = render(<Markdown text={head} streaming />);
    await act(async () => {});
    expect(formula(container)).toHaveAttribute('data-state', 'source');
    expect(formula(container).textContent).toBe('$$\nA = \\pi r^2');
    rerender(<Markdown text={head + '\n$$'} streaming />);
    await waitFor(() => expect(formula(container)).toHaveAttribute('data-state', 'rendered'));
    const rendered = formula(container).querySelector('.katex');
    rerender(<Markdown text={head + '\n$$\n\nAnd on'} streaming />);
    rerender(<Markdown text={head + '\n$$\n\nAnd on.'} />);
    expect(formula(container).querySelector('.katex')).toBe(rendered); // not rendered again
  });

  it('shows the source when KaTeX cannot be loaded, and tries again for the next formula', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const load = vi.spyOn(mathChunk, 'load').mockRejectedValueOnce(new Error('offline'));
    const first = render(<Markdown text={'First: $a^2$'} />);
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await act(async () => {});
    expect(formula(first.container)).toHaveAttribute('data-state', 'source');
    expect(formula(first.container).textContent).toBe('$a^2$');
    const second = render(<Markdown text={'Second: $b^2$'} />);
    await waitFor(() => expect(formula(second.container)).toHaveAttribute('data-state', 'rendered'));
    expect(load).toHaveBeenCalledTimes(2);
    // The first message's formula renders too, now that KaTeX is here.
    await waitFor(() => expect(formula(first.container)).toHaveAttribute('data-state', 'rendered'));
  });

  it('passes axe (jsdom: structure and names; colour contrast is checked by the stories)', async () => {
    await loadMath();
    const { container } = render(<Markdown text={'So $x^2$ and:\n\n$$\n\\frac{a}{b}\n$$\n\nBroken: $\\frac{1}{$\n\n$$\n\\sum_k k'} streaming />);
    await waitFor(() => expect(formula(container)).toHaveAttribute('data-state', 'rendered'));
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 80)).join(' | ')}`)).toEqual([]);
  });

  it('leaves a formula past MATH_MAX as its source', async () => {
    await loadMath();
    const { container } = render(<Markdown text={`$${'x+'.repeat(MATH_MAX / 2)}x$`} />);
    await act(async () => {});
    expect(formula(container)).toHaveAttribute('data-state', 'source');
  });
});
