import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState } from '../runtime/fold';
import { createOfflineDriver } from '../runtime/offlineDriver';
import { createMemoryEventStore } from '../runtime/stores/eventStore';
import type { ModelDriver, ModelRequest } from '../runtime/model';
import { builtInNodes } from '../runtime/slash/builtinNodes';
import { BUILT_IN_SKILL_NODES } from '../runtime/slash/builtinSkillData';
import { createCatalog } from '../runtime/slash/catalog';
import { NodeQueryError } from '../runtime/slash/query';
import { SKILL_DISCOVERY_QUERY } from '../runtime/slash/skillDirectory';
import { defineSkillCapability } from '../runtime/sources/skill';
import { createLocalWorkspace } from './localWorkspace';

const add = defineCapability({
  name: 'math.add',
  title: 'Add numbers',
  description: 'Adds a and b.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(`The sum is ${a + b}.`, { sum: a + b }),
});

const hang = defineCapability({
  name: 'wait.forever',
  title: 'Wait',
  description: 'Waits until cancelled.',
  input: z.object({}),
  handler: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(textResult('late')))),
});

function workspace() {
  return createLocalWorkspace({ capabilities: [add, hang], driver: createOfflineDriver({ delayMs: 0 }) });
}

describe('createLocalWorkspace', () => {
  it('describes its capabilities and driver in the manifest, with their JSON Schemas once loaded (they load on first use)', async () => {
    const ws = workspace();
    expect(ws.manifest.driver).toEqual({ id: 'offline', label: 'Offline model' });
    expect(ws.manifest.capabilities.map((c) => c.name)).toEqual(['math.add', 'wait.forever']);
    await ws.loadSchemas();
    expect(ws.manifest.capabilities[0]!.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(ws.registry.describe()[0]!.inputSchema).toBe(ws.manifest.capabilities[0]!.inputSchema);
  });

  it('runs a turn that invokes the named capability and answers with its result', async () => {
    const ws = workspace();
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await ws.send({ threadId: 't1', text: 'add numbers a=2 b=3' });
    const state = foldAll(initialThreadState, events);
    expect(state.rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    const card = state.rows[1]!;
    expect(card.kind === 'invocation' && card.state).toBe('done');
    const reply = state.rows[2]!;
    expect(reply.kind === 'assistant' && reply.text).toBe('The sum is 5.');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('replays a thread from `since` to a late subscriber, and keeps threads apart', async () => {
    const ws = workspace();
    await ws.send({ threadId: 't1', text: 'hello' });
    await ws.invoke({ threadId: 't2', capability: 'math.add', args: { a: 1, b: 1 } });
    const all: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => all.push(e), { since: 0 });
    const tail: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => tail.push(e), { since: 2 });
    expect(all[0]).toMatchObject({ type: 'message.created', role: 'user', text: 'hello' });
    expect(tail.map((e) => e.seq)).toEqual(all.slice(2).map((e) => e.seq));
    expect(all.some((e) => e.type === 'capability.started')).toBe(false);
  });

  it('cancels a running invocation by id', async () => {
    const ws = workspace();
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    const pending = ws.invoke({ threadId: 't1', capability: 'wait.forever', args: {} });
    // The call goes through the chat door and its executor (as on a server): its job is queued first, then it starts.
    await vi.waitFor(() => expect(events.some((e) => e.type === 'capability.started')).toBe(true));
    const started = events.find((e) => e.type === 'capability.started');
    expect(started?.type).toBe('capability.started');
    ws.cancel({ threadId: 't1', id: (started as Extract<ThreadEvent, { type: 'capability.started' }>).invocation_id });
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(events.filter((e) => e.type !== 'model.message').at(-1)).toMatchObject({ type: 'capability.error', error: { code: 'cancelled' } });
  });

  it('serialises turns of one thread so their rows never interleave', async () => {
    const ws = workspace();
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await Promise.all([ws.send({ threadId: 't1', text: 'first' }), ws.send({ threadId: 't1', text: 'second' })]);
    const rows = foldAll(initialThreadState, events).rows;
    expect(rows.map((r) => (r.kind === 'user' ? r.text : r.kind))).toEqual(['first', 'assistant', 'second', 'assistant']);
  });

  it('stopping a turn also cancels the invocation it started', async () => {
    const ws = workspace();
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    const turn = ws.send({ threadId: 't1', text: 'wait' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const started = events.find((e) => e.type === 'turn.started') as Extract<ThreadEvent, { type: 'turn.started' }>;
    expect(events.some((e) => e.type === 'capability.started')).toBe(true);
    ws.cancel({ threadId: 't1', id: started.turn_id });
    await turn;
    const state = foldAll(initialThreadState, events);
    expect(state.rows.find((r) => r.kind === 'invocation')).toMatchObject({ state: 'cancelled' });
    expect(events.at(-1)).toMatchObject({ type: 'turn.done', outcome: 'cancelled' });
    expect(state.activeTurn).toBeNull();
  });

  it('setView records what the user looks at, and the manifest carries the alignment and suggestions', () => {
    const ws = createLocalWorkspace({
      capabilities: [add],
      alignment: 'loose',
      anticipation: { 'sums::none': [{ capability: 'math.add', hint: 'Add two numbers', prefill: { a: 1, b: 2 } }] },
    });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    ws.setView({ threadId: 't1', view: { kind: 'sums' } });
    expect(foldAll(initialThreadState, events).activeView).toEqual({ kind: 'sums' });
    expect(ws.manifest.alignment).toBe('loose');
    expect(ws.manifest.anticipation['sums::none']?.[0]?.hint).toBe('Add two numbers');
  });

  it('refuses a decision nothing is waiting for, saying which id', async () => {
    await expect(workspace().decide({ threadId: 't1', id: 'prop_x', decision: 'accept' })).rejects.toThrow('"prop_x"');
  });
});


describe('createLocalWorkspace: the turn engine with the offline model', () => {
  let rows = 0;
  const count = defineCapability({
    name: 'records.count', title: 'Count records', description: 'Counts the records in the workspace.',
    input: z.object({}), handler: () => textResult(`There are ${rows} records.`, { count: rows }),
  });
  const importCsv = defineCapability({
    name: 'records.import_csv', title: 'Import CSV', description: 'Imports records from a CSV file.', kind: 'mutate',
    annotations: { destructiveHint: false },
    input: z.object({ rows: z.number().int() }),
    expected_effect: [{ type: 'row_count_change', entity: 'records', op: '+=', value: '{{rows}}' }],
    // Claims success but adds one row less than asked: the postcondition notices.
    handler: ({ rows: n }) => {
      rows += Math.max(0, n - 1);
      return textResult(`Imported ${n} rows.`);
    },
  });
  const wipe = defineCapability({
    name: 'records.wipe', title: 'Wipe records', description: 'Deletes every record.', kind: 'mutate',
    input: z.object({}), handler: () => { rows = 0; return textResult('All records deleted.'); },
  });

  function engine(options: Partial<Parameters<typeof createLocalWorkspace>[0]> = {}) {
    rows = 5;
    const ws = createLocalWorkspace({
      capabilities: [count, importCsv, wipe], driver: createOfflineDriver({ delayMs: 0 }),
      probes: { countRows: () => rows }, ...options,
    });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    const state = () => foldAll(initialThreadState, events);
    const last = <K extends string>(kind: K) => state().rows.filter((r) => r.kind === kind).at(-1) as Extract<ReturnType<typeof state>['rows'][number], { kind: K }>;
    return { ws, events, state, last };
  }

  it('strict: proposes a verb the user only described; accepting runs it and the model reports', async () => {
    const { ws, state, last } = engine();
    await ws.send({ threadId: 't1', text: 'I need the records counted' });
    expect(state().rows.map((r) => r.kind)).toEqual(['user', 'proposal']);
    const proposal = last('proposal');
    expect(proposal).toMatchObject({ capability: 'records.count', title: 'Count records', status: 'pending' });

    await ws.decide({ threadId: 't1', id: proposal.id, decision: 'accept' });
    expect(state().rows.map((r) => r.kind)).toEqual(['user', 'proposal', 'invocation', 'assistant']);
    expect(last('proposal').status).toBe('accepted');
    expect(last('assistant').text).toBe('There are 5 records.');
    await expect(ws.decide({ threadId: 't1', id: proposal.id, decision: 'accept' })).rejects.toThrow('Nothing in this thread is waiting');
  });

  it('strict: a dismissed proposal runs nothing and asks the model nothing', async () => {
    const { ws, state, last, events } = engine();
    await ws.send({ threadId: 't1', text: 'I need the records counted' });
    const before = events.length;
    await ws.decide({ threadId: 't1', id: last('proposal').id, decision: 'dismiss' });
    // Only the decision and the model's note that it was dismissed: no model call, no turn.
    expect(events.slice(before).map((e) => e.type)).toEqual(['proposal.resolved', 'model.message']);
    expect(events.at(-1)).toMatchObject({ message: { role: 'tool', result: { isError: true } } });
    expect(state().rows.some((r) => r.kind === 'invocation')).toBe(false);
  });

  it('loose: runs the single clear match at once', async () => {
    const { ws, state } = engine({ alignment: 'loose' });
    await ws.send({ threadId: 't1', text: 'how many records are counted?' });
    expect(state().rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
  });

  it('a destructive verb waits for approval; a wrong decision is refused and the row keeps waiting', async () => {
    const { ws, state, last } = engine();
    await ws.send({ threadId: 't1', text: 'wipe records' });
    const approval = last('approval');
    expect(approval).toMatchObject({ title: 'Wipe records', status: 'pending' });
    expect(state().activeTurn).toBeNull();
    await expect(ws.decide({ threadId: 't1', id: approval.id, decision: 'accept' })).rejects.toThrow(
      `The approval "${approval.id}" takes approve or deny, not "accept".`,
    );
    await ws.decide({ threadId: 't1', id: approval.id, decision: 'deny' });
    expect(rows).toBe(5);
    expect(last('approval').status).toBe('denied');
    expect(last('assistant').text).toBe('Understood: I did not run Wipe records.');
  });

  it('approving runs the verb and the model reports the result', async () => {
    const { ws, last } = engine();
    await ws.send({ threadId: 't1', text: 'wipe records' });
    await ws.decide({ threadId: 't1', id: last('approval').id, decision: 'approve' });
    expect(rows).toBe(0);
    expect(last('invocation').state).toBe('done');
    expect(last('assistant').text).toBe('All records deleted.');
  });

  it('router: a standing request goes to the host, and the chat says so', async () => {
    const { ws, state, last } = engine();
    await ws.send({ threadId: 't1', text: 'notify me when new records arrive' });
    expect(state().rows.map((r) => r.kind)).toEqual(['user', 'standing', 'assistant']);
    expect(last('standing').text).toBe('notify me when new records arrive');
    expect(last('assistant').text).toBe('I have handed this to the workspace to keep watching; it will follow up there.');
  });

  it('router: an ambiguous request gets exactly one question; "keep watching" hands it off', async () => {
    const { ws, state, last } = engine();
    await ws.send({ threadId: 't1', text: 'find the record count and track it' });
    const question = last('question');
    expect(question).toMatchObject({ question: 'Just this once, or should I keep watching it for you?', status: 'pending' });
    expect(question.options.map((o) => o.label)).toEqual(['Just this once', 'Keep watching']);
    await ws.decide({ threadId: 't1', id: question.id, decision: 'answer', answer: 'keep watching' });
    expect(last('question')).toMatchObject({ status: 'answered', answer: 'keep watching' });
    expect(state().rows.map((r) => r.kind)).toEqual(['user', 'question', 'standing', 'assistant']);
    expect(state().rows.filter((r) => r.kind === 'question')).toHaveLength(1);
  });

  it('router: "just this once" acts on the request right away', async () => {
    const { ws, state, last } = engine({ alignment: 'loose' });
    await ws.send({ threadId: 't1', text: 'Count records right now, and keep watching' });
    await ws.decide({ threadId: 't1', id: last('question').id, decision: 'answer', answer: 'once' });
    expect(state().rows.map((r) => r.kind)).toEqual(['user', 'question', 'invocation', 'assistant']);
    expect(last('assistant').text).toBe('There are 5 records.');
  });

  it('a check that failed on a direct run is acknowledged at the start of the next turn, once', async () => {
    const { ws, last } = engine();
    await ws.invoke({ threadId: 't1', capability: 'records.import_csv', args: { rows: 3 } });
    expect(last('violation')).toMatchObject({ postcondition: 'row_count_change', expected: 'records +3', actual: 'records +2' });

    await ws.send({ threadId: 't1', text: 'Count records' });
    const replies = assistantTexts(ws);
    expect(replies).toEqual([
      'Before we go on: the last run finished but a check did not hold. Import CSV: Import CSV should have added 3 rows to records, but the count went from 5 to 7. (expected records +3, got records +2.) I can run it again with corrected arguments if you like.',
      'There are 7 records.',
    ]);
    await ws.send({ threadId: 't1', text: 'Count records' });
    expect(assistantTexts(ws).filter((t) => t.startsWith('Before we go on'))).toHaveLength(1);
  });

  it('a check that failed on a run the model asked for is in its report', async () => {
    const { ws, last } = engine();
    await ws.send({ threadId: 't1', text: 'Import CSV rows=4' });
    expect(last('assistant').text).toBe(
      'Imported 4 rows. But a check did not hold: row count change (expected records +4, got records +3).',
    );
    await ws.send({ threadId: 't1', text: 'Count records' });
    expect(last('assistant').text).toBe('There are 8 records.');
  });

  it('the view chooses the whitelist, and the model sees only it', async () => {
    const seen: string[][] = [];
    const offline = createOfflineDriver({ delayMs: 0 });
    const driver = { info: offline.info, respond: (request: Parameters<typeof offline.respond>[0]) => { seen.push(request.capabilities.map((c) => c.name)); return offline.respond(request); } };
    const { ws, last } = engine({ driver, whitelist: ({ view }) => (view?.kind === 'report' ? ['records.count'] : undefined) });
    await ws.send({ threadId: 't1', text: 'what can you do?' });
    ws.setView({ threadId: 't1', view: { kind: 'report' } });
    await ws.send({ threadId: 't1', text: 'what can you do?' });
    expect(seen).toEqual([['records.count', 'records.import_csv', 'records.wipe'], ['records.count']]);
    expect(last('assistant').text).toBe('What I can do here: Count records. Ask in your own words.');
    await ws.send({ threadId: 't1', text: 'wipe records' });
    expect(last('approval')).toBeUndefined();
  });

  it('hands the driver the active skills\' whole bodies, the reminders, the suggestions and retrieved passages', async () => {
    const requests: Parameters<ReturnType<typeof createOfflineDriver>['respond']>[0][] = [];
    const offline = createOfflineDriver({ delayMs: 0 });
    const driver = { info: offline.info, respond: (request: (typeof requests)[number]) => { requests.push(request); return offline.respond(request); } };
    const body = `Plan the crawl first.\n${'Fetch one page at a time.\n'.repeat(300)}`;
    const skill = defineSkillCapability(`---\nname: crawl-plan\ndescription: Plans a crawl, then fetches and ingests pages.\n---\n${body}`, { file: 'crawl-plan/SKILL.md' });
    const retrieve = vi.fn(async () => [{ id: 'doc1', text: 'Crawl politely.' }]);
    const ws = createLocalWorkspace({
      capabilities: [count, skill], driver, reminders: 'Amounts are in EUR.', retrieve,
      anticipation: { 'records::none': [{ capability: 'records.count', hint: 'Count them' }] },
    });
    ws.setView({ threadId: 't1', view: { kind: 'records' } });
    await ws.invoke({ threadId: 't1', capability: 'crawl-plan', args: {} });
    await ws.send({ threadId: 't1', text: 'what now?' });
    expect(requests[0]).toMatchObject({
      reminders: expect.stringMatching(/^Amounts are in EUR\.\n\n<available_skills>\n/),
      skills: [{ name: 'crawl-plan', body: expect.stringContaining('Plan the crawl first.') }],
      suggestions: [{ hint: 'Count them' }],
      corpus: [{ id: 'doc1', text: 'Crawl politely.' }],
    });
    expect(requests[0]!.skills![0]!.body.length).toBeGreaterThanOrEqual(body.trim().length);
    expect(retrieve).toHaveBeenCalledWith(expect.objectContaining({ threadId: 't1', text: 'what now?', view: { kind: 'records' } }));
  });
});

function assistantTexts(ws: ReturnType<typeof createLocalWorkspace>): string[] {
  const events: ThreadEvent[] = [];
  ws.subscribe('t1', (e) => events.push(e))();
  return foldAll(initialThreadState, events).rows.flatMap((r) => (r.kind === 'assistant' ? [r.text] : []));
}

describe('createLocalWorkspace: a thread restored from a persisted log', () => {
  it('gives the model the conversation back', async () => {
    const persisted = createMemoryEventStore();
    const ref = { user: 'me', space: 'default', id: 't1' };
    persisted.append(ref, [
      { type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', text: 'my name is Ada' },
      { type: 'model.message', seq: 2, ts: 1, message: { role: 'user', text: 'my name is Ada' } },
      { type: 'message.created', seq: 3, ts: 2, message_id: 'a1', role: 'assistant', text: 'Hello Ada.' },
      { type: 'message.done', seq: 4, ts: 2, message_id: 'a1' },
      { type: 'model.message', seq: 5, ts: 2, message: { role: 'assistant', text: 'Hello Ada.' } },
    ]);
    const seen: unknown[] = [];
    const driver = {
      info: { id: 'probe', label: 'Probe' },
      async *respond(request: { messages: readonly unknown[] }) {
        seen.push(...request.messages);
        yield { type: 'text' as const, text: 'ok' };
      },
    };
    const ws = createLocalWorkspace({ capabilities: [add], driver, events: persisted });
    await ws.send({ threadId: 't1', text: 'what is my name?' });
    expect(seen).toEqual([
      { role: 'user', text: 'my name is Ada' },
      { role: 'assistant', text: 'Hello Ada.' },
      { role: 'user', text: 'what is my name?' },
    ]);
  });
});

describe('createLocalWorkspace: slash skills on the workspace side', () => {
  const paths = (nodes: { path: string }[]) => nodes.map((n) => n.path);

  it('query runs the discovery query for this user and space: platform, space and own skills, privately', async () => {
    const catalog = createCatalog([...BUILT_IN_SKILL_NODES, ...builtInNodes()]);
    const alice = createLocalWorkspace({ capabilities: [add], user: 'alice', space: 'acme', catalog });
    const bob = createLocalWorkspace({ capabilities: [add], user: 'bob', space: 'acme', catalog });
    const carol = createLocalWorkspace({ capabilities: [add], user: 'carol', space: 'globex', catalog });

    await alice.saveSkill({ threadId: 't1', id: 'weekly', description: 'My weekly report', instructions: 'Group by week.' });
    await alice.saveSkill({ threadId: 't1', id: 'triage', description: 'Team triage', instructions: 'Sort by urgency.', scope: 'space' });
    await bob.saveSkill({ threadId: 't9', id: 'triage', description: 'Bob’s triage', instructions: 'Oldest first.' });

    const q = { threadId: 't1', q: SKILL_DISCOVERY_QUERY };
    expect(paths(await alice.query(q))).toEqual([
      'Skill/agent', 'Skill/model', 'Skill/harness', 'Skill/clear', 'Skill/help', 'Skill/summarize', 'acme/Skill/triage', 'alice/Skill/weekly',
    ]);
    expect(paths(await bob.query(q))).toEqual([
      'Skill/agent', 'Skill/model', 'Skill/harness', 'Skill/clear', 'Skill/help', 'Skill/summarize', 'bob/Skill/triage',
    ]);
    expect(paths(await carol.query(q))).toEqual(['Skill/agent', 'Skill/model', 'Skill/harness', 'Skill/clear', 'Skill/help', 'Skill/summarize']);
    expect(paths(await bob.query({ threadId: 't1', q: 'namespace:alice/Skill nodeType:Skill' }))).toEqual([]);
    expect(paths(await alice.query({ threadId: 't1', q: 'namespace:alice/Skill nodeType:Skill' }))).toEqual(['alice/Skill/weekly']);
  });

  it('query lists the agents, models and harnesses the Pick skills choose from, ordered by the query', async () => {
    const ws = createLocalWorkspace({ capabilities: [add] });
    const models = await ws.query({ threadId: 't1', q: 'namespace:Model nodeType:Model sort:order' });
    expect(models[0]).toMatchObject({ path: 'Model/claude-sonnet-5-5', name: 'Claude Sonnet 5.5' });
    expect(models.at(-1)?.path).toBe('Model/offline');
    expect((await ws.query({ threadId: 't1', q: 'namespace:Agent nodeType:Agent sort:order' }))[0]?.path).toBe('Agent/assistant');
    expect(paths(await ws.query({ threadId: 't1', q: 'nodeType:Harness sort:order limit:2' }))).toEqual(['Harness/chat', 'Harness/claude-code']);
  });

  it.each([
    ['sort:date', 'sort:date is not supported; use sort:order or sort:name.'],
    ['nodeType:Widget', 'Unknown nodeType "Widget". Use one of: Skill, Agent, Model, Harness.'],
    ['namespace:{team}/Skill', 'Unknown placeholder {team} in "namespace:{team}/Skill"; use {user} or {space}.'],
    ['owner:me', 'Unknown query key "owner" in "owner:me". Use one of: namespace, nodeType, sort, limit.'],
  ])('a bad query (%s) rejects with the parser’s message, and the next one works', async (q, message) => {
    const ws = createLocalWorkspace({ capabilities: [add] });
    const failed = ws.query({ threadId: 't1', q });
    await expect(failed).rejects.toThrow(NodeQueryError);
    await expect(failed).rejects.toThrow(message);
    expect(await ws.query({ threadId: 't1', q: SKILL_DISCOVERY_QUERY })).toHaveLength(6);
  });

  it('a query that is not text rejects clearly', async () => {
    await expect(createLocalWorkspace({ capabilities: [add] }).query({ threadId: 't1', q: 42 as unknown as string })).rejects.toThrow('A node query must be text.');
  });

  it('saveSkill validates like a skill file, emits skill.saved, and the skill is discoverable at once', async () => {
    const ws = createLocalWorkspace({ capabilities: [add], user: 'ada' });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await expect(ws.saveSkill({ threadId: 't1', id: 'Weekly Report', description: 'd', instructions: 'i' })).rejects.toThrow(
      '"Weekly Report" cannot be a slash word: use 1–64 lowercase letters, digits or hyphens, starting with a letter or digit (e.g. "import-and-enrich").',
    );
    await expect(ws.saveSkill({ threadId: 't1', id: 'weekly', description: '', instructions: 'i' })).rejects.toThrow('ada/Skill/weekly: description: must not be empty.');
    await expect(ws.saveSkill({ threadId: 't1', id: 'clear', description: 'd', instructions: 'i' })).rejects.toThrow('/clear is already a skill that starts a new thread; choose another name.');
    expect(events).toEqual([]);

    const node = await ws.saveSkill({ threadId: 't1', id: 'weekly', description: 'My weekly report', instructions: 'Group by week.' });
    expect(node).toMatchObject({ path: 'ada/Skill/weekly', name: '/weekly', owner: 'ada', skill: { instructions: 'Group by week.' } });
    expect(events).toMatchObject([{ type: 'skill.saved', path: 'ada/Skill/weekly', name: '/weekly' }]);
    expect(paths(await ws.query({ threadId: 't1', q: `${SKILL_DISCOVERY_QUERY} weekly` }))).toEqual(['ada/Skill/weekly']);
  });

  it('setComposer records the selections; the next turn runs on the picked model, and the picked agent is in the prompt', async () => {
    const requests: ModelRequest[] = [];
    const driver: ModelDriver = { info: { id: 'probe', label: 'Probe' }, async *respond(r) { requests.push(r); yield { type: 'text', text: 'ok' }; } };
    const ws = createLocalWorkspace({ capabilities: [add], driver });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await ws.send({ threadId: 't1', text: 'one' });
    ws.setComposer({ threadId: 't1', composer: { modelName: 'Model/claude-opus-5-5', agentName: 'Agent/researcher' } });
    ws.setComposer({ threadId: 't1', composer: { harness: 'Harness/chat' } });
    await ws.send({ threadId: 't1', text: 'two' });
    expect(foldAll(initialThreadState, events).composer).toEqual({ modelName: 'Model/claude-opus-5-5', agentName: 'Agent/researcher', harness: 'Harness/chat' });
    expect(requests[0]!.model).toBeUndefined();
    expect(requests[0]!.reminders).not.toContain('<agent');
    expect(requests[1]!.model).toBe('claude-opus-5-5');
    expect(requests[1]!.reminders).toContain('<agent name="Researcher">Answer as the Researcher agent: Finds and compares sources before it answers.</agent>');
  });

  it('picking the offline model answers with it, whatever driver the workspace has', async () => {
    const driver: ModelDriver = { info: { id: 'probe', label: 'Probe' }, async *respond() { yield { type: 'text', text: 'from the probe' }; } };
    const ws = createLocalWorkspace({ capabilities: [add], driver });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    ws.setComposer({ threadId: 't1', composer: { modelName: 'Model/offline' } });
    await ws.send({ threadId: 't1', text: 'hello' });
    const reply = foldAll(initialThreadState, events).rows.find((r) => r.kind === 'assistant');
    expect(reply).toMatchObject({ driver: { id: 'offline', label: 'Offline model' } });
    expect(reply?.kind === 'assistant' && reply.text).toMatch(/^Hello!/);
  });

  it('connect and disconnect call the host’s provider hooks, and say so clearly without them', async () => {
    const calls: string[] = [];
    const ws = createLocalWorkspace({
      capabilities: [add], user: 'ada',
      providers: {
        connect: async (provider, { threadId, user }) => { calls.push(`connect ${provider} ${threadId} ${user}`); },
        disconnect: (provider) => { if (provider === 'Copilot') throw new Error('Copilot is not signed in.'); calls.push(`disconnect ${provider}`); },
      },
    });
    await ws.connect({ threadId: 't1', provider: 'ClaudeCode' });
    await ws.disconnect({ threadId: 't1', provider: 'ClaudeCode' });
    await expect(ws.disconnect({ threadId: 't1', provider: 'Copilot' })).rejects.toThrow('Copilot is not signed in.');
    expect(calls).toEqual(['connect ClaudeCode t1 ada', 'disconnect ClaudeCode']);

    const bare = createLocalWorkspace({ capabilities: [add] });
    await expect(bare.connect({ threadId: 't1', provider: 'ClaudeCode' })).rejects.toThrow(
      'This workspace cannot connect ClaudeCode: the host passed no providers.connect hook.',
    );
    await expect(bare.disconnect({ threadId: 't1', provider: 'Copilot' })).rejects.toThrow('cannot disconnect Copilot');
  });

  it('a load-skill directive loads a slash skill beside a SKILL.md capability in the active-skills slab', async () => {
    const requests: ModelRequest[] = [];
    const offline = createOfflineDriver({ delayMs: 0 });
    const driver: ModelDriver = { info: offline.info, respond: (r) => { requests.push(r); return offline.respond(r); } };
    const crawl = defineSkillCapability('---\nname: crawl-plan\ndescription: Plans a crawl.\n---\nPlan the crawl first.', { file: 'crawl-plan/SKILL.md' });
    const ws = createLocalWorkspace({ capabilities: [add, crawl], driver, user: 'ada' });
    await ws.saveSkill({ threadId: 't1', id: 'weekly', description: 'Weekly report', instructions: 'Group by ISO week.' });
    await ws.invoke({ threadId: 't1', capability: 'crawl-plan', args: {} });
    await ws.send({ threadId: 't1', text: 'report on last week', skill: '/weekly' });
    await ws.send({ threadId: 't1', text: 'and the week before' });
    expect(requests[0]!.skills).toEqual([
      { name: 'crawl-plan', title: 'Crawl plan', body: 'Plan the crawl first.' },
      { name: 'ada/Skill/weekly', title: '/weekly', body: 'Group by ISO week.' },
    ]);
    expect(requests[0]!.messages.at(-1)).toEqual({ role: 'user', text: 'report on last week' });
    expect(requests[1]!.skills?.map((s) => s.name)).toEqual(['crawl-plan', 'ada/Skill/weekly']);
  });

  it('a directive may also name a SKILL.md capability, whose body the slab reads from the registry', async () => {
    const requests: ModelRequest[] = [];
    const offline = createOfflineDriver({ delayMs: 0 });
    const driver: ModelDriver = { info: offline.info, respond: (r) => { requests.push(r); return offline.respond(r); } };
    const crawl = defineSkillCapability('---\nname: crawl-plan\ndescription: Plans a crawl.\n---\nPlan the crawl first.', { file: 'crawl-plan/SKILL.md' });
    const ws = createLocalWorkspace({ capabilities: [crawl], driver });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    await ws.send({ threadId: 't1', text: 'crawl the docs', skill: '/crawl-plan' });
    expect(requests[0]!.skills).toEqual([{ name: 'crawl-plan', title: 'Crawl plan', body: 'Plan the crawl first.' }]);
    expect(events.filter((e) => e.type === 'skill.activated')).toMatchObject([{ skill: 'crawl-plan', title: 'Crawl plan' }]);
  });
});

describe('createLocalWorkspace: offering to save a repeated request as a skill', () => {
  const importCsv = defineCapability({
    name: 'records.import_csv', title: 'Import CSV', description: 'Imports records from a CSV file.',
    input: z.object({ file: z.string() }), handler: ({ file }) => textResult(`Imported ${file}.`),
  });
  const enrich = defineCapability({
    name: 'enrich.batch', title: 'Enrich records', description: 'Adds company data to new records.',
    input: z.object({}), handler: () => textResult('Enriched 3 records.'),
  });
  const count = defineCapability({
    name: 'records.count', title: 'Count records', description: 'Counts records.', input: z.object({}), handler: () => textResult('3 records.'),
  });

  /** A model that imports then enriches for "import …", counts then imports for "count …", and reports. */
  const scripted: ModelDriver = {
    info: { id: 'script', label: 'Script' },
    async *respond({ messages }) {
      const last = messages.at(-1)!;
      const user = [...messages].reverse().find((m) => m.role === 'user');
      const plan = user?.role === 'user' && user.text.startsWith('count') ? ['records.count', 'records.import_csv'] : ['records.import_csv', 'enrich.batch'];
      const step = last.role === 'tool' ? plan.indexOf(last.capability) + 1 : 0;
      if (step < plan.length) yield { type: 'invoke', capability: plan[step]!, args: plan[step] === 'records.import_csv' ? { file: 'new.csv' } : {} };
      else yield { type: 'text', text: 'Done.' };
    },
  };

  function setup(user = 'ada') {
    const ws = createLocalWorkspace({ capabilities: [importCsv, enrich, count], driver: scripted, alignment: 'loose', user, space: 'acme' });
    const events: ThreadEvent[] = [];
    ws.subscribe('t1', (e) => events.push(e));
    const offers = () => foldAll(initialThreadState, events).rows.filter((r) => r.kind === 'skill_offer');
    return { ws, events, offers };
  }

  it('offers once, after the second run of the same two steps', async () => {
    const { ws, offers } = setup();
    await ws.send({ threadId: 't1', text: 'import the new file' });
    expect(offers()).toEqual([]);
    await ws.send({ threadId: 't1', text: 'import the new file again' });
    expect(offers()).toEqual([expect.objectContaining({
      kind: 'skill_offer', status: 'pending', sequence: ['records.import_csv', 'enrich.batch'], titles: ['Import CSV', 'Enrich records'],
      name: 'import-csv-then-enrich-records', description: 'Runs Import CSV, then Enrich records.',
    })]);
    await ws.send({ threadId: 't1', text: 'import it a third time' });
    expect(offers()).toHaveLength(1);
  });

  it('accepting saves it under the user’s namespace, the row turns saved, and the skill is found at once', async () => {
    const { ws, offers, events } = setup();
    await ws.send({ threadId: 't1', text: 'import' });
    await ws.send({ threadId: 't1', text: 'import' });
    const offer = offers()[0]!;
    await ws.decide({ threadId: 't1', id: offer.id, decision: 'accept' });
    expect(events.at(-1)).toMatchObject({ type: 'skill.saved', offer_id: offer.id, path: 'ada/Skill/import-csv-then-enrich-records', name: '/import-csv-then-enrich-records' });
    expect(offers()[0]).toMatchObject({ status: 'saved', path: 'ada/Skill/import-csv-then-enrich-records' });
    const [saved] = await ws.query({ threadId: 't1', q: `${SKILL_DISCOVERY_QUERY} enrich` });
    expect(saved).toMatchObject({ path: 'ada/Skill/import-csv-then-enrich-records', owner: 'ada', description: 'Runs Import CSV, then Enrich records.' });
    expect(saved!.skill?.instructions).toContain('1. Import CSV (records.import_csv)\n2. Enrich records (enrich.batch)');
    expect(saved!.skill?.instructions).toContain('- Import CSV: {"file":"new.csv"}');
    await expect(ws.decide({ threadId: 't1', id: offer.id, decision: 'accept' })).rejects.toThrow(`Nothing in this thread is waiting for an answer with id "${offer.id}".`);
  });

  it('accepting with "space:<name>" shares it with the space under that name; another user of the space finds it', async () => {
    const { ws, offers } = setup();
    await ws.send({ threadId: 't1', text: 'import' });
    await ws.send({ threadId: 't1', text: 'import' });
    await ws.decide({ threadId: 't1', id: offers()[0]!.id, decision: 'accept', answer: 'space:team-import' });
    expect(offers()[0]).toMatchObject({ status: 'saved', path: 'acme/Skill/team-import', name: 'team-import' });
    const bob = createLocalWorkspace({ capabilities: [count], user: 'bob', space: 'acme', catalog: ws.skills.catalog });
    expect((await bob.query({ threadId: 'b', q: SKILL_DISCOVERY_QUERY })).map((n) => n.path)).toContain('acme/Skill/team-import');
  });

  it('a bad name or a wrong decision is refused and the offer stays open', async () => {
    const { ws, offers } = setup();
    await ws.send({ threadId: 't1', text: 'import' });
    await ws.send({ threadId: 't1', text: 'import' });
    const { id } = offers()[0]!;
    await expect(ws.decide({ threadId: 't1', id, decision: 'accept', answer: 'weekly!' })).rejects.toThrow('"weekly!" cannot be a slash word');
    await expect(ws.decide({ threadId: 't1', id, decision: 'approve' })).rejects.toThrow(`The skill offer "${id}" takes accept or dismiss, not "approve".`);
    expect(offers()[0]).toMatchObject({ status: 'pending' });
    await ws.decide({ threadId: 't1', id, decision: 'accept', answer: 'weekly' });
    expect(offers()[0]).toMatchObject({ status: 'saved', path: 'ada/Skill/weekly' });
  });

  it('dismissing saves nothing and the sequence is not offered again; a different sequence is', async () => {
    const { ws, offers, events } = setup();
    await ws.send({ threadId: 't1', text: 'import' });
    await ws.send({ threadId: 't1', text: 'import' });
    const before = events.length;
    await ws.decide({ threadId: 't1', id: offers()[0]!.id, decision: 'dismiss' });
    expect(events.slice(before).map((e) => e.type)).toEqual(['skill.offer_dismissed']);
    expect(offers()[0]).toMatchObject({ status: 'dismissed' });
    await ws.send({ threadId: 't1', text: 'import' });
    expect(offers()).toHaveLength(1);
    expect((await ws.query({ threadId: 't1', q: `${SKILL_DISCOVERY_QUERY} enrich` }))).toEqual([]);

    await ws.send({ threadId: 't1', text: 'count and import' });
    await ws.send({ threadId: 't1', text: 'count and import' });
    expect(offers().map((o) => [o.sequence, o.status])).toEqual([
      [['records.import_csv', 'enrich.batch'], 'dismissed'],
      [['records.count', 'records.import_csv'], 'pending'],
    ]);
  });
});
