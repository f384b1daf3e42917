import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ThreadEventInput } from '../../runtime/events';
import type { VersionRequest, WorkspaceAdapter } from '../../workspace/types';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { preloadMarkdown } from '../markdown/Markdown';
import { preloadMessageParts } from '../message/deferredMessageParts';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';
import { BranchPicker } from './BranchPicker';
import { assistantReply, userMessage } from '../testing/versionEvents';

let layout: LayoutStub;
// The actions, the editor and the picker load on use (a chunk of their own): there before the tests.
beforeAll(async () => {
  await Promise.all([preloadMarkdown(), preloadMessageParts()]);
});
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => {
  layout.restore();
  vi.restoreAllMocks();
});

const user = userMessage;
const reply = assistantReply;

/** Two turns; the second message edited twice (three versions, the newest shown), as the host stamps them. */
const editedTwice = (): ThreadEventInput[] => [
  user('u1', 'first question', 'root'),
  ...reply('a1', 'First answer', 'u1.reply'),
  user('u2', 'hi', 'u1.reply'),
  ...reply('a2', 'Hello', 'u2.reply'),
  user('u2b', 'hi again', 'u1.reply', 'u2'),
  ...reply('a2b', 'Hello again', 'u2b.reply'),
  user('u2c', 'hi thrice', 'u1.reply', 'u2'),
  ...reply('a2c', 'Hello thrice', 'u2c.reply'),
];

/** A scripted workspace with these events on its log and a `showVersion` that emits the switch (or what `showVersion` given does). */
function workspaceWith(events: ThreadEventInput[], extra: Partial<WorkspaceAdapter> = {}) {
  const ws = scriptedWorkspace();
  for (const event of events) ws.log.emit(event);
  const showVersion = vi.fn(async ({ part, messageId, version }: VersionRequest) => {
    ws.log.emit({ type: 'version.selected', part, message_id: messageId, version });
  });
  const adapter: WorkspaceAdapter = { ...ws, showVersion, ...extra };
  return { ws, adapter, showVersion };
}

const messageOf = (text: string) => screen.getByText(text).closest<HTMLElement>('[data-part="message"]')!;
const versionsOf = (text: string) => within(messageOf(text)).getByRole('group', { name: 'Versions' });

describe('<BranchPicker> on a message of the user\'s', () => {
  it('is a "Versions" group with Previous, "3 / 3" and Next; Next is disabled at the end', async () => {
    const { adapter } = workspaceWith(editedTwice());
    render(<ChatSurface workspace={adapter} theme="light" threadStorageKey={false} />);
    const group = await waitFor(() => versionsOf('hi thrice'));
    expect(group).toHaveAttribute('data-part', 'branch-picker');
    expect(group).toHaveAttribute('data-state', 'idle');
    expect(within(group).getByText('3 / 3')).toBeInTheDocument();
    expect(group).toHaveTextContent('Version 3 of 3');
    expect(within(group).getByRole('button', { name: 'Previous version' })).not.toHaveAttribute('aria-disabled');
    expect(within(group).getByRole('button', { name: 'Next version' })).toHaveAttribute('aria-disabled', 'true');
    // The first message has one version: no picker on it.
    expect(within(messageOf('first question')).queryByRole('group', { name: 'Versions' })).toBeNull();
  });

  it('Previous shows the version before with its whole continuation, keeps focus on Previous, and stops at the first', async () => {
    const { adapter, showVersion } = workspaceWith(editedTwice());
    render(<ChatSurface workspace={adapter} theme="light" threadStorageKey={false} />);
    await userEvent.click(within(await waitFor(() => versionsOf('hi thrice'))).getByRole('button', { name: 'Previous version' }));
    expect(showVersion).toHaveBeenCalledWith({ threadId: 'main', part: 'message', messageId: 'u2', version: 'u2b' });
    await waitFor(() => expect(screen.getByText('Hello again')).toBeInTheDocument());
    expect(screen.queryByText('hi thrice')).toBeNull();
    expect(screen.queryByText('Hello thrice')).toBeNull();
    const group = versionsOf('hi again');
    expect(within(group).getByText('2 / 3')).toBeInTheDocument();
    // The row was replaced by the version it brought: focus is on its Previous, as it was.
    await waitFor(() => expect(within(group).getByRole('button', { name: 'Previous version' })).toHaveFocus());

    await userEvent.click(within(group).getByRole('button', { name: 'Previous version' }));
    expect(showVersion).toHaveBeenLastCalledWith({ threadId: 'main', part: 'message', messageId: 'u2', version: 'u2' });
    await waitFor(() => expect(screen.getByText('Hello')).toBeInTheDocument());
    const first = versionsOf('hi');
    expect(within(first).getByText('1 / 3')).toBeInTheDocument();
    const previous = within(first).getByRole('button', { name: 'Previous version' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');
    await waitFor(() => expect(previous).toHaveFocus());
    await userEvent.click(previous);
    expect(showVersion).toHaveBeenCalledTimes(2);

    await userEvent.click(within(first).getByRole('button', { name: 'Next version' }));
    expect(showVersion).toHaveBeenLastCalledWith({ threadId: 'main', part: 'message', messageId: 'u2', version: 'u2b' });
  });

  it('is disabled while a reply is being written, and enabled again when it ends', async () => {
    const { ws, adapter, showVersion } = workspaceWith(editedTwice());
    render(<ChatSurface workspace={adapter} theme="light" threadStorageKey={false} />);
    const group = await waitFor(() => versionsOf('hi thrice'));
    ws.log.emit({ type: 'turn.started', turn_id: 't9' });
    await waitFor(() => expect(group).toHaveAttribute('data-state', 'busy'));
    const previous = within(group).getByRole('button', { name: 'Previous version' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(previous);
    expect(showVersion).not.toHaveBeenCalled();
    ws.log.emit({ type: 'turn.done', turn_id: 't9', outcome: 'answered' });
    await waitFor(() => expect(previous).not.toHaveAttribute('aria-disabled'));
  });

  it('a switch the workspace refuses says why in the message and leaves the version shown', async () => {
    const refusing = vi.fn(() => Promise.reject(new Error('A reply is being written.')));
    const { adapter } = workspaceWith(editedTwice(), { showVersion: refusing });
    render(<ChatSurface workspace={adapter} theme="light" threadStorageKey={false} />);
    const group = await waitFor(() => versionsOf('hi thrice'));
    await userEvent.click(within(group).getByRole('button', { name: 'Previous version' }));
    expect(await within(group).findByRole('alert')).toHaveTextContent('That version could not be shown: A reply is being written.');
    expect(group).toHaveAttribute('data-state', 'error');
    expect(within(group).getByText('3 / 3')).toBeInTheDocument();
    expect(within(group).getByRole('button', { name: 'Previous version' })).not.toHaveAttribute('aria-disabled');
  });

  it('shows nothing with a workspace that cannot switch versions', async () => {
    const { adapter } = workspaceWith(editedTwice());
    const { showVersion: _none, ...withoutVersions } = adapter;
    render(<ChatSurface workspace={withoutVersions as WorkspaceAdapter} theme="light" threadStorageKey={false} />);
    await waitFor(() => expect(screen.getByText('hi thrice')).toBeInTheDocument());
    expect(screen.queryByRole('group', { name: 'Versions' })).toBeNull();
  });
});

describe('<BranchPicker> on a reply', () => {
  /** The first message's reply regenerated: the second turn followed the first reply, so it is not shown with the new one. */
  const regenerated = (): ThreadEventInput[] => [
    user('u1', 'first question', 'root'),
    ...reply('a1', 'First answer', 'u1.reply'),
    user('u2', 'hi', 'u1.reply'),
    ...reply('a2', 'Hello', 'u2.reply'),
    { type: 'reply.regenerated', message_id: 'u1', reply_id: 'r2' },
    ...reply('a1r', 'Another first answer', 'r2'),
  ];

  it('sits on the reply\'s first row; Previous shows the first reply with everything that followed it', async () => {
    const { adapter, showVersion } = workspaceWith(regenerated());
    render(<ChatSurface workspace={adapter} theme="light" threadStorageKey={false} />);
    const group = await waitFor(() => versionsOf('Another first answer'));
    expect(group).toHaveAttribute('data-version-part', 'reply');
    expect(within(group).getByText('2 / 2')).toBeInTheDocument();
    expect(screen.queryByText('hi')).toBeNull();
    await userEvent.click(within(group).getByRole('button', { name: 'Previous version' }));
    expect(showVersion).toHaveBeenCalledWith({ threadId: 'main', part: 'reply', messageId: 'u1', version: 'u1.reply' });
    await waitFor(() => expect(screen.getByText('First answer')).toBeInTheDocument());
    expect(screen.getByText('hi')).toBeInTheDocument();
    expect(screen.getByText('Hello')).toBeInTheDocument();
    const back = versionsOf('First answer');
    expect(within(back).getByText('1 / 2')).toBeInTheDocument();
    await waitFor(() => expect(within(back).getByRole('button', { name: 'Previous version' })).toHaveFocus());
    // One picker per reply: none on the second turn's reply (it has one version).
    expect(within(messageOf('Hello')).queryByRole('group', { name: 'Versions' })).toBeNull();
  });

  it('a host recomposes the parts inside a surface; outside Root a part says where it belongs', async () => {
    const { adapter } = workspaceWith(regenerated());
    render(
      <ChatSurfaceRoot workspace={adapter}>
        <BranchPicker.Root replyTo="u1" data-testid="picker">
          <BranchPicker.Count />
          <BranchPicker.Next />
        </BranchPicker.Root>
      </ChatSurfaceRoot>,
    );
    const group = await screen.findByTestId('picker');
    expect(group).toHaveAccessibleName('Versions');
    expect(within(group).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['Next version']);
    expect(within(group).getByText('2 / 2')).toBeInTheDocument();
    expect(() => render(<BranchPicker.Next />)).toThrow('<BranchPicker.Next> must be used within <BranchPicker.Root>.');
    expect(BranchPicker.Root.displayName).toBe('BranchPicker.Root');
  });
});
