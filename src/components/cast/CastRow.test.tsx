import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThreadEventInput } from '../../runtime/events';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';
import { CastRow } from './CastRow';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

function setup(max?: number) {
  const ws = scriptedWorkspace({ driver: { id: 'offline', label: 'Offline model' } });
  render(
    <ChatSurfaceRoot workspace={ws}>
      <CastRow {...(max !== undefined ? { max } : {})} />
    </ChatSurfaceRoot>,
  );
  const emit = (event: ThreadEventInput) => act(() => void ws.log.emit(event));
  return { emit };
}

const start = (n: number, name: string): ThreadEventInput => ({
  type: 'capability.started',
  invocation_id: `inv${n}`,
  capability: `task.${n}`,
  title: `Task ${n}`,
  args: {},
  actor: { id: name.toLowerCase(), name, glyph: name[0]! },
});

describe('<CastRow>', () => {
  it('is empty and idle while nobody works', () => {
    setup();
    expect(screen.queryByRole('list', { name: 'Working now' })).toBeNull();
    expect(document.querySelector('[data-part="cast"]')).toHaveAttribute('data-state', 'idle');
  });

  it('shows one figure per open invocation with its progress, and announces arrivals and departures politely', async () => {
    const { emit } = setup();
    emit(start(1, 'Analyst'));
    emit({ type: 'capability.progress', invocation_id: 'inv1', progress: 1, total: 4, message: 'Section 1' });
    const list = await screen.findByRole('list', { name: 'Working now' });
    const figure = within(list).getByRole('listitem');
    expect(figure).toHaveTextContent('Analyst');
    expect(figure).toHaveTextContent('Task 1 · 25%');
    expect(figure).toHaveAttribute('data-state', 'determinate');
    expect(figure.querySelector('[data-part="cast-meter-fill"]')).toHaveStyle({ width: '25%' });
    const status = screen.getByRole('status');
    expect(status).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(status).toHaveTextContent('Analyst started Task 1.'));
    emit({ type: 'capability.done', invocation_id: 'inv1', result: { content: [] } });
    await waitFor(() => expect(status).toHaveTextContent('Analyst finished Task 1.'));
    expect(screen.queryByRole('list', { name: 'Working now' })).toBeNull();
  });

  it('adds the assistant while its reply streams', async () => {
    const { emit } = setup();
    emit({ type: 'message.created', message_id: 'a1', role: 'assistant', text: 'Hel', driver: { id: 'offline', label: 'Offline model' } });
    const list = await screen.findByRole('list', { name: 'Working now' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('Offline modelWriting a reply');
    expect(within(list).getByRole('listitem')).toHaveAttribute('data-state', 'writing');
    // The growing reply shows the work: no moving bar beside it.
    expect(within(list).getByRole('listitem').querySelector('[data-part="cast-meter"]')).toBeNull();
    emit({ type: 'message.done', message_id: 'a1' });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Working now' })).toBeNull());
  });

  it('shows the assistant thinking while a turn waits on the model', async () => {
    const { emit } = setup();
    emit({ type: 'turn.started', turn_id: 't1' });
    const list = await screen.findByRole('list', { name: 'Working now' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('Thinking');
    expect(within(list).getByRole('listitem').querySelector('[data-part="cast-meter-fill"]')).toHaveAttribute('data-state', 'indeterminate');
    emit(start(1, 'Analyst'));
    await waitFor(() => expect(within(list).getAllByRole('listitem').map((li) => li.getAttribute('data-actor'))).toEqual(['analyst']));
  });

  it('collapses figures past max into "+N", named in full for screen readers', async () => {
    const { emit } = setup(3);
    for (const [n, name] of [[1, 'Ana'], [2, 'Ben'], [3, 'Cy'], [4, 'Dee'], [5, 'Eve']] as const) emit(start(n, name));
    const list = await screen.findByRole('list', { name: 'Working now' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    const overflow = items[3]!;
    expect(overflow).toHaveAttribute('data-part', 'cast-overflow');
    expect(overflow).toHaveTextContent('+2');
    expect(overflow).toHaveTextContent('and 2 more: Dee (Task 4), Eve (Task 5)');
  });

  it('never shows "+1": the last figure shows instead', async () => {
    const { emit } = setup(3);
    for (const [n, name] of [[1, 'Ana'], [2, 'Ben'], [3, 'Cy'], [4, 'Dee']] as const) emit(start(n, name));
    const list = await screen.findByRole('list', { name: 'Working now' });
    expect(within(list).getAllByRole('listitem').map((li) => li.getAttribute('data-part'))).toEqual(['cast-member', 'cast-member', 'cast-member', 'cast-member']);
  });
});
