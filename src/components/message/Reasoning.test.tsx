import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelDriver } from '../../runtime/model';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { MessagesProvider } from '../messages/context';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { MessageReasoning } from './Reasoning';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

const done = { text: 'The user wants a greeting.', status: 'done' as const, startedAt: 1_000, endedAt: 5_200 };

describe('<MessageReasoning>', () => {
  it('done: a collapsed "Thought for 4 s" button that opens and closes the text', async () => {
    const { container } = render(<MessageReasoning reasoning={done} streaming={false} />);
    const toggle = screen.getByRole('button', { name: 'Thought for 4 s' });
    expect(container.querySelector('[data-part="reasoning"]')!.getAttribute('data-state')).toBe('done');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Reasoning' })).toBeNull();
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const region = screen.getByRole('region', { name: 'Reasoning' });
    expect(toggle.getAttribute('aria-controls')).toBe(region.id);
    expect(region.textContent).toBe('The user wants a greeting.');
    await userEvent.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('streaming: "Thinking…", its text growing while open; open reasoning of a reply that ended is done', () => {
    const streaming = { text: 'The user', status: 'streaming' as const, startedAt: 1_000 };
    const { container, rerender } = render(<MessageReasoning reasoning={streaming} streaming />);
    expect(container.querySelector('[data-part="reasoning"]')!.getAttribute('data-state')).toBe('streaming');
    screen.getByRole('button', { name: 'Thinking…' }).click();
    rerender(<MessageReasoning reasoning={{ ...streaming, text: 'The user wants' }} streaming />);
    expect(screen.getByRole('region', { name: 'Reasoning' }).textContent).toBe('The user wants');
    rerender(<MessageReasoning reasoning={streaming} streaming={false} />);
    expect(screen.getByRole('button', { name: 'Thought' }).closest('[data-part="reasoning"]')!.getAttribute('data-state')).toBe('done');
  });

  it('redacted: says so in plain words, with nothing to open when nothing is readable', async () => {
    const { container, rerender } = render(<MessageReasoning reasoning={{ text: '', status: 'done', redacted: true, startedAt: 1, endedAt: 1 }} streaming={false} />);
    expect(container.querySelector('[data-part="reasoning"]')!.getAttribute('data-state')).toBe('redacted');
    expect(screen.queryByRole('button')).toBeNull();
    expect(container.textContent).toBe("Some of the reasoning was hidden by the provider's safety systems.");
    rerender(<MessageReasoning reasoning={{ ...done, redacted: true }} streaming={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Thought for 4 s' }));
    expect(screen.getByRole('region', { name: 'Reasoning' }).textContent).toContain('hidden by the provider');
  });

  it("takes the host's words", () => {
    render(
      <MessagesProvider messages={{ reasoning: { thoughtFor: (ms) => `${Math.round(ms / 1000)} s nachgedacht` } }}>
        <MessageReasoning reasoning={done} streaming={false} />
      </MessagesProvider>,
    );
    expect(screen.getByRole('button', { name: '4 s nachgedacht' })).toBeTruthy();
  });
});

describe('the assistant row with reasoning', () => {
  it('shows the disclosure above the reply, loaded on use', async () => {
    const driver: ModelDriver = {
      info: { id: 'probe', label: 'Probe' },
      async *respond() {
        yield { type: 'reasoning', text: 'Count them ' };
        yield { type: 'reasoning', text: 'first.' };
        yield { type: 'reasoning_end' };
        yield { type: 'text', text: 'There are 6 records.' };
      },
    };
    render(<ChatSurface workspace={createLocalWorkspace({ capabilities: [], driver })} theme="light" />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'how many records?{Enter}');
    const toggle = await screen.findByRole('button', { name: /^Thought for \d+ s$/ });
    const row = toggle.closest('[data-part="message"]') as HTMLElement;
    expect(row.getAttribute('data-role')).toBe('assistant');
    // Above the reply's text, in the same bubble.
    expect(toggle.compareDocumentPosition(within(row).getByText('There are 6 records.')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(toggle);
    expect(within(row).getByRole('region', { name: 'Reasoning' }).textContent).toBe('Count them first.');
  });
});
