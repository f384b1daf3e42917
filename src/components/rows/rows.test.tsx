import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../../runtime/capability';
import { textResult } from '../../runtime/results';
import type { ThreadEventInput } from '../../runtime/events';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

function setup() {
  const ran = vi.fn();
  const enrich = defineCapability({
    name: 'records.enrich',
    title: 'Enrich records',
    description: 'Adds company data.',
    input: z.object({ limit: z.number().int().max(100) }),
    handler: ({ limit }) => {
      ran(limit);
      return textResult(`Enriched ${limit} records.`);
    },
  });
  const remove = defineCapability({
    name: 'records.delete',
    title: 'Delete records',
    description: 'Deletes records.',
    kind: 'mutate',
    input: z.object({ ids: z.array(z.number()) }),
    handler: ({ ids }) => {
      ran(ids);
      return textResult(`Deleted ${ids.length} records.`);
    },
  });
  const ws = scriptedWorkspace({ capabilities: [enrich, remove] });
  render(<ChatSurface workspace={ws} theme="light" />);
  const emit = (event: ThreadEventInput) => act(() => void ws.log.emit(event));
  return { ws, ran, emit };
}

describe('proposal rows', () => {
  it('shows what would run and why, takes focus, and runs it only on Accept', async () => {
    const { ws, ran, emit } = setup();
    emit({ type: 'proposal.created', proposal_id: 'p1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 10 }, reason: 'Ten records have no company.' });
    const row = await screen.findByRole('article', { name: 'Enrich records' });
    expect(row).toHaveAttribute('data-state', 'pending');
    expect(row).toHaveTextContent('Ten records have no company.');
    expect(within(row).getByText('Limit').nextSibling).toHaveTextContent('10');
    await waitFor(() => expect(row).toHaveFocus());
    expect(ran).not.toHaveBeenCalled();

    await userEvent.click(within(row).getByRole('button', { name: 'Accept Enrich records' }));
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'accepted'));
    expect(row).toHaveTextContent('Accepted');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(ws.decisions).toEqual([{ threadId: 'main', id: 'p1', decision: 'accept' }]);
    await waitFor(() => expect(document.querySelector('[data-part="invocation-card"]')).toHaveAttribute('data-state', 'done'));
    expect(ran).toHaveBeenCalledWith(10);
    // The row words what came of it from the run it led to.
    await waitFor(() => expect(row).toHaveAttribute('data-run', 'done'));
    expect(row.querySelector('[data-part="row-outcome"]')).toHaveTextContent('Accepted: it finished.');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
  });

  it('dismissing runs nothing', async () => {
    const { ran, emit } = setup();
    emit({ type: 'proposal.created', proposal_id: 'p1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 3 } });
    const row = await screen.findByRole('article', { name: 'Enrich records' });
    await userEvent.click(within(row).getByRole('button', { name: /Dismiss/ }));
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'dismissed'));
    expect(row).toHaveTextContent('nothing was run');
    expect(ran).not.toHaveBeenCalled();
    expect(document.querySelector('[data-part="invocation-card"]')).toBeNull();
  });

  it('says why when the workspace refuses the decision, and stays pending with its buttons', async () => {
    const { ws, emit } = setup();
    vi.spyOn(ws, 'decide').mockRejectedValueOnce(new Error('the server is unreachable'));
    emit({ type: 'proposal.created', proposal_id: 'p1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 3 } });
    const row = await screen.findByRole('article', { name: 'Enrich records' });
    await userEvent.click(within(row).getByRole('button', { name: /Accept/ }));
    expect(await within(row).findByRole('alert')).toHaveTextContent('the server is unreachable');
    expect(row).toHaveAttribute('data-state', 'pending');
    expect(within(row).getByRole('button', { name: /Accept/ })).toBeEnabled();
  });
});

describe('approval rows', () => {
  it('holds a destructive change until Approve, warns, then runs it', async () => {
    const { ran, emit } = setup();
    emit({ type: 'approval.requested', approval_id: 'a1', capability: 'records.delete', title: 'Delete records', args: { ids: [4, 7] }, reason: 'Deletes 2 records.' });
    const row = await screen.findByRole('article', { name: 'Delete records' });
    expect(row).toHaveAttribute('data-state', 'pending');
    expect(row).toHaveAttribute('data-destructive', 'true');
    expect(row).toHaveTextContent('Waiting for your approval');
    expect(row).toHaveTextContent('may not be undoable');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).not.toHaveBeenCalled();

    await userEvent.click(within(row).getByRole('button', { name: 'Approve Delete records' }));
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'approved'));
    await waitFor(() => expect(ran).toHaveBeenCalledWith([4, 7]));
    expect(row).toHaveTextContent('Approved');
  });

  it.each([
    ['done', { type: 'capability.done', invocation_id: 'inv1', result: textResult('Deleted 2 records.') }, 'Approved: it finished.'],
    ['failed', { type: 'capability.error', invocation_id: 'inv1', capability: 'records.delete', error: { code: 'tool_error', message: 'The database is locked.' }, recoverable: true }, 'Approved, but it failed.'],
    ['cancelled', { type: 'capability.error', invocation_id: 'inv1', capability: 'records.delete', error: { code: 'cancelled', message: 'Delete records was cancelled.' }, recoverable: true }, 'Approved, then stopped before it finished.'],
  ] as const)('once approved, says the run is going, then that it %s', async (state, end, words) => {
    const { emit } = setup();
    emit({ type: 'approval.requested', approval_id: 'a1', capability: 'records.delete', title: 'Delete records', args: { ids: [4, 7] }, reason: 'Deletes 2 records.', call_id: 'call-1' });
    emit({ type: 'approval.resolved', approval_id: 'a1', decision: 'approved' });
    const row = await screen.findByRole('article', { name: 'Delete records' });
    expect(within(row).getByText('Approved: it is running.')).toBeInTheDocument();
    // Another run of the same capability, not this approval's (another tool call), changes nothing.
    emit({ type: 'capability.started', invocation_id: 'inv0', capability: 'records.delete', title: 'Delete records', args: {}, call_id: 'call-0' });
    emit({ type: 'capability.done', invocation_id: 'inv0', result: textResult('Deleted 1 record.') });
    emit({ type: 'capability.started', invocation_id: 'inv1', capability: 'records.delete', title: 'Delete records', args: { ids: [4, 7] }, call_id: 'call-1' });
    await waitFor(() => expect(row).toHaveAttribute('data-run', 'running'));
    expect(row).toHaveTextContent('Approved: it is running.');
    emit(end as ThreadEventInput);
    await waitFor(() => expect(row).toHaveAttribute('data-run', state));
    expect(row.querySelector('[data-part="row-outcome"]')).toHaveTextContent(words);
  });

  it('denying runs nothing and says so', async () => {
    const { ran, emit } = setup();
    emit({ type: 'approval.requested', approval_id: 'a1', capability: 'records.delete', title: 'Delete records', args: { ids: [1] }, reason: 'Deletes 1 record.' });
    const row = await screen.findByRole('article', { name: 'Delete records' });
    await userEvent.click(within(row).getByRole('button', { name: /Deny/ }));
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'denied'));
    expect(row).toHaveTextContent('it was not run');
    expect(ran).not.toHaveBeenCalled();
  });
});

describe('question rows', () => {
  it('answers with a quick answer', async () => {
    const { ws, emit } = setup();
    emit({ type: 'clarify.requested', question_id: 'q1', question: 'Once, or every week?', options: [{ label: 'Just once', value: 'once' }, { label: 'Every week', value: 'weekly' }] });
    const row = await screen.findByRole('article', { name: 'Once, or every week?' });
    const answers = within(row).getByRole('group', { name: 'Quick answers' });
    expect(within(answers).getAllByRole('button').map((b) => b.textContent)).toEqual(['Just once', 'Every week']);
    await userEvent.click(within(answers).getByRole('button', { name: 'Every week' }));
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'answered'));
    expect(row).toHaveTextContent('You answered: Every week');
    expect(ws.decisions[0]).toEqual({ threadId: 'main', id: 'q1', decision: 'answer', answer: 'weekly' });
  });

  it('takes an answer in the user’s own words, by keyboard', async () => {
    const { ws, emit } = setup();
    emit({ type: 'clarify.requested', question_id: 'q1', question: 'Which list?', options: [] });
    const row = await screen.findByRole('article', { name: 'Which list?' });
    const box = within(row).getByRole('textbox', { name: 'Your answer' });
    expect(within(row).getByRole('button', { name: 'Answer' })).toBeDisabled();
    await userEvent.type(box, 'the customers{Enter}');
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'answered'));
    expect(row).toHaveTextContent('You answered: the customers');
    expect(ws.decisions[0]?.answer).toBe('the customers');
  });
});

describe('violation, standing and error rows', () => {
  it('shows a failed check with what was expected and what was found', async () => {
    const { emit } = setup();
    emit({ type: 'capability.started', invocation_id: 'inv1', capability: 'records.enrich', title: 'Import CSV', args: {} });
    emit({ type: 'capability.done', invocation_id: 'inv1', result: textResult('Imported.') });
    emit({ type: 'capability.quality_violation', invocation_id: 'inv1', postcondition: 'row_count_change', expected: '+= 120', actual: '+0', message: 'No rows were added.' });
    const row = await screen.findByRole('article', { name: 'Import CSV: Row count' });
    expect(row).toHaveAttribute('data-state', 'violated');
    expect(within(row).getByText('Expected').nextSibling).toHaveTextContent('+= 120');
    expect(within(row).getByText('Found').nextSibling).toHaveTextContent('+0');
    expect(row).toHaveTextContent('No rows were added.');
    const card = document.querySelector('[data-part="invocation-card"]')!;
    expect(card).toHaveAttribute('data-state', 'done');
    // The sentence is said once, by the row; the card names the check.
    expect(card.querySelector('[data-part="checks"]')).toHaveTextContent('A check did not hold: Row count.');
    expect(card).not.toHaveTextContent('No rows were added.');
    expect(document.body.textContent!.split('No rows were added.')).toHaveLength(2);
    expect(card).toHaveAttribute('data-checks', 'failed');
  });

  it('shows a standing request as tracked', async () => {
    const { emit } = setup();
    emit({ type: 'standing.requested', request_id: 's1', text: 'Tell me when a record is added', cadence: 'daily' });
    await waitFor(() => expect(document.querySelector('[data-part="standing"]')).toHaveTextContent('Tell me when a record is added'));
    expect(document.querySelector('[data-part="standing"]')).toHaveTextContent('Standing request · daily');
  });

  it('offers Retry on a recoverable error, which sends the last message again', async () => {
    const { ws, emit } = setup();
    const send = vi.spyOn(ws, 'send');
    emit({ type: 'message.created', message_id: 'u1', role: 'user', text: 'summarise the records' });
    emit({ type: 'turn.error', code: 'model_error', message: 'The model is overloaded.', recoverable: true });
    const retry = await screen.findByRole('button', { name: 'Retry' });
    await userEvent.click(retry);
    expect(send).toHaveBeenCalledWith({ threadId: 'main', text: 'summarise the records' });
  });

  it("a skill's message logged in the old text form shows the chip and the task; Retry sends it again with its skill", async () => {
    const { ws, emit } = setup();
    const send = vi.spyOn(ws, 'send');
    emit({ type: 'message.created', message_id: 'u1', role: 'user', text: '[load_skill /summarize]\nthe records' });
    emit({ type: 'turn.error', code: 'model_error', message: 'The model is overloaded.', recoverable: true });
    const chip = await screen.findByLabelText('Skill /summarize');
    expect(chip).toHaveTextContent('/summarize');
    const message = chip.closest('[data-part="message"]') as HTMLElement;
    expect(message).toHaveAttribute('data-role', 'user');
    expect(message).toHaveTextContent('the records');
    expect(message.textContent).not.toContain('[load_skill');
    await userEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(send).toHaveBeenCalledWith({ threadId: 'main', text: 'the records', skill: '/summarize' });
  });

  it('offers no Retry on an unrecoverable error, and marks a stopped turn as stopped', async () => {
    const { emit } = setup();
    emit({ type: 'message.created', message_id: 'u1', role: 'user', text: 'hi' });
    emit({ type: 'turn.error', code: 'bad_key', message: 'The API key was refused.', recoverable: false });
    emit({ type: 'turn.error', code: 'cancelled', message: 'Stopped before the reply finished.', recoverable: true });
    await waitFor(() => expect(document.querySelectorAll('[data-part="error-row"]')).toHaveLength(2));
    const [refused, stopped] = [...document.querySelectorAll('[data-part="error-row"]')];
    expect(refused).toHaveAttribute('data-state', 'error');
    expect(within(refused as HTMLElement).queryByRole('button')).toBeNull();
    expect(stopped).toHaveAttribute('data-state', 'cancelled');
    expect(stopped).toHaveTextContent('Stopped');
    expect(within(stopped as HTMLElement).getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('after a Stop that cancelled a run, offers one Retry: the card\'s, which runs it again', async () => {
    const { ws, emit } = setup();
    emit({ type: 'message.created', message_id: 'u1', role: 'user', text: 'enrich records limit=4' });
    emit({ type: 'capability.started', invocation_id: 'inv1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 4 } });
    emit({ type: 'capability.error', invocation_id: 'inv1', capability: 'records.enrich', error: { code: 'cancelled', message: 'Enrich records was cancelled.' }, recoverable: true });
    emit({ type: 'turn.error', code: 'cancelled', message: 'Stopped before the reply finished.', recoverable: true });
    await waitFor(() => expect(document.querySelector('[data-part="error-row"][data-state="cancelled"]')).not.toBeNull());
    const stopped = document.querySelector('[data-part="error-row"][data-state="cancelled"]');
    expect(stopped).toHaveTextContent('Stopped before the reply finished.');
    expect(screen.getAllByRole('button', { name: /^Retry/ })).toHaveLength(1);
    const invoke = vi.spyOn(ws, 'invoke');
    await userEvent.click(screen.getByRole('button', { name: 'Retry Enrich records' }));
    expect(invoke).toHaveBeenCalledWith({ threadId: 'main', capability: 'records.enrich', args: { limit: 4 } });
  });
});
