import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { AnticipationMap } from '../../runtime/anticipation';
import { defineCapability } from '../../runtime/capability';
import { textResult } from '../../runtime/results';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

const anticipation: AnticipationMap = {
  'record_list::none': [
    { capability: 'records.import', hint: 'Import a CSV', prefill: { file: 'contacts.csv' } },
    { capability: 'records.count', hint: 'Count the records' },
  ],
  'record_list::records.import': [{ capability: 'records.enrich', hint: 'Enrich the new records', prefill: { limit: 5 } }],
  'record_detail::none': [
    { capability: 'records.count', hint: 'One' },
    { capability: 'records.count', hint: 'Two' },
    { capability: 'records.count', hint: 'Three' },
    { capability: 'records.count', hint: 'Four' },
  ],
};

function setup(initialView = { kind: 'record_list' }) {
  const calls: [string, unknown][] = [];
  const cap = (name: string, title: string) =>
    defineCapability({
      name,
      title,
      description: title,
      input: z.record(z.string(), z.unknown()),
      handler: (args) => {
        calls.push([name, args]);
        return textResult(`${title} done.`);
      },
    });
  const ws = scriptedWorkspace({ capabilities: [cap('records.import', 'Import CSV'), cap('records.count', 'Count records'), cap('records.enrich', 'Enrich records')], anticipation });
  const send = vi.spyOn(ws, 'send');
  let setView: (view: { kind: string }) => void = () => {};
  function Host() {
    const [view, set] = useState(initialView);
    setView = set;
    return <ChatSurface workspace={ws} theme="light" activeView={view} />;
  }
  render(<Host />);
  return { ws, calls, send, setView: (view: { kind: string }) => act(() => setView(view)) };
}

const chips = () => within(screen.getByRole('group', { name: 'Suggested next steps' })).getAllByRole('button').map((b) => b.textContent);

describe('suggested next-verb chips', () => {
  it('looks up the view with nothing run yet, and titles each chip with its capability', async () => {
    setup();
    await waitFor(() => expect(chips()).toEqual(['Import a CSV', 'Count the records']));
    expect(screen.getByRole('button', { name: 'Import a CSV' })).toHaveAttribute('title', 'Runs Import CSV');
  });

  it('a click invokes the capability with its prefill and no model call; the chips follow the capability that finished', async () => {
    const { calls, send } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Import a CSV' }));
    expect(calls).toEqual([['records.import', { file: 'contacts.csv' }]]);
    expect(send).not.toHaveBeenCalled();
    await waitFor(() => expect(chips()).toEqual(['Enrich the new records']));
    expect(await screen.findByRole('article', { name: 'Import CSV' })).toHaveAttribute('data-state', 'done');
  });

  it('falls back to the view’s ::none entry when nothing is listed after the last capability', async () => {
    const { calls } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Count the records' }));
    expect(calls).toEqual([['records.count', {}]]);
    await waitFor(() => expect(document.querySelector('[data-part="invocation-card"]')).toHaveAttribute('data-state', 'done'));
    expect(chips()).toEqual(['Import a CSV', 'Count the records']);
  });

  it('changes the moment the view changes, and shows at most three', async () => {
    const { ws, setView } = setup();
    await waitFor(() => expect(chips()).toHaveLength(2));
    setView({ kind: 'record_detail' });
    await waitFor(() => expect(chips()).toEqual(['One', 'Two', 'Three']));
    expect(ws.log.since().filter((e) => e.type === 'view.changed').map((e) => e.type === 'view.changed' && e.view.kind)).toEqual(['record_list', 'record_detail']);
    setView({ kind: 'settings' });
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Suggested next steps' })).toBeNull());
  });

  it('works by keyboard: arrows move between chips, Enter runs one, and focus lands on the new chips', async () => {
    const { calls } = setup();
    const first = await screen.findByRole('button', { name: 'Import a CSV' });
    first.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Count the records' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(first).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(calls).toEqual([['records.import', { file: 'contacts.csv' }]]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Enrich the new records' })).toHaveFocus());
  });

  it('says why when the workspace refuses to run a chip', async () => {
    const { ws } = setup();
    vi.spyOn(ws, 'invoke').mockRejectedValueOnce(new Error('offline'));
    await userEvent.click(await screen.findByRole('button', { name: 'Count the records' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not start “Count the records”: offline');
  });
});
