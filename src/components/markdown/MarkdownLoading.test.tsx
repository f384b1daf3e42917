import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, preloadMarkdown } from './Markdown';

// A module of its own, so the parser's chunk is not loaded yet when the test renders.
describe('<Markdown> before its parser has loaded', () => {
  it('shows plain paragraphs at once, a formatted block as its text, then formatted', { timeout: 20_000 }, async () => {
    // (act around render, as React asks of parts that suspend)
    const { container } = await act(async () => render(<Markdown text={'Plain words first.\n\nThen **bold** and a list:\n- one'} />));
    expect(container.querySelector('p')).toHaveTextContent('Plain words first.');
    const pending = container.querySelector('[data-part="markdown-source"]');
    expect(pending).toHaveAttribute('data-state', 'loading');
    expect(pending).toHaveTextContent('Then **bold** and a list: - one');
    await act(async () => {
      await preloadMarkdown();
    });
    expect((await screen.findByText('bold')).tagName).toBe('STRONG');
    expect(screen.getByRole('listitem')).toHaveTextContent('one');
    expect(container.querySelector('[data-part="markdown-source"]')).toBeNull();
  });
});
