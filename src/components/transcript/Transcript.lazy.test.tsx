import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace, type ScriptedWorkspace } from '../testing/scriptedWorkspace';
import { resetVirtualRows, virtualRowsChunk } from './loadVirtualRows';
import { FLOW_MAX, Transcript } from './Transcript';

// jsdom's window is 768 px tall: before the virtualiser is in, a long thread shows its newest 26 rows (768 / 30, rows of half the 60 px estimate).

let layout: LayoutStub;
beforeEach(() => {
  resetVirtualRows();
  layout = stubTranscriptLayout({ viewport: 600, row: 60 });
});
afterEach(() => {
  layout.restore();
  vi.restoreAllMocks();
});

function fill(ws: ScriptedWorkspace, n: number, from = 0) {
  for (let i = from; i < from + n; i++) ws.log.emit({ type: 'message.created', message_id: `m-${i}`, role: i % 2 ? 'assistant' : 'user', text: `message ${i}` });
}

function showRows(n: number): ScriptedWorkspace {
  const ws = scriptedWorkspace();
  fill(ws, n);
  render(
    <ChatSurfaceRoot workspace={ws}>
      <Transcript estimateRowHeight={60} />
    </ChatSurfaceRoot>,
  );
  return ws;
}

const log = () => screen.getByRole('log', { name: 'Conversation' });
const slots = () => log().querySelectorAll('[data-part="transcript-slot"]');
const rows = () => log().querySelector('[data-part="transcript-rows"]');

describe("<Transcript>: the virtualiser's code loads on use", () => {
  it('never fetches it for a short thread', async () => {
    const load = vi.spyOn(virtualRowsChunk, 'load');
    const ws = showRows(20);
    await waitFor(() => expect(slots()).toHaveLength(20));
    act(() => fill(ws, 20, 20));
    await waitFor(() => expect(log()).toHaveTextContent('message 39'));
    expect(load).not.toHaveBeenCalled();
    expect(rows()).not.toHaveAttribute('data-virtual');
  });

  it('fetches it once a thread nears the length where it goes over, so it is there before it is needed', async () => {
    const load = vi.spyOn(virtualRowsChunk, 'load');
    const ws = showRows(FLOW_MAX - 30);
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    expect(rows()).not.toHaveAttribute('data-virtual');
    act(() => fill(ws, 31, FLOW_MAX - 30));
    await waitFor(() => expect(rows()).toHaveAttribute('data-virtual'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows the newest rows in flow in a long thread’s first render, then only those near the viewport once it is in', async () => {
    showRows(1000);
    // Before the chunk is in: the newest rows in flow, about a viewport's worth (768 px of rows of 30 px), never the whole history.
    expect(log()).toHaveTextContent('message 999');
    expect(rows()).not.toHaveAttribute('data-virtual');
    expect(slots()).toHaveLength(26);
    expect(log()).not.toHaveTextContent('message 973');
    await waitFor(() => expect(rows()).toHaveAttribute('data-virtual'));
    expect(slots().length).toBeLessThan(40);
    expect(log()).toHaveTextContent('message 999');
  });

  it('puts every row in flow (nothing out of reach), and says why in the console, when the chunk cannot be loaded', async () => {
    vi.spyOn(virtualRowsChunk, 'load').mockRejectedValue(new Error('offline'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    showRows(300);
    await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('virtualiser could not be loaded'), expect.any(Error)));
    await waitFor(() => expect(slots()).toHaveLength(300));
    expect(rows()).not.toHaveAttribute('data-virtual');
    expect(log()).toHaveTextContent('message 299');
    expect(log()).toHaveTextContent('message 0');
    expect(log()).toHaveAttribute('data-state', 'filled');
  });
});
