import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadMarkdown } from '../markdown/Markdown';
import { MessageRow } from './MessageRow';

// The parser is its own chunk (see Markdown.test.tsx for the text shown while it loads).
beforeAll(async () => {
  await preloadMarkdown();
});

describe('<MessageRow>', () => {
  it('shows an interrupted reply with the text that arrived and a plain note', () => {
    const { container } = render(<MessageRow row={{ kind: 'assistant', id: 'a1', text: 'Here is the **report**, section', status: 'interrupted' }} />);
    const message = container.querySelector('[data-part="message"]')!;
    expect(message).toHaveAttribute('data-state', 'interrupted');
    expect(message).not.toHaveAttribute('aria-busy');
    expect(message).toHaveTextContent('Here is the report, section');
    expect(screen.getByText('The server restarted; this reply was cut off.')).toHaveAttribute('data-part', 'message-note');
    expect(message).not.toHaveTextContent('This reply was cut short.');
  });

  it('a done reply has no note; an errored one says it was cut short', () => {
    const done = render(<MessageRow row={{ kind: 'assistant', id: 'a1', text: 'All done.', status: 'done' }} />);
    expect(done.container.querySelector('[data-part="message-note"]')).toBeNull();
    done.unmount();
    render(<MessageRow row={{ kind: 'assistant', id: 'a2', text: 'Half', status: 'error' }} />);
    expect(screen.getByText('This reply was cut short.')).toBeInTheDocument();
  });
});
