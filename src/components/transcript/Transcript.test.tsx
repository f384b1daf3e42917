import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memo, Profiler } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useInvoke } from '../../hooks/useActions';
import { useRow } from '../../hooks/useThread';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace, type ScriptedWorkspace } from '../testing/scriptedWorkspace';
import { loadVirtualRows } from './loadVirtualRows';
import { FLOW_MAX, Transcript } from './Transcript';
import { TranscriptRow } from './TranscriptRow';

let layout: LayoutStub;
// The virtualiser's code is in from the start here (its load on use: Transcript.lazy.test.tsx).
beforeAll(() => loadVirtualRows());
beforeEach(() => {
  layout = stubTranscriptLayout({ viewport: 600, row: 60 });
});
afterEach(() => layout.restore());

function fill(ws: ScriptedWorkspace, n: number, from = 0) {
  for (let i = from; i < from + n; i++) ws.log.emit({ type: 'message.created', message_id: `m-${i}`, role: i % 2 ? 'assistant' : 'user', text: `message ${i}` });
}

/** Assistant replies only: content that arrives without the reader doing anything. */
function replies(ws: ScriptedWorkspace, n: number, from: number) {
  for (let i = from; i < from + n; i++) ws.log.emit({ type: 'message.created', message_id: `m-${i}`, role: 'assistant', text: `message ${i}` });
}

/** A thread of `n` messages in a transcript of 60 px rows (the layout stub's); its workspace. */
function showRows(n: number, virtualize: boolean | 'auto' = 'auto'): ScriptedWorkspace {
  const ws = scriptedWorkspace();
  fill(ws, n);
  render(
    <ChatSurfaceRoot workspace={ws}>
      <Transcript virtualize={virtualize} estimateRowHeight={60} />
    </ChatSurfaceRoot>,
  );
  return ws;
}

/** As `showRows`, with a Profiler around the transcript that reports each commit's phase. */
function showRowsIn(n: number, virtualize: boolean | 'auto', onCommit: (phase: string) => void): ScriptedWorkspace {
  const ws = scriptedWorkspace();
  fill(ws, n);
  render(
    <ChatSurfaceRoot workspace={ws}>
      <Profiler id="transcript" onRender={(_id, phase) => onCommit(phase)}>
        <Transcript virtualize={virtualize} estimateRowHeight={60} />
      </Profiler>
    </ChatSurfaceRoot>,
  );
  return ws;
}

const log = () => screen.getByRole('log', { name: 'Conversation' });

/** A control that acts through the surface (as a chip does): it runs a capability. */
function Retry() {
  const invoke = useInvoke();
  return (
    <button type="button" onClick={() => void invoke('records.list', {}).catch(() => {})}>
      Run it
    </button>
  );
}
const slots = () => log().querySelectorAll('[data-part="transcript-slot"]');

describe('<Transcript>', () => {
  it('says so while empty', () => {
    render(
      <ChatSurfaceRoot workspace={scriptedWorkspace()}>
        <Transcript emptyText="Ask anything." />
      </ChatSurfaceRoot>,
    );
    expect(log()).toHaveAttribute('data-state', 'empty');
    expect(log()).toHaveTextContent('Ask anything.');
    expect(log()).toHaveAttribute('tabindex', '0');
  });

  it('says it is loading while a long history is folded, then shows its newest rows', async () => {
    const ws = scriptedWorkspace();
    fill(ws, 5000);
    render(
      <ChatSurfaceRoot workspace={ws}>
        <Transcript emptyText="Ask anything." />
      </ChatSurfaceRoot>,
    );
    expect(log()).toHaveAttribute('data-state', 'loading');
    expect(log()).toHaveAttribute('aria-busy', 'true');
    expect(log()).toHaveTextContent('Loading the conversation…');
    // The newest turns show first, still busy while the history behind them is folded.
    await waitFor(() => expect(log()).toHaveAttribute('data-state', 'filled'));
    expect(within(log()).getByText('message 4999')).toBeInTheDocument();
    await waitFor(() => expect(log()).not.toHaveAttribute('aria-busy'));
    expect(log()).toHaveAttribute('data-state', 'filled');
  });

  it('keeps only the rows near the viewport in the DOM and starts at the newest', async () => {
    showRows(1000);
    await waitFor(() => expect(log()).toHaveTextContent('message 999'));
    expect(slots().length).toBeGreaterThan(5);
    expect(slots().length).toBeLessThan(40);
    expect(log()).not.toHaveTextContent('message 0 ');
    expect(log().querySelector('[data-part="transcript-rows"]')).toHaveStyle({ height: '60000px' });
  });

  it('draws the rows in view first, and the rows around them once that frame is drawn', async () => {
    showRows(1000);
    // A 600 px view of 60 px rows: ten in view, one more above.
    expect(log()).toHaveTextContent('message 999');
    const first = slots().length;
    expect(first).toBeLessThanOrEqual(12);
    await waitFor(() => expect(slots().length).toBe(first + 5));
    expect(log()).toHaveTextContent('message 999');
  });

  it('shows the history the workspace replays in the first render, with no empty frame', () => {
    const ws = scriptedWorkspace();
    fill(ws, 3);
    render(
      <ChatSurfaceRoot workspace={ws}>
        <Transcript />
      </ChatSurfaceRoot>,
    );
    expect(log()).toHaveAttribute('data-state', 'filled');
    expect(log()).toHaveTextContent('message 2');
    expect(log()).not.toHaveTextContent('No messages yet.');
  });

  it('renders every row with virtualize={false}', async () => {
    const ws = scriptedWorkspace();
    fill(ws, 120);
    render(
      <ChatSurfaceRoot workspace={ws}>
        <Transcript virtualize={false} />
      </ChatSurfaceRoot>,
    );
    await waitFor(() => expect(slots()).toHaveLength(120));
  });

  it('re-renders only the row a streamed token lands in', async () => {
    const ws = scriptedWorkspace();
    fill(ws, 6);
    ws.log.emit({ type: 'message.created', message_id: 'a-live', role: 'assistant', text: '' });
    const renders = new Map<number, number>();
    const Counting = memo(function Counting({ index }: { index: number }) {
      useRow(index);
      renders.set(index, (renders.get(index) ?? 0) + 1);
      return <TranscriptRow index={index} />;
    });
    render(
      <ChatSurfaceRoot workspace={ws}>
        <Transcript renderRow={(index) => <Counting index={index} />} />
      </ChatSurfaceRoot>,
    );
    await waitFor(() => expect(slots()).toHaveLength(7));
    const before = new Map(renders);
    for (let i = 0; i < 20; i++) {
      await act(async () => {
        ws.log.emit({ type: 'message.delta', message_id: 'a-live', delta: `w${i} ` });
        await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
      });
    }
    await waitFor(() => expect(log()).toHaveTextContent('w19'));
    const changed = [...renders].filter(([index, count]) => count !== before.get(index)).map(([index]) => index);
    expect(changed).toEqual([6]);
  });

  describe.each([
    ['virtualised', true],
    ['in flow', false],
  ] as const)('rows %s', (_, virtualize) => {
    it("shows a sub-thread's link and its summary, which share the child thread's id, each once and with keys of their own", async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        const ws = showRows(4, virtualize);
        act(() => {
          ws.log.emit({ type: 'subthread.opened', subthread_id: 'main.sub-1', skill: 'Skill/review', title: '/review', task: 'the new records' });
          ws.log.emit({ type: 'subthread.done', subthread_id: 'main.sub-1', outcome: 'done', summary: 'Three need attention.', title: '/review' });
        });
        await waitFor(() => expect(log().querySelectorAll('[data-part="subthread-summary"]')).toHaveLength(1));
        expect(log().querySelectorAll('[data-part="subthread"]')).toHaveLength(1);
        expect(slots()).toHaveLength(6);
        expect(errors.mock.calls.map((call) => String(call[0]))).not.toContainEqual(expect.stringContaining('same key'));
      } finally {
        errors.mockRestore();
      }
    });

    it("shows the reader's own message at the end in one commit (the re-pin of a log already at the end sets nothing)", async () => {
      const commits: string[] = [];
      const ws = showRowsIn(20, virtualize, (commit) => commits.push(commit));
      await waitFor(() => expect(log()).toHaveTextContent('message 19'));
      await act(async () => {
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null))));
      });
      commits.length = 0;
      act(() => ws.log.emit({ type: 'message.created', message_id: 'mine', role: 'user', text: 'my question' }));
      await waitFor(() => expect(log()).toHaveTextContent('my question'));
      await act(async () => {
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null))));
      });
      expect(commits).toEqual(['update']);
      expect(log()).toHaveAttribute('data-follow', 'end');
    });

    it('offers "Jump to latest" once the reader scrolls up, counts what arrives, and jumps back', async () => {
      const ws = showRows(100, virtualize);
      await waitFor(() => expect(log()).toHaveTextContent('message 99'));
      await waitFor(() => expect(log().scrollTop).toBe(6000 - 600));
      expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();

      act(() => {
        log().scrollTop = 1200;
        fireEvent.scroll(log());
      });
      const jump = await screen.findByRole('button', { name: /Jump to latest/ });
      expect(log()).toHaveAttribute('data-follow', 'paused');
      act(() => replies(ws, 3, 100));
      await waitFor(() => expect(jump).toHaveTextContent('Jump to latest (3 new)'));
      expect(log().scrollTop).toBe(1200);

      await userEvent.click(jump);
      await waitFor(() => expect(log().scrollTop).toBe(6180 - 600));
      expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();
      expect(log()).toHaveFocus();
      await waitFor(() => expect(log()).toHaveTextContent('message 102'));
    });

    it("brings the reader's own new message into view even when they had scrolled up", async () => {
      const ws = showRows(100, virtualize);
      await waitFor(() => expect(log().scrollTop).toBe(6000 - 600));
      act(() => {
        log().scrollTop = 1200;
        fireEvent.scroll(log());
      });
      await screen.findByRole('button', { name: /Jump to latest/ });
      act(() => ws.log.emit({ type: 'message.created', message_id: 'mine', role: 'user', text: 'my question' }));
      await waitFor(() => expect(log().scrollTop).toBe(6060 - 600));
      await waitFor(() => expect(screen.queryByRole('button', { name: /Jump to/ })).toBeNull());
      expect(log()).toHaveAttribute('data-follow', 'end');
      expect(log()).toHaveTextContent('my question');
    });
  });

  // Rows in flow bring it into view with scrollIntoView, which jsdom does not do: e2e/embedding.spec.ts checks that in Chromium.
  it('scrolls a row that waits for a decision into view and announces it, unless the reader is far above', async () => {
    const ws = showRows(100, true);
    await waitFor(() => expect(log().scrollTop).toBe(6000 - 600));
    const announcement = () => document.querySelector('[data-part="transcript-announcement"]');
    // A little above the end (two rows): the approval is brought into view and announced.
    act(() => {
      log().scrollTop = 6000 - 600 - 120;
      fireEvent.scroll(log());
    });
    act(() => ws.log.emit({ type: 'approval.requested', approval_id: 'a1', capability: 'records.delete', title: 'Delete records', args: {}, reason: 'Deletes 2 records.' }));
    await waitFor(() => expect(log().scrollTop).toBe(6060 - 600));
    expect(announcement()).toHaveTextContent('An approval is waiting for you');
    expect(announcement()).toHaveAttribute('aria-live', 'polite');

    // Far above (reading history): nothing moves; the jump button says a decision waits and leads to it.
    act(() => ws.log.emit({ type: 'approval.resolved', approval_id: 'a1', decision: 'approved' }));
    act(() => {
      log().scrollTop = 600;
      fireEvent.scroll(log());
    });
    await screen.findByRole('button', { name: /Jump to latest/ });
    act(() => ws.log.emit({ type: 'approval.requested', approval_id: 'a2', capability: 'records.delete', title: 'Delete records', args: {}, reason: 'Deletes 1 record.' }));
    const jump = await screen.findByRole('button', { name: 'Jump to the decision waiting for you' });
    expect(jump).toHaveAttribute('data-state', 'waiting');
    expect(log().scrollTop).toBe(600);
    await userEvent.click(jump);
    await waitFor(() => expect(log().scrollTop).toBe(6120 - 600));
  });

  it.each([
    ['in flow', false],
    ['virtualised', true],
  ] as const)("%s, the user's own action follows to its result even when they had scrolled up, until they scroll up again", async (_, virtualize) => {
    const ws = scriptedWorkspace();
    fill(ws, 100);
    render(
      <ChatSurfaceRoot workspace={ws}>
        <Transcript virtualize={virtualize} estimateRowHeight={60} />
        <Retry />
      </ChatSurfaceRoot>,
    );
    await waitFor(() => expect(log().scrollTop).toBe(6000 - 600));
    act(() => {
      log().scrollTop = 1200;
      fireEvent.scroll(log());
    });
    await screen.findByRole('button', { name: /Jump to latest/ });
    // The user acts (a chip, Retry, a decision: each goes through the surface's actions).
    await userEvent.click(screen.getByRole('button', { name: 'Run it' }));
    await waitFor(() => expect(log()).toHaveAttribute('data-follow', 'end'));
    expect(screen.queryByRole('button', { name: /Jump to/ })).toBeNull();
    // What it brings (its card, here one saying the capability is unknown, and the replies) is followed.
    act(() => replies(ws, 2, 100));
    await waitFor(() => expect(log()).toHaveTextContent('message 101'));
    await waitFor(() => expect(log().scrollTop).toBe(log().scrollHeight - 600));
    expect(log().scrollTop).toBeGreaterThanOrEqual(6120 - 600);
    // Until the reader scrolls up by themselves.
    act(() => {
      log().scrollTop = 1200;
      fireEvent.scroll(log());
    });
    await screen.findByRole('button', { name: /Jump to latest/ });
    act(() => replies(ws, 1, 102));
    await waitFor(() => expect(screen.getByRole('button', { name: /Jump to latest/ })).toHaveTextContent('(1 new)'));
    expect(log().scrollTop).toBe(1200);
  });

  // In flow (the virtualiser's own rule is staysAtEnd, VirtualRows.test.ts).
  it('in flow, stays at the end when a scroll event comes before the rows that came in are followed', async () => {
    const ws = showRows(40, false);
    await waitFor(() => expect(log().scrollTop).toBe(40 * 60 - 600));
    // Rows come in, and the scroll event of the last follow arrives once they are in the page,
    // before the follow that brings them into view lands (after the frame's layout).
    act(() => replies(ws, 3, 40));
    while (!log().textContent?.includes('message 42')) await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(log().scrollTop).toBe(40 * 60 - 600);
    act(() => {
      fireEvent.scroll(log());
    });
    await waitFor(() => expect(log().scrollTop).toBe(43 * 60 - 600));
    expect(screen.queryByRole('button', { name: /Jump to/ })).toBeNull();
    expect(log()).toHaveAttribute('data-follow', 'end');
  });

  it('in flow, always lays out the newest eight rows (content-visibility skips only older ones), and the mark moves as rows come in', async () => {
    const ws = showRows(20, false);
    const recent = () => [...slots()].filter((slot) => slot.hasAttribute('data-recent')).map((slot) => slot.getAttribute('data-index'));
    await waitFor(() => expect(slots()).toHaveLength(20));
    expect(recent()).toEqual(['12', '13', '14', '15', '16', '17', '18', '19']);
    act(() => replies(ws, 2, 20));
    await waitFor(() => expect(slots()).toHaveLength(22));
    expect(recent()).toEqual(['14', '15', '16', '17', '18', '19', '20', '21']);
  });

  it('announces a decision waiting in a long replayed history once, when its newest turns show and when the whole history takes their place', async () => {
    const ws = scriptedWorkspace();
    fill(ws, 2_500);
    ws.log.emit({ type: 'approval.requested', approval_id: 'a1', capability: 'records.delete', title: 'Delete records', args: {}, reason: 'Deletes 2 records.' });
    render(
      <ChatSurfaceRoot workspace={ws}>
        <Transcript estimateRowHeight={60} />
      </ChatSurfaceRoot>,
    );
    const region = document.querySelector('[data-part="transcript-announcement"]')!;
    const heard: string[] = [];
    const observer = new MutationObserver(() => heard.push(region.textContent ?? ''));
    observer.observe(region, { childList: true, characterData: true, subtree: true });
    // The newest turns first (still busy), the approval among them.
    await waitFor(() => expect(within(log()).getByText('Delete records')).toBeInTheDocument());
    await waitFor(() => expect(log()).not.toHaveAttribute('aria-busy'));
    await waitFor(() => expect(log().scrollTop).toBe(2_501 * 60 - 600));
    observer.disconnect();
    expect(heard.filter(Boolean)).toEqual(['An approval is waiting for you']);
    expect(screen.queryByRole('button', { name: /Jump to/ })).toBeNull();
  });

  it('keeps a row holding the keyboard focus mounted while the reader scrolls away', async () => {
    const ws = scriptedWorkspace();
    fill(ws, 99);
    ws.log.emit({ type: 'turn.error', code: 'model_error', message: 'Overloaded.', recoverable: true });
    render(
      <ChatSurfaceRoot workspace={ws}>
        <Transcript virtualize />
      </ChatSurfaceRoot>,
    );
    const retry = await within(log()).findByRole('button', { name: 'Retry' });
    retry.focus();
    act(() => {
      log().scrollTop = 0;
      fireEvent.scroll(log());
    });
    await waitFor(() => expect(log()).toHaveTextContent('message 0'));
    expect(retry).toBeInTheDocument();
    expect(retry).toHaveFocus();
  });

  describe('virtualize="auto" (the default)', () => {
    const inFlow = () => !log().querySelector('[data-part="transcript-rows"]')!.hasAttribute('data-virtual');

    it(`has every row in the page up to ${FLOW_MAX}, and only those near the viewport once one more comes in at the end`, async () => {
      const ws = showRows(FLOW_MAX);
      await waitFor(() => expect(slots()).toHaveLength(FLOW_MAX));
      expect(inFlow()).toBe(true);
      await waitFor(() => expect(log().scrollTop).toBe(FLOW_MAX * 60 - 600));
      act(() => replies(ws, 1, FLOW_MAX));
      await waitFor(() => expect(inFlow()).toBe(false));
      expect(slots().length).toBeLessThan(40);
      expect(log()).toHaveTextContent(`message ${FLOW_MAX}`);
      await waitFor(() => expect(log().scrollTop).toBe((FLOW_MAX + 1) * 60 - 600));
      expect(log()).toHaveAttribute('data-follow', 'end');
    });

    it('virtualises a thread that comes with more rows from its first render', () => {
      showRows(FLOW_MAX + 1);
      expect(inFlow()).toBe(false);
      expect(slots().length).toBeLessThan(40);
    });

    it('keeps every row while one holds the focus, and goes over once the focus has left', async () => {
      const ws = showRows(FLOW_MAX - 1);
      act(() => ws.log.emit({ type: 'turn.error', code: 'model_error', message: 'Overloaded.', recoverable: true }));
      const retry = await within(log()).findByRole('button', { name: 'Retry' });
      retry.focus();
      act(() => replies(ws, 3, FLOW_MAX));
      await waitFor(() => expect(log()).toHaveTextContent(`message ${FLOW_MAX + 2}`));
      expect(inFlow()).toBe(true);
      expect(retry).toHaveFocus();
      act(() => log().focus());
      act(() => replies(ws, 1, FLOW_MAX + 3));
      await waitFor(() => expect(inFlow()).toBe(false));
      expect(log()).toHaveTextContent(`message ${FLOW_MAX + 3}`);
    });

    it('keeps every row while the reader is above the end, so their place holds', async () => {
      const ws = showRows(FLOW_MAX);
      await waitFor(() => expect(log().scrollTop).toBe(FLOW_MAX * 60 - 600));
      act(() => {
        log().scrollTop = 1200;
        fireEvent.scroll(log());
      });
      const jump = await screen.findByRole('button', { name: /Jump to latest/ });
      act(() => replies(ws, 2, FLOW_MAX));
      await waitFor(() => expect(jump).toHaveTextContent('Jump to latest (2 new)'));
      expect(inFlow()).toBe(true);
      expect(log().scrollTop).toBe(1200);
      await userEvent.click(jump);
      await waitFor(() => expect(log()).toHaveAttribute('data-follow', 'end'));
      act(() => replies(ws, 1, FLOW_MAX + 2));
      await waitFor(() => expect(inFlow()).toBe(false));
      await waitFor(() => expect(log().scrollTop).toBe((FLOW_MAX + 3) * 60 - 600));
    });
  });
});
