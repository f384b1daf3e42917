import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadMarkdown } from '../markdown/Markdown';
import { preloadMessageParts } from '../message/deferredMessageParts';
import { MessageRow } from './MessageRow';

// The parser is its own chunk (see Markdown.test.tsx for the text shown while it loads), as are a
// reply's actions (a shell of their size shows meanwhile).
beforeAll(async () => {
  await Promise.all([preloadMarkdown(), preloadMessageParts()]);
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

  it('a long paste shows collapsed until Show all, which says how long it is and toggles back', async () => {
    const text = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the pasted log`).join('\n');
    const { container } = render(<MessageRow row={{ kind: 'user', id: 'u1', text }} />);
    const message = container.querySelector('[data-part="message"]')!;
    expect(message).toHaveAttribute('data-collapsed');
    const button = screen.getByRole('button', { name: `Show all (${new Intl.NumberFormat().format(text.length)} characters)` });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    // Nothing is lost: the whole text is there, only clipped.
    expect(message.querySelector('[data-part="message-text"]')!.textContent).toBe(text);
    await userEvent.click(button);
    expect(message).not.toHaveAttribute('data-collapsed');
    expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('a short message has no Show all; the offline model is named in the badge, not on every reply', () => {
    render(<MessageRow row={{ kind: 'user', id: 'u1', text: 'hello' }} />);
    expect(screen.queryByRole('button')).toBeNull();
    render(<MessageRow row={{ kind: 'assistant', id: 'a1', text: 'Hi.', status: 'done', driver: { id: 'offline', label: 'Offline model' } }} />);
    render(<MessageRow row={{ kind: 'assistant', id: 'a2', text: 'Hi.', status: 'done', driver: { id: 'claude', label: 'Claude Sonnet' } }} />);
    expect(screen.getAllByText(/^(Assistant|Claude Sonnet|Offline model)$/).map((e) => e.textContent)).toEqual(['Assistant', 'Claude Sonnet']);
  });
});
