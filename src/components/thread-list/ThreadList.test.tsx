import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelDriver } from '../../runtime/model';
import type { ThreadsApi } from '../../workspace/threadsProtocol';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { ThreadList } from './ThreadList';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

const driver: ModelDriver = {
  info: { id: 'scripted', label: 'Scripted' },
  async *respond() {
    yield { type: 'text', text: 'Noted.' };
  },
};

async function workspaceWithThreads() {
  let clock = 1_000_000;
  const workspace = createLocalWorkspace({ capabilities: [], driver, now: () => (clock += 1_000) });
  await workspace.send({ threadId: 'csv', text: 'Import the customers from Berlin' });
  await workspace.send({ threadId: 'q3', text: 'Summarise the Q3 report' });
  await workspace.send({ threadId: 'notes', text: 'Keep these meeting notes' });
  return workspace;
}

const openers = () => within(screen.getByRole('list', { name: 'Your threads' })).getAllByRole('button', { name: /Import|Summarise|Keep|Quarterly/ }).filter((b) => b.dataset.part === 'thread-list-open');

describe('ThreadList', () => {
  it('lists the threads newest first, says how many, and searches them (no results said so)', async () => {
    const user = userEvent.setup();
    const workspace = await workspaceWithThreads();
    let shown = 'q3';
    render(
      <ChatSurface.Root workspace={workspace} threadId="q3">
        <ThreadList.Panel onValueChange={(id) => (shown = id)} />
      </ChatSurface.Root>,
    );
    const panel = screen.getByRole('region', { name: 'Threads' });
    await waitFor(() => expect(panel).toHaveAttribute('data-state', 'ready'));
    expect(screen.getByRole('status')).toHaveTextContent('3 threads');
    expect(openers().map((b) => b.querySelector('[data-part="thread-list-title"]')!.textContent)).toEqual([
      'Keep these meeting notes',
      'Summarise the Q3 report (shown)',
      'Import the customers from Berlin',
    ]);
    expect(openers()[1]).toHaveAttribute('aria-current', 'true');
    await user.type(screen.getByRole('searchbox', { name: 'Search threads' }), 'berlin');
    await waitFor(() => expect(openers()).toHaveLength(1));
    expect(screen.getByRole('status')).toHaveTextContent('1 thread');
    await user.clear(screen.getByRole('searchbox', { name: 'Search threads' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search threads' }), 'london');
    await waitFor(() => expect(panel).toHaveAttribute('data-state', 'no-results'));
    expect(screen.getByRole('status')).toHaveTextContent('No threads match “london”.');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(panel).toHaveAttribute('data-state', 'ready'));
    await user.click(openers()[2]!);
    expect(shown).toBe('csv');
  });

  it('moves with the arrow keys, renames with F2, and keeps a name it refused with the reason', async () => {
    const user = userEvent.setup();
    const workspace = await workspaceWithThreads();
    render(
      <ChatSurface.Root workspace={workspace} threadId="q3">
        <ThreadList.Panel />
      </ChatSurface.Root>,
    );
    await waitFor(() => expect(openers()).toHaveLength(3));
    openers()[0]!.focus();
    await user.keyboard('{ArrowDown}');
    expect(openers()[1]).toHaveFocus();
    await user.keyboard('{End}');
    expect(openers()[2]).toHaveFocus();
    await user.keyboard('{F2}');
    const name = screen.getByRole('textbox', { name: 'Thread name' });
    expect(name).toHaveFocus();
    await user.clear(name);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Give the thread a name.');
    await user.type(name, 'Quarterly customers');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Thread name' })).toBeNull());
    expect(screen.getByRole('status')).toHaveTextContent('Renamed to “Quarterly customers”.');
    expect((await workspace.threads!.list()).threads.find((t) => t.id === 'csv')?.title).toBe('Quarterly customers');
    await waitFor(() => expect(screen.getByRole('button', { name: /^Quarterly customers/ })).toHaveFocus());
  });

  it('puts the focus back on the thread after a rename or a cancelled delete without waiting for a frame (a busy or background page)', async () => {
    // A page that gets no animation frame: the focus must not wait for one.
    const frames = vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    try {
      const user = userEvent.setup();
      const workspace = await workspaceWithThreads();
      render(
        <ChatSurface.Root workspace={workspace} threadId="q3">
          <ThreadList.Panel />
        </ChatSurface.Root>,
      );
      await waitFor(() => expect(openers()).toHaveLength(3));
      openers()[0]!.focus();
      await user.keyboard('{F2}');
      await user.keyboard('{Control>}a{/Control}Meeting notes{Enter}');
      await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Renamed to “Meeting notes”.'));
      expect(screen.getByRole('button', { name: /^Meeting notes/ })).toHaveFocus();
      await user.keyboard('{F2}{Escape}');
      expect(screen.getByRole('button', { name: /^Meeting notes/ })).toHaveFocus();
      await user.keyboard('{Delete}');
      expect(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' })).toHaveFocus();
      await user.keyboard('{Escape}');
      expect(screen.getByRole('button', { name: /^Meeting notes/ })).toHaveFocus();
    } finally {
      frames.mockRestore();
    }
  });

  it('archives out of the list and back with the filter', async () => {
    const user = userEvent.setup();
    const workspace = await workspaceWithThreads();
    render(
      <ChatSurface.Root workspace={workspace} threadId="q3">
        <ThreadList.Panel />
      </ChatSurface.Root>,
    );
    await user.click(await screen.findByRole('button', { name: 'Archive “Keep these meeting notes”' }));
    await waitFor(() => expect(openers()).toHaveLength(2));
    expect(screen.getByRole('status')).toHaveTextContent('Archived “Keep these meeting notes”.');
    await user.click(screen.getByRole('checkbox', { name: 'Show archived' }));
    const archived = await screen.findByRole('list', { name: 'Archived threads' });
    await user.click(within(archived).getByRole('button', { name: 'Unarchive “Keep these meeting notes”' }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Threads' })).toHaveAttribute('data-state', 'empty'));
    expect(screen.getByRole('status')).toHaveTextContent('No archived threads.');
  });

  it('deletes only after the confirmation, and the messages leave the store', async () => {
    const user = userEvent.setup();
    const workspace = await workspaceWithThreads();
    const deleted: string[] = [];
    render(
      <ChatSurface.Root workspace={workspace} threadId="q3">
        <ThreadList.Panel onDelete={(id) => deleted.push(id)} />
      </ChatSurface.Root>,
    );
    await waitFor(() => expect(openers()).toHaveLength(3));
    openers()[1]!.focus();
    await user.keyboard('{Delete}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete “Summarise the Q3 report”?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((await workspace.host.events.read({ user: 'me', space: 'default', id: 'q3' })).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Delete “Summarise the Q3 report”' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete thread' }));
    await waitFor(() => expect(openers()).toHaveLength(2));
    expect(deleted).toEqual(['q3']);
    expect(screen.getByRole('status')).toHaveTextContent('Deleted “Summarise the Q3 report”.');
    expect(await workspace.host.events.read({ user: 'me', space: 'default', id: 'q3' })).toEqual([]);
  });

  it('says when there is no thread yet, and when the list could not load (Try again loads it)', async () => {
    const user = userEvent.setup();
    let fail = true;
    const threads: ThreadsApi = {
      list: async () => {
        if (fail) throw new Error('the server is not answering');
        return { threads: [], nextCursor: null };
      },
      rename: async () => Promise.reject(new Error('no')),
      setArchived: async () => Promise.reject(new Error('no')),
      remove: async () => undefined,
    };
    render(
      <ChatSurface.Root workspace={createLocalWorkspace({ capabilities: [] })} threadId="main">
        <ThreadList.Panel threads={threads} />
      </ChatSurface.Root>,
    );
    const panel = screen.getByRole('region', { name: 'Threads' });
    await waitFor(() => expect(panel).toHaveAttribute('data-state', 'error'));
    expect(screen.getByRole('status')).toHaveTextContent('The threads could not be loaded: the server is not answering.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(panel).toHaveAttribute('data-state', 'empty'));
    expect(screen.getByRole('status')).toHaveTextContent('No threads yet. Send a message to start one.');
  });

  it('pages: the first page says more are below, "Show more" brings them', async () => {
    const user = userEvent.setup();
    const workspace = await workspaceWithThreads();
    render(
      <ChatSurface.Root workspace={workspace} threadId="q3">
        <ThreadList.Panel pageSize={2} />
      </ChatSurface.Root>,
    );
    await waitFor(() => expect(openers()).toHaveLength(2));
    expect(screen.getByRole('status')).toHaveTextContent('2 threads shown, more below');
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(openers()).toHaveLength(3));
    expect(screen.getByRole('status')).toHaveTextContent('3 threads');
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('tells a part outside the root how to fix it', () => {
    expect(() => render(<ThreadList.Search />)).toThrow(/ThreadList.Search must be used within <ThreadList.Root>/);
  });
});

describe('ChatSurface with a thread list', () => {
  it('opens the list from the header, opens a thread from it, and moves to a new thread when the shown one is deleted', async () => {
    const user = userEvent.setup();
    const workspace = await workspaceWithThreads();
    render(<ChatSurface workspace={workspace} defaultThreadId="q3" threadStorageKey={false} virtualize={false} />);
    const toggle = screen.getByRole('button', { name: 'All threads' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(await screen.findByRole('button', { name: /^Import the customers from Berlin/ }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Thread' })).toHaveValue('csv'));
    await user.click(toggle);
    await user.click(await screen.findByRole('button', { name: 'Delete “Import the customers from Berlin”' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete thread' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Thread' })).not.toHaveValue('csv'));
    expect(within(screen.getByRole('combobox', { name: 'Thread' })).queryByRole('option', { name: /Import the customers/ })).toBeNull();
    await act(async () => undefined);
  });
});
