import { describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState, type Row } from '../fold';
import { ModelError, type ModelDriver, type ModelRequest } from '../model';
import { catalogNode } from '../catalogNodes';
import { createMemoryEventStore, type EventStore } from '../stores/eventStore';
import { historyOf } from '../history';
import { trimSummary, SUMMARY_LENGTH } from './subThread';
import { createThreadHost, type ThreadHostOptions } from './threadHost';

const alice = { user: 'alice', space: 'acme' };
const review = catalogNode('Skill/review', {
  nodeType: 'Skill',
  name: '/review',
  description: 'Review the records in a sub-thread',
  skill: { instructions: 'Read every record and list the three that need attention.', autoMount: true, launchesSubThread: true },
});
const inline = catalogNode('Skill/tidy', { nodeType: 'Skill', name: '/tidy', description: 'Tidy up', skill: { instructions: 'Be tidy.', autoMount: true, launchesSubThread: false } });

/** A driver whose reply the test chooses per request; it records what each request carried. */
function scripted(reply: (request: ModelRequest) => AsyncIterable<{ type: 'text'; text: string }>) {
  const requests: ModelRequest[] = [];
  const driver: ModelDriver = {
    info: { id: 'scripted', label: 'Scripted' },
    respond(request) {
      requests.push(request);
      return reply(request);
    },
  };
  return { driver, requests };
}
async function* say(text: string) {
  yield { type: 'text' as const, text };
}
/** Replies only once `release` is called (or fails when the turn is stopped). */
function gate() {
  let release!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  return {
    release: () => release(),
    async *reply(request: ModelRequest) {
      await Promise.race([opened, new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }))]);
      yield { type: 'text' as const, text: 'Three records need attention: Ada, Bo and Cy.' };
    },
  };
}

function host(driver: ModelDriver, events: EventStore = createMemoryEventStore(), options: Partial<ThreadHostOptions> = {}) {
  return createThreadHost({ capabilities: [], driver, skills: [review, inline], idleMs: Infinity, events, ...options });
}
const stateOf = (store: EventStore, id: string) => foldAll(initialThreadState, store.read({ ...alice, id }) as ThreadEvent[]);
const subRow = (rows: readonly Row[]) => rows.find((r): r is Extract<Row, { kind: 'subthread' }> => r.kind === 'subthread')!;
/** Waits until `check` holds (the child runs on its own; the parent's send resolves at the launch). */
async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('sub-threads: a launchesSubThread skill runs in a child thread', () => {
  it('opens a child of the same user linked both ways, runs the task there with the instructions, and summarises back', async () => {
    const store = createMemoryEventStore();
    const { driver, requests } = scripted(() => say('  Three records need\nattention: Ada, Bo and Cy.  '));
    const h = host(driver, store);
    await h.send(alice, { threadId: 'main', text: 'the new records', skill: '/review' });
    const opened = subRow(stateOf(store, 'main').rows);
    expect(opened).toMatchObject({ kind: 'subthread', skill: 'Skill/review', title: '/review', task: 'the new records' });
    const childId = opened.id;
    expect(childId).toMatch(/^main\.sub-/);
    await until(() => subRow(stateOf(store, 'main').rows).status === 'done');

    // The child: an ordinary thread of alice's, whose first event names its parent.
    const childLog = store.read({ ...alice, id: childId }) as ThreadEvent[];
    expect(childLog[0]).toMatchObject({ type: 'subthread.linked', parent_id: 'main', skill: 'Skill/review', task: 'the new records' });
    const child = foldAll(initialThreadState, childLog);
    expect(child.rows.map((r) => r.kind)).toEqual(['subthread_origin', 'user', 'assistant']);
    expect(child.activeSkills).toEqual(['Skill/review']);
    // Its turn had the skill's whole instructions and the task alone.
    expect(requests).toHaveLength(1);
    expect(requests[0]!.skills?.map((s) => s.body)).toEqual(['Read every record and list the three that need attention.']);
    expect(requests[0]!.messages.at(-1)).toEqual({ role: 'user', text: 'the new records' });
    expect(await h.exists({ user: 'bob', space: 'acme' }, childId)).toBe(false);

    // The parent: the user's message, the link row (now done) and the summary in plain words; its model is told.
    const parent = stateOf(store, 'main');
    expect(parent.rows.map((r) => r.kind)).toEqual(['user', 'subthread', 'subthread_summary']);
    expect(parent.rows[2]).toEqual({ kind: 'subthread_summary', id: childId, title: '/review', outcome: 'done', summary: 'Three records need attention: Ada, Bo and Cy.' });
    expect(historyOf(store.read({ ...alice, id: 'main' }) as ThreadEvent[]).at(-1)).toMatchObject({
      role: 'tool',
      title: '/review (in a sub-thread)',
      result: { content: [{ type: 'text', text: 'Three records need attention: Ada, Bo and Cy.' }] },
    });
    expect(store.listOpen()).toEqual([]);
    await h.close();
  });

  it('lets the parent keep chatting while the child runs', async () => {
    const store = createMemoryEventStore();
    const g = gate();
    const { driver } = scripted((request) => (request.skills?.length ? g.reply(request) : say('Here in the parent.')));
    const h = host(driver, store);
    await h.send(alice, { threadId: 'main', text: 'the new records', skill: '/review' });
    await h.send(alice, { threadId: 'main', text: 'hello meanwhile' });
    const meanwhile = stateOf(store, 'main');
    expect(subRow(meanwhile.rows).status).toBe('running');
    expect(meanwhile.rows.some((r) => r.kind === 'assistant' && r.text === 'Here in the parent.')).toBe(true);
    g.release();
    await until(() => subRow(stateOf(store, 'main').rows).status === 'done');
    await h.close();
  });

  it('a failed child turn fails the parent row with the error in words', async () => {
    const store = createMemoryEventStore();
    const { driver } = scripted(() =>
      (async function* () {
        yield* [];
        throw new ModelError('rate_limited', 'The model is rate limited; try again in a minute.', true);
      })(),
    );
    const h = host(driver, store);
    await h.send(alice, { threadId: 'main', text: 'the new records', skill: '/review' });
    await until(() => subRow(stateOf(store, 'main').rows).status !== 'running');
    const rows = stateOf(store, 'main').rows;
    expect(subRow(rows)).toMatchObject({ status: 'failed' });
    expect(rows.find((r) => r.kind === 'subthread_summary')).toMatchObject({ outcome: 'failed', summary: expect.stringContaining('rate limited') });
    await h.close();
  });

  it("the parent's Stop on the row cancels the child's turn, and the parent says so", async () => {
    const store = createMemoryEventStore();
    const g = gate();
    const { driver } = scripted((request) => g.reply(request));
    const h = host(driver, store);
    await h.send(alice, { threadId: 'main', text: 'the new records', skill: '/review' });
    const childId = subRow(stateOf(store, 'main').rows).id;
    await until(() => stateOf(store, childId).activeTurn !== null);
    expect(await h.cancel(alice, { threadId: 'main', id: childId })).toBe(true);
    await until(() => subRow(stateOf(store, 'main').rows).status === 'cancelled');
    expect(stateOf(store, childId).activeTurn).toBeNull();
    expect(stateOf(store, 'main').rows.at(-1)).toMatchObject({ kind: 'subthread_summary', outcome: 'cancelled', summary: 'Stopped before it finished.' });
    expect(store.listOpen()).toEqual([]);
    await h.close();
  });

  it('a restart while the child runs ends both: the child interrupted, the parent with an interrupted summary', async () => {
    const store = createMemoryEventStore();
    const g = gate();
    const first = host(scripted((request) => g.reply(request)).driver, store);
    await first.send(alice, { threadId: 'main', text: 'the new records', skill: '/review' });
    const childId = subRow(stateOf(store, 'main').rows).id;
    await until(() => stateOf(store, childId).activeTurn !== null);
    // The process dies: nothing more is written by `first`. A new one recovers from the log.
    const second = host(scripted(() => say('unused')).driver, store);
    expect(await second.recover()).toBe(2);
    const parent = stateOf(store, 'main');
    expect(subRow(parent.rows).status).toBe('interrupted');
    expect(parent.rows.at(-1)).toMatchObject({ kind: 'subthread_summary', outcome: 'interrupted', summary: expect.stringContaining('restarted') });
    expect(stateOf(store, childId).activeTurn).toBeNull();
    expect(store.listOpen()).toEqual([]);
    await second.close();
  });

  it('a child that waits for the user (a proposal) stays running until its resumed turn ends', async () => {
    const store = createMemoryEventStore();
    const { z } = await import('zod');
    const { defineCapability } = await import('../capability');
    const { textResult } = await import('../results');
    const wipe = defineCapability({ name: 'records.wipe', title: 'Wipe records', description: 'Deletes every record.', kind: 'mutate', input: z.object({}), handler: () => textResult('Wiped.') });
    let step = 0;
    const driver: ModelDriver = {
      info: { id: 'scripted', label: 'Scripted' },
      async *respond() {
        step++;
        if (step === 1) yield { type: 'invoke', capability: 'records.wipe', args: {}, call_id: 'c1' };
        else yield { type: 'text', text: 'Wiped them all.' };
      },
    };
    const h = host(driver, store, { capabilities: [wipe] });
    // A request in the legacy text form (from before the typed `skill`) launches the sub-thread as the field does.
    await h.send(alice, { threadId: 'main', text: '[load_skill /review]\nwipe the records' });
    const childId = subRow(stateOf(store, 'main').rows).id;
    await until(() => stateOf(store, childId).rows.some((r) => r.kind === 'proposal'));
    await new Promise((r) => setTimeout(r, 20));
    expect(subRow(stateOf(store, 'main').rows).status).toBe('running');
    const proposal = stateOf(store, childId).rows.find((r) => r.kind === 'proposal')!;
    await h.decide(alice, { threadId: childId, id: proposal.id, decision: 'accept' });
    await until(() => subRow(stateOf(store, 'main').rows).status === 'done');
    expect(stateOf(store, 'main').rows.at(-1)).toMatchObject({ summary: 'Wiped them all.' });
    await h.close();
  });

  it("the parent's Stop while the child waits for the user ends the sub-thread as cancelled", async () => {
    const store = createMemoryEventStore();
    const driver: ModelDriver = { info: { id: 'scripted', label: 'Scripted' }, async *respond() { yield { type: 'ask', question: 'Which records?', options: [{ label: 'All', value: 'all' }] }; } };
    const h = host(driver, store);
    await h.send(alice, { threadId: 'main', text: 'the records', skill: '/review' });
    const childId = subRow(stateOf(store, 'main').rows).id;
    await until(() => stateOf(store, childId).rows.some((r) => r.kind === 'question'));
    expect(subRow(stateOf(store, 'main').rows).status).toBe('running');
    expect(await h.cancel(alice, { threadId: 'main', id: childId })).toBe(true);
    await until(() => subRow(stateOf(store, 'main').rows).status === 'cancelled');
    expect(stateOf(store, 'main').rows.at(-1)).toMatchObject({ kind: 'subthread_summary', summary: 'Stopped from the parent thread before it finished.' });
    expect(await h.cancel(alice, { threadId: 'main', id: childId })).toBe(false);
    await h.close();
  });

  it('runs a skill without the flag inline, and never nests: inside a sub-thread the skill runs inline', async () => {
    const store = createMemoryEventStore();
    const { driver } = scripted(() => say('Done.'));
    const h = host(driver, store);
    await h.send(alice, { threadId: 'main', text: 'the records', skill: '/tidy' });
    expect(stateOf(store, 'main').rows.map((r) => r.kind)).toEqual(['user', 'assistant']);
    await h.send(alice, { threadId: 'main', text: 'first', skill: '/review' });
    const childId = subRow(stateOf(store, 'main').rows).id;
    await until(() => subRow(stateOf(store, 'main').rows).status === 'done');
    await h.send(alice, { threadId: childId, text: 'again, here', skill: '/review' });
    expect(stateOf(store, childId).rows.filter((r) => r.kind === 'subthread')).toEqual([]);
    expect(stateOf(store, childId).rows.at(-1)).toMatchObject({ kind: 'assistant', text: 'Done.' });
    await h.close();
  });
});

describe('sub-threads: a SKILL.md capability the model calls', () => {
  it('with metadata launchesSubThread "true", the call opens a sub-thread on the latest request and the model hears where it went', async () => {
    const { defineSkillCapability } = await import('../sources/skill');
    const plan = defineSkillCapability('---\nname: plan-import\ndescription: Plans an import run.\nmetadata:\n  launchesSubThread: "true"\n---\nList the files first, then the checks.\n', { title: 'Plan an import' });
    const store = createMemoryEventStore();
    const requests: ModelRequest[] = [];
    const driver: ModelDriver = {
      info: { id: 'scripted', label: 'Scripted' },
      async *respond(request) {
        requests.push(request);
        const last = request.messages.at(-1);
        if (request.skills?.some((s) => s.name === 'plan-import')) yield { type: 'text', text: 'Plan: three files, then the row checks.' };
        else if (last?.role === 'tool') yield { type: 'text', text: 'The plan is being made in a sub-thread.' };
        else yield { type: 'invoke', capability: 'plan-import', args: {}, call_id: 'c1' };
      },
    };
    const h = createThreadHost({ capabilities: [plan], driver, alignment: 'loose', idleMs: Infinity, events: store });
    await h.send(alice, { threadId: 'main', text: 'plan the import of the three files' });
    await until(() => subRow(stateOf(store, 'main').rows)?.status === 'done');
    const parent = stateOf(store, 'main');
    expect(parent.rows.map((r) => r.kind)).toEqual(['user', 'subthread', 'assistant', 'subthread_summary']);
    expect(subRow(parent.rows)).toMatchObject({ skill: 'plan-import', title: 'Plan an import', task: 'plan the import of the three files' });
    expect(parent.rows.at(-1)).toMatchObject({ summary: 'Plan: three files, then the row checks.' });
    // The parent's model got where the work went, under its own call.
    const history = historyOf(store.read({ ...alice, id: 'main' }) as ThreadEvent[]);
    expect(history.find((m) => m.role === 'tool' && m.call_id === 'c1')).toMatchObject({ result: { structuredContent: { subthread_id: subRow(parent.rows).id, status: 'running' } } });
    // The child loaded the SKILL.md body and ran the request there, once (no nesting).
    const child = stateOf(store, subRow(parent.rows).id);
    expect(child.activeSkills).toEqual(['plan-import']);
    expect(child.rows.filter((r) => r.kind === 'subthread')).toEqual([]);
    await h.close();
  });
});

describe('subThreadCall', () => {
  it("takes the call's task when given, else the latest request; a skill already active here runs inline", async () => {
    const { defineSkillCapability } = await import('../sources/skill');
    const { subThreadCall } = await import('./subThread');
    const plan = defineSkillCapability('---\nname: plan-import\ndescription: Plans.\nmetadata:\n  launchesSubThread: "true"\n---\nBody.\n');
    const state = foldAll(initialThreadState, [{ type: 'message.created', seq: 1, ts: 1, message_id: 'u1', role: 'user', text: 'plan the import' }]);
    expect(subThreadCall(state, plan, {})?.launch.task).toBe('plan the import');
    expect(subThreadCall(state, plan, { task: 'only the leads' })).toEqual({ launch: { skill: 'plan-import', title: 'Plan import', task: 'only the leads' }, message: { text: 'only the leads', skill: '/plan-import' } });
    const active = foldAll(state, [{ type: 'skill.activated', seq: 2, ts: 1, skill: 'plan-import', title: 'Plan import' }]);
    expect(subThreadCall(active, plan, {})).toBeNull();
  });
});

describe('trimSummary', () => {
  it('folds whitespace and cuts a long reply at a word, with an ellipsis', () => {
    expect(trimSummary('  a\n\nb  ')).toBe('a b');
    const long = trimSummary('word '.repeat(400));
    expect(long.length).toBeLessThanOrEqual(SUMMARY_LENGTH + 1);
    expect(long.endsWith('word…')).toBe(true);
  });
});
