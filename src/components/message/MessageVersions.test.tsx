import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ThreadEventInput } from '../../runtime/events';
import type { RegenerateRequest, TurnRequest, VersionRequest, WorkspaceAdapter } from '../../workspace/types';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { preloadMarkdown } from '../markdown/Markdown';
import { preloadMessageParts } from './deferredMessageParts';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';
import { Message } from './Message';
import { assistantReply, userMessage } from '../testing/versionEvents';

/** Edit a message of the user's in place and Regenerate a reply (issue 40), in the assembled surface. */

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

/** Two turns, as the host stamps them; the second reply has two assistant messages (a card could sit between them). */
const twoTurns = (): ThreadEventInput[] => [
  user('u1', 'first question', 'root'),
  ...reply('a1', 'First answer', 'u1.reply'),
  user('u2', 'hi', 'u1.reply'),
  ...reply('a2', 'Hello', 'u2.reply'),
  ...reply('a2x', 'Anything else?', 'u2.reply'),
];

/** A scripted workspace with the two turns, whose `send` with `edits` makes the new version and its reply, as a host does. */
function workspaceWith(extra: Partial<WorkspaceAdapter> = {}) {
  const ws = scriptedWorkspace();
  for (const event of twoTurns()) ws.log.emit(event);
  const send = vi.fn(async ({ text, edits }: TurnRequest) => {
    if (!edits) return;
    ws.log.emit(user('u2b', text, 'u1.reply', edits));
    for (const event of reply('a2b', 'Hello again', 'u2b.reply')) ws.log.emit(event);
  });
  const showVersion = vi.fn(async ({ part, messageId, version }: VersionRequest) => {
    ws.log.emit({ type: 'version.selected', part, message_id: messageId, version });
  });
  const regenerate = vi.fn(async (_request: RegenerateRequest) => {});
  const adapter: WorkspaceAdapter = { ...ws, send, showVersion, regenerate, ...extra };
  return { ws, adapter, send, showVersion, regenerate };
}

function show(adapter: WorkspaceAdapter) {
  render(<ChatSurface workspace={adapter} theme="light" threadStorageKey={false} />);
}

const messageOf = (text: string) => screen.getByText(text).closest<HTMLElement>('[data-part="message"]')!;
const editButtonOf = (text: string) => within(messageOf(text)).getByRole('button', { name: 'Edit message' });
const editor = () => screen.getByRole('textbox', { name: 'Edit your message' });
const editorButton = (name: 'Send' | 'Cancel') => within(screen.getByRole('form', { name: 'Edit your message' })).getByRole('button', { name });

describe('<Message.Edit> and <Message.Editor>', () => {
  it('"Edit message" opens the message in place, focused, with its text', async () => {
    const { adapter } = workspaceWith();
    show(adapter);
    const message = await waitFor(() => messageOf('hi'));
    expect(within(messageOf('first question')).getByRole('button', { name: 'Edit message' })).toBeInTheDocument();
    await userEvent.click(editButtonOf('hi'));
    const box = within(message).getByRole('textbox', { name: 'Edit your message' });
    expect(box).toHaveValue('hi');
    expect(box).toHaveFocus();
    expect((box as HTMLTextAreaElement).selectionStart).toBe(2);
    expect(within(message).getByRole('form', { name: 'Edit your message' })).toHaveAttribute('data-state', 'editing');
    expect(within(message).queryByRole('button', { name: 'Edit message' })).toBeNull();
    expect(within(message).getByRole('button', { name: 'Send' })).toBeEnabled();
    expect(within(message).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('Send makes a new version with a new reply: send gets `edits`, the picker says 2 / 2, focus is on the new Edit', async () => {
    const { adapter, send } = workspaceWith();
    show(adapter);
    await userEvent.click(await waitFor(() => editButtonOf('hi')));
    await userEvent.clear(editor());
    await userEvent.type(editor(), 'hi there');
    await userEvent.click(editorButton('Send'));
    expect(send).toHaveBeenCalledWith({ threadId: 'main', text: 'hi there', edits: 'u2' });
    await waitFor(() => expect(screen.getByText('Hello again')).toBeInTheDocument());
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull();
    expect(screen.queryByText('Hello')).toBeNull();
    const versions = within(messageOf('hi there')).getByRole('group', { name: 'Versions' });
    expect(within(versions).getByText('2 / 2')).toBeInTheDocument();
    await waitFor(() => expect(editButtonOf('hi there')).toHaveFocus());
  });

  it('Enter sends too; Shift+Enter starts a new line', async () => {
    const { adapter, send } = workspaceWith();
    show(adapter);
    await userEvent.click(await waitFor(() => editButtonOf('hi')));
    await userEvent.type(editor(), '{Shift>}{Enter}{/Shift}more{Enter}');
    expect(send).toHaveBeenCalledWith({ threadId: 'main', text: 'hi\nmore', edits: 'u2' });
  });

  it('Cancel leaves everything as it was and gives focus back to Edit', async () => {
    const { adapter, send } = workspaceWith();
    show(adapter);
    await userEvent.click(await waitFor(() => editButtonOf('hi')));
    await userEvent.type(editor(), ' changed');
    await userEvent.click(editorButton('Cancel'));
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull();
    expect(messageOf('hi').querySelector('[data-part="message-text"]')).toHaveTextContent(/^hi$/);
    await waitFor(() => expect(editButtonOf('hi')).toHaveFocus());
    expect(send).not.toHaveBeenCalled();
    // Opened again, it has the message's text, not the draft left.
    await userEvent.click(editButtonOf('hi'));
    expect(editor()).toHaveValue('hi');
  });

  it('Escape does the same as Cancel (and does not stop a running reply)', async () => {
    const { ws, adapter, send } = workspaceWith();
    const cancel = vi.spyOn(adapter, 'cancel');
    show(adapter);
    ws.log.emit({ type: 'turn.started', turn_id: 't9' });
    await userEvent.click(await waitFor(() => editButtonOf('hi')));
    await userEvent.type(editor(), ' changed{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull();
    await waitFor(() => expect(editButtonOf('hi')).toHaveFocus());
    expect(send).not.toHaveBeenCalled();
    expect(cancel).not.toHaveBeenCalled();
  });

  it('an empty text cannot be sent', async () => {
    const { adapter, send } = workspaceWith();
    show(adapter);
    await userEvent.click(await waitFor(() => editButtonOf('hi')));
    await userEvent.clear(editor());
    await userEvent.type(editor(), '   {Enter}');
    expect(editorButton('Send')).toBeDisabled();
    expect(send).not.toHaveBeenCalled();
    expect(editor()).toHaveFocus();
  });

  it('a refused edit says why in the message and keeps the text', async () => {
    const { adapter } = workspaceWith({ send: () => Promise.reject(new Error('The server is restarting.')) });
    show(adapter);
    await userEvent.click(await waitFor(() => editButtonOf('hi')));
    await userEvent.type(editor(), ' there');
    await userEvent.click(editorButton('Send'));
    const form = screen.getByRole('form', { name: 'Edit your message' });
    expect(await within(form).findByRole('alert')).toHaveTextContent('Not sent: The server is restarting');
    expect(form).toHaveAttribute('data-state', 'error');
    expect(editor()).toHaveValue('hi there');
    expect(editor()).toHaveAttribute('aria-invalid', 'true');
  });

  it('↑ in the empty message box opens the newest message of the user\'s for editing; not with text in the box', async () => {
    const { adapter } = workspaceWith();
    show(adapter);
    await waitFor(() => messageOf('hi'));
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'draft{ArrowUp}');
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull();
    await userEvent.clear(box);
    await userEvent.keyboard('{ArrowUp}');
    const opened = await screen.findByRole('textbox', { name: 'Edit your message' });
    expect(opened).toHaveValue('hi');
    expect(opened).toHaveFocus();
    expect(within(opened.closest<HTMLElement>('[data-part="message"]')!).queryByText('first question')).toBeNull();
  });

  it('a workspace without versions shows no Edit, and ↑ does nothing', async () => {
    const { adapter } = workspaceWith();
    const { showVersion: _none, ...withoutVersions } = adapter;
    show(withoutVersions as WorkspaceAdapter);
    await waitFor(() => messageOf('hi'));
    expect(screen.queryByRole('button', { name: 'Edit message' })).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), '{ArrowUp}');
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull();
  });

  it('a host places the parts itself: the editor renders only while its message is open', async () => {
    const { adapter } = workspaceWith();
    const row = { kind: 'user' as const, id: 'u2', text: 'hi' };
    render(
      <ChatSurfaceRoot workspace={adapter}>
        <Message.Edit row={row} />
        <Message.Editor row={row} />
      </ChatSurfaceRoot>,
    );
    expect(screen.queryByRole('textbox')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Edit message' }));
    expect(editor()).toHaveFocus();
    expect(Message.Edit.displayName).toBe('Message.Edit');
    expect(Message.Editor.displayName).toBe('Message.Editor');
  });
});

describe('<Message.Regenerate>', () => {
  it('is on the first reply row after each message of the user\'s and asks for a new reply to it', async () => {
    const { adapter, regenerate } = workspaceWith();
    show(adapter);
    await waitFor(() => expect(screen.getByText('Anything else?')).toBeInTheDocument());
    const buttons = screen.getAllByRole('button', { name: 'Regenerate' });
    expect(buttons).toHaveLength(2);
    expect(within(messageOf('Anything else?')).queryByRole('button', { name: 'Regenerate' })).toBeNull();
    await userEvent.click(within(messageOf('Hello')).getByRole('button', { name: 'Regenerate' }));
    expect(regenerate).toHaveBeenCalledWith({ threadId: 'main', messageId: 'u2' });
    await userEvent.click(within(messageOf('First answer')).getByRole('button', { name: 'Regenerate' }));
    expect(regenerate).toHaveBeenLastCalledWith({ threadId: 'main', messageId: 'u1' });
  });

  it('the new reply takes the old one\'s place with its versions, and focus goes to its Previous (back to the old one)', async () => {
    const { ws, adapter } = workspaceWith();
    const regenerate = vi.fn(async ({ messageId }: RegenerateRequest) => {
      ws.log.emit({ type: 'reply.regenerated', message_id: messageId, reply_id: 'r2' });
      for (const event of reply('a2r', 'Hi, again', 'r2')) ws.log.emit(event);
    });
    show({ ...adapter, regenerate });
    await waitFor(() => expect(screen.getByText('Hello')).toBeInTheDocument());
    await userEvent.click(within(messageOf('Hello')).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(screen.getByText('Hi, again')).toBeInTheDocument());
    expect(screen.queryByText('Hello')).toBeNull();
    expect(screen.queryByText('Anything else?')).toBeNull();
    const versions = within(messageOf('Hi, again')).getByRole('group', { name: 'Versions' });
    expect(within(versions).getByText('2 / 2')).toBeInTheDocument();
    await waitFor(() => expect(within(versions).getByRole('button', { name: 'Previous version' })).toHaveFocus());
  });

  it('a refused regeneration says why under the reply', async () => {
    const { adapter } = workspaceWith({ regenerate: () => Promise.reject(new Error('The model is unavailable.')) });
    show(adapter);
    await waitFor(() => expect(screen.getByText('Hello')).toBeInTheDocument());
    const actions = within(messageOf('Hello')).getByRole('group', { name: 'Message actions' });
    const button = within(actions).getByRole('button', { name: 'Regenerate' });
    await userEvent.click(button);
    expect(await within(actions).findByRole('alert')).toHaveTextContent('Not regenerated: The model is unavailable.');
    expect(button).toHaveAttribute('data-state', 'idle');
  });

  it('a workspace without regenerate shows no Regenerate', async () => {
    const { adapter } = workspaceWith();
    const { regenerate: _none, ...withoutRegenerate } = adapter;
    show(withoutRegenerate as WorkspaceAdapter);
    await waitFor(() => expect(screen.getByText('Hello')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Copy' }).length).toBeGreaterThan(0);
  });
});
