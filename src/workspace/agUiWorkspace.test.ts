import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/envelope';
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

  it('says plainly when the agent cannot be reached, and the thread stays usable', async () => {
    const workspace = createAgUiWorkspace({ url: 'http://127.0.0.1:9/agent' });
    const { events } = watch(workspace, 't5');
    await workspace.send({ threadId: 't5', text: 'hello' });
    expect(events.find((e) => e.type === 'turn.error')).toMatchObject({ recoverable: true, message: expect.stringMatching(/^The agent failed: /) });
    expect(events.at(-1)).toMatchObject({ type: 'turn.done', outcome: 'failed' });
  });
});
