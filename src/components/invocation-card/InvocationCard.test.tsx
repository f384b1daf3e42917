import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../../runtime/capability';
import { textResult } from '../../runtime/results';
import type { InvocationRow } from '../../runtime/fold';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';
import { InvocationCard } from './InvocationCard';

const base: InvocationRow = { kind: 'invocation', id: 'inv1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 10 }, state: 'running', output: '', outputTruncated: false, startedAt: 0 };

function card(row: InvocationRow, workspace = scriptedWorkspace()) {
  render(
    <ChatSurfaceRoot workspace={workspace}>
      <InvocationCard row={row} />
    </ChatSurfaceRoot>,
  );
  return screen.getByRole('article', { name: 'Enrich records' });
}

afterEach(() => vi.useRealTimers());

describe('<InvocationCard> states', () => {
  it('queued: says it waits, no bar, cancellable', () => {
    const el = card({ ...base, state: 'queued', startedAt: undefined, job_id: 'job1' });
    expect(el).toHaveAttribute('data-state', 'queued');
    expect(el).toHaveAttribute('aria-busy', 'true');
    expect(el).toHaveTextContent('Queued');
    expect(el).toHaveTextContent('Waiting to start (tracked as a job)');
    expect(within(el).queryByRole('progressbar')).toBeNull();
    expect(within(el).getByRole('button', { name: 'Cancel Enrich records' })).toBeInTheDocument();
  });

  it('running with a total: a determinate bar with the message and percentage', () => {
    const el = card({ ...base, progress: { progress: 4, total: 10, message: 'Enriching record 5 of 10' } });
    expect(el).toHaveAttribute('data-state', 'running');
    const bar = within(el).getByRole('progressbar', { name: 'Enrich records progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(bar).toHaveAttribute('aria-valuetext', 'Enriching record 5 of 10');
    expect(el.querySelector('[data-part="invocation-card-progress"]')).toHaveAttribute('data-state', 'determinate');
    expect(el).toHaveTextContent('Enriching record 5 of 10 · 40%');
  });

  it('running without a total: an indeterminate bar', () => {
    const el = card({ ...base, progress: { progress: 1, message: 'Contacting the registry' } });
    const bar = within(el).getByRole('progressbar');
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(el.querySelector('[data-part="invocation-card-progress"]')).toHaveAttribute('data-state', 'indeterminate');
  });

  it('streaming output: data-state streaming, the newest lines, and a toggle for all of them', async () => {
    const output = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const el = card({ ...base, output });
    expect(el).toHaveAttribute('data-state', 'streaming');
    const pre = within(el).getByLabelText('Enrich records output');
    expect(pre).toHaveTextContent('… 4 earlier lines …');
    expect(pre).toHaveTextContent('line 10');
    expect(pre).not.toHaveTextContent('line 4 ');
    const toggle = within(el).getByRole('button', { name: 'Show all output (10 lines)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(pre).toHaveTextContent('line 1 line 2');
    expect(within(el).getByRole('button', { name: 'Show less output' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('running: the elapsed time ticks', () => {
    vi.useFakeTimers();
    vi.setSystemTime(10_000);
    const el = card({ ...base, startedAt: 8_000 });
    expect(el.querySelector('[data-part="invocation-card-elapsed"]')).toHaveTextContent('2.0 s');
    act(() => {
      vi.advanceTimersByTime(3_000);
    });
    expect(el.querySelector('[data-part="invocation-card-elapsed"]')).toHaveTextContent('5.0 s');
  });

  it('done: one summary sentence; the output, fields (words, units) and raw result under one closed Details', () => {
    const el = card({
      ...base,
      state: 'done',
      endedAt: 2_400,
      output: 'Ada: Software\n',
      checks: [{ postcondition: 'row_count_change', text: '10 more enriched records' }],
      result: textResult('Enriched 10 records.\nDetails follow.', { enriched: 10, source: 'registry', duration_ms: 104, saved: true, nested: { a: 1 } }),
    });
    expect(el).toHaveAttribute('data-state', 'done');
    expect(el).toHaveAttribute('data-checks', 'passed');
    expect(el).toHaveAttribute('aria-busy', 'false');
    expect(el).toHaveTextContent('Done · 2.4 s');
    expect(el.querySelector('[data-part="result-summary"]')).toHaveTextContent('Enriched 10 records.');
    expect(el.querySelector('[data-part="checks"]')).toHaveTextContent('✓ checked: 10 more enriched records');
    const details = within(el).getByText('Details').closest('details')!;
    expect(details).not.toHaveAttribute('open');
    expect(el.querySelectorAll('details')).toHaveLength(1);
    // Everything a developer wants is inside it, and nothing of it outside.
    const fields = details.querySelector('[data-part="result-fields"]')!;
    expect([...fields.querySelectorAll('div')].map((d) => d.textContent)).toEqual(['Enriched10', 'Sourceregistry', 'Duration0.1 s', 'SavedYes']);
    expect(details).toHaveTextContent('Ada: Software');
    expect(details.querySelector('[data-part="invocation-card-raw"]')).toHaveTextContent('"enriched": 10');
    expect(el.querySelector('[data-part="invocation-card-output"]')).toBeNull();
    expect(within(el).queryByRole('button')).toBeNull();
  });

  it('a failed check: the card stays done, names the check and turns amber (data-checks="failed")', () => {
    const el = card({
      ...base,
      state: 'done',
      endedAt: 10,
      result: textResult('Imported 0 records from broken.csv.'),
      violations: [{ postcondition: 'row_count_change', expected: 'records +2', actual: 'records +0', message: 'Import CSV should have added 2 rows to records, but the count went from 4 to 4.' }],
    });
    expect(el).toHaveAttribute('data-state', 'done');
    expect(el).toHaveAttribute('data-checks', 'failed');
    // It names the check; the sentence is its row's (ViolationRow), said once in the transcript.
    expect(el.querySelector('[data-part="checks"]')).toHaveTextContent('A check did not hold: Row count.');
    expect(el).not.toHaveTextContent('should have added');
  });

  it('the host can turn Details off for every card', () => {
    render(
      <ChatSurfaceRoot workspace={scriptedWorkspace()}>
        <InvocationCard.Defaults details={false}>
          <InvocationCard row={{ ...base, state: 'done', endedAt: 1, result: textResult('Enriched 1 record.', { enriched: 1 }) }} />
        </InvocationCard.Defaults>
      </ChatSurfaceRoot>,
    );
    expect(screen.getByRole('article', { name: 'Enrich records' })).toHaveTextContent('Enriched 1 record.');
    expect(document.querySelector('details')).toBeNull();
  });

  it('done with display_hint table: rows as a table, "and N more" past the limit', () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ name: `Acme ${i}`, employees: i * 10 }));
    const el = card({ ...base, state: 'done', endedAt: 10, result: textResult('Found 10 companies.', { rows }, { kind: 'table', summary: '10 companies' }) });
    expect(el.querySelector('[data-part="result-summary"]')).toHaveTextContent('10 companies.');
    const table = within(el).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Employees']);
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 8);
    expect(el).toHaveTextContent('and 2 more rows');
  });

  it('done with display_hint list, json and link', () => {
    const { unmount } = render(
      <ChatSurfaceRoot workspace={scriptedWorkspace()}>
        <InvocationCard row={{ ...base, id: 'l', state: 'done', endedAt: 1, result: textResult('3 tags', { tags: ['a', 'b', 'c'] }, { kind: 'list' }) }} />
        <InvocationCard row={{ ...base, id: 'j', state: 'done', endedAt: 1, result: textResult('config', { depth: 2 }, { kind: 'json' }) }} />
        <InvocationCard row={{ ...base, id: 'k', state: 'done', endedAt: 1, result: { content: [{ type: 'resource_link', uri: 'https://example.com/report.pdf', name: 'report.pdf', title: 'The report' }], display_hint: { kind: 'link' } } }} />
      </ChatSurfaceRoot>,
    );
    expect([...document.querySelectorAll('[data-part="result-list"] li')].map((li) => li.textContent)).toEqual(['a', 'b', 'c']);
    // JSON is for developers: under Details, not on the card.
    expect(document.querySelector('[data-part="result-json"]')).toBeNull();
    expect(document.querySelectorAll('[data-part="invocation-card-raw"]')[1]).toHaveTextContent('"depth": 2');
    expect(screen.getByRole('link', { name: 'The report' })).toHaveAttribute('href', 'https://example.com/report.pdf');
    unmount();
  });

  it('refused arguments: "Not run", each bad field, and no Retry (the same arguments would fail again)', () => {
    const el = card({
      ...base,
      state: 'failed',
      startedAt: undefined,
      recoverable: true,
      error: { code: 'invalid_arguments', message: 'Enrich records was not run: limit is too big.', issues: [{ path: 'limit', message: 'Too big: expected number to be <=100' }] },
    });
    expect(el).toHaveAttribute('data-state', 'failed');
    expect(el).toHaveTextContent('Not run');
    expect(within(el).getByRole('list', { name: 'Problems with the arguments' })).toHaveTextContent(/^Limit must be 100 or less\.$/);
    expect(el).not.toHaveTextContent('Too big');
    expect(within(el).queryByRole('button', { name: /Retry/ })).toBeNull();
  });

  it('a recoverable tool error offers Retry, which runs it again with the same arguments', async () => {
    const ran = vi.fn();
    const enrich = defineCapability({
      name: 'records.enrich',
      title: 'Enrich records',
      description: 'Adds company data.',
      input: z.object({ limit: z.number() }),
      handler: ({ limit }) => {
        ran(limit);
        return textResult('ok');
      },
    });
    const el = card(
      { ...base, state: 'failed', endedAt: 900, recoverable: true, error: { code: 'tool_error', message: 'The registry refused the request (quota exceeded).' } },
      scriptedWorkspace({ capabilities: [enrich] }),
    );
    expect(el).toHaveTextContent('Failed');
    expect(el).toHaveTextContent('quota exceeded');
    await userEvent.click(within(el).getByRole('button', { name: 'Retry Enrich records' }));
    expect(ran).toHaveBeenCalledWith(10);
  });

  it('cancelled: says so, no Cancel button', () => {
    const el = card({ ...base, state: 'cancelled', endedAt: 1_300, recoverable: true, error: { code: 'cancelled', message: 'Enrich records was cancelled.' } });
    expect(el).toHaveAttribute('data-state', 'cancelled');
    expect(el).toHaveTextContent('Cancelled · 1.3 s');
    expect(within(el).queryByRole('button', { name: /Cancel/ })).toBeNull();
  });

  it('cancelled part way: says what it had done, from its last progress report', () => {
    const words = card({ ...base, state: 'cancelled', endedAt: 1_300, recoverable: true, progress: { progress: 2, total: 5, message: '2 of 5 records enriched' }, error: { code: 'cancelled', message: 'Enrich records was cancelled.' } });
    expect(words.querySelector('[data-part="invocation-card-part-way"]')).toHaveTextContent('Stopped part way: 2 of 5 records enriched.');
    cleanup();
    const counts = card({ ...base, state: 'cancelled', endedAt: 1_300, recoverable: true, progress: { progress: 1, total: 4 }, error: { code: 'cancelled', message: 'Enrich records was cancelled.' } });
    expect(counts.querySelector('[data-part="invocation-card-part-way"]')).toHaveTextContent('Stopped part way: 1 of 4 done.');
    cleanup();
    // Stopped before it had done anything: it only says it was cancelled.
    const none = card({ ...base, state: 'cancelled', endedAt: 300, recoverable: true, progress: { progress: 0, total: 4, message: '0 of 4 records enriched' }, error: { code: 'cancelled', message: 'Enrich records was cancelled.' } });
    expect(none.querySelector('[data-part="invocation-card-part-way"]')).toBeNull();
    expect(none).toHaveTextContent('Enrich records was cancelled.');
  });

  it('a soft time limit that was exceeded is a hint, not a failure', () => {
    const el = card({ ...base, state: 'done', endedAt: 5_000, result: textResult('ok'), slow: { max_ms: 2_000, actual_ms: 5_000 } });
    expect(el).toHaveAttribute('data-state', 'done');
    expect(el).toHaveTextContent('Slower than expected: 5.0 s (expected under 2.0 s).');
  });

  it('outside a surface it still renders, without buttons', () => {
    render(<InvocationCard row={{ ...base, state: 'failed', recoverable: true, error: { code: 'tool_error', message: 'nope' } }} />);
    expect(screen.getByRole('article', { name: 'Enrich records' })).toHaveTextContent('nope');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
