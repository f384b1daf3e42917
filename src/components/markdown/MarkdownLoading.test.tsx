import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, preloadMarkdown } from './Markdown';

// A module of its own, so the parser's chunk is not loaded yet when the test renders.
describe('<Markdown> before its parser has loaded', () => {
  it('shows plain paragraphs at once, a formatted block as its text, then formatted', { timeout: 20_000 }, async () => {
    // (act around render, as React asks of parts that suspend)
    const long = 'word '.repeat(120);
    const { container } = await act(async () => render(<Markdown text={'Plain words first.\n\nThen **bold** and a list:\n- one\n\n' + long + 'and *late* emphasis'} />));
    expect(container.querySelector('p')).toHaveTextContent('Plain words first.');
    const pending = container.querySelectorAll('[data-part="markdown-source"]');
    expect(pending[0]).toHaveAttribute('data-state', 'loading');
    expect(pending[0]).toHaveTextContent('Then **bold** and a list: - one');
    // A long paragraph's rest waits inside its own paragraph, after its plain start.
    expect(pending[1]?.tagName).toBe('SPAN');
    expect(pending[1]?.parentElement?.tagName).toBe('P');
    expect(pending[1]?.parentElement).toHaveTextContent(long.trim() + ' and *late* emphasis');
    await act(async () => {
      await preloadMarkdown();
    });
    expect((await screen.findByText('bold')).tagName).toBe('STRONG');
    expect(screen.getByRole('listitem')).toHaveTextContent('one');
    expect(container.querySelector('em')).toHaveTextContent('late');
    expect(container.querySelector('[data-part="markdown-source"]')).toBeNull();
  });
});
