import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { resultText, textResult } from '../results';
import { createEventLog } from '../eventLog';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState, type ApprovalRow, type AssistantRow, type ProposalRow, type QuestionRow } from '../fold';
import { invoke } from '../invoke';
import { ModelError, type DriverChunk, type ModelDriver, type ModelMessage, type ModelRequest } from '../model';
import { createRegistry } from '../registry';
import { resumeTurn, takeTurn, type TurnBaseOptions } from '../turn';

const ran: string[] = [];
const registry = createRegistry([
  defineCapability({
    name: 'records.count', title: 'Count records', description: 'Counts the records.', input: z.object({}),
    handler: () => { ran.push('records.count'); return textResult('There are 42 records.', { count: 42 }); },
  }),
  defineCapability({
    name: 'notes.add', title: 'Add note', description: 'Saves a note.', kind: 'mutate', annotations: { destructiveHint: false },
    input: z.object({ text: z.string().min(1) }),
    handler: ({ text }) => { ran.push('notes.add'); return textResult(`Saved “${text}”.`); },
  }),
  defineCapability({
    name: 'records.delete', title: 'Delete records', description: 'Deletes records.', kind: 'mutate',
    input: z.object({ before: z.string() }),
    handler: () => { ran.push('records.delete'); return textResult('Deleted 7 records.'); },
  }),
  defineCapability({
    name: 'crm.export', title: 'Export to CRM', description: 'Sends records to the CRM.', kind: 'mutate',
    annotations: { destructiveHint: false }, requires_user_confirmation: true, input: z.object({}),
    handler: () => { ran.push('crm.export'); return textResult('Exported.'); },
  }),
]);

/** A model that plays one step per request and records what it was asked. */
function scripted(...steps: ((request: ModelRequest) => DriverChunk[])[]) {
  const requests: ModelRequest[] = [];
  const driver: ModelDriver = {
    info: { id: 'script', label: 'Script' },
    async *respond(request) {
      requests.push({ ...request, messages: [...request.messages] });
      const step = steps[requests.length - 1];
      if (!step) throw new Error(`The script has no step ${requests.length}.`);
      yield* step(request);
    },
  };
  return { driver, requests };
}

function setup(driver: ModelDriver, extra: Partial<TurnBaseOptions> = {}) {
  ran.length = 0;
  const log = createEventLog({ now: () => 1 });
  const base = (history: readonly ModelMessage[]): TurnBaseOptions => ({
    driver,
    capabilities: registry.describe(),
    history,
    emit: log.emit,
    invoke: (capability, args, turnId) => invoke(capability, args, { registry, emit: log.emit, threadKey: 't1', turnId }),
    ...extra,
  });
  const rows = () => foldAll(initialThreadState, log.since()).rows;
  const events = <T extends ThreadEvent['type']>(type: T) => log.since().filter((e): e is Extract<ThreadEvent, { type: T }> => e.type === type);
  return { log, base, rows, events };
}

const text = (t: string): DriverChunk => ({ type: 'text', text: t });

describe('strict alignment: what the user did not name is proposed', () => {
  it('turns an unnamed call into a proposal; accepting runs it and the model goes on with the result', async () => {
    const { driver, requests } = scripted(
      () => [{ type: 'invoke', capability: 'records.count', args: {}, call_id: 'toolu_1' }],
      ({ messages }) => [text(`You have ${resultText((messages.at(-1) as Extract<ModelMessage, { role: 'tool' }>).result).match(/\d+/)![0]} records.`)],
    );
    const { base, rows, events } = setup(driver);
    const first = await takeTurn({ ...base([]), text: 'count my list for me' });

    expect(first.outcome).toBe('proposed');
    expect(ran).toEqual([]);
    expect(rows().map((r) => r.kind)).toEqual(['user', 'proposal']);
    const proposal = rows()[1] as ProposalRow;
    expect(proposal).toMatchObject({ capability: 'records.count', title: 'Count records', status: 'pending', reason: 'You did not ask for Count records by name, so it waits for you to accept it.' });
    expect(events('turn.done').at(-1)).toMatchObject({ outcome: 'proposed' });
    expect(first.waiting).toMatchObject({ kind: 'proposal', id: proposal.id, call_id: 'toolu_1' });

    const second = await resumeTurn({ ...base(first.messages), waiting: first.waiting!, decision: 'accept' });
    expect(second.outcome).toBe('invoked');
    expect(ran).toEqual(['records.count']);
    expect(rows().map((r) => r.kind)).toEqual(['user', 'proposal', 'invocation', 'assistant']);
    expect((rows()[1] as ProposalRow).status).toBe('accepted');
    expect((rows()[3] as AssistantRow).text).toBe('You have 42 records.');
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', call_id: 'toolu_1', capability: 'records.count' });
    const [, resumed] = events('turn.started');
    expect(events('capability.started')[0]!.turn_id).toBe(resumed!.turn_id);
  });

  it('a question a read answers runs it: reading changes nothing, and the user asked for the answer', async () => {
    const { driver } = scripted(() => [{ type: 'invoke', capability: 'records.count', args: {} }], () => [text('42.')]);
    const { base, rows } = setup(driver);
    const result = await takeTurn({ ...base([]), text: 'how big is my list?' });
    expect(result.outcome).toBe('invoked');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
  });

  it('accepting a suggestion in words counts as naming it; another verb is still proposed', async () => {
    const suggestions = [{ capability: 'records.count', hint: 'Count the records' }];
    const { driver } = scripted(() => [{ type: 'invoke', capability: 'records.count', args: {} }], () => [text('42.')]);
    const { base, rows } = setup(driver);
    const result = await takeTurn({ ...base([]), suggestions, text: 'yeah, do that' });
    expect(result.outcome).toBe('invoked');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);

    const other = scripted(() => [{ type: 'invoke', capability: 'records.delete', args: {} }]);
    const second = setup(other.driver);
    const declined = await takeTurn({ ...second.base([]), suggestions, text: 'yeah, do that' });
    expect(declined.outcome).toBe('proposed');
  });

  it('saying yes to a proposal the user wrote past runs it', async () => {
    const { driver } = scripted(
      () => [{ type: 'invoke', capability: 'records.count', args: {} }],
      () => [{ type: 'invoke', capability: 'records.count', args: {} }],
      () => [text('42.')],
    );
    const { base, rows } = setup(driver);
    const first = await takeTurn({ ...base([]), text: 'count my list for me' });
    expect(first.outcome).toBe('proposed');
    const second = await takeTurn({ ...base(first.messages), text: 'yes please' });
    expect(second.outcome).toBe('invoked');
    expect(rows().filter((r) => r.kind === 'invocation')).toHaveLength(1);
  });

  it('runs a call the user named, in the same turn, and the model reports it', async () => {
    const { driver } = scripted(() => [{ type: 'invoke', capability: 'records.count', args: {} }], () => [text('42.')]);
    const { base, rows } = setup(driver);
    const result = await takeTurn({ ...base([]), text: 'Count records please' });
    expect(result.outcome).toBe('invoked');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
  });

  it('a dismissed proposal is recorded for the model without a model call', async () => {
    const { driver, requests } = scripted(() => [{ type: 'invoke', capability: 'records.count', args: {} }]);
    const { base, rows, events } = setup(driver);
    const first = await takeTurn({ ...base([]), text: 'count my list for me' });
    const second = await resumeTurn({ ...base(first.messages), waiting: first.waiting!, decision: 'dismiss' });

    expect(second).toMatchObject({ outcome: null, waiting: null });
    expect(requests).toHaveLength(1);
    expect(ran).toEqual([]);
    expect((rows()[1] as ProposalRow).status).toBe('dismissed');
    expect(events('turn.started')).toHaveLength(1);
    const last = second.messages.at(-1) as Extract<ModelMessage, { role: 'tool' }>;
    expect(last.result.isError).toBe(true);
    expect(resultText(last.result)).toBe('The user dismissed Count records; it was not run.');
  });

  it('a destructive mutate the user did not name is proposed, and accepting it is the approval', async () => {
    const { driver } = scripted(() => [{ type: 'invoke', capability: 'records.delete', args: { before: '2020' } }], () => [text('Done.')]);
    const { base, rows } = setup(driver);
    const first = await takeTurn({ ...base([]), text: 'tidy up the old stuff' });
    expect(first.waiting?.kind).toBe('proposal');
    await resumeTurn({ ...base(first.messages), waiting: first.waiting!, decision: 'accept' });
    expect(ran).toEqual(['records.delete']);
    expect(rows().some((r) => r.kind === 'approval')).toBe(false);
  });
});

describe('loose alignment and confirmation', () => {
  it('runs an unnamed read and a safe mutate at once, and the reads sync-continue', async () => {
    const { driver, requests } = scripted(
      () => [{ type: 'invoke', capability: 'records.count', args: {} }],
      () => [{ type: 'invoke', capability: 'notes.add', args: { text: '42 records' } }],
      () => [text('Noted: 42 records.')],
    );
    const { base, rows } = setup(driver, { alignment: 'loose' });
    const result = await takeTurn({ ...base([]), text: 'how big is my list? write it down' });
    expect(result.outcome).toBe('invoked');
    expect(ran).toEqual(['records.count', 'notes.add']);
    expect(requests).toHaveLength(3);
    expect(rows().map((r) => r.kind)).toEqual(['user', 'invocation', 'invocation', 'assistant']);
  });

  it('a destructive mutate waits for approval, even named; approving runs it and the model goes on', async () => {
    const { driver, requests } = scripted(
      () => [{ type: 'invoke', capability: 'records.delete', args: { before: '2020' }, call_id: 'toolu_d' }],
      () => [text('Deleted.')],
    );
    const { base, rows, events } = setup(driver, { alignment: 'loose' });
    const first = await takeTurn({ ...base([]), text: 'delete records before 2020' });
    expect(first.outcome).toBe('waiting');
    expect(ran).toEqual([]);
    const approval = rows()[1] as ApprovalRow;
    expect(approval).toMatchObject({ kind: 'approval', title: 'Delete records', args: { before: '2020' }, status: 'pending', reason: 'Delete records may overwrite or delete data, so it needs your approval.' });
    expect(foldAll(initialThreadState, events('turn.done')).activeTurn).toBeNull();

    await resumeTurn({ ...base(first.messages), waiting: first.waiting!, decision: 'approve' });
    expect(ran).toEqual(['records.delete']);
    expect((rows()[1] as ApprovalRow).status).toBe('approved');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'approval', 'invocation', 'assistant']);
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', call_id: 'toolu_d', result: { content: [{ text: 'Deleted 7 records.' }] } });
  });

  it('a denial is reported back to the model as an error, and nothing runs', async () => {
    const { driver, requests } = scripted(
      () => [{ type: 'invoke', capability: 'crm.export', args: {} }],
      ({ messages }) => {
        const last = messages.at(-1) as Extract<ModelMessage, { role: 'tool' }>;
        return [text(last.result.isError ? 'Understood, nothing was exported.' : 'Exported.')];
      },
    );
    const { base, rows } = setup(driver, { alignment: 'loose' });
    const first = await takeTurn({ ...base([]), text: 'Export to CRM' });
    expect(first.waiting).toMatchObject({ kind: 'approval' });
    expect((rows()[1] as ApprovalRow).reason).toBe('Export to CRM changes your data and asks for your approval first.');
    const second = await resumeTurn({ ...base(first.messages), waiting: first.waiting!, decision: 'deny' });

    expect(ran).toEqual([]);
    expect(second.outcome).toBe('answered');
    expect((rows()[1] as ApprovalRow).status).toBe('denied');
    expect(rows().map((r) => r.kind)).toEqual(['user', 'approval', 'assistant']);
    expect((rows()[2] as AssistantRow).text).toBe('Understood, nothing was exported.');
    const told = requests[1]!.messages.at(-1) as Extract<ModelMessage, { role: 'tool' }>;
    expect(resultText(told.result)).toBe('The user denied Export to CRM; it was not run. Do not retry it.');
  });

  it('calls after the one that waits are not run, and the model hears why', async () => {
    const { driver } = scripted(() => [
      { type: 'invoke', capability: 'records.delete', args: { before: '2020' } },
      { type: 'invoke', capability: 'records.count', args: {} },
    ]);
    const { base } = setup(driver, { alignment: 'loose' });
    const result = await takeTurn({ ...base([]), text: 'delete records and count them' });
    expect(ran).toEqual([]);
    const skipped = result.messages.at(-1) as Extract<ModelMessage, { role: 'tool' }>;
    expect(skipped.capability).toBe('records.count');
    expect(resultText(skipped.result)).toBe("Not run: the turn is waiting for the user's decision on Delete records.");
  });

  it('refuses a decision that does not fit the row, and an empty answer, before anything happens', async () => {
    const { driver } = scripted(() => [{ type: 'invoke', capability: 'crm.export', args: {} }]);
    const { base, log } = setup(driver, { alignment: 'loose' });
    const first = await takeTurn({ ...base([]), text: 'Export to CRM' });
    const before = log.lastSeq;
    await expect(resumeTurn({ ...base(first.messages), waiting: first.waiting!, decision: 'accept' })).rejects.toThrow(/takes approve or deny, not "accept"/);
    expect(log.lastSeq).toBe(before);
  });
});

describe('questions, standing requests and the one-intent rule', () => {
  it('asks one question; the answer goes back to the model; a second question is refused', async () => {
    const { driver, requests } = scripted(
      () => [{ type: 'ask', question: 'Which list?', options: [{ label: 'Leads', value: 'leads' }, { label: 'Customers', value: 'customers' }], call_id: 'toolu_q' }],
      () => [{ type: 'ask', question: 'And which year?', options: [] }],
      () => [text('Counting leads.')],
    );
    const { base, rows } = setup(driver);
    const first = await takeTurn({ ...base([]), text: 'count them' });
    expect(first.outcome).toBe('waiting');
    expect(rows()[1]).toMatchObject({ kind: 'question', question: 'Which list?', status: 'pending', options: [{ label: 'Leads', value: 'leads' }, { label: 'Customers', value: 'customers' }] });

    await resumeTurn({ ...base(first.messages), waiting: first.waiting!, decision: 'answer', answer: 'leads' });
    expect(rows()[1]).toMatchObject({ status: 'answered', answer: 'leads' } satisfies Partial<QuestionRow>);
    expect(requests[1]!.asked).toBe(true);
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', call_id: 'toolu_q', result: { content: [{ type: 'text', text: 'leads' }] } });
    const refused = requests[2]!.messages.at(-1) as Extract<ModelMessage, { role: 'tool' }>;
    expect(resultText(refused.result)).toBe('You already asked your one question for this request: go on with what you know.');
    expect(rows().filter((r) => r.kind === 'question')).toHaveLength(1);
    expect((rows().at(-1) as AssistantRow).text).toBe('Counting leads.');
  });

  it('hands a standing request to the host, then the model confirms', async () => {
    const { driver, requests } = scripted(
      () => [{ type: 'standing', text: 'watch new leads', cadence: 'every week' }],
      () => [text('I passed it on.')],
    );
    const { base, rows, events } = setup(driver);
    const result = await takeTurn({ ...base([]), text: 'watch new leads every week' });
    expect(result.outcome).toBe('answered');
    expect(events('standing.requested')[0]).toMatchObject({ text: 'watch new leads', cadence: 'every week' });
    expect(rows().map((r) => r.kind)).toEqual(['user', 'standing', 'assistant']);
    expect(requests[0]!.route).toEqual({ kind: 'standing', cadence: 'every week', cues: ['every week', 'watch'] });
  });

  it('the driver gets the router reading, the alignment and the slabs of the turn', async () => {
    const { driver, requests } = scripted(() => [text('ok')]);
    const { base } = setup(driver, {
      alignment: 'loose', model: 'claude-opus-4-8', reminders: 'Be brief.',
      skills: [{ name: 'crawl', title: 'Crawl', body: 'Fetch politely.' }],
      suggestions: [{ capability: 'records.count', hint: 'Count them' }],
    });
    await takeTurn({
      ...base([]), text: 'compare the two lists', corpus: [{ text: 'A passage.' }],
      violations: [{ invocation_id: 'i1', capability: 'x', title: 'X', postcondition: 'exit_code', expected: '0', actual: '1', message: 'Failed.' }],
    });
    expect(requests[0]).toMatchObject({
      alignment: 'loose', model: 'claude-opus-4-8', reminders: 'Be brief.', asked: false,
      route: { kind: 'one_shot', cues: ['compare'] },
      skills: [{ name: 'crawl' }], suggestions: [{ hint: 'Count them' }], corpus: [{ text: 'A passage.' }], violations: [{ message: 'Failed.' }],
    });
  });
});

describe('the conversation stays well-formed', () => {
  it('a call the user wrote past gets a "not run" result; deciding on it later still works, as a note', async () => {
    const { driver, requests } = scripted(
      () => [{ type: 'invoke', capability: 'records.count', args: {}, call_id: 'toolu_p' }],
      () => [text('Hello again.')],
      () => [text('42 then.')],
    );
    const { base } = setup(driver);
    const first = await takeTurn({ ...base([]), text: 'count my list for me' });
    const second = await takeTurn({ ...base(first.messages), text: 'hello?' });
    const detached = requests[1]!.messages.find((m) => m.role === 'tool' && m.call_id === 'toolu_p') as Extract<ModelMessage, { role: 'tool' }>;
    expect(resultText(detached.result)).toBe('Not run: the user wrote a new message before deciding.');

    const third = await resumeTurn({ ...base(second.messages), waiting: first.waiting!, decision: 'accept' });
    expect(ran).toEqual(['records.count']);
    const note = third.messages.find((m) => m.role === 'tool' && !m.call_id);
    expect(note).toMatchObject({ role: 'tool', capability: 'records.count', result: { structuredContent: { count: 42 } } });
  });
});

describe('usage and errors', () => {
  it('each assistant row records its usage; a tool step counts into the next row', async () => {
    const usage = (n: number) => ({ input_tokens: n, output_tokens: 1, cache_creation_input_tokens: 10 * n, cache_read_input_tokens: 100 * n });
    const { driver } = scripted(
      () => [{ type: 'invoke', capability: 'records.count', args: {} }, { type: 'usage', usage: usage(1) }],
      () => [text('42.'), { type: 'usage', usage: usage(2) }],
    );
    const { base, rows } = setup(driver, { alignment: 'loose' });
    await takeTurn({ ...base([]), text: 'how many?' });
    expect((rows().at(-1) as AssistantRow).usage).toEqual({ input_tokens: 3, output_tokens: 2, cache_creation_input_tokens: 30, cache_read_input_tokens: 300 });
  });

  it('a ModelError shows its own code and words', async () => {
    const driver: ModelDriver = {
      info: { id: 'claude', label: 'Claude' },
      // eslint-disable-next-line require-yield
      async *respond(): AsyncIterable<DriverChunk> {
        throw new ModelError('rate_limited', 'Slow down.', true);
      },
    };
    const { base, rows } = setup(driver);
    const result = await takeTurn({ ...base([]), text: 'hi' });
    expect(result.outcome).toBe('failed');
    expect(rows()[1]).toMatchObject({ kind: 'error', code: 'rate_limited', message: 'Slow down.', recoverable: true });
  });

  it('a failed retrieval is a recoverable row and the turn answers without it', async () => {
    const { driver, requests } = scripted(() => [text('Answered anyway.')]);
    const { base, rows } = setup(driver);
    await takeTurn({ ...base([]), text: 'what do the docs say?', retrieve: async () => { throw new Error('index offline'); } });
    expect(rows().map((r) => r.kind)).toEqual(['user', 'error', 'assistant']);
    expect(rows()[1]).toMatchObject({ code: 'retrieval_failed', recoverable: true, message: "Could not search the workspace's documents (index offline); answering without them." });
    expect(requests[0]!.corpus).toEqual([]);
  });
});

describe('streamed text', () => {
  it('a burst of 2,000 chunks is a few events in the log, and the reply holds every word', async () => {
    const words = Array.from({ length: 2000 }, (_, i) => `w${i} `);
    const { driver } = scripted(() => words.map(text));
    const { base, rows, events } = setup(driver);
    await takeTurn({ ...base([]), text: 'talk' });
    expect(events('message.delta').length).toBeLessThanOrEqual(3);
    expect((rows()[1] as AssistantRow).text).toBe(words.join(''));
  });

  it('text that came before the model failed is kept, and the error follows it', async () => {
    const driver: ModelDriver = {
      info: { id: 'claude', label: 'Claude' },
      async *respond(): AsyncIterable<DriverChunk> {
        yield text('Half ');
        yield text('a reply');
        throw new ModelError('overloaded', 'Busy.', true);
      },
    };
    const { base, rows, log } = setup(driver);
    await takeTurn({ ...base([]), text: 'hi' });
    expect((rows()[1] as AssistantRow).text).toBe('Half a reply');
    const types = log.since().map((e) => e.type);
    expect(types.lastIndexOf('message.delta')).toBeLessThan(types.indexOf('turn.error'));
  });
});
