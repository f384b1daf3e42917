import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../../runtime/capability';
import { textResult } from '../../runtime/results';
import type { InvocationRow } from '../../runtime/fold';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { stubTranscriptLayout } from '../testing/layout';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';
import { InvocationCard } from './InvocationCard';
import { defaultMessages } from '../messages/defaults';

const RENDERER_FAILED_NOTE = defaultMessages.card.rendererFailed;
import type { CapabilityRenderer, CapabilityRendererProps, CapabilityRenderers } from './rendererTypes';

interface ListArgs {
  stage: string;
}
interface ListResult {
  records: { name: string; stage: string }[];
}

const running: InvocationRow = {
  kind: 'invocation',
  id: 'inv1',
  capability: 'records.list',
  title: 'List records',
  args: { stage: 'lead' },
  state: 'running',
  progress: { progress: 2, total: 5, message: 'Reading page 2 of 5' },
  output: '',
  outputTruncated: false,
  startedAt: 0,
};
const records = [
  { name: 'Ada', stage: 'lead' },
  { name: 'Grace', stage: 'lead' },
];
const done: InvocationRow = { ...running, state: 'done', endedAt: 1_200, result: textResult('Found 2 records.', { records }, { kind: 'table' }) };

/** A typed renderer: the compiler checks what it reads of the arguments and the structured result. */
const seen: CapabilityRendererProps<ListArgs, ListResult>[] = [];
const RecordsTable: CapabilityRenderer<ListArgs, ListResult> = (props) => {
  seen.push(props);
  const { args, result, state, progress } = props;
  if (state !== 'done') return <p data-testid="mine">Listing {args.stage} records: {progress ? `${progress.progress} of ${progress.total}` : 'starting'}</p>;
  return (
    <table aria-label="Records">
      <tbody>
        {result?.structured?.records.map((r) => (
          <tr key={r.name}>
            <td>{r.name}</td>
            <td>{r.stage}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

function card(row: InvocationRow, renderers?: CapabilityRenderers) {
  const workspace = scriptedWorkspace();
  const tree = (r: InvocationRow, map = renderers) => (
    <ChatSurfaceRoot workspace={workspace}>
      <InvocationCard.Defaults renderers={map}>
        <InvocationCard row={r} />
      </InvocationCard.Defaults>
    </ChatSurfaceRoot>
  );
  const view = render(tree(row));
  return { el: screen.getByRole('article', { name: 'List records' }), rerender: (r: InvocationRow, map?: CapabilityRenderers) => view.rerender(tree(r, map ?? renderers)) };
}

afterEach(() => {
  seen.length = 0;
  vi.restoreAllMocks();
});

describe('<InvocationCard> with a host renderer', () => {
  it('gets typed args, the structured result, the state and progress; the status line, Cancel and Details stay', () => {
    const { el, rerender } = card(running, { 'records.list': RecordsTable });
    expect(within(el).getByTestId('mine')).toHaveTextContent('Listing lead records: 2 of 5');
    expect(seen.at(-1)).toMatchObject({ args: { stage: 'lead' }, state: 'running', progress: { progress: 2, total: 5 }, output: '', row: running });
    expect(seen.at(-1)!.result).toBeUndefined();
    // The kit keeps its frame: the status line and Cancel; the body (the bar) is the renderer's.
    expect(el.querySelector('[data-part="invocation-card-status"]')).toHaveTextContent('Running');
    expect(within(el).getByRole('button', { name: 'Cancel List records' })).toBeInTheDocument();
    expect(within(el).queryByRole('progressbar')).toBeNull();
    expect(el.querySelector('[data-part="invocation-card-body"]')).toHaveAttribute('data-renderer', 'shown');

    rerender(done);
    expect(seen.at(-1)).toMatchObject({ state: 'done', result: { structured: { records }, structuredContent: { records } } });
    const table = within(el).getByRole('table', { name: 'Records' });
    expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual(['Adalead', 'Gracelead']);
    expect(el.querySelector('[data-part="invocation-card-status"]')).toHaveTextContent('Done · 1.2 s');
    expect(within(el).queryByRole('button', { name: /Cancel/ })).toBeNull();
    // The kit's own summary and table are not shown twice; the raw result is still under Details.
    expect(el.querySelector('[data-part="invocation-card-result"]')).toBeNull();
    expect(el.querySelector('details [data-part="invocation-card-raw"]')).toHaveTextContent('"name": "Ada"');
  });

  it('while the model writes the call: its arguments as far as written, "Writing arguments…", no Cancel; then the run takes over', () => {
    const writing: InvocationRow = { kind: 'invocation', id: 'inv1', capability: 'records.list', title: 'List records', args: undefined, state: 'queued', output: '', outputTruncated: false, call_id: 'toolu_1', argsText: '{"stage": "le' };
    const { el, rerender } = card(writing, { 'records.list': RecordsTable });
    expect(seen.at(-1)).toMatchObject({ args: { stage: 'le' }, writing: true, state: 'queued' });
    expect(within(el).getByTestId('mine')).toHaveTextContent('Listing le records: starting');
    const status = el.querySelector('[data-part="invocation-card-status"]')!;
    expect(status).toHaveTextContent('Writing arguments…');
    expect(status).toHaveAttribute('data-state', 'writing');
    expect(within(el).queryByRole('button', { name: /Cancel/ })).toBeNull();

    rerender({ ...writing, argsText: '{"stage": "lead", "lim' });
    expect(seen.at(-1)).toMatchObject({ args: { stage: 'lead' }, writing: true });
    rerender(running);
    expect(seen.at(-1)).toMatchObject({ args: { stage: 'lead' }, writing: false, state: 'running' });
    expect(status).toHaveTextContent('Running');
  });

  it('a call that never ran (its reply stopped while it was written) says "Not run" and why', () => {
    const { el } = card({ ...running, state: 'cancelled', startedAt: undefined, progress: undefined, error: { code: 'not_run', message: 'Not run: the reply stopped before this call was complete.' } } as InvocationRow);
    expect(el.querySelector('[data-part="invocation-card-status"]')).toHaveTextContent('Not run');
    expect(el).toHaveTextContent('the reply stopped before this call was complete');
  });

  it('renders again only when its row changes, even with the map written inline', () => {
    const { rerender } = card(done, { 'records.list': RecordsTable });
    expect(seen).toHaveLength(1);
    rerender(done, { 'records.list': RecordsTable });
    rerender(done, { 'records.list': RecordsTable, 'other.thing': () => null });
    expect(seen).toHaveLength(1);
    rerender({ ...done, endedAt: 1_300 });
    expect(seen).toHaveLength(2);
  });

  it('a renderer that throws: the usual body under a short note, the error logged, the transcript intact', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken: CapabilityRenderer<ListArgs, ListResult> = ({ state, result }) => {
      if (state === 'running') throw new Error('no rows yet');
      return <p data-testid="mine">{result?.structured?.records.length} records</p>;
    };
    const { el, rerender } = card(running, { 'records.list': Broken });
    const body = el.querySelector('[data-part="invocation-card-body"]')!;
    expect(body).toHaveAttribute('data-renderer', 'failed');
    expect(body).toHaveTextContent(RENDERER_FAILED_NOTE);
    // The usual body: the kit's progress bar, and the frame around it.
    expect(within(el).getByRole('progressbar', { name: 'List records progress' })).toBeInTheDocument();
    expect(within(el).getByRole('button', { name: 'Cancel List records' })).toBeInTheDocument();
    expect(log.mock.calls.some((call) => String(call[0]).includes('the renderer for "records.list"'))).toBe(true);

    // A new state tries it again.
    rerender(done);
    expect(within(el).getByTestId('mine')).toHaveTextContent('2 records');
    expect(el.querySelector('[data-part="invocation-card-body"]')).toHaveAttribute('data-renderer', 'shown');
    expect(el).not.toHaveTextContent(RENDERER_FAILED_NOTE);
  });

  it('a throwing renderer on a finished card shows the kit summary and table, Details kept', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken: CapabilityRenderer = () => {
      throw new Error('bad');
    };
    const { el } = card(done, { 'records.list': Broken });
    expect(el).toHaveTextContent(RENDERER_FAILED_NOTE);
    expect(el.querySelector('[data-part="result-summary"]')).toHaveTextContent('Found 2 records.');
    expect(within(el).getByRole('table')).toBeInTheDocument();
    expect(within(el).getByText('Details')).toBeInTheDocument();
  });

  it('a capability without a renderer renders exactly as before', () => {
    const html = (row: InvocationRow, renderers?: CapabilityRenderers) => {
      const { el } = card(row, renderers);
      // Ids from useId differ between renders; everything else must be the same.
      const out = el.outerHTML.replace(/«[^»]*»|:r[0-9a-z]+:|_r_[0-9a-z]+_/g, 'ID');
      cleanup();
      return out;
    };
    for (const row of [running, done, { ...done, state: 'failed' as const, result: undefined, error: { code: 'tool_error', message: 'nope' } }]) {
      const plain = html(row);
      expect(html(row, { 'records.other': RecordsTable })).toBe(plain);
      expect(plain).not.toContain('invocation-card-body');
    }
  });

  it('InvocationCard.Body takes a renderer of its own, or none', () => {
    const workspace = scriptedWorkspace();
    render(
      <ChatSurfaceRoot workspace={workspace}>
        <InvocationCard.Defaults renderers={{ 'records.list': RecordsTable }}>
          <InvocationCard.Root row={done}>
            <InvocationCard.Title />
            <InvocationCard.Body renderer={null} />
          </InvocationCard.Root>
          <InvocationCard.Root row={{ ...done, id: 'inv2', title: 'Second' }}>
            <InvocationCard.Title />
            <InvocationCard.Body renderer={() => <p>custom</p>} />
          </InvocationCard.Root>
        </InvocationCard.Defaults>
      </ChatSurfaceRoot>,
    );
    expect(screen.getByRole('article', { name: 'List records' }).querySelector('[data-part="result-summary"]')).toHaveTextContent('Found 2 records.');
    expect(screen.getByRole('article', { name: 'Second' })).toHaveTextContent('custom');
    expect(seen).toHaveLength(0);
  });
});

describe('<ChatSurface renderers>', () => {
  it('a card of the capability shows the host component, running and done, inside the kit card', async () => {
    const layout = stubTranscriptLayout();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const list = defineCapability({
      name: 'records.list',
      title: 'List records',
      description: 'Lists records by stage.',
      input: z.object({ stage: z.string() }),
      handler: async ({ stage }, ctx) => {
        ctx.progress(1, 2, 'Reading');
        await gate;
        return textResult(`Found 2 ${stage} records.`, { records });
      },
    });
    const workspace = scriptedWorkspace({ capabilities: [list] });
    try {
      render(<ChatSurface workspace={workspace} threadStorageKey={false} renderers={{ 'records.list': RecordsTable }} />);
      act(() => void workspace.invoke({ threadId: 'main', capability: 'records.list', args: { stage: 'lead' } }));
      const el = await screen.findByRole('article', { name: 'List records' });
      await waitFor(() => expect(within(el).getByTestId('mine')).toHaveTextContent('Listing lead records: 1 of 2'));
      expect(within(el).getByRole('button', { name: 'Cancel List records' })).toBeInTheDocument();
      await act(async () => release());
      await waitFor(() => expect(el).toHaveAttribute('data-state', 'done'));
      expect(within(el).getByRole('table', { name: 'Records' })).toHaveTextContent('Ada');
      expect(within(el).getByText('Details')).toBeInTheDocument();
    } finally {
      layout.restore();
    }
  });
});
