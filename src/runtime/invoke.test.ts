import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CapabilityFailure, defineCapability, type CapabilityContext } from './capability';
import { errorResult, textResult } from './results';
import { createEventLog } from './eventLog';
import type { ThreadEvent } from './events';
import { foldAll, initialThreadState, type InvocationRow } from './fold';
import { invoke } from './invoke';
import { createRegistry } from './registry';

describe('invoke: arguments', () => {
  it('never calls the handler with bad arguments and reports each bad field', async () => {
    const handler = vi.fn(() => textResult('refunded'));
    const refund = defineCapability({
      name: 'payments.refund',
      title: 'Refund',
      description: 'Refunds a payment.',
      kind: 'mutate',
      input: z.object({ payment_id: z.string().min(1), amount: z.number().positive() }),
      handler,
    });
    const log = createEventLog({ now: () => 1000 });
    const registry = createRegistry([refund]);

    const result = await invoke('payments.refund', { payment_id: '', amount: 'ten' }, {
      registry, emit: log.emit, threadKey: 't1', invocationId: 'inv1',
    });

    expect(handler).not.toHaveBeenCalled();
    const events = log.since();
    expect(events.map((e) => e.type)).toEqual(['capability.error']);
    const error = events[0] as Extract<ThreadEvent, { type: 'capability.error' }>;
    expect(error.invocation_id).toBe('inv1');
    expect(error.capability).toBe('payments.refund');
    expect(error.title).toBe('Refund');
    expect(error.recoverable).toBe(true);
    expect(error.error.code).toBe('invalid_arguments');
    expect(error.error.message).toMatch(/^Refund was not run: /);
    expect(error.error.issues?.map((i) => i.path).sort()).toEqual(['amount', 'payment_id']);
    for (const issue of error.error.issues ?? []) expect(issue.message.length).toBeGreaterThan(0);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ type: 'text', text: error.error.message });

    const state = foldAll(initialThreadState, events);
    expect(state.rows[0]).toMatchObject({ kind: 'invocation', title: 'Refund', state: 'failed', recoverable: true });
  });

  it('names nested paths like rows.1.name', async () => {
    const handler = vi.fn(() => textResult('imported'));
    const importRows = defineCapability({
      name: 'records.import',
      title: 'Import records',
      description: 'Imports rows.',
      kind: 'mutate',
      input: z.object({ rows: z.array(z.object({ name: z.string() })) }),
      handler,
    });
    const log = createEventLog();
    await invoke('records.import', { rows: [{ name: 'Ada' }, { name: 7 }] }, {
      registry: createRegistry([importRows]), emit: log.emit, threadKey: 't1',
    });
    expect(handler).not.toHaveBeenCalled();
    const error = log.since()[0] as Extract<ThreadEvent, { type: 'capability.error' }>;
    expect(error.error.code).toBe('invalid_arguments');
    expect(error.error.issues).toEqual([{ path: 'rows.1.name', message: expect.any(String) }]);
  });

  it('treats missing arguments as an empty object', async () => {
    const handler = vi.fn(() => textResult('pong'));
    const ping = defineCapability({ name: 'ping', title: 'Ping', description: 'Replies pong.', input: z.object({}), handler });
    const log = createEventLog();
    const result = await invoke('ping', undefined, { registry: createRegistry([ping]), emit: log.emit, threadKey: 't1' });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledWith({}, expect.objectContaining({ threadKey: 't1' }));
    expect(result).toEqual(textResult('pong'));
  });

  it('passes the parsed arguments (with defaults applied) to the handler', async () => {
    const handler = vi.fn((args: { query: string; limit: number }) => textResult(`${args.query}:${args.limit}`));
    const search = defineCapability({
      name: 'notes.search',
      title: 'Search notes',
      description: 'Searches notes.',
      input: z.object({ query: z.string(), limit: z.number().default(10) }),
      handler,
    });
    const log = createEventLog();
    const result = await invoke('notes.search', { query: 'cats' }, { registry: createRegistry([search]), emit: log.emit, threadKey: 't1' });
    expect(handler.mock.calls[0]![0]).toEqual({ query: 'cats', limit: 10 });
    expect(result.content[0]).toMatchObject({ text: 'cats:10' });
    const started = log.since()[0] as Extract<ThreadEvent, { type: 'capability.started' }>;
    expect(started.args).toEqual({ query: 'cats', limit: 10 });
  });
});

describe('invoke: unknown capability', () => {
  it('emits unknown_capability, not recoverable, listing the known names', async () => {
    const ping = defineCapability({ name: 'ping', title: 'Ping', description: 'Replies pong.', input: z.object({}), handler: () => textResult('pong') });
    const log = createEventLog();
    const result = await invoke('pong', {}, { registry: createRegistry([ping]), emit: log.emit, threadKey: 't1', invocationId: 'inv1' });
    const events = log.since();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'capability.error',
      invocation_id: 'inv1',
      capability: 'pong',
      recoverable: false,
      error: { code: 'unknown_capability' },
    });
    const error = events[0] as Extract<ThreadEvent, { type: 'capability.error' }>;
    expect(error.error.message).toContain('"pong"');
    expect(error.error.message).toContain('ping');
    expect(result.isError).toBe(true);
  });

  it('says "none" when the registry is empty', async () => {
    const log = createEventLog();
    await invoke('anything', {}, { registry: createRegistry(), emit: log.emit, threadKey: 't1' });
    const error = log.since()[0] as Extract<ThreadEvent, { type: 'capability.error' }>;
    expect(error.error.message).toContain('Known: none');
  });
});

describe('invoke: success', () => {
  it('emits started, progress, output, done in order with one invocation id and rising seq', async () => {
    const actor = { id: 'builder', name: 'Builder' };
    const build = defineCapability({
      name: 'report.build',
      title: 'Build report',
      description: 'Builds a report.',
      input: z.object({ pages: z.number() }),
      actor,
      handler: async ({ pages }, ctx) => {
        ctx.progress(1, pages, 'Page 1');
        ctx.output('wrote page 1\n', 'stdout');
        ctx.progress(2, pages);
        ctx.output('done\n');
        return textResult(`Built ${pages} pages`, { pages });
      },
    });
    let clock = 100;
    const log = createEventLog({ now: () => clock++ });
    const collected: ThreadEvent[] = [];
    log.subscribe((e) => collected.push(e));

    const result = await invoke('report.build', { pages: 2 }, {
      registry: createRegistry([build]), emit: log.emit, threadKey: 't1', invocationId: 'inv7', turnId: 'turn1',
    });

    expect(collected.map((e) => e.type)).toEqual([
      'capability.started',
      'capability.progress',
      'capability.output',
      'capability.progress',
      'capability.output',
      'capability.done',
    ]);
    expect(collected.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const event of collected) expect('invocation_id' in event && event.invocation_id).toBe('inv7');
    expect(collected[0]).toMatchObject({ capability: 'report.build', title: 'Build report', args: { pages: 2 }, actor, turn_id: 'turn1' });
    expect(collected[1]).toMatchObject({ progress: 1, total: 2, message: 'Page 1' });
    expect(collected[2]).toMatchObject({ stream: 'stdout', text: 'wrote page 1\n' });
    expect(collected[3]).toEqual({ type: 'capability.progress', invocation_id: 'inv7', progress: 2, total: 2, seq: 4, ts: 103 });
    expect(collected[4]).toMatchObject({ stream: 'log', text: 'done\n' });
    expect(collected[5]).toMatchObject({ result: textResult('Built 2 pages', { pages: 2 }) });
    expect(result).toEqual(textResult('Built 2 pages', { pages: 2 }));

    const state = foldAll(initialThreadState, collected);
    const row = state.rows[0] as InvocationRow;
    expect(row).toMatchObject({ title: 'Build report', state: 'done', output: 'wrote page 1\ndone\n' });
    expect(state.open).toEqual({});
    expect(state.lastCapability).toBe('report.build');
  });

  it('gives the handler its invocation id, thread id and a live signal', async () => {
    let seen: CapabilityContext | undefined;
    const ping = defineCapability({
      name: 'ping', title: 'Ping', description: 'Replies pong.', input: z.object({}),
      handler: (_args, ctx) => {
        seen = ctx;
        return textResult('pong');
      },
    });
    const log = createEventLog();
    await invoke('ping', {}, { registry: createRegistry([ping]), emit: log.emit, threadKey: 'thread-9', invocationId: 'inv3' });
    expect(seen?.invocationId).toBe('inv3');
    expect(seen?.threadKey).toBe('thread-9');
    expect(seen?.signal.aborted).toBe(false);
  });

  it('makes up a fresh inv_ id when none is given', async () => {
    const ping = defineCapability({ name: 'ping', title: 'Ping', description: 'Replies pong.', input: z.object({}), handler: () => textResult('pong') });
    const log = createEventLog();
    const registry = createRegistry([ping]);
    await invoke('ping', {}, { registry, emit: log.emit, threadKey: 't1' });
    await invoke('ping', {}, { registry, emit: log.emit, threadKey: 't1' });
    const ids = log.since().map((e) => ('invocation_id' in e ? e.invocation_id : ''));
    expect(ids[0]).toMatch(/^inv_[0-9a-z]+$/);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toMatch(/^inv_[0-9a-z]+$/);
    expect(ids[2]).not.toBe(ids[0]);
  });
});

describe('invoke: failures', () => {
  it('a handler that throws becomes handler_error naming the capability and the cause', async () => {
    const explode = defineCapability({
      name: 'explode', title: 'Explode', description: 'Always fails.', input: z.object({}),
      handler: () => {
        throw new Error('disk full');
      },
    });
    const log = createEventLog();
    const result = await invoke('explode', {}, { registry: createRegistry([explode]), emit: log.emit, threadKey: 't1', invocationId: 'inv1' });
    const events = log.since();
    expect(events.map((e) => e.type)).toEqual(['capability.started', 'capability.error']);
    expect(events[1]).toMatchObject({
      invocation_id: 'inv1',
      recoverable: true,
      error: { code: 'handler_error', message: 'Explode failed: disk full' },
    });
    expect(result).toEqual(errorResult('Explode failed: disk full'));
  });

  it('a handler that rejects with a non-Error still becomes handler_error', async () => {
    const explode = defineCapability({
      name: 'explode', title: 'Explode', description: 'Always fails.', input: z.object({}),
      handler: () => Promise.reject('nope'),
    });
    const log = createEventLog();
    await invoke('explode', {}, { registry: createRegistry([explode]), emit: log.emit, threadKey: 't1' });
    expect(log.since()[1]).toMatchObject({ error: { code: 'handler_error', message: 'Explode failed: nope' } });
  });

  it('an isError result becomes capability.error tool_error with the result attached', async () => {
    const charge = defineCapability({
      name: 'payments.charge', title: 'Charge', description: 'Charges a card.', kind: 'mutate', input: z.object({}),
      handler: () => errorResult('Card declined'),
    });
    const log = createEventLog();
    const result = await invoke('payments.charge', {}, { registry: createRegistry([charge]), emit: log.emit, threadKey: 't1' });
    const events = log.since();
    expect(events.map((e) => e.type)).toEqual(['capability.started', 'capability.error']);
    expect(events[1]).toMatchObject({
      title: 'Charge',
      recoverable: true,
      error: { code: 'tool_error', message: 'Card declined' },
      result: errorResult('Card declined'),
    });
    expect(result).toEqual(errorResult('Card declined'));

    const state = foldAll(initialThreadState, events);
    expect(state.rows[0]).toMatchObject({ state: 'failed', result: errorResult('Card declined') });
  });

  it('an isError result with no text says the capability reported an error', async () => {
    const charge = defineCapability({
      name: 'payments.charge', title: 'Charge', description: 'Charges a card.', kind: 'mutate', input: z.object({}),
      handler: () => ({ content: [], isError: true }),
    });
    const log = createEventLog();
    await invoke('payments.charge', {}, { registry: createRegistry([charge]), emit: log.emit, threadKey: 't1' });
    expect(log.since()[1]).toMatchObject({ error: { code: 'tool_error', message: 'Charge reported an error.' } });
  });

  it('a value that is not a CapabilityResult becomes invalid_result', async () => {
    const sloppy = defineCapability({
      name: 'sloppy', title: 'Sloppy', description: 'Returns a bare string.', input: z.object({}),
      handler: () => 'just a string' as never,
    });
    const log = createEventLog();
    const result = await invoke('sloppy', {}, { registry: createRegistry([sloppy]), emit: log.emit, threadKey: 't1' });
    const events = log.since();
    expect(events.map((e) => e.type)).toEqual(['capability.started', 'capability.error']);
    expect(events[1]).toMatchObject({ recoverable: false, error: { code: 'invalid_result' } });
    const error = events[1] as Extract<ThreadEvent, { type: 'capability.error' }>;
    expect(error.error.message).toContain('Sloppy returned something that is not a result');
    expect(result.isError).toBe(true);
  });

  it('takes a text result as the handler gave it, and puts any other shape through the schema (unknown keys dropped, a bad one refused)', async () => {
    const given = { content: [{ type: 'text' as const, text: 'ok' }], structuredContent: { n: 1 }, isError: false };
    const extra = { content: [{ type: 'text' as const, text: 'ok', extra: 1 }], display_hint: { summary: 'One' }, stray: true };
    const badFlag = { content: [{ type: 'text' as const, text: 'ok' }], isError: 'yes' };
    const results = [given, extra, badFlag];
    const cap = defineCapability({ name: 'r.give', title: 'Give', description: 'Gives a result.', input: z.object({ i: z.number() }), handler: ({ i }) => results[i] as never });
    const registry = createRegistry([cap]);
    const log = createEventLog();
    expect(await invoke('r.give', { i: 0 }, { registry, emit: log.emit, threadKey: 't1' })).toBe(given);
    expect(await invoke('r.give', { i: 1 }, { registry, emit: log.emit, threadKey: 't1' })).toEqual({ content: [{ type: 'text', text: 'ok' }], display_hint: { summary: 'One' } });
    const refused = await invoke('r.give', { i: 2 }, { registry, emit: log.emit, threadKey: 't1' });
    expect(refused.isError).toBe(true);
    expect(log.since().at(-1)).toMatchObject({ type: 'capability.error', error: { code: 'invalid_result' } });
  });

  it('runs with the arguments a door already checked, not parsing them again; pinned values still win', async () => {
    const input = z.object({ n: z.number() });
    const parse = vi.spyOn(input, 'safeParse');
    const seen: unknown[] = [];
    const cap = defineCapability({ name: 'r.pin', title: 'Pin', description: 'Pinned.', input, pinned: { region: 'eu' }, handler: (args) => (seen.push(args), textResult('ok')) });
    const registry = createRegistry([cap]);
    await invoke('r.pin', { n: 1 }, { registry, emit: createEventLog().emit, threadKey: 't1', checkedArgs: { data: { n: 1 } } });
    expect(parse).not.toHaveBeenCalled();
    expect(seen).toEqual([{ n: 1, region: 'eu' }]);
    const refused = await invoke('r.pin', { n: 1, region: 'us' }, { registry, emit: createEventLog().emit, threadKey: 't1', checkedArgs: { data: { n: 1 } } });
    expect(refused.isError).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it("hands the caller's signal to the handler: aborted with the caller's reason", async () => {
    const caller = new AbortController();
    let signal: AbortSignal | undefined;
    const cap = defineCapability({
      name: 'r.wait', title: 'Wait', description: 'Waits.', input: z.object({}),
      handler: (_args, ctx) => new Promise((resolve) => ((signal = ctx.signal), setTimeout(() => resolve(textResult('late')), 1_000))),
    });
    const log = createEventLog();
    const running = invoke('r.wait', {}, { registry: createRegistry([cap]), emit: log.emit, threadKey: 't1', signal: caller.signal });
    await new Promise((r) => setTimeout(r, 5));
    caller.abort(new Error('Stopped.'));
    const result = await running;
    expect(signal?.aborted).toBe(true);
    expect(result.isError).toBe(true);
    expect(log.since().at(-1)).toMatchObject({ type: 'capability.error', error: { code: 'cancelled' } });
  });

  it('a result with a malformed content block becomes invalid_result naming the field', async () => {
    const sloppy = defineCapability({
      name: 'sloppy', title: 'Sloppy', description: 'Returns a bad block.', input: z.object({}),
      handler: () => ({ content: [{ type: 'text' }] }) as never,
    });
    const log = createEventLog();
    await invoke('sloppy', {}, { registry: createRegistry([sloppy]), emit: log.emit, threadKey: 't1' });
    const error = log.since()[1] as Extract<ThreadEvent, { type: 'capability.error' }>;
    expect(error.error.code).toBe('invalid_result');
    expect(error.error.message).toContain('content.0.text');
  });

  it('structured content that does not match the output schema becomes invalid_result', async () => {
    const count = defineCapability({
      name: 'records.count', title: 'Count records', description: 'Counts records.', input: z.object({}),
      output: z.object({ count: z.number() }),
      handler: () => textResult('many', { count: 'many' }),
    });
    const log = createEventLog();
    const result = await invoke('records.count', {}, { registry: createRegistry([count]), emit: log.emit, threadKey: 't1' });
    const events = log.since();
    expect(events.map((e) => e.type)).toEqual(['capability.started', 'capability.error']);
    const error = events[1] as Extract<ThreadEvent, { type: 'capability.error' }>;
    expect(error.error.code).toBe('invalid_result');
    expect(error.error.message).toContain('does not match its output schema');
    expect(error.error.message).toContain('count');
    expect(result.isError).toBe(true);
  });

  it('structured content matching the output schema is done', async () => {
    const count = defineCapability({
      name: 'records.count', title: 'Count records', description: 'Counts records.', input: z.object({}),
      output: z.object({ count: z.number() }),
      handler: () => textResult('3', { count: 3 }),
    });
    const log = createEventLog();
    await invoke('records.count', {}, { registry: createRegistry([count]), emit: log.emit, threadKey: 't1' });
    expect(log.since().map((e) => e.type)).toEqual(['capability.started', 'capability.done']);
  });
});

describe('invoke: cancellation', () => {
  it('resolves promptly with a cancelled error while the handler hangs, and ignores its later progress', async () => {
    let ctx: CapabilityContext | undefined;
    let handlerSawAbort = false;
    const hang = defineCapability({
      name: 'hang', title: 'Hang', description: 'Never finishes.', input: z.object({}),
      handler: (_args, c) => {
        ctx = c;
        c.signal.addEventListener('abort', () => {
          handlerSawAbort = true;
        });
        return new Promise(() => {});
      },
    });
    const log = createEventLog();
    const controller = new AbortController();
    const pending = invoke('hang', {}, {
      registry: createRegistry([hang]), emit: log.emit, threadKey: 't1', signal: controller.signal, invocationId: 'inv1',
    });
    await Promise.resolve();
    ctx!.progress(1, 10, 'still going');
    expect(log.since().map((e) => e.type)).toEqual(['capability.started', 'capability.progress']);

    controller.abort();
    const result = await pending;

    expect(handlerSawAbort).toBe(true);
    expect(result.isError).toBe(true);
    const events = log.since();
    expect(events.map((e) => e.type)).toEqual(['capability.started', 'capability.progress', 'capability.error']);
    expect(events[2]).toMatchObject({
      invocation_id: 'inv1',
      recoverable: true,
      error: { code: 'cancelled', message: 'Hang was cancelled.' },
    });

    ctx!.progress(5, 10);
    ctx!.output('too late');
    expect(log.since()).toHaveLength(3);

    const state = foldAll(initialThreadState, log.since());
    expect(state.rows[0]).toMatchObject({ state: 'cancelled', error: { code: 'cancelled' } });
    expect(state.open).toEqual({});
  });

  it('a signal aborted before the call is cancelled at once', async () => {
    const slow = defineCapability({
      name: 'slow', title: 'Slow', description: 'Takes ages.', input: z.object({}),
      handler: vi.fn(() => new Promise<never>(() => {})),
    });
    const log = createEventLog();
    const controller = new AbortController();
    controller.abort();
    const result = await invoke('slow', {}, { registry: createRegistry([slow]), emit: log.emit, threadKey: 't1', signal: controller.signal });
    expect(result.isError).toBe(true);
    expect(log.since().at(-1)).toMatchObject({ type: 'capability.error', error: { code: 'cancelled' } });
    expect(log.since().map((e) => e.type)).toEqual(['capability.error']);
    expect(slow.source.handler).not.toHaveBeenCalled();
  });

  it('aborting after the capability finished changes nothing', async () => {
    const ping = defineCapability({ name: 'ping', title: 'Ping', description: 'Replies pong.', input: z.object({}), handler: () => textResult('pong') });
    const log = createEventLog();
    const controller = new AbortController();
    await invoke('ping', {}, { registry: createRegistry([ping]), emit: log.emit, threadKey: 't1', signal: controller.signal });
    controller.abort();
    await Promise.resolve();
    expect(log.since().map((e) => e.type)).toEqual(['capability.started', 'capability.done']);
  });
});

describe('invoke: pinned arguments', () => {
  const search = (handler = vi.fn((args: { query: string }) => textResult(JSON.stringify(args)))) =>
    defineCapability({
      name: 'docs.search', title: 'Search docs', description: 'Searches one tenant’s docs.',
      input: z.object({ query: z.string() }), pinned: { tenant: 'acme' }, handler,
    });

  it('merges the pinned values over the arguments the handler gets; the card shows what the caller gave', async () => {
    const handler = vi.fn((args: { query: string }) => textResult(JSON.stringify(args)));
    const log = createEventLog();
    const result = await invoke('docs.search', { query: 'sla' }, { registry: createRegistry([search(handler)]), emit: log.emit, threadKey: 't1' });
    expect(handler.mock.calls[0]![0]).toEqual({ query: 'sla', tenant: 'acme' });
    expect(result.content[0]).toMatchObject({ text: '{"query":"sla","tenant":"acme"}' });
    expect(log.since()[0]).toMatchObject({ type: 'capability.started', args: { query: 'sla' } });
  });

  it('refuses another value for a pinned argument, together with any schema problem, without calling the handler', async () => {
    const handler = vi.fn(() => textResult('found'));
    const log = createEventLog();
    await invoke('docs.search', { tenant: 'globex' }, { registry: createRegistry([search(handler)]), emit: log.emit, threadKey: 't1' });
    expect(handler).not.toHaveBeenCalled();
    const error = log.since()[0] as Extract<ThreadEvent, { type: 'capability.error' }>;
    expect(error.error).toEqual({
      code: 'invalid_arguments',
      message: 'Search docs was not run: Tenant is fixed by the host and cannot be changed; leave it out. Query is needed.',
      issues: [
        { path: 'tenant', message: 'is fixed by the host and cannot be changed; leave it out' },
        { path: 'query', message: 'Invalid input: expected string, received undefined' },
      ],
    });
  });

  it('refuses a definition that pins a field its input schema also offers', () => {
    expect(() =>
      defineCapability({
        name: 'docs.search', title: 'Search docs', description: 'Searches.', input: z.object({ query: z.string(), tenant: z.string() }),
        pinned: { tenant: 'acme' }, handler: () => textResult(''),
      }),
    ).toThrow('Capability "docs.search" pins "tenant" but its input schema also offers it: leave pinned arguments out of input.');
  });
});

describe('invoke: CapabilityFailure', () => {
  it('uses the failure’s own code and recoverability instead of handler_error', async () => {
    const fetcher = defineCapability({
      name: 'feed.fetch', title: 'Fetch feed', description: 'Fetches a feed.', input: z.object({}),
      handler: () => {
        throw new CapabilityFailure('unavailable', 'The feed server is down.', true);
      },
    });
    const log = createEventLog();
    const result = await invoke('feed.fetch', {}, { registry: createRegistry([fetcher]), emit: log.emit, threadKey: 't1' });
    expect(result).toEqual(errorResult('The feed server is down.'));
    expect(log.since().at(-1)).toMatchObject({ type: 'capability.error', recoverable: true, error: { code: 'unavailable', message: 'The feed server is down.' } });
  });
});
