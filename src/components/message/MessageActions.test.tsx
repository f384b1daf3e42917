import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedbackChange } from '../../runtime/host/hostTypes';
import type { ModelDriver } from '../../runtime/model';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import type { WorkspaceAdapter } from '../../workspace/types';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { MessageRow } from '../transcript/MessageRow';
import { Message } from './Message';
import { preloadMessageParts } from './deferredMessageParts';

// The actions load on use (a chunk of their own, with a shell of their size meanwhile): there before the tests.
beforeAll(() => preloadMessageParts());

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => {
  layout.restore();
  vi.restoreAllMocks();
});

const driver: ModelDriver = {
  info: { id: 'probe', label: 'Probe' },
  async *respond() {
    yield { type: 'text', text: 'There are **6** records.' };
  },
};

async function chatWithOneReply(workspace?: WorkspaceAdapter) {
  const changes: FeedbackChange[] = [];
  const local = createLocalWorkspace({ capabilities: [], driver, onFeedback: (c) => void changes.push(c) });
  render(<ChatSurface workspace={workspace ?? local} theme="light" />);
  await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'how many records?{Enter}');
  const actions = await screen.findByRole('group', { name: 'Message actions' });
  return { actions, changes, local };
}

describe('<Message.Actions> under a reply', () => {
  it('Copy puts the reply on the clipboard as markdown and announces "Copied"', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { actions } = await chatWithOneReply();
    await user.click(within(actions).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('There are **6** records.');
    expect(within(actions).getByRole('button', { name: 'Copied' })).toHaveAttribute('data-state', 'copied');
    await waitFor(() => expect(actions.querySelector('[data-part="message-actions-announcement"]')).toHaveTextContent('Copied'));
  });

  it('Good response toggles on (aria-pressed), opens the comment box, and a comment reaches onFeedback; pressing again withdraws', async () => {
    const { actions, changes } = await chatWithOneReply();
    const good = within(actions).getByRole('button', { name: 'Good response' });
    const bad = within(actions).getByRole('button', { name: 'Bad response' });
    expect(good).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(good);
    await waitFor(() => expect(good).toHaveAttribute('aria-pressed', 'true'));
    expect(bad).toHaveAttribute('aria-pressed', 'false');
    expect(actions).toHaveAttribute('data-state', 'good');
    const box = await within(actions).findByRole('textbox', { name: 'Tell us more (optional)' });
    expect(box).toHaveFocus();
    await userEvent.type(box, 'Exactly what I needed.');
    await userEvent.click(within(actions).getByRole('button', { name: 'Send feedback' }));
    await waitFor(() => expect(changes).toHaveLength(2));
    expect(changes.map((c) => [c.rating, c.comment])).toEqual([
      ['good', undefined],
      ['good', 'Exactly what I needed.'],
    ]);
    expect(within(actions).queryByRole('textbox')).toBeNull();
    expect(good).toHaveFocus();

    await userEvent.click(good);
    await waitFor(() => expect(good).toHaveAttribute('aria-pressed', 'false'));
    expect(changes.at(-1)).toMatchObject({ rating: null, previous: { rating: 'good', comment: 'Exactly what I needed.' } });
    expect(within(actions).queryByRole('textbox')).toBeNull();
    await waitFor(() => expect(actions.querySelector('[data-part="message-actions-announcement"]')).toHaveTextContent('Feedback removed'));
  });

  it('Skip or Escape closes the comment box and keeps the rating', async () => {
    const { actions, changes } = await chatWithOneReply();
    await userEvent.click(within(actions).getByRole('button', { name: 'Bad response' }));
    const box = await within(actions).findByRole('textbox', { name: 'Tell us more (optional)' });
    await userEvent.type(box, 'half written{Escape}');
    expect(within(actions).queryByRole('textbox')).toBeNull();
    expect(within(actions).getByRole('button', { name: 'Bad response' })).toHaveAttribute('aria-pressed', 'true');
    expect(changes).toHaveLength(1);
  });

  it('a rating the workspace refuses says so and leaves the buttons as they were', async () => {
    const changes: FeedbackChange[] = [];
    const local = createLocalWorkspace({ capabilities: [], driver, onFeedback: (c) => void changes.push(c) });
    const refusing: WorkspaceAdapter = { ...local, feedback: () => Promise.reject(new Error('The server is restarting.')) };
    const { actions } = await chatWithOneReply(refusing);
    await userEvent.click(within(actions).getByRole('button', { name: 'Good response' }));
    expect(await within(actions).findByRole('alert')).toHaveTextContent('Feedback not saved: The server is restarting.');
    expect(within(actions).getByRole('button', { name: 'Good response' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(actions).queryByRole('textbox')).toBeNull();
  });

  it('a workspace without feedback (nor regenerate) shows Copy only; a streaming reply shows no actions', async () => {
    const local = createLocalWorkspace({ capabilities: [], driver });
    const { feedback: _none, regenerate: _neither, ...withoutFeedback } = local;
    const { actions } = await chatWithOneReply(withoutFeedback as WorkspaceAdapter);
    expect(within(actions).getAllByRole('button').map((b) => b.textContent)).toEqual(['Copy']);

    const streaming = render(<MessageRow row={{ kind: 'assistant', id: 'a9', text: 'There are', status: 'streaming' }} />);
    expect(streaming.container.querySelector('[data-part="message-actions"]')).toBeNull();
  });

  it('a host recomposes the parts: only the ones it places show', () => {
    render(
      <Message.Actions row={{ kind: 'assistant', id: 'a1', text: 'Done.', status: 'done' }}>
        <Message.Copy />
      </Message.Actions>,
    );
    expect(screen.getByRole('group', { name: 'Message actions' })).toHaveAttribute('data-state', 'none');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Copy']);
    expect(() => render(<Message.Copy />)).toThrow('<Message.Copy> must be used within <Message.Actions>.');
  });
});
