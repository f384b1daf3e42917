import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from './fakeAnthropic';
import { createPromptCache } from './fakeAnthropicCache';

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const body = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-5-5',
  max_tokens: 100,
  system: [{ type: 'text', text: 'S'.repeat(4000), cache_control: { type: 'ephemeral' } }],
  messages,
  ...extra,
});

const HEADERS = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };

async function post(payload: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${fake!.url}/v1/messages`, {
    method: 'POST',
    headers: { ...HEADERS, 'x-api-key': fake!.apiKey, ...headers },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The SSE events of a response, parsed. */
function events(text: string): { event: string; data: any }[] {
  return [...text.matchAll(/^event: (\S+)\ndata: (.*)$/gm)].map((m) => ({ event: m[1]!, data: JSON.parse(m[2]!) }));
}

async function start(options: FakeAnthropicOptions = {}) {
  fake = await startFakeAnthropic(options);
  return fake;
}

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const toolUse = (id: string, input: unknown = {}) => ({ type: 'tool_use', id, name: 'lookup', input });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: 'ok' }] });

describe('the fake Messages API: requests and the stream', () => {
  it('accepts the key as x-api-key or as a Bearer token, and answers 401 with an Anthropic error body otherwise', async () => {
    await start({ apiKey: 'k1' });
    const payload = body([user('hi')]);
    expect((await post(payload, { 'x-api-key': 'k1' })).status).toBe(200);
    expect((await post(payload, { 'x-api-key': '', authorization: 'Bearer k1' })).status).toBe(200);
    const refused = await post(payload, { 'x-api-key': 'wrong' });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text)).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' }, request_id: expect.stringMatching(/^req_/) });
    expect(refused.headers.get('x-should-retry')).toBe('false');
    expect(fake!.requests.map((r) => r.authorized)).toEqual([true, true, false]);
    expect(fake!.requests[0]!.bytes).toBe(Buffer.byteLength(fake!.requests[0]!.raw));
  });

  it('streams the documented event sequence: message_start, ping, blocks with their deltas, message_delta, message_stop', async () => {
    await start({
      reply: () => ({
        content: [
          { type: 'thinking', thinking: 'Let me think.', signature: 'sig1' },
          { type: 'text', text: 'Hi there' },
          { type: 'tool_use', name: 'x', input: { a: 1 }, id: 'toolu_1' },
        ],
      }),
    });
    const res = await post(body([user('hi')], { stream: true, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } }));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const list = events(res.text);
    expect(list.map((e) => e.event)).toEqual([
      'message_start', 'ping',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'ping',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'ping',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'ping',
      'message_delta', 'message_stop',
    ]);
    expect(list.every((e) => e.data.type === e.event)).toBe(true);
    expect(list[2]!.data.content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });
    expect(list.slice(3, 7).map((e) => e.data.delta.type)).toEqual(['thinking_delta', 'thinking_delta', 'thinking_delta', 'signature_delta']);
    expect(list[6]!.data.delta.signature).toBe('sig1');
    expect(list[10]!.data.delta).toEqual({ type: 'text_delta', text: 'Hi ' });
    expect(list[14]!.data.content_block).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'x', input: {} });
    const json = list.slice(15, 18).map((e) => e.data.delta);
    expect(json[0]).toEqual({ type: 'input_json_delta', partial_json: '' });
    expect(json.map((d) => d.partial_json).join('')).toBe('{"a":1}');
    expect(list.at(-2)!.data.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null, stop_details: null });
  });

  it('reports usage in message_start and cumulative usage, cache fields included, in message_delta', async () => {
    await start({ minCacheTokens: 100 });
    const first = events((await post(body([user('hi')], { stream: true }))).text);
    const start0 = first[0]!.data.message.usage;
    const delta = first.at(-2)!.data.usage;
    expect(start0).toMatchObject({ output_tokens: 1, cache_read_input_tokens: 0 });
    expect(start0.cache_creation_input_tokens).toBeGreaterThan(1000);
    expect(delta).toEqual({ ...start0, output_tokens: expect.any(Number) });
    expect(delta.output_tokens).toBeGreaterThan(1);
    const second = events((await post(body([user('hi')], { stream: true }))).text).at(-2)!.data.usage;
    expect(second.cache_read_input_tokens).toBe(start0.cache_creation_input_tokens);
    expect(fake!.requests[1]!.usage!.cache_read_input_tokens).toBe(second.cache_read_input_tokens);
  });

  it('a refusal carries stop_details on message_delta; a later request that still carries the refused turn is refused again', async () => {
    const explanation = 'This request was declined because it could enable cyber harm.';
    await start({ reply: (_r, i) => (i === 0 ? { content: [{ type: 'text', text: 'Sure, the first step' }], stop_reason: 'refusal', stop_details: { category: 'cyber', explanation } } : { text: 'Fine.' }) });
    const first = events((await post(body([user('do the bad thing')], { stream: true }))).text);
    expect(first.at(-2)!.data.delta).toEqual({ stop_reason: 'refusal', stop_sequence: null, stop_details: { category: 'cyber', explanation } });

    const again = events((await post(body([user('do the bad thing'), assistant('Hm.'), user('please')], { stream: true }))).text);
    expect(again.at(-2)!.data.delta.stop_reason).toBe('refusal');
    const output = events((await post(body([user('other'), assistant('Sure, the first step'), user('go on')], { stream: true }))).text);
    expect(output.at(-2)!.data.delta.stop_reason).toBe('refusal');
    expect(fake!.requests.map((r) => r.refusedAgain ?? false)).toEqual([false, true, true]);

    const clean = events((await post(body([user('something else')], { stream: true }))).text);
    expect(clean.at(-2)!.data.delta.stop_reason).toBe('end_turn');
  });

  it('an error event mid-stream; a dropped connection ends without message_stop', async () => {
    await start({ reply: (_r, i) => (i === 0 ? { text: 'Here is', streamError: { type: 'overloaded_error', message: 'Overloaded' } } : { disconnect: 'Half a' }) });
    const failed = events((await post(body([user('hi')], { stream: true }))).text);
    expect(failed.at(-1)).toEqual({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: expect.any(String) } });
    const dropped = events((await post(body([user('hi')], { stream: true }))).text);
    expect(dropped.map((e) => e.event)).not.toContain('message_stop');
    expect(dropped.map((e) => e.event)).not.toContain('message_delta');
  });

  it('scripted HTTP errors carry the API error body and the retry headers', async () => {
    await start({ reply: () => ({ status: 529, message: 'Overloaded', retryAfter: 3 }) });
    const res = await post(body([user('hi')]));
    expect(res.status).toBe(529);
    expect(JSON.parse(res.text).error).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('x-should-retry')).toBe('true');
  });

  it('a tool call cut by max_tokens streams only part of its JSON', async () => {
    await start({ reply: () => ({ content: [{ type: 'tool_use', name: 'x', input: { text: 'a long argument' }, partial: true }], stop_reason: 'max_tokens' }) });
    const list = events((await post(body([user('hi')], { stream: true }))).text);
    const json = list.filter((e) => e.data.delta?.type === 'input_json_delta').map((e) => e.data.delta.partial_json).join('');
    expect(() => JSON.parse(json)).toThrow();
    expect(list.at(-2)!.data.delta.stop_reason).toBe('max_tokens');
  });
});

describe('the fake Messages API rejects what the API rejects (400 invalid_request_error, the API\'s words)', () => {
  const rejects = async (payload: unknown, message: string | RegExp, options: FakeAnthropicOptions = {}, status = 400) => {
    await start(options);
    const res = await post(payload);
    expect(res.status).toBe(status);
    const error = JSON.parse(res.text);
    expect(error.type).toBe('error');
    expect(error.error.type).toBe(status === 413 ? 'request_too_large' : 'invalid_request_error');
    if (typeof message === 'string') expect(error.error.message).toBe(message);
    else expect(error.error.message).toMatch(message);
    expect(fake!.requests[0]!.error).toEqual(error.error);
    expect(fake!.requests[0]!.usage).toBeUndefined();
  };

  it('the anthropic-version header is required', async () => {
    await start();
    const res = await fetch(`${fake!.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': fake!.apiKey }, body: JSON.stringify(body([user('hi')])) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('anthropic-version: header is required');
  });

  it('the body must be JSON', () => rejects('{not json', 'The request body is not valid JSON.'));

  it('a body over the size limit is a 413', () => rejects(body([user('x'.repeat(2000))]), 'Request exceeds the maximum allowed number of bytes.', { maxBytes: 1000 }, 413));

  it('model and max_tokens are required; max_tokens is a non-negative integer', async () => {
    await rejects({ max_tokens: 1, messages: [user('hi')] }, 'model: Field required');
    await fake!.close();
    await rejects({ model: 'm', messages: [user('hi')] }, 'max_tokens: Field required');
    await fake!.close();
    await rejects({ model: 'm', max_tokens: 1.5, messages: [user('hi')] }, 'max_tokens: Input should be a valid integer');
    await fake!.close();
    await rejects({ model: 'm', max_tokens: -1, messages: [user('hi')] }, 'max_tokens: Input should be greater than or equal to 0');
  });

  it('at least one message', () => rejects(body([]), 'messages: at least one message is required'));

  it('roles are user or assistant', () => rejects(body([{ role: 'tool', content: 'hi' }]), "messages.0.role: Input should be 'user' or 'assistant'"));

  it('every message but a final assistant one has content', () =>
    rejects(body([user([]), assistant('a'), user('b')]), 'messages.0: all messages must have non-empty content except for the optional final assistant message'));

  it('text blocks are non-empty', () => rejects(body([user([{ type: 'text', text: '' }])]), 'messages: text content blocks must be non-empty'));

  it('text blocks contain non-whitespace text (an assistant "\\n\\n" before a tool call is rejected)', () =>
    rejects(body([user('go'), assistant([{ type: 'text', text: '\n\n' }, toolUse('t1')]), user([toolResult('t1')])]), 'messages: text content blocks must contain non-whitespace text'));

  it('text inside a tool_result follows the same rule', () =>
    rejects(body([user('go'), assistant([toolUse('t1')]), user([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: ' ' }] }])]), 'messages: text content blocks must contain non-whitespace text'));

  it('tool_use input is an object (a cut call kept as a string is rejected)', () =>
    rejects(body([user('go'), assistant([toolUse('t1', '{"text": "hal')]), user([toolResult('t1')])]), 'messages.1.content.0.tool_use.input: Input should be a valid dictionary'));

  it('tool_use ids are unique', () =>
    rejects(body([user('go'), assistant([toolUse('t1'), toolUse('t1')]), user([toolResult('t1')])]), 'messages.1.content.1: `tool_use` ids must be unique'));

  it('blocks fit their role: no tool_result in an assistant message, no tool_use in a user message, no unknown types', async () => {
    await rejects(body([user('go'), assistant([toolResult('t1')]), user('x')]), /^messages\.1\.content\.0: Input tag 'tool_result' found using 'type' does not match any of the expected tags: /);
    await fake!.close();
    await rejects(body([user([toolUse('t1')])]), /^messages\.0\.content\.0: Input tag 'tool_use' found/);
    await fake!.close();
    await rejects(body([user([{ type: 'note', text: 'x' }])]), /^messages\.0\.content\.0: Input tag 'note' found/);
  });

  it('every tool_use has its tool_result in the next message', () =>
    rejects(
      body([user('go'), assistant([toolUse('t1'), toolUse('t2')]), user([toolResult('t1')])]),
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: t2. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    ));

  it('tool results open the next message', () =>
    rejects(
      body([user('go'), assistant([toolUse('t1')]), user([{ type: 'text', text: 'note' }, toolResult('t1')])]),
      'messages.2: Did not find 1 tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.',
    ));

  it('a tool_result answers a tool_use of the previous message', () =>
    rejects(
      body([user('go'), assistant('ok'), user([toolResult('t9')])]),
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: t9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    ));

  it('consecutive messages of one role are combined into one turn, as the API documents: accepted, and the turn rules apply to the combined turn', async () => {
    await start();
    expect((await post(body([user('one'), user('two'), assistant('a'), assistant('b'), user('three')]))).status).toBe(200);
    const split = await post(body([user('go'), assistant([toolUse('t1')]), user('first a note'), user([toolResult('t1')])]));
    expect(split.status).toBe(400);
    expect(JSON.parse(split.text).error.message).toMatch(/^messages\.2: Did not find 1 tool_result block\(s\) at the beginning of this message/);
  });

  it('no prefill: the conversation ends with a user message (unless the fake plays an older model)', async () => {
    await rejects(body([user('hi'), assistant('The answer is')]), 'This model does not support assistant message prefill. The conversation must end with a user message.');
    await fake!.close();
    await start({ prefill: true });
    expect((await post(body([user('hi'), assistant('The answer is')]))).status).toBe(200);
  });

  it('final assistant content does not end with whitespace', () =>
    rejects(body([user('hi'), assistant('The answer is ')]), 'messages: final assistant content cannot end with trailing whitespace', { prefill: true }));

  it('a paused turn is continued by sending its content back as it was, and only that', async () => {
    const paused = [{ type: 'text' as const, text: 'Searching. ' }, { type: 'server_tool_use' as const, id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } }];
    await start({ reply: (_r, i) => (i === 0 ? { content: paused, stop_reason: 'pause_turn' } : { text: 'Found it.' }) });
    const first = events((await post(body([user('search')], { stream: true }))).text);
    expect(first.at(-2)!.data.delta.stop_reason).toBe('pause_turn');
    const back = [{ type: 'text', text: 'Searching.' }, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } }];
    expect((await post(body([user('search'), assistant(back)]))).status).toBe(200);
    const forged = await post(body([user('search'), assistant([{ type: 'text', text: 'Something else' }])]));
    expect(JSON.parse(forged.text).error.message).toBe('This model does not support assistant message prefill. The conversation must end with a user message.');
  });

  it('at most 4 cache breakpoints', async () => {
    const marked = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    await rejects(body([user([marked, marked, marked, marked])]), 'A maximum of 4 blocks with cache_control may be provided. Found 5.');
  });

  it('the prompt fits the context window', () => rejects(body([user('hi')]), /^prompt is too long: \d+ tokens > 500 maximum$/, { contextWindow: 500 }));

  it('tool names match the API pattern, are unique, and take an object schema', async () => {
    const tool = (name: string, type = 'object') => ({ name, description: 'd', input_schema: { type } });
    await rejects(body([user('hi')], { tools: [tool('records.list')] }), "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'");
    await fake!.close();
    await rejects(body([user('hi')], { tools: [tool('a'), tool('a')] }), 'tools: Tool names must be unique.');
    await fake!.close();
    await rejects(body([user('hi')], { tools: [tool('a', 'string')] }), "tools.0.custom.input_schema.type: Input should be 'object'");
  });

  it('system text blocks are non-empty', () => rejects(body([user('hi')], { system: [{ type: 'text', text: '' }] }), 'system: text content blocks must be non-empty'));
});

describe('the fake Messages API: extended thinking', () => {
  const THINKING = { max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } };
  const bad = async (payload: unknown) => {
    const res = await post(payload);
    expect(res.status).toBe(400);
    const error = JSON.parse(res.text);
    expect(error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) }, request_id: expect.stringMatching(/^req_/) });
    return error.error.message as string;
  };
  /** One thinking reply: its final blocks, read from the stream (the signature from its delta). */
  const thinkingReply = async (extra: Record<string, unknown> = THINKING) => {
    const list = events((await post(body([user('go')], { stream: true, ...extra }))).text);
    const thinking = list.filter((e) => e.data.delta?.type === 'thinking_delta').map((e) => e.data.delta.thinking).join('');
    const signature = list.find((e) => e.data.delta?.type === 'signature_delta')?.data.delta.signature as string | undefined;
    const redacted = list.find((e) => e.data.content_block?.type === 'redacted_thinking')?.data.content_block;
    return { list, thinking, signature, redacted };
  };

  it('streams scripted thinking only when the request enables it, signed by the fake, and redacted thinking as an opaque block', async () => {
    await start({ reply: () => ({ content: [{ type: 'thinking', thinking: 'Let me think.' }, { type: 'redacted_thinking' }, { type: 'text', text: 'Hi.' }] }) });
    const on = await thinkingReply();
    expect(on.thinking).toBe('Let me think.');
    expect(on.signature).toMatch(/^fake_sig_/);
    expect(on.redacted).toEqual({ type: 'redacted_thinking', data: expect.stringMatching(/^fake_redacted_/) });
    const off = await thinkingReply({});
    expect(off.thinking).toBe('');
    expect(off.redacted).toBeUndefined();
    expect(off.list.filter((e) => e.event === 'content_block_start')).toHaveLength(1);
  });

  it('takes its own thinking back, unmodified, before the tool_use of the loop it continues', async () => {
    await start({ reply: () => ({ content: [{ type: 'thinking', thinking: 'Look it up.' }, { type: 'redacted_thinking' }, { type: 'tool_use', name: 'lookup', input: {}, id: 't1' }] }) });
    const first = await thinkingReply();
    const blocks = [{ type: 'thinking', thinking: first.thinking, signature: first.signature }, first.redacted, toolUse('t1')];
    const res = await post(body([user('go'), assistant(blocks), user([toolResult('t1')])], THINKING));
    expect(res.status).toBe(200);
  });

  it('rejects budget_tokens below 1024', async () => {
    await start();
    expect(await bad(body([user('hi')], { max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1023 } }))).toBe('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  });

  it('rejects budget_tokens at or above max_tokens', async () => {
    await start();
    expect(await bad(body([user('hi')], { max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 1024 } }))).toMatch(/^`max_tokens` must be greater than `thinking.budget_tokens`/);
  });

  it('rejects temperature (other than 1) and top_k with thinking', async () => {
    await start();
    expect(await bad(body([user('hi')], { ...THINKING, temperature: 0.2 }))).toMatch(/^`temperature` may only be set to 1 when thinking is enabled/);
    expect(await bad(body([user('hi')], { ...THINKING, top_k: 5 }))).toMatch(/^`top_k` may not be set when thinking is enabled/);
    expect((await post(body([user('hi')], { ...THINKING, temperature: 1 }))).status).toBe(200);
  });

  it('rejects a tool_choice that forces tool use with thinking', async () => {
    await start();
    expect(await bad(body([user('hi')], { ...THINKING, tool_choice: { type: 'any' } }))).toBe('Thinking may not be enabled when tool_choice forces tool use.');
  });

  it('rejects a thinking block whose text or signature changed, and redacted data it did not make', async () => {
    await start({ reply: () => ({ content: [{ type: 'thinking', thinking: 'Look it up.' }, { type: 'tool_use', name: 'lookup', input: {}, id: 't1' }] }) });
    const { thinking, signature } = await thinkingReply();
    const loop = (first: unknown) => body([user('go'), assistant([first, toolUse('t1')]), user([toolResult('t1')])], THINKING);
    expect(await bad(loop({ type: 'thinking', thinking: `${thinking} Or not.`, signature }))).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    expect(await bad(loop({ type: 'thinking', thinking, signature: 'sig_made_up' }))).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    expect(await bad(loop({ type: 'redacted_thinking', data: 'opaque' }))).toBe('messages.1.content.0: Invalid `data` in `redacted_thinking` block');
  });

  it('rejects a tool loop whose assistant message lacks its thinking block when thinking is on (and takes it with thinking off)', async () => {
    await start();
    const loop = body([user('go'), assistant([{ type: 'text', text: 'Looking.' }, toolUse('t1')]), user([toolResult('t1')])]);
    expect(await bad({ ...loop, ...THINKING })).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`\. When `thinking` is enabled, a final `assistant` message must start with a thinking block/);
    expect((await post(loop)).status).toBe(200);
  });
});

describe("Anthropic's prefix-cache rule", () => {
  const userMsg = (text: string, marked = false) => ({ role: 'user', content: [{ type: 'text', text, ...(marked ? { cache_control: { type: 'ephemeral' } } : {}) }] });
  const assistantMsg = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });

  it('writes the prefix up to the last breakpoint, then reads it when a later request starts the same', () => {
    const cache = createPromptCache({ minTokens: 100 });
    const first = cache.account(body([userMsg('one', true), userMsg('tail')]));
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1000);
    expect(first.input_tokens).toBeLessThan(20);

    const second = cache.account(body([userMsg('one'), assistantMsg('two'), userMsg('three', true), userMsg('tail')]));
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(second.input_tokens + second.cache_creation_input_tokens + second.cache_read_input_tokens).toBe(second.total_tokens);
  });

  it('misses from the first changed byte on, ignoring where the markers sit', () => {
    const cache = createPromptCache({ minTokens: 100 });
    cache.account(body([userMsg('one', true)]));
    const changed = cache.account({ ...body([userMsg('one', true)]), system: [{ type: 'text', text: `${'S'.repeat(3999)}T`, cache_control: { type: 'ephemeral' } }] });
    expect(changed.cache_read_input_tokens).toBe(0);
    const moved = cache.account(body([userMsg('one'), assistantMsg('two'), userMsg('x', true)]));
    expect(moved.cache_read_input_tokens).toBeGreaterThan(1000);
  });

  it('writes nothing below the minimum size, and looks back at most 20 blocks', () => {
    const small = createPromptCache({ minTokens: 5000 });
    small.account(body([userMsg('one', true)]));
    expect(small.size).toBe(0);

    const cache = createPromptCache({ minTokens: 100 });
    cache.account(body([userMsg('start', true)]));
    const many = Array.from({ length: 21 }, (_, i) => (i % 2 ? assistantMsg(`a${i}`) : userMsg(`u${i}`)));
    const far = cache.account(body([userMsg('start'), ...many, userMsg('end', true)]));
    const near = cache.account(body([userMsg('start'), ...many.slice(0, 5), userMsg('end', true)]));
    const systemOnly = cache.account(body([userMsg('other', true)])).cache_read_input_tokens;
    expect(systemOnly).toBeGreaterThan(1000);
    expect(far.cache_read_input_tokens).toBe(systemOnly);
    expect(near.cache_read_input_tokens).toBeGreaterThan(systemOnly);
  });
});
