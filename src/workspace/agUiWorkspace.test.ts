import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState, type ThreadState } from '../runtime/fold';
import { serveTestAgent } from '../test/agUiAgent';
import { createAgUiWorkspace } from './agUiWorkspace';

let agent: Awaited<ReturnType<typeof serveTestAgent>>;
beforeAll(async () => {
  agent = await serveTestAgent();
});
afterAll(() => agent.close());

const notes: string[] = [];
const addNote = defineCapability({
  name: 'notes.add',
  title: 'Add note',
  description: 'Saves a short note.',
  kind: 'mutate',
  input: z.object({ text: z.string().min(1) }),
  handler: ({ text }) => {
    notes.push(text);
    return textResult(`Saved “${text}”.`);
  },
});

function watch(workspace: ReturnType<typeof createAgUiWorkspace>, threadId: string) {
  const events: ThreadEvent[] = [];
  workspace.subscribe(threadId, (event) => events.push(event));
  return { events, state: (): ThreadState => foldAll(initialThreadState, events) };
}

describe('createAgUiWorkspace on an AG-UI agent (official client, encoder-built agent)', () => {
  it('streams a text reply into an assistant row, with the run’s step in the cast while it runs', async () => {
    const workspace = createAgUiWorkspace({ url: agent.url });
    const { events, state } = watch(workspace, 't1');
    await workspace.send({ threadId: 't1', text: 'hello' });
    expect(events.filter((e) => e.type === 'message.delta').map((e) => (e as { delta: string }).delta)).toEqual(['Hello', ', I am an AG-UI agent.']);
    const rows = state().rows;
    expect(rows[0]).toMatchObject({ kind: 'user', text: 'hello' });
    expect(rows.find((r) => r.kind === 'assistant')).toMatchObject({ text: 'Hello, I am an AG-UI agent.' });
    expect(rows.find((r) => r.kind === 'invocation')).toMatchObject({ title: 'think', state: 'done' });
    expect(events.at(-1)).toMatchObject({ type: 'turn.done', outcome: 'answered' });
    expect(workspace.manifest.driver).toEqual({ id: 'ag-ui', label: 'AG-UI agent' });
  });

  it('shows the agent’s REASONING_* events as the reasoning of the reply they lead to', async () => {
    const workspace = createAgUiWorkspace({ url: agent.url });
    const { events, state } = watch(workspace, 't-think');
    await workspace.send({ threadId: 't-think', text: 'think' });
    const replies = state().rows.filter((r) => r.kind === 'assistant');
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ text: 'I thought about it.', status: 'done', reasoning: { text: 'The user wants me to think. Say so briefly.', status: 'done' } });
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'reasoning.done')).toHaveLength(1);
    expect(types.lastIndexOf('reasoning.delta')).toBeLessThan(types.indexOf('message.delta'));
  });

  it('offers the page’s capabilities as frontend tools, runs the call in the page, and the run goes on with its result', async () => {
    const workspace = createAgUiWorkspace({ url: agent.url, capabilities: [addNote] });
    const { state } = watch(workspace, 't2');
    const before = agent.inputs.length;
    await workspace.send({ threadId: 't2', text: 'note buy milk' });
    expect(notes).toContain('buy milk');
    const first = agent.inputs[before]!;
    expect(first.tools).toEqual([{ name: 'notes.add', description: 'Saves a short note.', parameters: expect.objectContaining({ type: 'object', required: ['text'] }) }]);
    const second = agent.inputs[before + 1]!;
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Saved “buy milk”.' });
    const rows = state().rows;
    expect(rows.find((r) => r.kind === 'invocation')).toMatchObject({ capability: 'notes.add', title: 'Add note', state: 'done' });
    expect(rows.at(-1)).toMatchObject({ kind: 'assistant', text: 'The note tool said: Saved “buy milk”.' });
  });

  it('shows the agent’s own tool call as a card, its interrupt as an approval row, and resumes the run on Approve', async () => {
    const workspace = createAgUiWorkspace({ url: agent.url });
    const { events, state } = watch(workspace, 't3');
    await workspace.send({ threadId: 't3', text: 'deploy' });
    expect(events.filter((e) => e.type === 'capability.output').map((e) => (e as { text: string }).text).join('')).toBe('{"build":42}');
    const approval = state().rows.find((r) => r.kind === 'approval');
    expect(approval).toMatchObject({ capability: 'deploy.run', args: { build: 42 }, reason: 'Deploy build 42 to production?' });
    expect(events.at(-1)).toMatchObject({ type: 'turn.done', outcome: 'waiting' });
    await workspace.decide({ threadId: 't3', id: 'int-deploy', decision: 'approve' });
    expect(agent.inputs.at(-1)!.resume).toEqual([{ interruptId: 'int-deploy', status: 'resolved', payload: { approved: true } }]);
    const rows = state().rows;
    expect(rows.find((r) => r.kind === 'invocation')).toMatchObject({ capability: 'deploy.run', state: 'done' });
    expect(rows.at(-1)).toMatchObject({ kind: 'assistant', text: 'Deployed.' });
  });

  it('turns an interrupt without a tool call into a question, and its answer resumes the run; state reaches the host', async () => {
    const states: unknown[] = [];
    const workspace = createAgUiWorkspace({ url: agent.url, onState: (_thread, s) => states.push(s) });
    const { state } = watch(workspace, 't4');
    await workspace.send({ threadId: 't4', text: 'pick' });
    expect(state().rows.find((r) => r.kind === 'question')).toMatchObject({ question: 'Which region?', options: [{ label: 'eu', value: 'eu' }, { label: 'us', value: 'us' }] });
    await workspace.decide({ threadId: 't4', id: 'int-pick', decision: 'answer', answer: 'eu' });
    expect(state().rows.at(-1)).toMatchObject({ kind: 'assistant', text: 'You picked eu.' });
    await workspace.send({ threadId: 't4', text: 'state' });
    expect(states.at(-1)).toEqual({ count: 2 });
  });

  it('ends a tool card the run leaves without a result: done when the run finishes, failed in plain words when it fails', async () => {
    const workspace = createAgUiWorkspace({ url: agent.url });
    const { state } = watch(workspace, 't-open');
    await workspace.send({ threadId: 't-open', text: 'lookup' });
    expect(state().rows.find((r) => r.kind === 'invocation')).toMatchObject({ capability: 'docs.lookup', state: 'done', result: { content: [] } });
    expect(state().rows.at(-1)).toMatchObject({ kind: 'assistant', text: 'I asked the docs.' });
    await workspace.send({ threadId: 't-open', text: 'lookup fails' });
    const cards = state().rows.filter((r) => r.kind === 'invocation');
    expect(cards[1]).toMatchObject({ state: 'failed', error: { code: 'run_failed', message: 'The run failed before this call returned a result.' } });
    expect(cards.every((c) => c.kind === 'invocation' && c.state !== 'running')).toBe(true);
  });

  it('ends a denied call’s card as denied when the resumed run finishes without its result', async () => {
    const workspace = createAgUiWorkspace({ url: agent.url });
    const { state } = watch(workspace, 't-deny');
    await workspace.send({ threadId: 't-deny', text: 'deploy' });
    expect(state().rows.find((r) => r.kind === 'invocation')).toMatchObject({ state: 'running' });
    await workspace.decide({ threadId: 't-deny', id: 'int-deploy', decision: 'deny' });
    expect(state().rows.find((r) => r.kind === 'invocation')).toMatchObject({ state: 'failed', error: { code: 'denied' } });
    expect(state().rows.at(-1)).toMatchObject({ kind: 'assistant', text: 'Not deployed.' });
  });

  it('shows text messages in the role they were sent in: a user message as the user’s, once; a system message not at all', async () => {
    const workspace = createAgUiWorkspace({ url: agent.url });
    const { state } = watch(workspace, 't-roles');
    await workspace.send({ threadId: 't-roles', text: 'roles' });
    const rows = state().rows.filter((r) => r.kind === 'user' || r.kind === 'assistant');
    expect(rows.map((r) => [r.kind, 'text' in r ? r.text : ''])).toEqual([
      ['user', 'roles'],
      ['user', 'Also: what about Tuesday?'],
      ['assistant', 'Tuesday works.'],
    ]);
  });

  it('turns a MESSAGES_SNAPSHOT into the rows not shown yet: user, agent (with reasoning), tool calls with results', async () => {
    const workspace = createAgUiWorkspace({ url: agent.url });
    const { state } = watch(workspace, 't-snap');
    await workspace.send({ threadId: 't-snap', text: 'snapshot' });
    const rows = state().rows;
    expect(rows.map((r) => r.kind)).toEqual(['user', 'user', 'assistant', 'invocation', 'assistant', 'assistant']);
    expect(rows[0]).toMatchObject({ kind: 'user', text: 'snapshot' });
    expect(rows[1]).toMatchObject({ kind: 'user', id: 'snap-u1', text: 'What did we decide yesterday?' });
    expect(rows[2]).toMatchObject({ kind: 'assistant', text: 'Let me check the notes.', status: 'done', reasoning: { text: 'Look it up first.', status: 'done' } });
    expect(rows[3]).toMatchObject({ kind: 'invocation', capability: 'notes.search', args: { q: 'decision' }, state: 'done', result: { content: [{ type: 'text', text: 'Ship on Friday.' }] } });
    expect(rows[4]).toMatchObject({ kind: 'assistant', text: 'We decided to ship on Friday.', status: 'done' });
    expect(rows[5]).toMatchObject({ kind: 'assistant', text: 'That is all so far.', status: 'done' });
    // The next run's snapshot repeats the conversation: nothing is shown twice.
    await workspace.send({ threadId: 't-snap', text: 'snapshot' });
    const again = state().rows;
    expect(again.filter((r) => r.kind === 'user').map((r) => r.kind === 'user' && r.text)).toEqual(['snapshot', 'What did we decide yesterday?', 'snapshot']);
    expect(again.filter((r) => r.kind === 'invocation')).toHaveLength(1);
    expect(again.at(-1)).toMatchObject({ kind: 'assistant', text: 'That is all so far.' });
  });

  it('hands CUSTOM, RAW and activity events to the host’s onEvent, and shows nothing for them', async () => {
    const heard: { threadId: string; type: string }[] = [];
    const workspace = createAgUiWorkspace({ url: agent.url, onEvent: (threadId, event) => heard.push({ threadId, type: event.type }) });
    const { state } = watch(workspace, 't-events');
    await workspace.send({ threadId: 't-events', text: 'events' });
    expect(heard).toEqual(['CUSTOM', 'RAW', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA'].map((type) => ({ threadId: 't-events', type })));
    expect(state().rows.map((r) => r.kind)).toEqual(['user', 'assistant']);
    // Without the hook they are ignored quietly.
    const quiet = createAgUiWorkspace({ url: agent.url });
    const other = watch(quiet, 't-quiet');
    await quiet.send({ threadId: 't-quiet', text: 'events' });
    expect(other.events.at(-1)).toMatchObject({ type: 'turn.done', outcome: 'answered' });
  });

  it('says plainly when the agent cannot be reached, and the thread stays usable', async () => {
    const workspace = createAgUiWorkspace({ url: 'http://127.0.0.1:9/agent' });
    const { events } = watch(workspace, 't5');
    await workspace.send({ threadId: 't5', text: 'hello' });
    expect(events.find((e) => e.type === 'turn.error')).toMatchObject({ recoverable: true, message: expect.stringMatching(/^The agent failed: /) });
    expect(events.at(-1)).toMatchObject({ type: 'turn.done', outcome: 'failed' });
  });
});
