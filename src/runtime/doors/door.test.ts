import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createEventLog } from '../eventLog';
import { createMemoryJobStore } from '../jobs';
import { createRegistry } from '../registry';
import { keyAuthenticator } from './apiKeys';
import { createDoor, reviveDoorResponse, type DoorCall, type DoorResponse } from './door';
import { createExecutor } from './executor';
import { createIdempotencyCache } from './idempotency';
import { createMemoryMeter } from './meter';

const KEY = 'door-test-key-123';

function setup({ budget, delayMs = 0 }: { budget?: number; delayMs?: number } = {}) {
  const calls: string[] = [];
  const steps: string[] = [];
  const add = defineCapability({
    name: 'math.add',
    title: 'Add',
    description: 'Adds.',
    input: z.object({ a: z.number(), b: z.number() }),
    handler: async ({ a, b }) => {
      calls.push(`${a}+${b}`);
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return textResult(String(a + b), { sum: a + b });
    },
  });
  const fail = defineCapability({ name: 'math.fail', title: 'Fail', description: 'Fails.', input: z.object({}), handler: () => { throw new Error('nope'); } });
  const registry = createRegistry([add, fail]);
  const jobs = createMemoryJobStore();
  const meter = createMemoryMeter({ ...(budget !== undefined ? { budget } : {}) });
  const authenticate = keyAuthenticator([{ id: 'alice', key: KEY }]);
  // Instrumented hooks: they record the order the pipeline reaches them.
  const inner = createDoor({
    name: 'rest',
    registry,
    jobs,
    executor: createExecutor({ registry, jobs }),
    idempotency: createIdempotencyCache<DoorResponse>(),
    meter: { reserve: (principal, capability) => (steps.push('meter'), meter.reserve(principal, capability)) },
    wait: { intervalMs: 10, timeoutMs: 1_000 },
  });
  // As the REST route calls it: the principal is resolved (and recorded) when the door reaches that step.
  const door = {
    call: ({ token, ...rest }: Omit<DoorCall, 'principal'> & { token: string | null }) =>
      inner.call({ ...rest, principal: async () => (steps.push('authenticate'), authenticate(token)), badCredentials: token !== null }),
  };
  return { door, calls, steps, meter, jobs };
}

describe('createDoor', () => {
  it('runs parse → validate → authenticate → meter gate → executor, and answers with the envelope and its job', async () => {
    const { door, steps, jobs } = setup();
    const response = await door.call({ capability: 'math.add', args: { a: 1, b: 2 }, token: KEY });
    expect(steps).toEqual(['authenticate', 'meter']);
    expect(response).toMatchObject({ kind: 'done', replayed: false, result: { content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3 } } });
    const jobId = (response as { jobId: string }).jobId;
    expect(await jobs.get(jobId)).toMatchObject({ status: 'done', threadKey: 'rest:alice', capability: 'math.add' });
  });

  it('refuses an unknown capability (404) and bad arguments (400, one issue per field) before authenticating', async () => {
    const { door, steps, calls } = setup();
    expect(await door.call({ capability: 'nope', args: {}, token: null })).toEqual({
      kind: 'refused',
      error: { status: 404, code: 'unknown_capability', message: 'No capability named "nope" is served here.' },
    });
    const bad = await door.call({ capability: 'math.add', args: { a: 'x' }, token: null });
    expect(bad).toMatchObject({ kind: 'refused', error: { status: 400, code: 'invalid_arguments' } });
    expect((bad as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)).toEqual(['a', 'b']);
    expect(steps).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("words bad arguments for a person on the chat door (the field's title, one sentence each) and as field paths on REST", async () => {
    const bounded = defineCapability({
      name: 'report.build',
      title: 'Build report',
      description: 'Builds a report.',
      input: z.object({ sections: z.number().max(20).describe('Sections').meta({ title: 'Sections' }) }),
      handler: async () => textResult('built'),
    });
    const registry = createRegistry([bounded]);
    const jobs = createMemoryJobStore();
    const make = (name: 'chat' | 'rest') => createDoor({ name, registry, jobs, executor: createExecutor({ registry, jobs }), meter: createMemoryMeter({}) });
    const principal = { user: 'alice' };
    const chat = await make('chat').call({ capability: 'report.build', args: { sections: 99 }, principal });
    const rest = await make('rest').call({ capability: 'report.build', args: { sections: 99 }, principal });
    expect(chat).toMatchObject({ kind: 'refused', error: { status: 400, message: 'Build report was not run: Sections must be 20 or less.' } });
    expect(rest).toMatchObject({ kind: 'refused', error: { status: 400, message: expect.stringMatching(/^Build report was not run: sections: /) } });
  });

  it('answers 401 without a valid key, before the meter and the handler', async () => {
    const { door, steps, calls } = setup();
    expect(await door.call({ capability: 'math.add', args: { a: 1, b: 1 }, token: null })).toMatchObject({ kind: 'refused', error: { status: 401, code: 'unauthorized' } });
    expect(await door.call({ capability: 'math.add', args: { a: 1, b: 1 }, token: 'wrong-key-000' })).toMatchObject({ error: { status: 401, message: 'The API key is not valid.' } });
    expect(steps).toEqual(['authenticate', 'authenticate']);
    expect(calls).toEqual([]);
  });

  it('blocks over budget at the gate: the handler never runs', async () => {
    const { door, calls, meter } = setup({ budget: 1 });
    expect((await door.call({ capability: 'math.add', args: { a: 1, b: 1 }, token: KEY })).kind).toBe('done');
    expect(await door.call({ capability: 'math.add', args: { a: 2, b: 2 }, token: KEY })).toMatchObject({ kind: 'refused', error: { status: 402, code: 'budget_exhausted' } });
    expect(calls).toEqual(['1+1']);
    expect(meter.charged('alice')).toBe(1);
  });

  it('does not charge a call that failed', async () => {
    const { door, meter } = setup();
    const response = await door.call({ capability: 'math.fail', args: {}, token: KEY });
    expect(response).toMatchObject({ kind: 'done', job: { status: 'failed', error: { code: 'handler_error', message: 'Fail failed: nope' } } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(meter.charged('alice')).toBe(0);
  });

  it('runs and charges 20 concurrent retries with one idempotency key once', async () => {
    const { door, calls, meter } = setup({ delayMs: 20 });
    const responses = await Promise.all(Array.from({ length: 20 }, () => door.call({ capability: 'math.add', args: { a: 2, b: 2 }, token: KEY, idempotencyKey: 'k-1' })));
    expect(calls).toEqual(['2+2']);
    expect(meter.charged('alice')).toBe(1);
    expect(new Set(responses.map((r) => (r as { jobId: string }).jobId)).size).toBe(1);
    expect(responses.filter((r) => (r as { replayed: boolean }).replayed)).toHaveLength(19);
    expect(await door.call({ capability: 'math.add', args: { a: 2, b: 3 }, token: KEY, idempotencyKey: 'k-1' })).toMatchObject({ error: { status: 409, code: 'idempotency_conflict' } });
    expect(await door.call({ capability: 'math.add', args: { a: 2, b: 3 }, token: KEY, idempotencyKey: 'bad key with spaces' })).toMatchObject({ error: { status: 400, code: 'invalid_idempotency_key' } });
  });

  it('lets a retry run after a first attempt the meter refused', async () => {
    const { door, calls } = setup({ budget: 0 });
    expect(await door.call({ capability: 'math.add', args: { a: 1, b: 1 }, token: KEY, idempotencyKey: 'k-2' })).toMatchObject({ error: { status: 402 } });
    expect(calls).toEqual([]);
    // The refusal was not remembered as the answer: the same key is still free for the request.
    expect(await door.call({ capability: 'math.add', args: { a: 1, b: 1 }, token: KEY, idempotencyKey: 'k-2' })).toMatchObject({ error: { status: 402 } });
  });

  it('answers "running" when the wait ends first, and a replay after the end gives the result', async () => {
    const calls: string[] = [];
    const slow = defineCapability({
      name: 'slow.op',
      title: 'Slow op',
      description: 'Takes a while.',
      input: z.object({}),
      handler: async () => {
        calls.push('run');
        await new Promise((resolve) => setTimeout(resolve, 80));
        return textResult('finally', { ok: true });
      },
    });
    const registry = createRegistry([slow]);
    const jobs = createMemoryJobStore();
    const door = createDoor({
      name: 'rest',
      registry,
      jobs,
      executor: createExecutor({ registry, jobs }),
      idempotency: createIdempotencyCache<DoorResponse>(),
      meter: createMemoryMeter(),
      wait: { intervalMs: 5, timeoutMs: 20 },
    });
    const alice = { user: 'alice' };
    const first = await door.call({ capability: 'slow.op', args: {}, principal: alice, idempotencyKey: 'k-3' });
    expect(first).toMatchObject({ kind: 'running', replayed: false });
    await new Promise((resolve) => setTimeout(resolve, 120));
    const replay = await door.call({ capability: 'slow.op', args: {}, principal: alice, idempotencyKey: 'k-3' });
    expect(replay).toMatchObject({ kind: 'done', replayed: true, result: { content: [{ type: 'text', text: 'finally' }] } });
    expect(calls).toEqual(['run']);
  });

  it('on the chat door, puts the invocation on the thread: a queued card with its job id, then the run', async () => {
    const registry = createRegistry([defineCapability({ name: 'hi', title: 'Hi', description: 'Says hi.', input: z.object({}), handler: () => textResult('hi') })]);
    const jobs = createMemoryJobStore();
    const log = createEventLog();
    const door = createDoor({ name: 'chat', registry, jobs, executor: createExecutor({ registry, jobs }), meter: createMemoryMeter() });
    const response = await door.call({ capability: 'hi', args: {}, principal: { user: 'ada' }, thread: { key: 't1', emit: log.emit, invocationId: 'inv_1', turnId: 'turn_1' } });
    expect(response).toMatchObject({ kind: 'done', jobId: 'inv_1' });
    expect(log.since().map((e) => e.type)).toEqual(['capability.queued', 'capability.started', 'capability.done']);
    expect(log.since()[0]).toMatchObject({ invocation_id: 'inv_1', job_id: 'inv_1', turn_id: 'turn_1', title: 'Hi' });
    expect(await jobs.get('inv_1')).toMatchObject({ threadKey: 't1', status: 'done' });
  });
});

describe('reviveDoorResponse', () => {
  it('reads an answer an idempotency store kept from 0.1 (`ready`, `threadId`) in today\'s words', () => {
    const result = textResult('5');
    const old = { id: 'inv_1', capability: 'math.add', threadId: 'rest:alice', status: 'ready', result, createdAt: 1, updatedAt: 2 };
    const revived = reviveDoorResponse(JSON.parse(JSON.stringify({ kind: 'done', jobId: 'inv_1', result, job: old, replayed: false })));
    expect(revived).toEqual({ kind: 'done', jobId: 'inv_1', result, replayed: false, job: { id: 'inv_1', capability: 'math.add', threadKey: 'rest:alice', status: 'done', result, createdAt: 1, updatedAt: 2 } });
    const refused = { kind: 'refused', error: { status: 400, code: 'invalid_arguments', message: 'No.' } };
    expect(reviveDoorResponse(refused)).toEqual(refused);
  });
});

describe('a door with approvals (a capability that requires confirmation)', () => {
  const exportCrm = defineCapability({
    name: 'crm.export',
    title: 'Export to CRM',
    description: 'Overwrites staging.',
    kind: 'mutate',
    requires_user_confirmation: true,
    input: z.object({ table: z.string() }),
    handler: ({ table }) => textResult(`Exported to ${table}.`),
  });

  it('holds the call without running it or charging it, then runs the approved call under the waiting job, keeping its approval', async () => {
    const registry = createRegistry([exportCrm]);
    const jobs = createMemoryJobStore();
    const meter = createMemoryMeter();
    const asked: unknown[] = [];
    const door = createDoor({
      name: 'rest',
      registry,
      jobs,
      meter,
      executor: createExecutor({ registry, jobs }),
      wait: { intervalMs: 10, timeoutMs: 1_000 },
      approvals: {
        async hold({ descriptor, args, ask }) {
          asked.push({ name: descriptor.name, args, ask });
          const job = { id: 'inv_waiting1', capability: descriptor.name, threadKey: 'rest:alice', status: 'waiting' as const, approval: { state: 'waiting' as const, message: 'Waits for a person.', expiresAt: 9e12 }, createdAt: 5, updatedAt: 5 };
          await jobs.put(job);
          return { kind: 'running', jobId: job.id, job, replayed: false };
        },
      },
    });
    const held = await door.call({ capability: 'crm.export', args: { table: 'staging' }, principal: { user: 'alice' }, ask: { in: 'thread', threadId: 'inbox' } });
    expect(held).toMatchObject({ kind: 'running', job: { status: 'waiting' } });
    expect(asked).toEqual([{ name: 'crm.export', args: { table: 'staging' }, ask: { in: 'thread', threadId: 'inbox' } }]);
    expect(meter.charged('alice')).toBe(0);

    const approval = { state: 'approved' as const, message: 'Approved.', expiresAt: 9e12, decidedVia: 'rest' as const };
    const ran = await door.call({ capability: 'crm.export', args: { table: 'staging' }, principal: { user: 'alice' }, approved: { jobId: 'inv_waiting1', threadKey: 'rest:alice', keep: { approval, createdAt: 5 } } });
    expect(ran).toMatchObject({ kind: 'done', jobId: 'inv_waiting1', result: { content: [{ type: 'text', text: 'Exported to staging.' }] } });
    expect(asked).toHaveLength(1);
    expect(meter.charged('alice')).toBe(1);
    expect(await jobs.get('inv_waiting1')).toMatchObject({ status: 'done', threadKey: 'rest:alice', approval, createdAt: 5 });
  });
});
