import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { errorResult, textResult } from '../results';
import { CONTROL, type ModelMessage, type ModelRequest } from '../model';
import { createRegistry } from '../registry';
import { validateMessagesRequest } from '../node/fakeAnthropic';
import { createPromptCache, promptBlocks } from '../node/fakeAnthropicCache';
import { buildAnthropicRequest, countBreakpoints, DEFAULT_ANTHROPIC_MODEL, DRIVER_NOTES, estimateTokens, toolNameMap } from './request';

const capabilities = createRegistry([
  defineCapability({ name: 'records.list', title: 'List records', description: 'Lists records.', input: z.object({ limit: z.number().optional() }), handler: () => textResult('') }),
  defineCapability({ name: 'notes.add', title: 'Add note', description: 'Saves a note.', kind: 'mutate', input: z.object({ text: z.string() }), handler: () => textResult('') }),
]).describe();

const request = (messages: ModelMessage[], over: Partial<ModelRequest> = {}): ModelRequest => ({
  messages, capabilities, signal: new AbortController().signal, alignment: 'strict', route: { kind: 'one_shot', cues: [] }, ...over,
});

/** The JSON of everything before the last breakpoint, markers removed: what a cache read must match. */
function cachedPrefix(body: unknown): string[] {
  const { blocks, breakpoints } = promptBlocks(body);
  return blocks.slice(0, Math.max(...breakpoints) + 1);
}

describe('buildAnthropicRequest: the slab mapping', () => {
  it('puts the engine verbs, then the whitelist in registry order, as tools with API-safe names', () => {
    const { body, toolNames } = buildAnthropicRequest(request([{ role: 'user', text: 'hi' }]));
    expect(body.tools.map((t) => t.name)).toEqual(['propose_capability', 'ask_user', 'hand_off_standing_request', 'notes_add', 'records_list']);
    expect(toolNames.get('records_list')).toBe('records.list');
    expect(toolNames.get('ask_user')).toBe(CONTROL.ask);
    expect(body.tools[4]!.description).toBe('List records. Lists records. (Reads only.)');
    expect(body.tools.every((t) => !t.cache_control)).toBe(true);
  });

  it('system: the spine, then reminders (breakpoint 1), then active skills (breakpoint 2)', () => {
    const { body } = buildAnthropicRequest(
      request([{ role: 'user', text: 'hi' }], { reminders: 'Amounts are in EUR.', skills: [{ name: 'crawl', title: 'Crawl', body: 'Fetch politely.' }] }),
    );
    expect(body.system).toHaveLength(3);
    expect(body.system[0]!.text).toContain('Each turn has exactly one intent');
    expect(body.system[0]!.cache_control).toBeUndefined();
    expect(body.system[1]).toEqual({ type: 'text', text: '<org_reminders>\nAmounts are in EUR.\n</org_reminders>', cache_control: { type: 'ephemeral' } });
    expect(body.system[2]).toMatchObject({ text: '<active_skills>\n<skill_content name="crawl" title="Crawl">\nFetch politely.\n</skill_content>\n</active_skills>', cache_control: { type: 'ephemeral' } });
  });

  it('the current user message carries the uncached context before the words, and the thread before it ends on breakpoint 3', () => {
    const history: ModelMessage[] = [
      { role: 'user', text: 'first' },
      { role: 'assistant', text: 'one' },
      { role: 'user', text: 'second' },
    ];
    const { body } = buildAnthropicRequest(
      request(history, { suggestions: [{ capability: 'records.list', hint: 'See them' }], corpus: [{ text: 'Passage.' }] }),
    );
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[1]!.content).toEqual([{ type: 'text', text: 'one', cache_control: { type: 'ephemeral' } }]);
    const current = body.messages[2]!.content;
    expect(current).toHaveLength(2);
    expect(current[0]).toMatchObject({ type: 'text', text: expect.stringContaining('<suggested_next_verbs>\n- See them → records.list (List records)') });
    expect((current[0] as { text: string }).text).toContain('<retrieved_corpus>');
    expect(current[1]).toEqual({ type: 'text', text: 'second' });
    expect(countBreakpoints(body)).toBe(2);
  });

  it('tool calls and results: results follow their call, in order, with is_error; a direct run is a note', () => {
    const history: ModelMessage[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: '', calls: [{ id: 't1', capability: 'records.list', args: { limit: 2 } }, { id: 't2', capability: CONTROL.propose, args: { capability: 'notes.add', arguments: { text: 'x' } } }] },
      { role: 'tool', call_id: 't1', capability: 'records.list', title: 'List records', args: { limit: 2 }, result: textResult('2 records', { n: 2 }) },
      { role: 'tool', call_id: 't2', capability: 'notes.add', title: 'Add note', args: {}, result: errorResult('Denied.') },
      { role: 'tool', capability: 'records.list', title: 'List records', args: {}, result: textResult('3 records') },
    ];
    const { body } = buildAnthropicRequest(request(history));
    expect(body.messages[1]!.content).toEqual([
      { type: 'tool_use', id: 't1', name: 'records_list', input: { limit: 2 } },
      { type: 'tool_use', id: 't2', name: 'propose_capability', input: { arguments: { text: 'x' }, capability: 'notes.add' } },
    ]);
    expect(body.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: '2 records\nstructuredContent: {"n":2}' }] },
      { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'Denied.' }], is_error: true },
      { type: 'text', text: '[List records was run directly by the user with {}.]\n3 records', cache_control: { type: 'ephemeral' } },
    ]);
    expect(countBreakpoints(body)).toBe(2);
  });

  it('never sends more than 4 breakpoints: stable prefix, skills, thread and the turn\'s own loop', () => {
    const history: ModelMessage[] = [
      { role: 'user', text: 'earlier' },
      { role: 'assistant', text: 'reply' },
      { role: 'user', text: 'now' },
      { role: 'assistant', text: '', calls: [{ id: 't1', capability: 'records.list', args: {} }] },
      { role: 'tool', call_id: 't1', capability: 'records.list', title: 'List records', args: {}, result: textResult('ok') },
    ];
    const { body } = buildAnthropicRequest(request(history, { reminders: 'r', skills: [{ name: 's', title: 'S', body: 'b' }] }));
    expect(countBreakpoints(body)).toBe(4);
    expect(body.messages.at(-1)!.content.at(-1)).toMatchObject({ type: 'tool_result', cache_control: { type: 'ephemeral' } });
  });

  it('uses the composer\'s model, else the driver default, else a current id', () => {
    expect(buildAnthropicRequest(request([{ role: 'user', text: 'x' }])).body.model).toBe(DEFAULT_ANTHROPIC_MODEL);
    expect(buildAnthropicRequest(request([{ role: 'user', text: 'x' }]), { model: 'claude-haiku-5-5' }).body.model).toBe('claude-haiku-5-5');
    expect(buildAnthropicRequest(request([{ role: 'user', text: 'x' }], { model: 'claude-opus-4-8' }), { model: 'claude-haiku-5-5' }).body.model).toBe('claude-opus-4-8');
  });
});

describe('buildAnthropicRequest: a cached prefix that survives turns', () => {
  const turn1: ModelMessage[] = [{ role: 'user', text: 'list records' }];
  const turn2: ModelMessage[] = [...turn1, { role: 'assistant', text: 'You have 3.' }, { role: 'user', text: 'and notes?' }];
  const turn3: ModelMessage[] = [...turn2, { role: 'assistant', text: 'None.' }, { role: 'user', text: 'thanks' }];

  it('is byte-identical from turn to turn while the whitelist stays, whatever the uncached slabs do', () => {
    const a = buildAnthropicRequest(request(turn2, { suggestions: [{ capability: 'records.list', hint: 'Again' }], reminders: 'r' })).body;
    const b = buildAnthropicRequest(request(turn3, { corpus: [{ text: 'new passage' }], reminders: 'r', route: { kind: 'standing', cues: ['watch'] } })).body;
    const prefixA = cachedPrefix(a);
    expect(cachedPrefix(b).slice(0, prefixA.length)).toEqual(prefixA);
    const raw = (body: object) => JSON.stringify(body).split('"messages":')[0];
    expect(raw(b)).toBe(raw(a));
  });

  it('builds the same bytes for the same conversation, every time', () => {
    const one = JSON.stringify(buildAnthropicRequest(request(turn3)).body);
    const two = JSON.stringify(buildAnthropicRequest(request(turn3.map((m) => ({ ...m })))).body);
    expect(two).toBe(one);
  });

  it('changes the tools, and so the whole prefix, when the whitelist changes', () => {
    const cache = createPromptCache({ minTokens: 0 });
    const a = buildAnthropicRequest(request(turn2)).body;
    const same = buildAnthropicRequest(request(turn3)).body;
    const narrowed = buildAnthropicRequest(request(turn3, { capabilities: capabilities.slice(1) })).body;
    cache.account(a);
    expect(cache.account(same).cache_read_input_tokens).toBeGreaterThan(0);
    expect(narrowed.tools.map((t) => t.name)).not.toContain('notes_add');
    expect(cache.account(narrowed).cache_read_input_tokens).toBe(0);
  });
});

describe('buildAnthropicRequest: a thread that never breaks (every body checked by the contract fake\'s rules)', () => {
  const valid = (body: object) => expect(validateMessagesRequest(body)).toBeNull();
  const call = (id: string, args: unknown, capability = 'records.list') => ({ id, capability, args });
  const result = (id: string, text = 'ok') => ({ role: 'tool' as const, call_id: id, capability: 'records.list', title: 'List records', args: {}, result: textResult(text) });

  it('leaves whitespace-only text out, and gives a blank user message a placeholder', () => {
    const { body } = buildAnthropicRequest(request([
      { role: 'user', text: 'go' },
      { role: 'assistant', text: '\n\n', calls: [call('t1', {})] },
      result('t1'),
      { role: 'assistant', text: '  ' },
      { role: 'user', text: ' \n' },
      { role: 'assistant', text: 'Fine.' },
      { role: 'user', text: 'now' },
    ]));
    valid(body);
    expect(body.messages[1]!.content).toEqual([{ type: 'tool_use', id: 't1', name: 'records_list', input: {} }]);
    expect(JSON.stringify(body.messages)).toContain('(empty message)');
  });

  it('never sends a call whose input is not an object, nor its result', () => {
    const { body } = buildAnthropicRequest(request([
      { role: 'user', text: 'go' },
      { role: 'assistant', text: 'Saving.', calls: [call('cut', '{"text": "hal', 'notes.add'), call('ok', { limit: 1 }), call('arr', [1])] },
      result('cut', 'Add note was not run.'),
      result('ok'),
      result('arr'),
      { role: 'user', text: 'now' },
    ]));
    valid(body);
    const sent = JSON.stringify(body.messages);
    expect(sent).not.toContain('"cut"');
    expect(sent).not.toContain('"arr"');
    expect(body.messages[1]!.content.map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(body.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'ok' });
  });

  it('leaves a refused turn out: from its user message to the refused reply, with a note naming what ran', () => {
    const { body } = buildAnthropicRequest(request([
      { role: 'user', text: 'first' },
      { role: 'assistant', text: 'One.' },
      { role: 'user', text: 'the refused ask' },
      { role: 'assistant', text: '', calls: [call('t1', {})] },
      result('t1'),
      { role: 'assistant', text: `Partial words\n\n${DRIVER_NOTES.refusal} Because.` },
      { role: 'user', text: 'next' },
    ]));
    valid(body);
    const sent = JSON.stringify(body.messages);
    expect(sent).not.toContain('the refused ask');
    expect(sent).not.toContain('Partial words');
    expect(sent).not.toContain('"t1"');
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[2]!.content[0]).toEqual({ type: 'text', text: '[An earlier request in this conversation was declined and is left out. Capabilities that ran during it: List records.]', cache_control: { type: 'ephemeral' } });
  });

  it('sends a reply that started again without what came before the restart', () => {
    const { body } = buildAnthropicRequest(request([
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: `Half a sen\n\n${DRIVER_NOTES.restart}\n\nA whole sentence.` },
      { role: 'user', text: 'next' },
    ]));
    valid(body);
    expect(body.messages[1]!.content[0]).toMatchObject({ type: 'text', text: 'A whole sentence.' });
  });

  describe('a context budget', () => {
    const turns = (n: number): ModelMessage[] =>
      Array.from({ length: n }, (_, i): ModelMessage[] => [
        { role: 'user', text: `question ${i} ${'x'.repeat(400)}` },
        { role: 'assistant', text: '', calls: [call(`c${i}`, {})] },
        result(`c${i}`, 'y'.repeat(400)),
        { role: 'assistant', text: `answer ${i}` },
      ]).flat();

    it('fits: nothing is left out', () => {
      const history = [...turns(3), { role: 'user' as const, text: 'now' }];
      const full = buildAnthropicRequest(request(history));
      const fitted = buildAnthropicRequest(request(history), { contextTokens: estimateTokens(full.body) });
      expect(fitted.trimmedTurns).toBe(0);
      expect(JSON.stringify(fitted.body)).toBe(JSON.stringify(full.body));
    });

    it('too long: whole turns go, oldest first and in steps of 4, never the current turn, and a note says so', () => {
      const history = [...turns(10), { role: 'user' as const, text: 'now' }, { role: 'assistant' as const, text: '', calls: [call('live', {})] }, result('live')];
      const full = buildAnthropicRequest(request(history));
      const budget = estimateTokens(full.body) - 150;
      const { body, trimmedTurns } = buildAnthropicRequest(request(history), { contextTokens: budget });
      valid(body);
      expect(trimmedTurns).toBe(4);
      expect(estimateTokens(body)).toBeLessThanOrEqual(budget);
      expect(body.messages[0]!.content[0]).toEqual({ type: 'text', text: DRIVER_NOTES.trimmed });
      expect((body.messages[0]!.content[1] as { text: string }).text).toMatch(/^question 4 /);
      expect(body.messages.at(-2)!.content).toEqual([{ type: 'tool_use', id: 'live', name: 'records_list', input: {} }]);
      expect(countBreakpoints(body)).toBeLessThanOrEqual(4);

      // One more turn later the cut stays where it was, so the cached prefix does too.
      const later = [...turns(11), { role: 'user' as const, text: 'now' }];
      const next = buildAnthropicRequest(request(later), { contextTokens: budget });
      expect(next.trimmedTurns).toBe(4);
      expect(next.body.messages.slice(0, 5).map((m) => m.content.map(({ cache_control: _c, ...b }) => b))).toEqual(body.messages.slice(0, 5).map((m) => m.content.map(({ cache_control: _c, ...b }) => b)));
    });

    it('even the current turn alone is too long: every earlier turn goes and the request is sent as it is', () => {
      const history = [...turns(2), { role: 'user' as const, text: 'z'.repeat(10_000) }];
      const { body, trimmedTurns } = buildAnthropicRequest(request(history), { contextTokens: 100 });
      expect(trimmedTurns).toBe(2);
      valid(body);
    });
  });
});

describe('toolNameMap', () => {
  it('keeps names unique after replacing characters the API does not take', () => {
    expect([...toolNameMap(['a.b', 'a_b', 'ask_user'])]).toEqual([
      ['a_b', 'a.b'],
      ['a_b_2', 'a_b'],
      ['ask_user_2', 'ask_user'],
    ]);
  });
});

describe('buildAnthropicRequest: extended thinking', () => {
  const THINK = { type: 'thinking' as const, thinking: 'List them first.', signature: 'sig_a' };
  const HIDDEN = { type: 'redacted_thinking' as const, data: 'opaque' };
  const loop: ModelMessage[] = [
    { role: 'user', text: 'earlier' },
    { role: 'assistant', text: 'Earlier answer.', thinking: [{ ...THINK, thinking: 'Old.' }] },
    { role: 'user', text: 'how many records' },
    { role: 'assistant', text: 'Looking.', calls: [{ id: 'toolu_1', capability: 'records.list', args: {} }], thinking: [THINK, HIDDEN] },
    { role: 'tool', call_id: 'toolu_1', capability: 'records.list', title: 'List records', args: {}, result: textResult('3.') },
  ];

  it('with thinking on: the parameter, and every assistant message opens with its blocks, unmodified, before its text and calls', () => {
    const { body } = buildAnthropicRequest(request(loop), { maxTokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const assistants = body.messages.filter((m) => m.role === 'assistant');
    expect(assistants[0]!.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(assistants[1]!.content).toMatchObject([THINK, HIDDEN, { type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 'toolu_1' }]);
    // No breakpoint lands on a thinking block (the API takes none there).
    expect(body.messages.flatMap((m) => m.content).filter((b) => b.type === 'thinking' && b.cache_control)).toEqual([]);
    expect(countBreakpoints(body)).toBeLessThanOrEqual(4);
  });

  it('with thinking off (or disabled): no parameter and no thinking blocks', () => {
    for (const options of [{}, { thinking: { type: 'disabled' as const } }]) {
      const { body } = buildAnthropicRequest(request(loop), options);
      expect(body).not.toHaveProperty('thinking');
      expect(body.messages.flatMap((m) => m.content).some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')).toBe(false);
      expect(validateMessagesRequest(body)).toBeNull();
    }
  });
});
