import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { createOfflineDriver } from '../../runtime/offlineDriver';
import { defineCapability } from '../../runtime/capability';
import { textResult } from '../../runtime/results';
import type { WorkspaceAdapter } from '../../workspace/types';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { Composer } from '../composer/Composer';
import { ChatSurface } from './ChatSurface';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

function setup() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const slow = defineCapability({
    name: 'report.build',
    title: 'Build report',
    description: 'Builds a report slowly.',
    input: z.object({ sections: z.number().int().max(10).default(2) }),
    actor: { id: 'analyst', name: 'Analyst', glyph: 'A' },
    handler: async ({ sections }, ctx) => {
      ctx.progress(1, sections, 'Writing section 1');
      await gate;
      return textResult(`The report has ${sections} sections.`);
    },
  });
  const workspace = createLocalWorkspace({ capabilities: [slow], driver: createOfflineDriver({ delayMs: 0 }) });
  render(<ChatSurface workspace={workspace} theme="light" />);
  return { workspace, release: () => release() };
}

describe('<ChatSurface>', () => {
  it('disables Send while the draft is empty or blank', async () => {
    setup();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), '   ');
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hi');
    expect(send).toBeEnabled();
  });

  it('sends on Enter, keeps Shift+Enter as a new line, and streams the reply into the log', async () => {
    setup();
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'what can{Shift>}{Enter}{/Shift}you do?');
    expect(input).toHaveValue('what can\nyou do?');
    await userEvent.type(input, '{Enter}');
    expect(input).toHaveValue('');
    const log = screen.getByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(log.querySelector('[data-role="user"]')?.textContent).toContain('what can\nyou do?'));
    await waitFor(() => {
      const reply = log.querySelector('[data-role="assistant"]');
      expect(reply?.getAttribute('data-state')).toBe('done');
      expect(reply?.textContent).toContain('Build report');
    });
  });

  it('never sends on Enter while an input method is composing', () => {
    const { workspace } = setup();
    const send = vi.spyOn(workspace, 'send');
    const input = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: 'にほん' } });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true, keyCode: 229 });
    expect(send).not.toHaveBeenCalled();
    expect(input).toHaveValue('にほん');
  });

  it('shows a running card with progress and its actor in the cast row, then done, and the cast empties', async () => {
    const { release } = setup();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'build report sections=4{Enter}');
    const card = await screen.findByRole('article', { name: 'Build report' });
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Build report progress' })).toHaveAttribute('aria-valuenow', '25'));
    expect(card).toHaveAttribute('data-state', 'running');
    const cast = screen.getByRole('list', { name: 'Working now' });
    expect(within(cast).getByRole('listitem')).toHaveTextContent('Analyst');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Analyst started Build report.'));

    act(() => release());
    await waitFor(() => expect(card).toHaveAttribute('data-state', 'done'));
    // The offline model may show as thinking about the result for a moment (events are shown as
    // they arrive, not only once per frame); then nobody is working.
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Working now' })).toBeNull());
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Analyst finished Build report.'));
    await waitFor(() => expect(screen.getByRole('log').textContent).toContain('The report has 4 sections.'));
  });

  it('cancels a running invocation from its card', async () => {
    setup();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'build report{Enter}');
    const card = await screen.findByRole('article', { name: 'Build report' });
    await userEvent.click(within(card).getByRole('button', { name: 'Cancel Build report' }));
    await waitFor(() => expect(card).toHaveAttribute('data-state', 'cancelled'));
    expect(card).toHaveTextContent('Cancelled');
  });

  it('puts the draft back and says why when the workspace refuses the message', async () => {
    const { workspace } = setup();
    vi.spyOn(workspace, 'send').mockRejectedValueOnce(new Error('the server is unreachable'));
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'keep this{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Not sent: the server is unreachable');
    expect(input).toHaveValue('keep this');
  });

  it('shows a malformed event as a row instead of breaking the surface', async () => {
    let push: (event: unknown) => void = () => {};
    const workspace: WorkspaceAdapter = {
      manifest: { capabilities: [], driver: { id: 'test', label: 'Test model' }, alignment: 'strict', anticipation: {} },
      decide: async () => {},
      setView: () => {},
      send: async () => {},
      invoke: async () => textResult(''),
      cancel: () => {},
      subscribe: (_thread, listener) => {
        push = listener as (event: unknown) => void;
        return () => {};
      },
    };
    render(<ChatSurface workspace={workspace} />);
    act(() => {
      push({ type: 'message.created', seq: 1, ts: 0, message_id: 'm1', role: 'user', text: 'hello' });
      push({ type: 'message.delta', seq: 2, ts: 0 });
    });
    const log = screen.getByRole('log');
    await waitFor(() => expect(log.querySelector('[data-part="error-row"]')?.textContent).toContain('message_id'));
    expect(log.querySelector('[data-role="user"]')).toHaveTextContent('hello');
    expect(screen.getByText('Test model')).toBeInTheDocument();
  });

  it('Stop aborts the turn and every invocation it started, and the transcript says so', async () => {
    setup();
    const input = screen.getByRole('textbox', { name: 'Message' });
    expect(screen.queryByRole('button', { name: /Stop/ })).toBeNull();
    await userEvent.type(input, 'build report sections=4{Enter}');
    const card = await screen.findByRole('article', { name: 'Build report' });
    const stop = await screen.findByRole('button', { name: 'Stop the reply' });
    await userEvent.click(stop);
    await waitFor(() => expect(card).toHaveAttribute('data-state', 'cancelled'));
    const stopped = await waitFor(() => {
      const row = document.querySelector('[data-part="error-row"][data-state="cancelled"]');
      expect(row).not.toBeNull();
      return row!;
    });
    expect(stopped).toHaveTextContent('Stopped');
    await waitFor(() => expect(screen.queryByRole('button', { name: /Stop/ })).toBeNull());
    expect(input).toHaveFocus();
    expect(screen.queryByRole('list', { name: 'Working now' })).toBeNull();
  });

  it('Stop ends a streaming reply where it is, and Escape in the message box does the same', async () => {
    const workspace = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 15 }) });
    render(<ChatSurface workspace={workspace} theme="light" />);
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'hello{Enter}');
    await waitFor(() => expect(document.querySelector('[data-role="assistant"]')).toHaveAttribute('data-state', 'streaming'));
    await userEvent.type(input, '{Escape}');
    await waitFor(() => expect(document.querySelector('[data-part="error-row"][data-state="cancelled"]')).not.toBeNull());
    const reply = document.querySelector('[data-role="assistant"]')!;
    // The reply's text (its actions come with their chunk a moment later, under it).
    const words = () => reply.querySelector('[data-part="message-text"]')?.textContent;
    const text = words();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(words()).toBe(text);
    expect(reply.getAttribute('data-state')).not.toBe('streaming');
    expect(text).not.toContain('I am the offline model: name what you want run and I will run it. I can do');
  });

  it('does not render the message box when a turn starts or ends (only Stop comes and goes)', async () => {
    const workspace = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 5 }) });
    let inputRenders = 0;
    render(
      <ChatSurface.Root workspace={workspace}>
        <ChatSurface.Transcript />
        <Composer.Root>
          <Profiler id="input" onRender={() => inputRenders++}>
            <Composer.Input />
          </Profiler>
          <Composer.Stop />
        </Composer.Root>
      </ChatSurface.Root>,
    );
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument());
    const before = inputRenders;
    let sent: Promise<void> = Promise.resolve();
    act(() => {
      sent = workspace.send({ threadId: 'main', text: 'hello' });
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Stop the reply' })).toBeInTheDocument());
    await act(() => sent);
    await waitFor(() => expect(document.querySelector('[data-role="assistant"]')).toHaveAttribute('data-state', 'done'));
    expect(screen.queryByRole('button', { name: 'Stop the reply' })).toBeNull();
    expect(inputRenders).toBe(before);
  });

  it('tells the workspace what the user looks at, once per distinct view', () => {
    const workspace = createLocalWorkspace({ capabilities: [] });
    const setView = vi.spyOn(workspace, 'setView');
    const { rerender } = render(<ChatSurface workspace={workspace} activeView={{ kind: 'record_list' }} />);
    rerender(<ChatSurface workspace={workspace} activeView={{ kind: 'record_list' }} />);
    rerender(<ChatSurface workspace={workspace} activeView={{ kind: 'record_detail', id: 'r7' }} />);
    expect(setView.mock.calls.map(([request]) => request.view)).toEqual([{ kind: 'record_list' }, { kind: 'record_detail', id: 'r7' }]);
  });

  it('names the missing workspace prop instead of failing somewhere deep', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ChatSurface workspace={undefined as unknown as WorkspaceAdapter} />)).toThrow(/needs a `workspace` prop/);
    spy.mockRestore();
  });
});
